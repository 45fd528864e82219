// The page's words: the server embeds its dictionary as JSON data (no inline script, so the
// Content-Security-Policy can forbid them).
const data = document.getElementById("i18n-data");
const WORDS = data ? JSON.parse(data.textContent) : {};

// Words of the boards' newer features, in both languages, until they join the server's
// dictionary (ludotheque/server/i18n.py): a key the server has wins over these.
const BOARD_WORDS = {
  en: {
    "board.flip": "Flip board",
    "board.keys": "Arrow keys move around the board; Enter or Space chooses; Escape takes back a step.",
    "board.can_move": "can move",
    "board.target": "possible destination",
    "board.last_from": "last move left here",
    "board.last_to": "last move arrived here",
    "board.captured": "taken by the last move",
    "board.or": "or",
    "bg.take_back": "take this checker back here",
    "bg.take_back_hint": "To take this checker back, choose {place} (where it came from).",
    "dd.zoom_out": "Whole board",
    "dd.key_point": "key point",
    "dd.chosen": "chosen",
    "dd.can_play": "you can play here",
    "play.watch_rematch": "Watch the rematch",
  },
  fr: {
    "board.flip": "Retourner le plateau",
    "board.keys": "Les flèches parcourent le plateau ; Entrée ou Espace choisit ; Échap reprend une étape.",
    "board.can_move": "peut jouer",
    "board.target": "destination possible",
    "board.last_from": "départ du dernier coup",
    "board.last_to": "arrivée du dernier coup",
    "board.captured": "pris au dernier coup",
    "board.or": "ou",
    "bg.take_back": "reprendre ce pion ici",
    "bg.take_back_hint": "Pour reprendre ce pion, choisissez {place} (d’où il vient).",
    "dd.zoom_out": "Tout le plateau",
    "dd.key_point": "point clé",
    "dd.chosen": "choisie",
    "dd.can_play": "vous pouvez jouer ici",
    "play.watch_rematch": "Suivre la revanche",
  },
};

export const lang = () => document.documentElement.lang || "en";

export function t(key, values = {}) {
  const text = WORDS[key] || (BOARD_WORDS[lang()] || BOARD_WORDS.en)[key] || BOARD_WORDS.en[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));
}
