"""The rules engines' refusals in French.

The engines (``ludotheque.games``, ``ludotheque.record``) speak English: their messages are part
of their contract and stay as they are. The server answers in the page's language, so for every
message an engine can raise (``IllegalMove``, ``InvalidPosition``) this module holds its English
template and the French counterpart, in one table: one source for each message's French.

A template is the message with ``{name}`` where a value goes (``{name!r}`` where the engine
writes the value's ``repr``). The English template is matched against the whole message (a
regular expression built from it), and the values it captures go into the French template,
translated on the way:

- a quoted string (a ``repr``, as the engines quote what the player wrote) comes out between
  French quotation marks, « like this »;
- the engines' own words (side names, the reasons a game ends, ``draw``) take the French the
  pages already use (``i18n.TEXTS``: ``side.*``, ``reason.*``);
- a value an engine describes with its type (``42 (int)``) gets the type's French name;
- ``{name:p}``: a phrase the engine built elsewhere (a help text, the reason a move fails) is
  itself translated from ``PARTS``;
- ``{name:le}``, ``{name:de}``, ``{name:a}``: a side with its article (« les rebelles »,
  « de l’Imperium », « au général »); ``{name:result}``: « victoire des blancs » or « partie
  nulle »; ``{name:point}``: a backgammon point (« la flèche 13 », « la barre »);
  ``{name:or}`` and ``{name:list}``: lists of such values, joined the French way.

The French is written with plain spaces before « : ; ? ! » and inside « »; they become narrow
no-break spaces (U+202F) when the table is read, as the app's French typesetting wants.
``tests/server/test_engine_words.py`` reads the engines' sources and checks that every message
they raise has its entry here, and that no entry is left over.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .languages import KEYED, translate

NNBSP = "\u202f"

# -- messages: (English template, French template), as the engines raise them -------------------

MESSAGES: tuple[tuple[str, str], ...] = (
    # games/_numbers.py
    ("{shown!r} in {where} is not a number: write numbers with the digits 0–9",
     "{shown} dans {where:p} n’est pas un nombre : écrivez les nombres avec les chiffres 0 à 9"),
    ("a number in {where} has too many digits ({start!r}, {count} digits)",
     "un nombre dans {where:p} a trop de chiffres ({start}, {count} chiffres)"),
    # games/backgammon/cube.py
    ("a match is 1 to {most} points long, not {length!r}",
     "un match se joue en 1 à {most} points, pas {length}"),
    ("a match score is two whole numbers, not {score!r}",
     "le score d’un match est fait de deux nombres entiers, pas {score}"),
    ("at {white}-{black} a match to {length} is over (or the score is negative)",
     "à {white}-{black}, un match en {length} points est fini (ou le score est négatif)"),
    ("the Crawford game is played when a side needs one point to win the match",
     "la partie Crawford se joue quand il ne manque qu’un point à un camp pour gagner le match"),
    ("at double match point there is no Crawford game",
     "quand il ne manque qu’un point à chaque camp, il n’y a pas de partie Crawford"),
    ("this ruleset plays with the doubling cube: {help}",
     "ces règles se jouent avec le videau : {help:p}"),
    ("the cube reads like 'cube 1', 'cube 2w' or 'cube 4b', not 'cube {token}'",
     "le videau s’écrit « cube 1 », « cube 2w » ou « cube 4b », pas « cube {token} »"),
    ("the cube's value is a power of two up to {most}, not {value}",
     "la valeur du videau est une puissance de deux jusqu’à {most}, pas {value}"),
    ("a cube at {value} has been turned: write who owns it (w or b)",
     "un videau à {value} a été tourné : écrivez qui le possède (w ou b)"),
    ("a cube at 1 is in the middle: nobody owns it before a double",
     "un videau à 1 est au milieu : personne ne le possède avant un double"),
    ("a match position gives the match: 'match 7 2-3'",
     "une position de match donne le match : « match 7 2-3 »"),
    ("the Crawford game belongs to a match",
     "la partie Crawford n’existe qu’en match"),
    ("a finished game has no pending decision",
     "une partie finie n’a pas de décision en attente"),
    ("{word!r} is written twice",
     "{word} est écrit deux fois"),
    ("nobody doubles in the Crawford game: its cube stays at 1",
     "personne ne double pendant la partie Crawford : son videau reste à 1"),
    ("only one decision can be pending",
     "une seule décision peut être en attente"),
    ("a resignation reads 'resign single', 'resign gammon' or 'resign backgammon', alone as "
     "the pending decision",
     "un abandon s’écrit « resign single », « resign gammon » ou « resign backgammon », seule "
     "décision en attente"),
    ("a dropped double reads 'dropped w' or 'dropped b' (who dropped)",
     "un double refusé s’écrit « dropped w » ou « dropped b » (qui l’a refusé)"),
    ("a game ends one way: write 'dropped' or 'resigned', not both",
     "une partie ne finit que d’une façon : écrivez « dropped » ou « resigned », pas les deux"),
    ("an accepted resignation reads 'resigned w gammon' (who resigned, and what)",
     "un abandon accepté s’écrit « resigned w gammon » (qui a abandonné, et quoi)"),
    ("the Jacoby rule is for money play, not matches",
     "la règle Jacoby est faite pour les parties d’argent, pas pour les matchs"),
    ("this is a money game: load the 'match' ruleset for a match",
     "c’est une partie d’argent : chargez les règles « match » pour un match"),
    ("a match reads 'match 7 2-3' (its length, white's score and black's)",
     "un match s’écrit « match 7 2-3 » (sa longueur, le score des blancs et celui des noirs)"),
    ("a match is 1 to {most} points long",
     "un match se joue en 1 à {most} points"),
    # backgammon/cube.py, backgammon/rules.py, defiance/notation.py, general/rules.py
    ("cannot read {text!r}: {help}",
     "impossible de lire {text} : {help:p}"),
    # games/backgammon/ids.py
    ("a {what} has {length} characters, not {count}",
     "{what:p} compte {length} caractères, pas {count}"),
    ("the Position ID has too many checkers",
     "le Position ID a trop de pions"),
    ("a GNU Backgammon ID is a string, not {value}",
     "un identifiant GNU Backgammon est un texte, pas {value}"),
    ("the Match ID's cube owner is 0, 1 or 3 (centred), not 2",
     "dans le Match ID, le propriétaire du videau est 0, 1 ou 3 (au milieu), pas 2"),
    ("this Match ID is a {length}-point match: load the 'match' ruleset",
     "ce Match ID est un match en {length} points : chargez les règles « match »"),
    ("this Match ID is a money game: load the 'money' ruleset",
     "ce Match ID est une partie d’argent : chargez les règles « money »"),
    ("an XGID is a string, not {value}",
     "un XGID est un texte, pas {value}"),
    ("an XGID reads like 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'",
     "un XGID s’écrit comme « XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10 »"),
    ("an XGID board has 26 characters, not {count}",
     "le plateau d’un XGID a 26 caractères, pas {count}"),
    ("XGID turn is 1 (bottom) or -1 (top), not {turn!r}",
     "le tour d’un XGID est 1 (en bas) ou -1 (en haut), pas {turn}"),
    ("an XGID side has more than 15 checkers",
     "un camp de l’XGID a plus de 15 pions"),
    ("the XGID's {what} is a whole number, not {text!r}",
     "dans l’XGID, {what:p} est un nombre entier, pas {text}"),
    ("an XGID for a game with the cube has ten fields: board, cube, cube position, turn, dice, "
     "scores, Crawford/Jacoby, length, cube limit",
     "l’XGID d’une partie avec videau a dix champs : plateau, videau, position du videau, "
     "tour, dés, scores, Crawford/Jacoby, longueur, limite du videau"),
    ("the XGID's cube is 0–15 (its logarithm) and its position -1, 0 or 1",
     "dans l’XGID, le videau vaut de 0 à 15 (son logarithme) et sa position -1, 0 ou 1"),
    ("beavers and raccoons are not played here",
     "les beavers et les raccoons ne se jouent pas ici"),
    ("{text!r} is not a {what} (base64 expected)",
     "{text} n’est pas {what:p} (base64 attendu)"),
    ("the Position ID gives {who} {count} checkers; max 15",
     "le Position ID donne {count} pions {who:p} ; 15 au plus"),
    ("the Match ID says the game was resigned, but not what",
     "le Match ID indique un abandon, sans dire lequel"),
    ("XGID dice are two digits 1–6 or 00, not {dice!r}",
     "les dés d’un XGID sont deux chiffres de 1 à 6, ou 00, pas {dice}"),
    ("this XGID is a {length}-point match: load the 'match' ruleset",
     "cet XGID est un match en {length} points : chargez les règles « match »"),
    ("this XGID is a money game: load the 'money' ruleset",
     "cet XGID est une partie d’argent : chargez les règles « money »"),
    ("an XGID board holds '-', A–P or a–p, not {char!r}",
     "le plateau d’un XGID contient « - », A–P ou a–p, pas {char}"),
    ("XGID: the first character is the top player's bar",
     "XGID : le premier caractère est la barre du joueur du haut"),
    ("in the Match ID a double is answered by the side not on roll",
     "dans le Match ID, c’est le camp qui n’est pas au trait qui répond à un double"),
    ("XGID: the last character is the bottom player's bar",
     "XGID : le dernier caractère est la barre du joueur du bas"),
    ("this Match ID has the side not on roll resigning: only the side on roll offers to "
     "resign here",
     "dans ce Match ID, le camp qui n’est pas au trait abandonne : ici, seul le camp au trait "
     "propose d’abandonner"),
    # games/backgammon/notation.py
    ("{text!r} is not legal with {roll}: {failure}",
     "{text} n’est pas permis avec {roll} : {failure:p}"),
    ("{text!r} is not legal with {roll}",
     "{text} n’est pas permis avec {roll}"),
    ("cannot read {text!r}: a roll is two digits 1–6, like '31'",
     "impossible de lire {text} : un jet s’écrit avec deux chiffres de 1 à 6, comme « 31 »"),
    ("an empty move: write a play like '13/7 8/7', or 'pass'",
     "coup vide : écrivez un coup comme « 13/7 8/7 », ou « pass »"),
    ("you cannot pass: {roll} can be played (for example {play})",
     "vous ne pouvez pas passer : {roll} peut se jouer (par exemple {play})"),
    ("no checker can move with {roll}: the only play is 'pass'",
     "aucun pion ne peut bouger avec {roll} : le seul coup est « pass »"),
    ("{text!r} cannot be made with the dice {roll}",
     "{text} ne peut pas se jouer avec les dés {roll}"),
    ("ambiguous: {text!r} could be {plays}; write the route",
     "coup ambigu : {text} peut être {plays:or} ; écrivez le chemin"),
    ("'*' marks a hit, but nothing is hit on {points}",
     "« * » marque une capture, mais rien n’est capturé sur {points}"),
    ("incomplete: with {roll} you must play {need} dice (for example {play})",
     "coup incomplet : avec {roll}, vous devez jouer {need} dés (par exemple {play})"),
    ("cannot read {text!r}: the opening names each side's die, like 'w1b3'",
     "impossible de lire {text} : l’ouverture donne le dé de chaque camp, comme « w1b3 »"),
    ("the opening dice are never equal: equal dice are rolled again",
     "les dés de l’ouverture ne sont jamais égaux : on relance en cas d’égalité"),
    ("cannot read {token!r}: write single moves like '13/7' or '8/5(2)'",
     "impossible de lire {token} : écrivez des déplacements comme « 13/7 » ou « 8/5(2) »"),
    ("{token!r}: a move can be repeated 1 to 4 times, not {times}",
     "{token} : un déplacement se répète de 1 à 4 fois, pas {times}"),
    ("cannot read {token!r}: a move goes from a point to a point, like '13/7'",
     "impossible de lire {token} : un déplacement va d’une flèche à une autre, comme « 13/7 »"),
    ("cannot read {part!r} in {token!r}: points are 1–24, 'bar' or 'off'",
     "impossible de lire {part} dans {token} : les flèches sont 1 à 24, « bar » ou « off »"),
    ("{token!r}: '*' goes after the point where a blot is hit",
     "{token} : « * » se place après la flèche où un pion seul est capturé"),
    ("{token!r}: nothing can be hit off the board",
     "{token} : rien ne peut être capturé hors du plateau"),
    ("{token!r}: checkers move from higher points to lower ones ({start} to {end} goes the "
     "wrong way)",
     "{token} : les pions vont des flèches hautes vers les basses (de {start} à {end}, c’est "
     "le mauvais sens)"),
    ("{token!r}: 'bar' can only be where a move starts",
     "{token} : « bar » ne peut être que le départ d’un déplacement"),
    ("{token!r}: 'off' can only be where a move ends",
     "{token} : « off » ne peut être que l’arrivée d’un déplacement"),
    ("{token!r}: there is no point {place} (points are 1–24)",
     "{token} : il n’y a pas de flèche {place} (les flèches vont de 1 à 24)"),
    # games/backgammon/rules.py
    ("{action!r} is not a backgammon decision",
     "{action} n’est pas une décision du backgammon"),
    ("{colour} has {total} checkers on the board; a side has 15",
     "{colour:le} ont {total} pions sur le plateau ; un camp en a 15"),
    ("a position must be a string, not {value}",
     "une position est un texte, pas {value}"),
    ("the side to move is 'w', 'b' or '-', not {token!r}",
     "le camp au trait est « w », « b » ou « - », pas {token}"),
    ("both sides have borne off everything: only one can win",
     "les deux camps ont tout sorti : un seul peut gagner"),
    ("a move must be text like '13/7 8/7', not {value}",
     "un coup est un texte comme « 13/7 8/7 », pas {value}"),
    ("the game is over ({winner} won: {reason})",
     "la partie est finie (victoire {winner:de} : {reason})"),
    ("cannot read {text!r} here: {side} chooses {options}",
     "impossible de lire {text} ici : {side:le} choisissent {options:or}"),
    ("{side} must first answer the {what}, not {move}",
     "{side:le} doivent d’abord répondre {what:p}, pas {move}"),
    ("{move} is not a legal play here",
     "{move} n’est pas un coup permis ici"),
    ("{action!r}: the {ruleset} ruleset plays single games without the doubling cube (load "
     "'money' or 'match' to play for points)",
     "{action} : les règles « {ruleset} » se jouent en parties simples sans videau (chargez "
     "« money » ou « match » pour jouer aux points)"),
    ("there is no roll to play now: {side} decides first",
     "il n’y a pas de jet à jouer maintenant : {side:le} décident d’abord"),
    ("{colour}: cannot read {entry!r} (write a point 1–24 or 'bar', and 'xN' for N checkers, "
     "e.g. 13x5)",
     "{colour} : impossible de lire {entry} (écrivez une flèche de 1 à 24 ou « bar », et "
     "« xN » pour N pions, par exemple 13x5)"),
    ("{colour}: there is no point {place} (points are 1–24)",
     "{colour} : il n’y a pas de flèche {place} (les flèches vont de 1 à 24)"),
    ("{colour}: {entry!r} has {count} checkers; a count is 1 or more",
     "{colour} : {entry} a {count} pions ; il en faut 1 ou plus"),
    ("{colour}: {place} is listed twice",
     "{colour} : {place:point} est donnée deux fois"),
    ("{colour}: {count} checkers on {place}; this ruleset allows at most {cap} of your own on "
     "a point",
     "{colour} : {count} pions sur la flèche {place} ; ces règles permettent au plus {cap} de "
     "vos pions sur une flèche"),
    ("cannot read {text!r}: {help} followed by the cube ('cube 1')",
     "impossible de lire {text} : {help:p}, suivie du videau (« cube 1 »)"),
    ("white's {point} (black's {mirror}) holds checkers of both sides ({white} white, {black} "
     "black)",
     "la flèche {point} des blancs (la {mirror} des noirs) porte des pions des deux camps "
     "({white} blancs, {black} noirs)"),
    ("the dice are two digits 1–6 like '31', or '-', not {token!r}",
     "les dés sont deux chiffres de 1 à 6 comme « 31 », ou « - », pas {token}"),
    ("{colour} has borne off all 15: the game is over, so side and dice must both be '-'",
     "{colour:le} ont sorti leurs 15 pions : la partie est finie, le camp et les dés sont donc "
     "tous deux « - »"),
    ("dice to play need a side to play them: write 'w' or 'b'",
     "des dés à jouer demandent un camp qui les joue : écrivez « w » ou « b »"),
    ("a game borne off has no pending decision and no other ending",
     "une partie finie par la sortie n’a ni décision en attente ni autre fin"),
    ("a game ended by a drop or a resignation has '-' for side and dice",
     "une partie finie par un double refusé ou un abandon a « - » pour camp et pour dés"),
    ("before the opening roll the cube is in the middle at 1, with no decision pending",
     "avant le jet d’ouverture, le videau est au milieu à 1, sans décision en attente"),
    ("'{word}' comes before the roll: the dice must be '-'",
     "« {word} » vient avant le jet : les dés doivent être « - »"),
    ("'{word}': {side} may not double here",
     "« {word} » : {side:le} ne peuvent pas doubler ici"),
    ("the game starts with the opening roll, not {move}",
     "la partie commence par le jet d’ouverture, pas {move}"),
    ("{move} is not a roll of two dice",
     "{move} n’est pas un jet de deux dés"),
    ("{side} decides first: 'double' or 'roll', not {move}",
     "{side:le} décident d’abord : « double » ou « roll », pas {move}"),
    ("{side} must roll the dice, not {move}",
     "{side:le} doivent lancer les dés, pas {move}"),
    ("a side offers to resign on its own turn (before its roll, or when it plays its roll), "
     "not while a double or another offer is answered",
     "on propose d’abandonner à son propre tour (avant son jet, ou en jouant son jet), pas "
     "pendant qu’on répond à un double ou à une autre offre"),
    ("a resignation is of a single game, a gammon or a backgammon",
     "on abandonne une partie simple, un gammon ou un backgammon"),
    ("{kind!r}: nobody has offered to resign",
     "{kind} : personne n’a proposé d’abandonner"),
    ("{kind!r}: nobody has doubled",
     "{kind} : personne n’a doublé"),
    ("{kind!r}: a side doubles or rolls before its roll",
     "{kind} : un camp double ou lance les dés avant son jet"),
    ("{side} may not double: {why}",
     "{side:le} ne peuvent pas doubler : {why:p}"),
    ("the {ruleset} ruleset plays single cubeless games: it has no match or money options",
     "les règles « {ruleset} » se jouent en parties simples sans videau : elles n’ont pas "
     "d’options de match ni d’argent"),
    ("a money game has no match score: load the 'match' ruleset",
     "une partie d’argent n’a pas de score de match : chargez les règles « match »"),
    ("the {ruleset} ruleset has no doubling cube",
     "les règles « {ruleset} » n’ont pas de videau"),
    ("the {ruleset} ruleset plays with the doubling cube: {help}",
     "les règles « {ruleset} » se jouent avec le videau : {help:p}"),
    # games/backgammon/turn.py
    ("move {n}: cannot read {item!r} as a single move like '13/7'",
     "déplacement {n} : impossible de lire {item} comme un déplacement tel que « 13/7 »"),
    ("move {n}: a single move is 'from/to', like '13/7', not {item!r}",
     "déplacement {n} : un déplacement s’écrit « départ/arrivée », comme « 13/7 », pas {item}"),
    ("move {n}: cannot read {item!r}: points are 1–24, bar, off",
     "déplacement {n} : impossible de lire {item} : les flèches sont 1 à 24, bar, off"),
    ("move {n}: {step} is not allowed here",
     "déplacement {n} : {step} n’est pas permis ici"),
    ("move {n}: {step} can use the {dice}: say which die",
     "déplacement {n} : {step} peut utiliser le {dice:or} : dites quel dé"),
    ("there is no roll to play now",
     "il n’y a pas de jet à jouer maintenant"),
    ("move {n}: {step} with a {die} is not allowed here",
     "déplacement {n} : {step} avec un {die} n’est pas permis ici"),
    ("move {n}: {src}/{dst} with a {die} is not allowed here",
     "déplacement {n} : {src}/{dst} avec un {die} n’est pas permis ici"),
    # games/defiance/notation.py
    ("an action must be text like 'e5>N', not {value}",
     "une action est un texte comme « e5>N », pas {value}"),
    ("cannot read the action {text!r}: {help}",
     "impossible de lire l’action {text} : {help:p}"),
    ("{file}{rank} is not a cell of this board (a1…{last})",
     "{file}{rank} n’est pas une case de ce plateau (a1…{last})"),
    ("{direction!r} is not a direction (N NE E SE S SW W NW)",
     "{direction} n’est pas une direction (N NE E SE S SW W NW)"),
    ("cannot read the Command move {text!r}: write like P2.2-P3.3",
     "impossible de lire le déplacement de commandement {text} : écrivez comme P2.2-P3.3"),
    ("{move} leaves the board (points are 0–{n})",
     "{move} sort du plateau (les points vont de 0 à {n})"),
    # games/defiance/position.py
    ("the board has {n} rows separated by '/', not {count}",
     "le plateau a {n} rangées séparées par « / », pas {count}"),
    ("{what} on P{x}.{y} is off the board (points 0–{n})",
     "{what:p} en P{x}.{y} est hors du plateau (points 0 à {n})"),
    ("a position has 4 fields (cells, pools, commands, side): {help}",
     "une position a 4 champs (cases, réserves, commandements, camp) : {help:p}"),
    ("the pools give both sides, like 'r40,i40'",
     "les réserves donnent les deux camps, comme « r40,i40 »"),
    ("there is one Rebel and two Imperial Commands, not {rebel} and {imperial}",
     "il y a un commandement rebelle et deux commandements impériaux, pas {rebel} et "
     "{imperial}"),
    ("both Imperial Commands on {point}: only the 8×8 start (P6.6) allows it",
     "les deux commandements impériaux en {point} : seul le départ du 8×8 (P6.6) le permet"),
    ("the side to move is 'r', 'i' or '-', not {token!r}",
     "le camp au trait est « r », « i » ou « - », pas {token}"),
    ("the game is over in this position, so the side must be '-'",
     "la partie est finie dans cette position, le camp doit donc être « - »"),
    ("'-' is only for a finished game: write 'r' or 'i'",
     "« - » est réservé à une partie finie : écrivez « r » ou « i »"),
    ("row {row} is empty (write {n} for an empty row)",
     "la rangée {row} est vide (écrivez {n} pour une rangée vide)"),
    ("row {row} has {count} cells, not {n}",
     "la rangée {row} a {count} cases, pas {n}"),
    ("cannot read the pools {text!r}: write like 'r40,i40'",
     "impossible de lire les réserves {text} : écrivez comme « r40,i40 »"),
    ("the pools name {key!r} twice",
     "les réserves nomment {key} deux fois"),
    ("cannot read the Command {part!r}: write like 'R2.2' or 'I7.8'",
     "impossible de lire le commandement {part} : écrivez comme « R2.2 » ou « I7.8 »"),
    ("the {side} have {board} counters on the board and {pool} in the pool: {total}, not "
     "{size}",
     "pions {side:de} : {board} sur le plateau et {pool} en réserve, soit {total} et non "
     "{size}"),
    ("row {row}: cannot read {rest!r} (a digit run counts empty cells; a counter is R or I "
     "and a direction, like RNE)",
     "rangée {row} : impossible de lire {rest} (des chiffres comptent les cases vides ; un "
     "pion s’écrit R ou I suivi d’une direction, comme RNE)"),
    ("row {row} has more than {n} cells",
     "la rangée {row} a plus de {n} cases"),
    ("the counter on {cell} is flanked and should have been captured (play never leaves a "
     "capture pending)",
     "le pion en {cell} est encadré et aurait dû être pris (le jeu ne laisse jamais une prise "
     "en suspens)"),
    ("row {row}: an empty run of 0 cells",
     "rangée {row} : une suite vide de 0 case"),
    ("row {row}: a counter needs a direction (N NE E SE S SW W NW), e.g. {piece}NE",
     "rangée {row} : un pion a besoin d’une direction (N NE E SE S SW W NW), par exemple "
     "{piece}NE"),
    # games/defiance/rules.py
    ("a turn must be text like 'e5>N', not {value}",
     "un tour est un texte comme « e5>N », pas {value}"),
    ("this action wins the game: no Command move follows it",
     "cette action gagne la partie : aucun déplacement de commandement ne la suit"),
    ("{move} is not a legal Command move here: {why}",
     "{move} n’est pas un déplacement de commandement permis ici : {why:p}"),
    ("{move} is not a turn of this game",
     "{move} n’est pas un tour de ce jeu"),
    ("{move} is not a legal Command move after {action}: {why}",
     "{move} n’est pas un déplacement de commandement permis après {action} : {why:p}"),
    ("{action} is not an action on this board",
     "{action} n’est pas une action sur ce plateau"),
    ("a direction is one of N NE E SE S SW W NW",
     "une direction est l’une de N NE E SE S SW W NW"),
    ("your pool is empty: rotate one of your counters instead",
     "votre réserve est vide : tournez plutôt l’un de vos pions"),
    # defiance/rules.py and general/rules.py
    ("{place} is occupied",
     "il y a déjà un pion en {place}"),
    ("{cell} is a dead zone for the {side}: a counter there would be captured at once",
     "{cell} est une zone morte pour {side:le} : un pion y serait pris aussitôt"),
    ("{action} is neither a placement nor a rotation",
     "{action} n’est ni une pose ni une rotation"),
    ("there is no counter of the {side} on {cell}",
     "il n’y a pas de pion {side:de} en {cell}"),
    ("the counter on {cell} already faces {direction}",
     "le pion en {cell} est déjà tourné vers {direction}"),
    # games/general/rules.py
    ("{what}: {token!r} is not a point of the board (points are a1…e5 and s1…s4)",
     "{what:p} : {token} n’est pas un point du plateau (les points sont a1…e5 et s1…s4)"),
    ("a position has 4 fields (general, rebels, side, flight), e.g. 'c3 a1,a2,… r 1'; got "
     "{count} in {text!r}",
     "une position a 4 champs (général, rebelles, camp, envol), par exemple « c3 a1,a2,… r 1 » "
     "; {text} en a {count}"),
    ("{count} rebels: there are at most 16",
     "{count} rebelles : il y en a 16 au plus"),
    ("{count} rebels: the game ends when 4 remain, so never fewer",
     "{count} rebelles : la partie finit quand il en reste 4, jamais moins"),
    ("{count} rebels: captures remove two at a time, so it must be even",
     "{count} rebelles : les prises en retirent deux à la fois, leur nombre est donc pair"),
    ("side to move must be 'r' (rebels) or 'g' (general), not {token!r}",
     "le camp au trait est « r » (rebelles) ou « g » (général), pas {token}"),
    ("flight must be '1' (still available) or '0' (used), not {token!r}",
     "l’envol est « 1 » (encore disponible) ou « 0 » (utilisé), pas {token}"),
    ("the general is on s4 with his flight unused: reaching s4 uses the flight",
     "le général est en s4 sans avoir utilisé son envol : atteindre s4 utilise l’envol"),
    ("{token!r} is not a point of the board (a1…e5, s1…s4)",
     "{token} n’est pas un point du plateau (a1…e5, s1…s4)"),
    ("a move must be text like 'a1-b2', not {value}",
     "un coup est un texte comme « a1-b2 », pas {value}"),
    ("the game is over ({words})",
     "la partie est finie ({words:p})"),
    ("{src} and {dst} are not next to each other on a line",
     "{src} et {dst} ne sont pas voisins sur une ligne"),
    ("the general has already used his flight",
     "le général a déjà utilisé son envol"),
    ("stepping onto s4 is the flight: say where he lands, e.g. {src}-s4*c3",
     "aller en s4, c’est l’envol : dites où il se pose, par exemple {src}-s4*c3"),
    ("{move} is not a legal move here",
     "{move} n’est pas un coup permis ici"),
    ("empty rebel point in {text!r} (stray comma?)",
     "point de rebelle vide dans {text} (une virgule de trop ?)"),
    ("two rebels on {point}",
     "deux rebelles en {point}"),
    ("a rebel on {point}: rebels may never stand in the sanctuary",
     "un rebelle en {point} : les rebelles n’entrent jamais dans le sanctuaire"),
    ("the general and a rebel both on {point}",
     "le général et un rebelle tous deux en {point}"),
    ("a point is missing: {help}",
     "il manque un point : {help:p}"),
    ("a capture names exactly two rebels' points, like 'xa3c1', not 'x{points}'",
     "une prise nomme exactement les points de deux rebelles, comme « xa3c1 », pas "
     "« x{points} »"),
    ("a capture takes two different rebels, not {point} twice",
     "une prise retire deux rebelles différents, pas deux fois {point}"),
    ("{src} holds the general, and it is the rebels' turn",
     "le général est en {src}, et c’est aux rebelles de jouer"),
    ("there is no rebel on {src}",
     "il n’y a pas de rebelle en {src}"),
    ("it is the general's turn and he is on {general}, not {src}",
     "c’est au général de jouer, et il est en {general}, pas en {src}"),
    ("rebels may never enter the sanctuary ({dst})",
     "les rebelles n’entrent jamais dans le sanctuaire ({dst})"),
    ("only the general flies and captures; a rebel just steps",
     "seul le général s’envole et prend ; un rebelle ne fait qu’un pas"),
    ("'*' marks the flight, which starts with a step onto s4",
     "« * » marque l’envol, qui commence par un pas en s4"),
    ("the flight must land somewhere other than s4",
     "l’envol doit se poser ailleurs qu’en s4"),
    ("the flight cannot land on {point}: a rebel is there",
     "l’envol ne peut pas se poser en {point} : un rebelle s’y trouve"),
    ("the general cannot take {pair} {where} (he can take {pairs})",
     "le général ne peut pas prendre {pair} {where:p} (il peut prendre {pairs:or})"),
    ("the general cannot take {pair} {where}",
     "le général ne peut pas prendre {pair} {where:p}"),
    ("ambiguous capture on {end}: write which pair he takes ({pairs}), e.g. "
     "{src}-{dst}*{end}x{pair}",
     "prise ambiguë en {end} : écrivez quelle paire il prend ({pairs:or}), par exemple "
     "{src}-{dst}*{end}x{pair}"),
    ("ambiguous capture on {end}: write which pair he takes ({pairs}), e.g. {src}-{dst}x{pair}",
     "prise ambiguë en {end} : écrivez quelle paire il prend ({pairs:or}), par exemple "
     "{src}-{dst}x{pair}"),
    # record.py
    ("the game is over ({who}: {reason})",
     "la partie est finie ({who:result} : {reason})"),
    ("there is nothing to roll now",
     "il n’y a rien à lancer maintenant"),
    ("this record has no dice seed",
     "cette partie n’a pas de graine pour ses dés"),
    ("there is nothing to undo",
     "il n’y a rien à annuler"),
    ("the game is already over",
     "la partie est déjà finie"),
    ("unknown side {side!r}; the sides are {sides}",
     "camp inconnu {side} ; les camps sont {sides:list}"),
    ("the dice are not chosen: this roll is {expected}, not {chosen}",
     "les dés ne se choisissent pas : ce jet est {expected}, pas {chosen}"),
)  # fmt: skip

# -- parts: phrases the engines build elsewhere and put into their messages --------------------

PARTS: tuple[tuple[str, str], ...] = (
    # _numbers.read_number's ``where``
    ("a position", "une position"),
    ("a move", "un coup"),
    # backgammon/cube.py TAIL_HELP
    ("after the dice come 'cube N' (with 'w' or 'b' when a side owns it), then as they apply "
     "'rolling', 'doubled', 'resign single|gammon|backgammon', 'dropped w|b', "
     "'resigned w|b single|gammon|backgammon', 'jacoby', 'match N W-B' and 'crawford'",
     "après les dés viennent « cube N » (avec « w » ou « b » quand un camp le possède), puis, "
     "s’il y a lieu, « rolling », « doubled », « resign single|gammon|backgammon », "
     "« dropped w|b », « resigned w|b single|gammon|backgammon », « jacoby », « match N W-B » "
     "et « crawford »"),
    # backgammon/ids.py: what is decoded, the XGID's numbers, whose checkers
    ("GNU Backgammon Position ID", "un Position ID de GNU Backgammon"),
    ("GNU Backgammon Match ID", "un Match ID de GNU Backgammon"),
    ("cube", "le videau"),
    ("cube position", "la position du videau"),
    ("score", "le score"),
    ("Crawford/Jacoby field", "le champ Crawford/Jacoby"),
    ("match length", "la longueur du match"),
    ("one side", "à un camp"),
    ("the other side", "à l’autre camp"),
    # backgammon/rules.py: the position's format, what must be answered, why no double
    ("a position reads like 'W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -'",
     "une position s’écrit comme « W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - - »"),
    ("double: take or drop", "au double : prendre ou refuser"),
    ("offer to resign: accept or decline", "à l’offre d’abandon : accepter ou refuser"),
    ("{side} owns the cube", "le videau appartient {side:a}"),
    ("nobody doubles in the Crawford game", "personne ne double pendant la partie Crawford"),
    ("the cube is dead: {points} more points win {side} the match",
     "le videau est mort : {points} points de plus font gagner le match {side:a}"),
    ("the cube is at its highest value", "le videau est à sa plus haute valeur"),
    # backgammon/notation.py: why a written play fails (explain_single, _first_failure)
    ("a checker on the bar must enter first", "un pion sur la barre doit d’abord rentrer"),
    ("you have no checker on the bar", "vous n’avez pas de pion sur la barre"),
    ("you have no checker on {point}", "vous n’avez pas de pion sur la flèche {point}"),
    ("you can bear off only once all your checkers are in your home board",
     "vous ne pouvez sortir qu’une fois tous vos pions rentrés dans votre maison"),
    ("a {die} bears off from {point} only when no checker stands higher",
     "un {die} ne sort de la flèche {point} que si aucun pion n’est plus haut"),
    ("a {die} cannot bear off from {point}", "un {die} ne peut pas sortir de la flèche {point}"),
    ("{point} is blocked: the opponent has {count} checkers there",
     "la flèche {point} est bloquée : l’adversaire y a {count} pions"),
    ("{point} is full: {count} of your checkers already stand there",
     "la flèche {point} est pleine : {count} de vos pions s’y trouvent déjà"),
    ("{src}/{dst} is not a move of {die}", "{src}/{dst} n’est pas un déplacement de {die}"),
    ("no order of these moves can be played",
     "ces déplacements ne peuvent se jouer dans aucun ordre"),
    ("it does not use the dice as the rules require",
     "il n’utilise pas les dés comme l’exigent les règles"),
    # backgammon/rules.py pass_reason: why a roll cannot be played (its parts, joined by "; ")
    ("the bar/{point} with the {die}: {why}", "bar/{point} avec le {die} : {why:p}"),
    ("{src}/{dst}: {why}", "{src}/{dst} : {why:p}"),
    # defiance/notation.py TURN_HELP
    ("write a turn like 'e5>N' (place), 'c4@W' (rotate), or 'e5>N;P2.2-P3.2'",
     "écrivez un tour comme « e5>N » (poser), « c4@W » (tourner) ou « e5>N;P2.2-P3.2 »"),
    # defiance/position.py: the position's format, whose Command
    ("a position reads like '10/10/10/10/10/10/10/10/10/10 r{pool},i{pool} R2.2,I7.8,I8.7 r'",
     "une position s’écrit comme « 10/10/10/10/10/10/10/10/10/10 r{pool},i{pool} "
     "R2.2,I7.8,I8.7 r »"),
    ("the Rebel Command", "le commandement rebelle"),
    ("the Imperial Command", "le commandement impérial"),
    # defiance/rules.py _why_not: why a Command move is refused
    ("the Rebel Command is on {point}, not {other}",
     "le commandement rebelle est en {point}, pas en {other}"),
    ("{point} is not next to {other}", "{point} n’est pas voisin de {other}"),
    ("an Imperial Command stands on {point}", "un commandement impérial se tient en {point}"),
    ("Imperial counters wall that step", "des pions impériaux font mur sur ce pas"),
    ("no Imperial Command stands on {point}",
     "aucun commandement impérial ne se tient en {point}"),
    ("{point} is not an orthogonal step from {other} (Imperial Commands move straight)",
     "{point} n’est pas à un pas en ligne droite de {other} (les commandements impériaux vont "
     "tout droit)"),
    ("the other Imperial Command stands on {point}",
     "l’autre commandement impérial se tient en {point}"),
    ("the Rebels control {point}", "les rebelles contrôlent {point}"),
    # general/rules.py: whose point, how to write a move, where he would land, the outcome
    ("the general", "le général"),
    ("a rebel", "un rebelle"),
    ("write a step as 'a1-b2', a capture as 'c3-b2xa3c1', a flight as 's2-s4*c3'",
     "écrivez un pas « a1-b2 », une prise « c3-b2xa3c1 », un envol « s2-s4*c3 »"),
    ("landing on {point}", "en se posant en {point}"),
    ("on {point}", "en {point}"),
    ("{winner} won: {reason}", "victoire {winner:de} : {reason}"),
)  # fmt: skip

# -- the engines' words -----------------------------------------------------------------------

_SIDES = ("rebels", "general", "white", "black", "imperium")
_PLURAL = {"rebels", "white", "black"}
_PROPER = {"imperium"}  # a name: it keeps its capital (« l’Imperium »)


def _side_noun(side: str) -> str:
    noun = translate("fr", f"side.{side}")
    return noun if side in _PROPER else noun.lower()


def _with_article(side: str, form: str) -> str:
    """A side's name with its article: ``form`` is ``le`` (« les blancs »), ``de`` (« du
    général ») or ``a`` (« à l’Imperium »)."""
    noun = _side_noun(side)
    if side in _PLURAL:
        article = {"le": "les ", "de": "des ", "a": "aux "}[form]
    elif noun[:1].lower() in "aeéèêiîoôuh":
        article = {"le": "l’", "de": "de l’", "a": "à l’"}[form]
    else:
        article = {"le": "le ", "de": "du ", "a": "au "}[form]
    return article + noun


def _words() -> dict[str, str]:
    """The engines' words that the pages already name: sides, the reasons a game ends."""
    words = {side: _side_noun(side) for side in _SIDES}
    words["draw"] = translate("fr", "play.result.draw").lower()
    for key, text in ((k, translate("fr", k)) for k in KEYED):
        if key.startswith("reason."):
            words[key.removeprefix("reason.")] = text
    return words


WORDS = _words()

TYPES = {
    "int": "nombre entier",
    "float": "nombre",
    "bool": "booléen",
    "str": "texte",
    "bytes": "octets",
    "list": "liste",
    "tuple": "n-uplet",
    "dict": "objet",
    "set": "ensemble",
    "NoneType": "rien",
}
"""French names of the types ``core.describe_value`` names (``42 (int)``)."""

_DESCRIBED = re.compile(r"(.*) \((\w+)\)", re.DOTALL)
_POINTS = {"bar": "la barre", "off": "la sortie"}


def typeset(text: str) -> str:
    """French typography: a narrow no-break space before « : ; ? ! » and inside « »."""
    for plain, fine in ((" :", ":"), (" ;", ";"), (" ?", "?"), (" !", "!")):
        text = text.replace(plain, NNBSP + fine)
    return text.replace("« ", "«" + NNBSP).replace(" »", NNBSP + "»")


def quoted(text: str) -> str:
    return f"«{NNBSP}{text}{NNBSP}»"


def _literal(value: str) -> str | None:
    """The string a Python string literal (a ``repr``) writes, else ``None``."""
    if len(value) < 2 or value[0] not in "'\"" or value[-1] != value[0]:
        return None
    try:
        text = ast.literal_eval(value)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return text if isinstance(text, str) else None


def value_in_french(value: str) -> str:
    """A value from a message, in French: quoted text, an engine's word, a described value."""
    text = _literal(value)
    if text is not None:
        return quoted(text)
    if value in WORDS:
        return WORDS[value]
    described = _DESCRIBED.fullmatch(value)
    if described is not None and described[2] in TYPES:
        return f"{value_in_french(described[1])} ({TYPES[described[2]]})"
    return value


class Untranslated(Exception):
    """A phrase inside a message that no entry knows: the message is then not translated
    (a French page shows the English whole rather than a mix of the two)."""


def _phrase(value: str) -> str:
    found = _translate(value, _PARTS)
    if found is None:
        raise Untranslated(value)
    return found


def _alternatives(value: str) -> str:
    if " or the " in value:
        return " ou le ".join(value_in_french(v) for v in value.split(" or the "))
    return " ou ".join(value_in_french(v) for v in value.split(" or "))


def _side_form(form: str) -> Callable[[str], str]:
    return lambda value: _with_article(value, form) if value in _SIDES else value_in_french(value)


def _result(value: str) -> str:
    if value in _SIDES:
        return "victoire " + _with_article(value, "de")
    return value_in_french(value)


def _point(value: str) -> str:
    return _POINTS.get(value) or f"la flèche {value}"


FORMS: dict[str, Callable[[str], str]] = {
    "": value_in_french,
    "p": _phrase,
    "le": _side_form("le"),
    "de": _side_form("de"),
    "a": _side_form("a"),
    "result": _result,
    "point": _point,
    "or": _alternatives,
    "list": lambda value: ", ".join(value_in_french(v) for v in value.split(", ")),
}
"""How a value goes into a French template, by the ``:form`` after its name."""

# -- matching -----------------------------------------------------------------------------------

_PLACE = re.compile(r"\{(\w+)(!r)?\}")
_FRENCH_PLACE = re.compile(r"\{(\w+)(?::(\w+))?\}")
_QUOTED = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""
VALUE = rf"(?:{_QUOTED}|(?:(?!: |; ).)*?)"
"""What a value may be: a quoted string, else text without the « : » and « ; » that join an
engine's clauses (so that "the bar/22 with the 3: 22 is blocked: …" is read as a reason
inside a pass, not as a point named "the bar/22 with the 3: 22")."""
PHRASE = r"(?:(?!; ).)*?"
"""What a phrase (``:p``) or a list (``:or``, ``:list``) may be: a clause, without « ; »."""
_PHRASES = {"p", "or", "list"}


@dataclass(frozen=True)
class Entry:
    """One template: the English as a regular expression, the French to fill in."""

    english: str
    french: str
    pattern: re.Pattern[str]
    literal: int  # how many characters are not placeholders: the more, the more specific


def shape(template: str) -> str:
    """A template without its placeholders' names (``{}``, or ``{!r}`` for a ``repr``): what
    the tests compare with the messages read from the engines' sources."""
    return _PLACE.sub(lambda m: "{" + (m[2] or "") + "}", template)


def _entry(english: str, french: str) -> Entry:
    forms: dict[str, str] = {}
    for m in _FRENCH_PLACE.finditer(french):
        if (m[2] or "") not in FORMS:
            raise ValueError(f"the French of {english!r} has {m[0]}")
        forms[m[1]] = m[2] or ""
    parts: list[str] = []
    seen: set[str] = set()
    end = 0
    for m in _PLACE.finditer(english):
        parts.append(re.escape(english[end : m.start()]))
        name = m[1]
        kind = PHRASE if forms.get(name) in _PHRASES else VALUE
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>{kind})")
        seen.add(name)
        end = m.end()
    parts.append(re.escape(english[end:]))
    if not set(forms) <= seen:
        raise ValueError(f"the French of {english!r} has {set(forms) - seen}")
    literal = len(_PLACE.sub("", english))
    return Entry(english, typeset(french), re.compile("".join(parts), re.DOTALL), literal)


def _compile(table: Iterable[tuple[str, str]]) -> tuple[Entry, ...]:
    entries = [_entry(en, fr) for en, fr in table]
    # the most specific first: "move 1: 13/7 with a 6 is not allowed here" is read by the
    # template that has " with a ", not by "move {n}: {step} is not allowed here"
    return tuple(sorted(entries, key=lambda e: -e.literal))


def _fill(entry: Entry, found: re.Match[str]) -> str:
    values = found.groupdict()
    return _FRENCH_PLACE.sub(lambda m: FORMS[m[2] or ""](values[m[1]]), entry.french)


def _translate(text: str, entries: tuple[Entry, ...]) -> str | None:
    for entry in entries:
        found = entry.pattern.fullmatch(text)
        if found is not None:
            try:
                return _fill(entry, found)
            except Untranslated:
                continue
    return None


_MESSAGES = _compile(MESSAGES)
_PARTS = _compile(PARTS)


def french(message: str) -> str | None:
    """The French of an engine's message (or of a reason it gives, such as a forced pass's),
    ``None`` when this module does not know it (the caller then shows the English)."""
    found = _translate(message, _MESSAGES) or _translate(message, _PARTS)
    if found is None and "; " in message:  # a list of reasons (``pass_reason``)
        pieces = [_translate(piece, _PARTS) for piece in message.split("; ")]
        if all(pieces):
            found = f"{NNBSP}; ".join(p for p in pieces if p)
    return found


__all__ = ["MESSAGES", "PARTS", "WORDS", "french", "shape", "typeset", "value_in_french"]
