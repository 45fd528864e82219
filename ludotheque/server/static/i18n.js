// The page's words: the server embeds its dictionary as JSON data (no inline script, so the
// Content-Security-Policy can forbid them).
const data = document.getElementById("i18n-data");
const WORDS = data ? JSON.parse(data.textContent) : {};

export function t(key, values = {}) {
  const text = WORDS[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));
}

export const lang = () => document.documentElement.lang || "en";
