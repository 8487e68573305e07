// Building the page: elements, and how numbers, text and statuses read.
import { closeDetail } from "./detail-panel.js";
import { detail } from "./state.js";

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(textOf(child)));
  }
  return node;
}

export const duration = (ms) => {
  if (ms === undefined || ms === null) return "…";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60000)} m ${Math.round((ms % 60000) / 1000)} s`;
};
export const money = (usd) => (usd > 0 ? `$${usd < 0.01 ? usd.toFixed(5) : usd.toFixed(4)}` : "$0");
export const short = (text, max = 90) => {
  const line = String(text ?? "")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};
export const pretty = (text) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return String(text ?? "");
  }
};
/** Text for any value a trace may hold (a crafted trace can put an object where a name belongs). */
export const textOf = (value) => {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "?";
  }
};
/** `1 tool call`, `2 tool calls`. */
export const count = (n, noun, nouns = `${noun}s`) => [el("b", {}, n), ` ${n === 1 ? noun : nouns}`];
export const status = (value) =>
  el("span", { class: `status ${textOf(value).replace(/[^\w-]/g, "")}` }, textOf(value));

export function panel(title, ...body) {
  detail.hidden = false;
  detail.replaceChildren(
    el("button", { class: "close", title: "Close", onclick: () => closeDetail() }, "×"),
    el("h2", {}, title),
    ...body.flat(Number.POSITIVE_INFINITY).filter((part) => part !== undefined && part !== null),
  );
}

export const section = (title, ...body) => [el("h3", {}, title), ...body];
export const pre = (text, attributes = {}) => el("pre", attributes, text);
