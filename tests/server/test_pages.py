"""Pages: home, game, archive, rules in English and French, the language switch, errors."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from fastapi.testclient import TestClient

from ludotheque.ai.levels import LEVELS
from ludotheque.server.i18n.languages import LANGUAGES
from tests.server.conftest import new_game, token_of
from tests.server.words import TEXTS


def test_home_lists_the_games_the_app_can_show(client: TestClient) -> None:
    html = client.get("/").text
    assert "Le Général et les rebelles" in html and 'value="general"' in html
    assert 'name="mode" value="computer"' in html and 'name="position"' in html


def test_language_from_the_browser_and_the_switch(client: TestClient) -> None:
    french = client.get("/", headers={"accept-language": "fr-FR,fr;q=0.9"}).text
    assert "Commencer la partie" in french and 'lang="fr"' in french
    english = client.get("/", headers={"accept-language": "de-DE,en;q=0.5"}).text
    assert "Start the game" in english
    response = client.get("/lang/fr?next=/archive", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/archive"
    assert "lang=fr" in response.headers["set-cookie"]
    client.cookies.set("lang", "fr")
    assert "Parties terminées" in client.get("/archive").text
    assert (
        client.get("/lang/fr?next=//evil.example", follow_redirects=False).headers["location"]
        == "/"
    )


def test_rules_pages(client: TestClient) -> None:
    english = client.get("/rules/general", headers={"accept-language": "en"}).text
    assert "The flight" in english and "Culin" in english and "<svg" in english
    french = client.get("/rules/general", headers={"accept-language": "fr"}).text
    assert "L’envol" in french and "Murray" in french
    assert client.get("/rules/chess").status_code == 404


def test_game_pages(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    page = client.get(created["seats"]["rebels"]).text
    assert 'id="move-input"' in page and 'data-game="general"' in page
    watch = client.get(created["watch"]).text
    assert 'data-mode="watch"' in watch
    assert (
        client.get(
            created["watch"].replace("/watch/", "/play/"), follow_redirects=False
        ).status_code
        == 303
    )
    assert client.get("/watch/nope").status_code == 404
    assert client.get(f"/archive/{created['id']}").status_code == 404  # not finished


def test_form_creates_games(client: TestClient) -> None:
    response = client.post(
        "/new", data={"game": "general", "mode": "local"}, follow_redirects=False
    )
    assert response.status_code == 303 and response.headers["location"].startswith("/play/")
    links = client.post("/new", data={"game": "general", "mode": "friend"}).text
    assert links.count("/play/") >= 2 and "/watch/" in links
    bad = client.post("/new", data={"game": "general", "mode": "local", "position": "zz"})
    assert bad.status_code == 422 and "invalid position" in bad.text
    # the home page's script asks for the refusal alone, in the reader's language
    said = client.post("/new", data={"game": "general", "position": "zz"},
                       headers={"accept": "application/json", "accept-language": "fr"})  # fmt: skip
    assert said.status_code == 422 and said.json()["code"] == "invalid-position"
    assert said.json()["detail"].startswith("position invalide")
    token = token_of(response.headers["location"])
    assert client.get(f"/api/play/{token}").json()["mode"] == "local"


def test_the_links_page_is_reloaded_without_making_a_new_game(client: TestClient) -> None:
    """The new game's form leads to a page of its own (Post/Redirect/Get): reloading it shows
    the same links and makes no game; the page shows links only for the tokens of one game's
    every seat, so an address put together from other tokens shows nothing."""
    made = client.post("/new", data={"game": "backgammon", "mode": "friend"},
                       follow_redirects=False)  # fmt: skip
    assert made.status_code == 303 and made.headers["location"].startswith("/links?")
    address = made.headers["location"]
    first, again = client.get(address), client.get(address)
    assert first.status_code == again.status_code == 200
    seats = re.findall(r'href="/play/([^"]+)" data-seat-link="(\w+)"', first.text)
    assert sorted(side for _, side in seats) == ["black", "white"]
    assert re.findall(r'href="/play/([^"]+)"', again.text) == [t for t, _ in seats]
    game_ids = {client.get(f"/api/play/{t}").json()["id"] for t, _ in seats}
    assert len(game_ids) == 1
    watch = re.search(r'href="/watch/([^"]+)"', first.text).group(1)  # type: ignore[union-attr]
    tokens = dict((side, t) for t, side in seats)
    other = client.post("/new", data={"game": "backgammon", "mode": "friend"},
                        follow_redirects=False).headers["location"]  # fmt: skip
    other_white = re.search(r"white=([^&]+)", other).group(1)  # type: ignore[union-attr]
    for query in (
        {"white": tokens["white"], "watch": watch},  # a seat missing
        {"white": other_white, "black": tokens["black"], "watch": watch},  # two games
        {"white": tokens["black"], "black": tokens["white"], "watch": watch},  # sides swapped
        {"white": tokens["white"], "black": tokens["black"], "watch": tokens["white"]},
        {"white": tokens["white"], "black": tokens["black"]},  # no watch link
        {"white": tokens["white"], "black": tokens["black"], "watch": watch, "x": "y"},
    ):
        refused = client.get("/links", params=query, headers={"accept-language": "fr"})
        assert refused.status_code == 404 and "/play/" not in refused.text, query
        assert "ce lien n" in refused.text


def test_rules_of_backgammon_and_defiance(client: TestClient) -> None:
    bg_en = client.get("/rules/backgammon", headers={"accept-language": "en"}).text
    assert "at most five of your own checkers on a point" in bg_en
    assert "the lower die starts" in bg_en and "no doubling cube" in bg_en
    bg_fr = client.get("/rules/backgammon", headers={"accept-language": "fr"}).text
    assert "au plus cinq de vos pions" in bg_fr and "pas de videau" in bg_fr
    dd_en = client.get("/rules/defiance", headers={"accept-language": "en"}).text
    assert "Arin Sandhop" in dd_en and dd_en.count("<svg") >= 5
    for words in ("Walls", "An orthogonal capture", "A diagonal capture", "A dead zone"):
        assert words in dd_en
    dd_fr = client.get("/rules/defiance", headers={"accept-language": "fr"}).text
    assert "zone morte" in dd_fr and "Arin Sandhop" in dd_fr
    dice = client.get("/dice").text
    assert "SHA-256" in dice and "2<sup>64</sup>" in dice


def test_home_offers_every_game_with_its_rulesets(client: TestClient) -> None:
    html = client.get("/").text
    for value in ('value="backgammon"', 'value="defiance"', 'value="seed"', 'value="standard"',
                  'value="10x10"', 'value="8x8"', 'value="imperium"', 'value="black"'):  # fmt: skip
        assert value in html


def _finished(client: TestClient, **spec: Any) -> str:
    """A game of ``spec`` that the first seat resigns at once; its id."""
    created = new_game(client, **spec)
    token = token_of(next(iter(created["seats"].values())))
    state = client.post(f"/api/play/{token}/resign").json()
    assert state["outcome"]["reason"] == "resignation", state
    return str(created["id"])


def _table(html: str) -> str:
    match = re.search(r'<table id="archive">.*?</table>', html, re.S)
    assert match, "no archive table"
    return match.group(0)


def _row(html: str, game_id: str) -> str:
    match = re.search(rf'<tr data-game-id="{re.escape(game_id)}">(.*?)</tr>', html, re.S)
    assert match, f"no archive row for {game_id}"
    text = unescape(re.sub(r"<[^>]+>", " ", match.group(1)))
    return re.sub(r"[ \t\n]+", " ", text).strip()  # not str.split: it eats the U+202F


def test_archive_names_players_rulesets_and_results_in_the_page_language(
    client: TestClient,
) -> None:
    computer = _finished(client, game="backgammon", ruleset="standard", mode="computer",
                         level="medium", side="white")  # fmt: skip
    seed = _finished(client, game="backgammon", ruleset="seed", mode="friend")
    small = _finished(client, game="defiance", ruleset="8x8", mode="local")
    general = _finished(client, game="general", mode="computer", level="hard", side="general")
    english = client.get("/archive", headers={"accept-language": "en"}).text
    row = _row(english, computer)
    assert row.startswith("Backgammon — Standard rules ")
    assert "White: Player · Black: Computer (medium)" in row
    assert "Black won — resignation" in row  # the sides' names: an archive has no "you"
    assert _row(english, seed).startswith("Backgammon — The library’s rules ")
    assert "White: Player · Black: Player" in _row(english, seed)
    assert _row(english, small).startswith("Defiance and Domain — 8×8 ")
    assert "Rebels: Computer (hard) · General: Player" in _row(english, general)
    assert "The Rebels won — resignation" in _row(english, general)
    for raw in ("human", "(seed)", "(standard)", "(8x8)", "Medium", "reason."):
        assert raw not in _table(english), raw
    # every column has a header a screen reader can announce
    headers = re.findall(r"<th\b[^>]*>(.*?)</th>", english, re.S)
    assert len(headers) == 5 and all(re.sub(r"<[^>]+>", "", h).strip() for h in headers)

    french = client.get("/archive", headers={"accept-language": "fr"}).text
    row = _row(french, computer)
    assert row.startswith("Backgammon — Règles standard ")
    assert "Blancs\u202f: Joueur · Noirs\u202f: Ordinateur (moyen)" in row
    assert "Les Noirs ont gagné — abandon" in row
    assert _row(french, seed).startswith("Backgammon — Règles de la ludothèque ")
    assert "Rebelles\u202f: Ordinateur (difficile) · Général\u202f: Joueur" in _row(french, general)
    for raw in ("humain", "(seed)", "(standard)", "Computer", "Won by", "resignation"):
        assert raw not in _table(french), raw


def test_home_and_archive_name_rulesets_alike(client: TestClient) -> None:
    english = client.get("/", headers={"accept-language": "en"}).text
    assert re.search(r'value="seed"[^>]*>\s*The library’s rules</label>', english)
    assert re.search(r'value="standard"[^>]*>\s*Standard rules</label>', english)
    assert re.search(r'value="8x8"[^>]*>\s*8×8</label>', english)
    french = client.get("/", headers={"accept-language": "fr"}).text
    assert re.search(r'value="seed"[^>]*>\s*Règles de la ludothèque</label>', french)


def test_every_way_a_game_ends_has_words_in_both_languages() -> None:
    from ludotheque import record
    from ludotheque.games.backgammon import rules as backgammon
    from ludotheque.games.defiance import rules as defiance
    from ludotheque.games.general import rules as general

    reasons = {record.REPETITION, record.TURN_LIMIT, record.RESIGNATION, record.ABANDONED,
               record.ABORTED, record.AGREEMENT,
               backgammon.BORNE_OFF, defiance.COMMAND_CAPTURED, defiance.FOUR_SECTORS,
               defiance.NO_MOVE, general.TWELVE_CAPTURED, general.SHUT_IN,
               general.IMMOBILISED, general.NO_MOVE}  # fmt: skip
    for lang in LANGUAGES:
        for reason in reasons:
            assert f"reason.{reason}" in TEXTS[lang], (lang, reason)
        for level in LEVELS:
            assert f"player.computer.{level}" in TEXTS[lang], (lang, level)


def test_every_friend_link_box_has_a_label(client: TestClient) -> None:
    for lang in LANGUAGES:
        html = client.post(
            "/new", data={"game": "general", "mode": "friend"}, headers={"accept-language": lang}
        ).text
        inputs = re.findall(r"<input\b[^>]*>", html)
        assert len(inputs) == 3
        labels = dict(re.findall(r'<label for="([^"]+)">([^<]+)</label>', html))
        for tag in inputs:
            ident = re.search(r'\bid="([^"]+)"', tag)
            assert ident and labels.get(ident.group(1), "").strip(), (lang, tag)
        assert len(set(labels.values())) == 3  # each box says which link it holds
