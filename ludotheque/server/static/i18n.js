// The page's words (the server embeds its dictionary as window.I18N).
export function t(key, values = {}) {
  const text = (window.I18N && window.I18N[key]) || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));
}

export const lang = () => window.LANG || "en";
