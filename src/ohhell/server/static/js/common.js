// Small helpers shared by the lobby, the table and the replay pages.

export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_LABEL = { T: "10" };
const RANKS = "23456789TJQKA";
const SUITS = "CDHS";

/** Build an element: el("div", {class: "x", onclick: f}, child, "text", ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "style") node.style.cssText = v; // CSSOM: allowed under the strict CSP
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export const rankLabel = (card) => RANK_LABEL[card[0]] || card[0];
export const suitOf = (card) => card[1];
export const isRed = (card) => card[1] === "H" || card[1] === "D";
export const cardNumber = (card) => SUITS.indexOf(card[1]) * 13 + RANKS.indexOf(card[0]);
/** A card's name for screen readers: "queen of spades". */
export function cardWords(card) {
  const words = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
  return `${words[card[0]] || card[0]} of ${SUIT_NAME[card[1]]}`;
}
export const cardText = (card) => rankLabel(card) + SUIT_SYMBOL[card[1]];

/** A card face. opts: {size: "small"|"tiny", button: true, legal, trump, onclick}. */
export function cardEl(card, opts = {}) {
  const classes = ["card"];
  if (opts.size) classes.push(opts.size);
  if (isRed(card)) classes.push("red");
  if (opts.legal) classes.push("legal");
  const tag = opts.button ? "button" : "div";
  const attrs = { class: classes.join(" "), "data-card": card, title: cardWords(card), "aria-label": cardWords(card) };
  if (!opts.button) attrs.role = "img";  // a named picture (an aria-label on a bare div is not allowed)
  if (opts.button) {
    attrs.type = "button";
    attrs.disabled = !opts.legal;
    attrs.onclick = opts.onclick;
  }
  return el(tag, attrs,
    el("span", { class: "corner", "aria-hidden": "true" }, rankLabel(card), SUIT_SYMBOL[card[1]]),
    el("span", { class: "big", "aria-hidden": "true" }, SUIT_SYMBOL[card[1]]),
    opts.trump ? el("span", { class: "trump-mark", title: "trump", "aria-hidden": "true" }, "★") : null);
}

/** Sort a hand for display: by suit (alternating colours), high to low. */
export function sortHand(cards, trumpSuit) {
  const order = ["S", "H", "C", "D"];
  if (trumpSuit) {
    order.splice(order.indexOf(trumpSuit), 1);
    order.unshift(trumpSuit);
  }
  return [...cards].sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]) || RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]));
}

/** A short-lived message at the bottom of the page. */
export function toast(message, kind = "info", ms = kind === "error" ? 5000 : 2500) {
  let box = document.querySelector(".toasts");
  if (!box) {
    box = el("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const t = el("div", { class: `toast ${kind}` }, message);
  box.append(t);
  setTimeout(() => t.remove(), ms);
}

export async function api(path, options = {}) {
  const res = await fetch(path, {
    ...options,
    headers: { "content-type": "application/json", ...(options.headers || {}) },
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || `${res.status} ${res.statusText}`);
  return data;
}

// Tokens live in this browser only (localStorage): the seat token proves the seat, the
// admin token proves the creator.  The server keeps only their hashes.
export const store = {
  get(key) { try { return localStorage.getItem(`ohhell.${key}`); } catch { return null; } },
  set(key, value) { try { localStorage.setItem(`ohhell.${key}`, value); } catch { /* private mode */ } },
  remove(key) { try { localStorage.removeItem(`ohhell.${key}`); } catch { /* private mode */ } },
};

export const PALETTE = ["#2f6fde", "#d9480f", "#2b8a3e", "#9c36b5", "#e67700", "#0b7285", "#c2255c"];

/** A line chart (SVG) of running totals: series[s] = [total after hand 1, 2, ...]. */
export function scoreChart(names, series, opts = {}) {
  const W = 520, H = 220, L = 36, R = 10, T = 10, B = 26;
  const hands = Math.max(1, ...series.map((s) => s.length));
  const maxY = Math.max(10, ...series.flat());
  const x = (i) => L + (W - L - R) * (hands === 1 ? 0.5 : i / (hands - 1));
  const y = (v) => T + (H - T - B) * (1 - v / maxY);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", opts.label || "Running totals by hand");
  const add = (tag, attrs, text) => {
    const n = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text !== undefined) n.textContent = text;
    svg.append(n);
    return n;
  };
  const step = maxY > 100 ? 50 : maxY > 40 ? 20 : 10;
  for (let v = 0; v <= maxY; v += step) {
    add("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#e3e7ea" });
    add("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#5d6b73" }, v);
  }
  const every = Math.ceil(hands / 15);
  for (let i = 0; i < hands; i += every) {
    add("text", { x: x(i), y: H - 8, "text-anchor": "middle", "font-size": 11, fill: "#5d6b73" }, i + 1);
  }
  series.forEach((s, p) => {
    if (!s.length) return;
    const colour = PALETTE[p % PALETTE.length];
    add("polyline", { points: s.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2.5 });
    s.forEach((v, i) => add("circle", { cx: x(i), cy: y(v), r: 3, fill: colour }));
  });
  const legend = el("div", { class: "legend" },
    names.map((n, p) => el("span", { style: `--c: ${PALETTE[p % PALETTE.length]}` }, n)));
  return el("div", { class: "chart" }, svg, legend);
}

/** Cumulative totals per seat from per-hand scores ([[s0, s1, ...] per hand]). */
export function runningTotals(players, scoresByHand) {
  const series = Array.from({ length: players }, () => []);
  const acc = new Array(players).fill(0);
  for (const scores of scoresByHand) {
    scores.forEach((v, s) => { acc[s] += v; series[s].push(acc[s]); });
  }
  return series;
}
