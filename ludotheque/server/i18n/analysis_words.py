"""The words of the analysis (the panel of a finished game, the hints, the analysis board), in
English and French.

One dictionary for both halves: the analysis board's page is rendered with it, and the browser
gets it as a module (``/analysis/words.js``), so that no word is written twice.
"""

from __future__ import annotations

import json

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "analysis.title": "Analysis",
        "analysis.analyse": "Analyse",
        "analysis.analyse_game": "Analyse this game",
        "analysis.strength": "Depth",
        "analysis.strength.quick": "quick",
        "analysis.strength.normal": "normal",
        "analysis.strength.deep": "deep",
        "analysis.queued": "Waiting for the engine…",
        "analysis.running": "Analysing: {done} of {total} plies",
        "analysis.failed": "The analysis failed: {error}",
        "analysis.error": "The analysis could not be asked for: {error}",
        "analysis.done": "Analysis ({strength})",
        "analysis.intro": (
            "The engine judges every move: ?! an inaccuracy, ? a mistake, ?? a blunder, with the "
            "better move beside each."
        ),
        "analysis.intro_bg": (
            "The engine judges every play by the equity it gives up: ?! doubtful, ? bad, ?? very "
            "bad, with the better play beside each."
        ),
        "analysis.chart": "Winning chances across the game",
        "analysis.chart_note": "Click the chart to go to a move.",
        "analysis.chart_label": (
            "Winning chances across the game: {first} from {start} to {end}; {errors} errors marked"
        ),
        "analysis.errors": "Errors",
        "analysis.no_errors": "No error found at this depth.",
        "analysis.summary": "Summary",
        "analysis.side": "Side",
        "analysis.moves": "Moves",
        "analysis.average_loss": "Average loss",
        "analysis.error_rate": "Error rate",
        "analysis.luck": "Luck",
        "analysis.luck_note": (
            "Error rate: thousandths of equity lost per unforced play. Luck: equity the dice "
            "gave, against the average roll."
        ),
        "analysis.loss_note": "Average loss: winning chance given up per unforced move.",
        "analysis.better": "better {move}",
        "analysis.played": "{side} played {move}",
        "analysis.best_was": "best: {moves}",
        "analysis.loss": "{loss} lost",
        "analysis.forced": "the only legal move",
        "analysis.roll": "{side} rolled {roll}: luck {luck}",
        "analysis.good": "no error",
        "analysis.value": "{value} for {side}",
        "analysis.open_board": "Analysis board",
        "analysis.start": "start",
        "analysis.move_n": "Move {n}",
        "label.inaccuracy": "inaccuracy",
        "label.mistake": "mistake",
        "label.blunder": "blunder",
        "label.doubtful": "doubtful",
        "label.bad": "bad",
        "label.very-bad": "very bad",
        "labels.inaccuracy": "Inaccuracies ?!",
        "labels.mistake": "Mistakes ?",
        "labels.blunder": "Blunders ??",
        "labels.doubtful": "Doubtful ?!",
        "labels.bad": "Bad ?",
        "labels.very-bad": "Very bad ??",
        "luck.very-lucky": "very lucky",
        "luck.lucky": "lucky",
        "luck.unlucky": "unlucky",
        "luck.very-unlucky": "very unlucky",
        "proof.rebels": "the rebels win in {n}",
        "proof.general": "the general wins in {n}",
        "proof.imperium": "the Imperium wins in {n}",
        "proof.white": "White wins in {n}",
        "proof.black": "Black wins in {n}",
        "proof.draw": "a draw with best play",
        "hints.toggle": "Best moves",
        "hints.title": "The engine's best moves",
        "hints.thinking": "The engine is thinking…",
        "hints.wait": "Hints come on your turn.",
        "hints.failed": "No hint: {error}",
        "hints.play": "play {move}",
        "board.title": "Analysis board",
        "board.intro": (
            "Set up any position (or come from a game's replay), play moves on the board, and the "
            "engine gives the best moves with their values."
        ),
        "board.game": "Game",
        "board.position": "Position string (empty: the start)",
        "board.open": "Open",
        "board.link": "Link to this position",
        "board.copy": "Copy the link",
        "board.copied": "Link copied.",
        "board.back": "Take back",
        "board.reset": "Back to the set-up position",
        "board.to_move": "{side} to move",
        "board.over": "Game over: {result}",
        "board.dice": "Dice",
        "board.roll": "Choose the roll",
        "board.set_roll": "Set the roll",
        "board.roll_help": "Backgammon: enter the dice to see the best plays.",
        "board.engine": "Engine",
        "board.lines": "Best moves for {side}",
        "board.none": "No move to judge here.",
        "board.moves": "Moves played here",
        "board.invalid": "This position cannot be read: {error}",
        "board.play_game": "Play from here",
    },
    "fr": {
        "analysis.title": "Analyse",
        "analysis.analyse": "Analyser",
        "analysis.analyse_game": "Analyser cette partie",
        "analysis.strength": "Profondeur",
        "analysis.strength.quick": "rapide",
        "analysis.strength.normal": "normale",
        "analysis.strength.deep": "approfondie",
        "analysis.queued": "En attente du moteur…",
        "analysis.running": "Analyse\u202f: {done} demi-coups sur {total}",
        "analysis.failed": "L’analyse a échoué\u202f: {error}",
        "analysis.error": "L’analyse n’a pas pu être demandée\u202f: {error}",
        "analysis.done": "Analyse ({strength})",
        "analysis.intro": (
            "Le moteur juge chaque coup\u202f: ?! une imprécision, ? une erreur, ?? une gaffe, "
            "avec le meilleur coup à côté."
        ),
        "analysis.intro_bg": (
            "Le moteur juge chaque jeu par l’équité perdue\u202f: ?! douteux, ? mauvais, ?? très "
            "mauvais, avec le meilleur jeu à côté."
        ),
        "analysis.chart": "Chances de gain au fil de la partie",
        "analysis.chart_note": "Cliquez sur le graphique pour aller à un coup.",
        "analysis.chart_label": (
            "Chances de gain au fil de la partie\u202f: {first} de {start} à {end}\u202f; "
            "{errors} erreurs marquées"
        ),
        "analysis.errors": "Erreurs",
        "analysis.no_errors": "Aucune erreur trouvée à cette profondeur.",
        "analysis.summary": "Bilan",
        "analysis.side": "Camp",
        "analysis.moves": "Coups",
        "analysis.average_loss": "Perte moyenne",
        "analysis.error_rate": "Taux d’erreur",
        "analysis.luck": "Chance",
        "analysis.luck_note": (
            "Taux d’erreur\u202f: millièmes d’équité perdus par jeu non forcé. Chance\u202f: "
            "équité donnée par les dés, par rapport au lancer moyen."
        ),
        "analysis.loss_note": "Perte moyenne\u202f: chance de gain perdue par coup non forcé.",
        "analysis.better": "mieux {move}",
        "analysis.played": "{side}\u202f: {move}",
        "analysis.best_was": "meilleur\u202f: {moves}",
        "analysis.loss": "{loss} perdus",
        "analysis.forced": "le seul coup légal",
        "analysis.roll": "{side}\u202f: {roll}, chance {luck}",
        "analysis.good": "pas d’erreur",
        "analysis.value": "{value} pour {side}",
        "analysis.open_board": "Plateau d’analyse",
        "analysis.start": "début",
        "analysis.move_n": "Coup {n}",
        "label.inaccuracy": "imprécision",
        "label.mistake": "erreur",
        "label.blunder": "gaffe",
        "label.doubtful": "douteux",
        "label.bad": "mauvais",
        "label.very-bad": "très mauvais",
        "labels.inaccuracy": "Imprécisions ?!",
        "labels.mistake": "Erreurs ?",
        "labels.blunder": "Gaffes ??",
        "labels.doubtful": "Douteux ?!",
        "labels.bad": "Mauvais ?",
        "labels.very-bad": "Très mauvais ??",
        "luck.very-lucky": "très chanceux",
        "luck.lucky": "chanceux",
        "luck.unlucky": "malchanceux",
        "luck.very-unlucky": "très malchanceux",
        "proof.rebels": "les rebelles gagnent en {n}",
        "proof.general": "le Général gagne en {n}",
        "proof.imperium": "l’Imperium gagne en {n}",
        "proof.white": "les Blancs gagnent en {n}",
        "proof.black": "les Noirs gagnent en {n}",
        "proof.draw": "nulle avec le meilleur jeu",
        "hints.toggle": "Meilleurs coups",
        "hints.title": "Les meilleurs coups du moteur",
        "hints.thinking": "Le moteur réfléchit…",
        "hints.wait": "Les conseils viennent à votre tour.",
        "hints.failed": "Pas de conseil\u202f: {error}",
        "hints.play": "jouer {move}",
        "board.title": "Plateau d’analyse",
        "board.intro": (
            "Posez une position (ou venez du rejeu d’une partie), jouez des coups sur le "
            "plateau\u202f: le moteur donne les meilleurs coups et leur valeur."
        ),
        "board.game": "Jeu",
        "board.position": "Position (vide\u202f: le début)",
        "board.open": "Ouvrir",
        "board.link": "Lien vers cette position",
        "board.copy": "Copier le lien",
        "board.copied": "Lien copié.",
        "board.back": "Reprendre",
        "board.reset": "Revenir à la position de départ",
        "board.to_move": "Trait\u202f: {side}",
        "board.over": "Partie finie\u202f: {result}",
        "board.dice": "Dés",
        "board.roll": "Choisir le lancer",
        "board.set_roll": "Poser le lancer",
        "board.roll_help": "Backgammon\u202f: entrez les dés pour voir les meilleurs jeux.",
        "board.engine": "Moteur",
        "board.lines": "Meilleurs coups pour {side}",
        "board.none": "Aucun coup à juger ici.",
        "board.moves": "Coups joués ici",
        "board.invalid": "Cette position ne peut pas être lue\u202f: {error}",
        "board.play_game": "Jouer à partir d’ici",
    },
}


def word(lang: str, key: str, **values: object) -> str:
    """A word of the analysis in ``lang`` (English when the language is unknown)."""
    text = WORDS.get(lang, WORDS["en"]).get(key) or WORDS["en"].get(key, key)
    return text.format(**values) if values else text


def module() -> str:
    """The dictionary as an ES module for the browser (``/analysis/words.js``)."""
    data = json.dumps(WORDS, ensure_ascii=False, separators=(",", ":"))
    return (
        "// The analysis's words (ludotheque/server/analysis_words.py): w(key, values).\n"
        f"export const WORDS = {data};\n"
        "const lang = () =>\n"
        '  (document.documentElement.lang in WORDS ? document.documentElement.lang : "en");\n'
        "export function w(key, values = {}) {\n"
        "  const text = WORDS[lang()][key] || WORDS.en[key] || key;\n"
        "  return text.replace(/\\{(\\w+)\\}/g,\n"
        "    (_, name) => (name in values ? String(values[name]) : `{${name}}`));\n"
        "}\n"
    )


__all__ = ["WORDS", "module", "word"]
