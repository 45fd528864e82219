"""Rules pages: the backgammon diagrams and the rules index, in English and French."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

import ludotheque
from ludotheque.server.web import diagrams
from ludotheque.solve import probe

GAMES = ("general", "backgammon", "defiance")


def _diagrams(html: str) -> list[str]:
    """The opening tags of the page's diagrams (svg with role img and a non-empty label)."""
    return re.findall(r'<svg[^>]*role="img"[^>]*aria-label="[^"]+"[^>]*>', html)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_backgammon_rules_have_labelled_diagrams(client: TestClient, lang: str) -> None:
    html = client.get("/rules/backgammon", headers={"accept-language": lang}).text
    found = [tag for tag in _diagrams(html) if "bg-diagram" in tag]
    assert len(found) >= 3
    assert html.count("<figcaption>") >= len(found)
    assert html.count("<title>") >= len(found) + 1  # the page's title and one per diagram
    assert " style=" not in html  # the Content-Security-Policy forbids inline styles


@pytest.mark.parametrize(("lang", "word"), [("en", "Rules"), ("fr", "Règles")])
def test_rules_index_links_the_three_games(client: TestClient, lang: str, word: str) -> None:
    response = client.get("/rules", headers={"accept-language": lang})
    assert response.status_code == 200 and f"<h1>{word}</h1>" in response.text
    for game in GAMES:
        assert f'<a href="/rules/{game}">' in response.text
        assert client.get(f"/rules/{game}", headers={"accept-language": lang}).status_code == 200


def test_the_nav_rules_link_opens_the_index(client: TestClient) -> None:
    html = client.get("/").text
    nav = html[html.index("<nav") : html.index("</nav>")]
    assert '<a href="/rules">' in nav and "/rules/general" not in nav


def test_a_backgammon_diagram_draws_the_engine_position() -> None:
    start = diagrams.backgammon(
        "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -", direction=True, label="start"
    )
    assert start.count('class="checker white"') == 15 == start.count('class="checker black"')
    assert 'class="bg-direction"' in start and start.count('class="bg-num"') == 24
    hit = diagrams.backgammon(
        "W[24x2,13x4,8x2,6x4,5x2,11] B[24x2,13x4,18,9,6x5,8x2] w 62", play="13/7* 13/11"
    )
    assert hit.count('class="bg-move"') == 2 and hit.count('class="bg-hit"') == 1
    off = diagrams.backgammon("W[6x2,5x3,4x3,3x2,2x3] B[13x5,8x5,7x3,6x2] w 64", "6/off 4/off")
    assert off.count('class="off white"') == 4  # two were off already


@pytest.mark.parametrize(
    ("lang", "heading", "fact"),
    [
        ("en", "Who wins?", "rebels always win"),
        ("fr", "Qui gagne ?", "les rebelles gagnent toujours"),
    ],
)
def test_the_general_rules_say_who_wins(
    client: TestClient, lang: str, heading: str, fact: str
) -> None:
    """The solved value (ludotheque.solve's summary) is on the rules page."""
    start = probe(ludotheque.load("general").start())
    assert start is not None and start.winner == "rebels"
    html = client.get("/rules/general", headers={"accept-language": lang}).text
    assert f"<h2>{heading}</h2>" in html and fact in html


@pytest.mark.parametrize(
    ("lang", "plies", "count"),
    [("en", "37 plies", "1,000,821"), ("fr", "37 demi-coups", "1\u202f000\u202f821")],
)
def test_the_general_rules_show_the_proof(
    client: TestClient, lang: str, plies: str, count: str
) -> None:
    # the start's value and distance, the 24 openings, a best-play game to replay on the
    # analysis board, the strategy's size and the command that checks it (its header's figures)
    html = client.get("/rules/general", headers={"accept-language": lang}).text
    proof = html[html.index('<section id="proof"') : html.index("</section>")]
    assert plies in proof
    table = proof[proof.index('<table class="openings">') : proof.index("</table>")]
    assert table.count("<tr><td><code>") == 24
    line = proof[proof.index('<ol class="best-line">') : proof.index("</ol>")]
    assert line.count("<li>") == 19 and line.count('<a href="/analysis?game=general') == 37
    assert count in proof and "ludotheque solve general --check" in proof
