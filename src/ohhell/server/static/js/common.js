// Small helpers shared by the lobby, the table and the replay pages.  Every text they make
// is in the page's language (i18n.js, loaded before this module runs).
import { lang, number, t, tn, tp } from "./i18n.js";

export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAME = { C: t("clubs"), D: t("diamonds"), H: t("hearts"), S: t("spades") };
const RANK_LABEL = { T: "10" };
const RANKS = "23456789TJQKA";
const SUITS = "CDHS";

/** Build an element: el("div", {class: "x", onclick: f}, child, "text", ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") on(node, k.slice(2), v);
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

/** Handle ``type`` events on ``node`` with ``fn``, through one listener per type that calls
 * the node's current handler: table/dom.js ``patch`` hands a kept node the handler of the
 * node drawn in its place (a card's click plays it now, refuses it later). */
export function on(node, type, fn) {
  if (!node._on) node._on = {};
  if (!(type in node._on)) node.addEventListener(type, relay);
  node._on[type] = fn;
}
function relay(e) {
  const fn = this._on && this._on[e.type];
  return fn ? fn.call(this, e) : undefined;
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
const RANK_WORDS = { J: t("jack"), Q: t("queen"), K: t("king"), A: t("ace") };
export function cardWords(card) {
  const rank = RANK_WORDS[card[0]] || (card[0] === "T" ? number(10) : number(Number(card[0])));
  return t("{rank} of {suit}", { rank, suit: SUIT_NAME[card[1]] });
}

const BOT_NAMES = {
  random: tp("bot level", "random"), heuristic: tp("bot level", "heuristic"), beginner: tp("bot level", "beginner"),
  intermediate: tp("bot level", "intermediate"), expert: tp("bot level", "expert"), learned: tp("bot level", "learned"),
};
/** A bot level's name as the page's language says it (a dated version, "expert-2026.11",
 * keeps its date). */
export function botName(bot) {
  if (BOT_NAMES[bot]) return BOT_NAMES[bot];
  const m = /^([a-z]+)-(.+)$/.exec(bot || "");
  return m && BOT_NAMES[m[1]] ? `${BOT_NAMES[m[1]]}-${m[2]}` : bot;
}

/**
 * A seat's name as this page shows it: the names the server gives bots' seats ("Expert
 * bot", "Heuristic bot 2": tables.display_names) in the page's language; a person's name,
 * and every name on an English page, as it is.
 */
export function seatName(name) {
  if (lang === "en" || typeof name !== "string") return name;
  const m = /^([A-Z][a-z]+)((?:-[\w.]+)?) bot( \d+)?$/.exec(name);
  if (!m || !BOT_NAMES[m[1].toLowerCase()]) return name;
  const level = botName(m[1].toLowerCase() + m[2]);
  const said = tp("seat name", "{level} bot", { level }) + (m[3] ? " " + number(Number(m[3])) : "");
  return said.charAt(0).toUpperCase() + said.slice(1);
}

const PRESET_NAMES = { standard: t("standard"), "la-podrida": "La Podrida", openspiel: "OpenSpiel" };
/** A rules preset's name. */
export const presetName = (name) => PRESET_NAMES[name] || name;

const SCHEDULE_WORDS = {
  up: t("1 up to the most cards"), down: t("the most cards down to 1"), "up-down": t("up, then down"),
  "down-up": t("down, then up"), custom: t("custom"),
};
const NO_TRUMP_WORDS = { last: t("no trump in the last hand"), largest: t("no trump in the largest hands"), never: t("always a trump") };
const FLAG_WORDS = {
  hook: t("hook"), simultaneous_bidding: t("simultaneous bidding"), must_trump: t("must trump"),
  missed_bid_scores_tricks: t("a missed bid scores its tricks"), zero_bid_scores_hand_size: t("a made zero scores 5 + cards"),
};
/** The schedule's name ("up, then down"). */
export const scheduleName = (schedule) => SCHEDULE_WORDS[schedule] || schedule;

/** One line for people about a table's rules (a record's rules object), like Rules.describe(). */
export function describeRules(rules) {
  if (!rules) return "";
  const parts = [tn("{n} player", "{n} players", rules.players),
    `${scheduleName(rules.schedule)} (${(rules.hand_sizes || []).map((x) => number(x)).join(", ")})`,
    NO_TRUMP_WORDS[rules.no_trump] || rules.no_trump];
  for (const [flag, words] of Object.entries(FLAG_WORDS)) if (rules[flag]) parts.push(words);
  return parts.join(" · ");
}

/**
 * Why a bid or card was refused, from the core's reason (``code`` + facts: tables.py
 * ``reason_facts``, the same facts ohhell.text.explain_illegal words in English).
 * ``names`` name the seats.
 */
export function reasonWords(reason, names = []) {
  if (!reason) return t("That is not allowed now.");
  const h = reason.hand_size || 0;
  const who = (s) => (s === null || s === undefined ? t("another player") : names[s] || t("Seat {n}", { n: number(s + 1) }));
  switch (reason.code) {
    case "game_over": return t("The game is over.");
    case "not_your_turn": case "no_such_seat": return t("It is not your turn: {name} is to act.", { name: who(reason.to_act) });
    case "already_bid": return t("You have already bid this hand.");
    case "must_bid": return t("Bid first: a whole number from 0 to {max}.", { max: number(h) });
    case "bid_too_high": return tn("Bids are 0 to {max}: this hand has {n} trick.", "Bids are 0 to {max}: this hand has {n} tricks.", h, { max: number(h) });
    case "hook": return t("You deal and, with the hook, may not bid {bid}: the bids would total {total}, the number of tricks.",
      { bid: number(reason.bid), total: number(h) });
    case "must_play": return t("The bidding is over: play a card.");
    case "not_held": return t("You do not hold {card}.", { card: cardText(reason.card) });
    case "must_follow": return t("You must follow suit: you hold {suit} {symbol}.", { suit: SUIT_NAME[reason.led], symbol: SUIT_SYMBOL[reason.led] });
    case "must_trump": return t("You cannot follow {led}, so under must trump you must play a trump ({trump} {symbol}).",
      { led: SUIT_NAME[reason.led], trump: SUIT_NAME[reason.trump], symbol: SUIT_SYMBOL[reason.trump] });
    case "not_an_action": return t("That is neither a bid nor a card.");
    default: return t("That is not allowed now.");
  }
}

/** A seat's standing against its bid, worded from the core's words (ohhell.scoring.bid_status). */
export function standingWords(status) {
  const m = /^(over by|under by|needs) (\d+)$/.exec(status || "");
  if (m) {
    const n = Number(m[2]);
    if (m[1] === "over by") return tn("over by {n}", "over by {n}", n);
    if (m[1] === "under by") return tn("under by {n}", "under by {n}", n);
    return tn("needs {n}", "needs {n}", n);
  }
  const fixed = { made: t("made"), "on bid": t("on bid"), "to bid": t("to bid"), "bid in": t("bid in"), "bid hidden": t("bid hidden") };
  return fixed[status] || status;
}

/**
 * An error frame or an HTTP error, worded by its code (the English ``message`` is for
 * programs; the page shows this).  ``names`` name the seats for a refused bid or card.
 */
export function errorWords(err, names = []) {
  if (!err) return t("Something went wrong.");
  if (err.reason) return reasonWords(err.reason, names);
  // English readers get the server's own sentence (it may name more: a limit, a player)
  if (lang === "en" && err.message) return err.message.charAt(0).toUpperCase() + err.message.slice(1);
  const c = err.code;
  const words = {
    no_table: t("There is no such table."),
    event_player: t("You play in this duplicate event, and its tables play the same cards: you may watch the other tables once every table has finished."),
    not_your_turn: t("It is not your turn."),
    illegal: t("That is not allowed now."),
    bad_action: t("That is neither a bid nor a card."),
    no_seat: t("You hold no seat at this table."),
    no_game: t("No game is being played at this table now."),
    standin: t("A bot is playing your seat: take it back first."),
    seated: t("You already hold a seat at this table."),
    seat_taken: t("That seat is taken."),
    reserved: t("That seat is reserved: it needs its invite link."),
    bad_seat: t("There is no such seat."),
    bad_name: t("Choose a name of 1 to 24 letters."),
    name_taken: t("Another player at this table has that name."),
    not_admin: t("Only the table's creator can do that."),
    game_running: t("Not while a game is being played."),
    no_rematch: t("A rematch is possible once the game is over."),
    voted: t("You have already asked for a rematch."),
    bad_bot: t("There is no such bot."),
    no_open_seat: t("There is no open seat."),
    no_standin: t("No bot is playing that seat."),
    present: t("That player is still at the table."),
    claimed: t("That seat belongs to an account: sign in to play it."),
    full: t("The server is full: try again later."),
    too_many_tables: t("You have created too many tables: wait a while, or finish one."),
    no_help: t("This table was created without hints and undo."),
    hint_busy: t("A hint is already being worked out for you."),
    hint_rate_limited: t("You are asking for hints too fast: wait a moment."),
    hint_failed: t("The hint could not be worked out; nothing was changed."),
    hint_stale: t("The game moved on before the hint was ready."),
    nothing_to_undo: t("You have not bid or played in this hand yet; a finished hand cannot be taken back."),
    undo_person: t("Someone else has acted since your last move; only bots' actions are taken back with yours."),
    undo_not_agreed: t("Undo needs every other player's agreement: someone has not switched on “Allow undo”."),
    rate_limited: t("Too many messages: slow down."),
    flood: t("Too many messages over the limit: disconnecting."),
    storage: t("The server could not save this; nothing was changed."),
    unavailable: t("The server running this table stopped; another one is taking it over: try again in a few seconds."),
    internal: t("The server failed to handle this; nothing was changed."),
    bad_config: t("These table settings are not valid."),
    chat_empty: t("The message is empty."),
    chat_too_long: t("The message is too long."),
    chat_rate_limited: t("You are sending messages too fast: wait a moment."),
    chat_gone: t("That message is no longer in the chat."),
    chat_muted: t("You cannot chat at this table now."),
    not_over: t("The game is not over yet."),
    slow_down: t("Too many requests: wait a moment and try again."),
    bad_origin: t("This request came from another site and was refused."),
    csrf: t("This page's security token is missing or old: reload the page and try again."),
    bad_json: t("The server did not understand this message."),
    bad_type: t("The server did not understand this message."),
    bad_field: t("The server did not understand this message."),
    missing_field: t("The server did not understand this message."),
    unknown_type: t("The server did not understand this message."),
    bad_version: t("This page is out of date: reload it."),
    too_many_analyses: t("Many analyses are waiting: try again later."),
  };
  if (words[c]) return words[c];
  return t("The server refused this ({code}).", { code: String(c) });
}

/** Why the server closed the websocket (its close frame's English reason), in words: the
 * reasons the server gives are known here; another is said without its English. */
export function closeWords(reason) {
  if (!reason) return "";
  if (lang === "en") return t("Disconnected: {reason}", { reason });
  const words = {
    "message flood": t("Too many messages over the limit: disconnecting."),
    "too slow: frames piled up unread": t("The connection was too slow to keep up; reconnecting."),
    "API token revoked": t("The API token was revoked."),
  };
  return words[reason] || t("The server closed the connection; reconnecting.");
}

export const cardText = (card) => rankLabel(card) + SUIT_SYMBOL[card[1]];

/** A short-lived message at the bottom of the page. */
export function toast(message, kind = "info", ms = kind === "error" ? 5000 : 2500) {
  let box = document.querySelector(".toasts");
  if (!box) {
    box = el("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const note = el("div", { class: `toast ${kind}` }, message);
  box.append(note);
  setTimeout(() => note.remove(), ms);
}

export async function api(path, options = {}) {
  const res = await fetch(path, {
    ...options,
    headers: { "content-type": "application/json", ...(options.headers || {}) },
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    // (the HTTP API answers {"error": code, "message"}; a websocket error frame has "code")
    const code = data.code || data.error;
    const err = new Error(code ? errorWords({ ...data, code }) : t("The server answered {status}.", { status: res.status }));
    err.code = code;
    err.detail = data.message;
    throw err;
  }
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
  svg.setAttribute("aria-label", opts.label || t("Running totals by hand"));
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
    add("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#5d6b73" }, number(v));
  }
  const every = Math.ceil(hands / 15);
  for (let i = 0; i < hands; i += every) {
    add("text", { x: x(i), y: H - 8, "text-anchor": "middle", "font-size": 11, fill: "#5d6b73" }, number(i + 1));
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
