// The page's words: the server embeds them as JSON data (no inline script, so the
// Content-Security-Policy can forbid them), in the page's language, from its catalogue
// (ludotheque/server/i18n). A word that names a side has a form for each side
// ("play.you_are@black"): given { side: "black" }, t() takes that form. A word that counts
// has its plural forms as a list, chosen by { n } as the catalogue's Plural-Forms say.
const data = document.getElementById("i18n-data");
const WORDS = data ? JSON.parse(data.textContent) : {};

export const lang = () => document.documentElement.lang || "en";

// gettext's plural rules of our catalogues (the Plural-Forms of each .po file)
const PLURAL = { en: (n) => (n !== 1 ? 1 : 0), fr: (n) => (n > 1 ? 1 : 0) };

export function pick(words, key, values = {}) {
  const sided = typeof values.side === "string" ? words[`${key}@${values.side}`] : undefined;
  let text = sided ?? words[key] ?? key;
  if (Array.isArray(text)) text = text[(PLURAL[lang()] || PLURAL.en)(Number(values.n)) || 0];
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));
}

export function t(key, values = {}) {
  return pick(WORDS, key, values);
}
