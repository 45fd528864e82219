// Helpers every board module shares: SVG elements, and the panel that asks the player to choose.

export const SVG = "http://www.w3.org/2000/svg";

// An SVG element with its attributes (and text), appended to ``parent`` when given.
export function el(name, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

// Show ``title`` and one button per choice in ``chooser``; each choice is
// { text, className, data: { key: value }, onClick }.
export function showChoices(chooser, title, choices) {
  chooser.hidden = false;
  chooser.innerHTML = "";
  const heading = document.createElement("p");
  heading.textContent = title;
  chooser.append(heading);
  for (const choice of choices) {
    const button = document.createElement("button");
    button.type = "button";
    if (choice.className) button.className = choice.className;
    for (const [k, v] of Object.entries(choice.data || {})) button.dataset[k] = v;
    button.textContent = choice.text;
    button.addEventListener("click", choice.onClick);
    chooser.append(button);
  }
}

// An HTML element: ``attrs`` are properties (className, id, value, open, …) except ``data``
// (its dataset); ``children`` are nodes or strings (text, never HTML), falsy ones skipped.
export function h(name, attrs = {}, ...children) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "data") Object.assign(node.dataset, v);
    else if (k === "for") node.htmlFor = v;
    else node[k] = v;
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}
