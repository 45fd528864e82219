"""A French page gets French refusals: the API, the WebSocket and the error pages answer in
the language of the page (its cookie, else the browser's Accept-Language)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import new_game, token_of

FR = {"accept-language": "fr-FR,fr;q=0.9"}


def test_refusals_follow_the_language(client: TestClient) -> None:
    token = token_of(new_game(client)["seats"]["both"])
    english = client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": 5})
    assert "quotes ply 5, but the game is at ply 0" in english.json()["detail"]
    french = client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": 5}, headers=FR)
    assert french.status_code == 409 and "en est au demi-coup 0" in french.json()["detail"]
    client.cookies.set("lang", "fr")
    assert "n’ouvre aucune partie" in client.get("/api/play/nope").json()["detail"]
    assert "ouvre aucune partie" in client.get("/play/nope").text
    illegal = client.post(f"/api/play/{token}/move", json={"move": "c3-c5", "ply": 0})
    assert illegal.json()["detail"] == "le général est en c3, et c’est aux rebelles de jouer"
    created = client.post("/api/games", json={"game": "general", "position": "zz"})
    assert created.json()["detail"].startswith("position invalide")
    client.cookies.set("lang", "en")
    assert "does not open any game" in client.get("/play/nope").text


def test_socket_refusals_follow_the_language(client: TestClient) -> None:
    token = token_of(new_game(client)["seats"]["both"])
    client.cookies.set("lang", "fr")
    with client.websocket_connect(f"/ws/{token}") as ws:
        while ws.receive_json()["type"] != "state":
            pass
        ws.send_json({"type": "move", "move": "a2-b2", "ply": 7})
        message = ws.receive_json()
        assert message["type"] == "error" and "en est au demi-coup 0" in message["message"]
        ws.send_text("{nope")
        assert "mal formé" in ws.receive_json()["message"]


def test_every_side_to_move_reads_well_in_french() -> None:
    from tests.server.words import TEXTS

    fr = TEXTS["fr"]
    assert fr["play.to_move@general"] == "Au Général de jouer"
    assert fr["play.to_move@imperium"] == "À l’Imperium de jouer"
    assert fr["play.to_move@rebels"] == "Aux Rebelles de jouer"
    assert fr["play.to_move@black"] == "Aux Noirs de jouer"


def test_french_names_the_imperium_one_way() -> None:
    """The rules' name, "the Imperium" (there is no French rulebook of Defiance): « l’Imperium »
    on the status line, in the archive, the reserve line, the analysis, the refusals and the
    rules page alike, never « l’Empire »."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    from ludotheque.server.i18n.catalog import po_path
    from tests.server.words import TEXTS

    with po_path("fr").open("rb") as po:
        catalogue = [str(m.string) for m in read_po(po, locale="fr") if m.id]

    assert TEXTS["fr"]["side.imperium"] == "Imperium"
    rules = Path(__file__).parents[2] / "ludotheque/server/web/templates/rules/defiance.fr.html"
    french = [
        *(str(text) for text in TEXTS["fr"].values()), *catalogue,
        rules.read_text(encoding="utf-8"),
    ]  # fmt: skip
    assert not [text for text in french if "empire" in text.lower()]
    assert "l’<strong>Imperium</strong>" in french[-1]


def test_french_labels_take_a_narrow_space_before_the_colon() -> None:
    from tests.server.words import TEXTS, word

    assert TEXTS["fr"]["punct.colon"] == "\u202f: " and TEXTS["en"]["punct.colon"] == ": "
    assert word("fr", "play.captured").format(n=3) == "Rebelles pris\u202f: 3"
    assert word("fr", "play.flight").startswith("Envol\u202f: ")


def test_both_languages_have_every_word_with_the_same_blanks() -> None:
    """Every word of the pages exists in English and French, not empty, with the same ``{name}``
    blanks (a missing blank drops a number; an extra one prints ``{name}``), and every word the
    scripts ask for by a literal key exists: ``t()`` would otherwise show the key itself."""
    import re
    import string
    from pathlib import Path

    from ludotheque.server.i18n.languages import LANGUAGES
    from tests.server.words import TEXTS

    def blanks(text: str | list[str]) -> list[str]:
        last = text[-1] if isinstance(text, list) else text  # a counted word: its plural
        return sorted(name for _, name, _, _ in string.Formatter().parse(last) if name)

    en = TEXTS["en"]
    assert set(LANGUAGES) == set(TEXTS)
    for lang in LANGUAGES:
        assert set(TEXTS[lang]) == set(en), lang
        assert not [key for key, text in TEXTS[lang].items() if not str(text).strip()], lang
    assert not [key for key in en if blanks(en[key]) != blanks(TEXTS["fr"][key])]
    static = Path(__file__).parents[2] / "ludotheque/server/web/static"
    asked = {
        key
        for script in static.rglob("*.js")
        for key in re.findall(r"\bt\(\"([a-z0-9_.]+)\"", script.read_text(encoding="utf-8"))
        if not key.endswith(".")  # a prefix joined to a name: t("side." + side)
    }
    assert len(asked) > 100  # the pattern still finds the scripts' words
    sided = {key.partition("@")[0] for key in en if "@" in key}  # a form for each side
    assert sorted(asked - set(en) - sided) == []
