// The page's words: the server embeds its dictionary as JSON data (no inline script, so the
// Content-Security-Policy can forbid them). Every word is there, in the page's language
// (ludotheque/server/i18n.py and the tables it takes in).
const data = document.getElementById("i18n-data");
const WORDS = data ? JSON.parse(data.textContent) : {};

export const lang = () => document.documentElement.lang || "en";

export function t(key, values = {}) {
  const text = WORDS[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));
}
