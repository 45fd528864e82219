"""Pages: home, game, archive, rules in English and French, the language switch, errors."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import new_game, token_of


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
    token = token_of(response.headers["location"])
    assert client.get(f"/api/play/{token}").json()["mode"] == "local"


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
