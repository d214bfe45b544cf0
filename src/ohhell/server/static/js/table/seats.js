// The seats around the felt, placed relative to you (you at the bottom; the play goes
// clockwise, so the next seat sits to your left), each with an avatar of initials on a
// colour derived from the name, the bid, the tricks won and the standing against the bid
// (the core's words), the dealer button, the turn ring and the away timer's ring.
import { el, standingWords } from "../common.js";
import { number, t, tn, tp } from "../i18n.js";
import { back, face } from "./cards.js";
import { patch } from "./dom.js";

/** Where seat ``seat`` sits: {x, y} on a unit circle, (0, 1) at the bottom for ``base``
 * (you, or seat 1 for a spectator). */
export function place(seat, base, players) {
  const k = (seat - base + players) % players;
  if (k === 0) return { x: 0, y: 1 };
  // the others on the upper arc, from your left (just below level) over the top to your
  // right, so that no seat crowds yours at the bottom on a small screen
  const low = (15 * Math.PI) / 180;
  const angle = players === 2 ? 1.5 * Math.PI : Math.PI - low + ((k - 1) / (players - 2)) * (Math.PI + 2 * low);
  return { x: Math.cos(angle), y: Math.sin(angle) };
}

/** Where seat ``seat`` sits on a phone at a table of six or seven (table.css, ``.felt.many``):
 * the others up a column on your left, along a row on top and down a column on your right,
 * so that no two seats' plates meet on a narrow felt.  Elsewhere, ``place``. */
export function placeNarrow(seat, base, players) {
  if (players < 6) return place(seat, base, players);
  const k = (seat - base + players) % players;
  if (k === 0) return { x: 0, y: 1 };
  const spots = players === 6
    ? [[-1, 0.3], [-1, -0.35], [0, -1], [1, -0.35], [1, 0.3]]
    : [[-1, 0.3], [-1, -0.35], [-0.4, -1], [0.4, -1], [1, -0.35], [1, 0.3]];
  const [x, y] = spots[k - 1];
  return { x, y };
}

/** A stable colour for a name (an HSL hue from a string hash), dark enough for white text. */
export function hue(name) {
  let h = 2166136261;
  for (const ch of name || "?") { h ^= ch.codePointAt(0); h = Math.imul(h, 16777619); }
  return (h >>> 0) % 360;
}

export function initials(name) {
  const words = (name || "?").replace(/[()]/g, " ").trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "?";
  if (words.length === 1) return [...words[0]].slice(0, 2).join("").toUpperCase();
  const last = words[words.length - 1];
  return ([...words[0]][0] + ([...last][0])).toUpperCase();
}

export function avatar(name, extra = "") {
  const a = el("span", { class: `avatar ${extra}`.trim(), "aria-hidden": "true" }, initials(name));
  a.style.setProperty("--hue", String(hue(name)));
  return a;
}

/** The standing against the bid, in the core's words (ohhell.scoring.bid_status). */
export function standing(status) {
  if (!status || ["to bid", "bid in", "bid hidden"].includes(status)) return null;
  const tone = /^(made|on bid)$/.test(status) ? "good" : /^(over|under)/.test(status) ? "bad" : "warn";
  const mark = tone === "good" ? "✓ " : tone === "bad" ? "✗ " : "";
  return el("span", { class: "bidst " + tone }, mark + standingWords(status));
}

/** A seat's bid and tricks won: "bid 2 · won 1" (``bid`` already worded: a number, "in", "–"). */
export function seatLine(s, bid, won) {
  return el("span", { class: "seat-line" },
    el("span", { class: "bid" }, tp("noun", "bid"), " ", el("b", {}, bid)), " · ",
    el("span", { class: "won" }, t("won"), " ", el("b", { "data-won": s }, number(won))));
}

/** The mark of a program playing through the bot API (an account marked as a bot), as in
 * the bid table, the standings, the lobby and the replay. */
export const accountTag = () => el("span", { class: "seat-tag account", title: t("a program playing through the bot API") }, t("bot account"));

/**
 * One seat's plate, placed around the felt from seat ``base`` (at the bottom): the avatar
 * (with its ring, the dealer button and ``presence``), then the name and ``text`` (nodes),
 * the words only a screen reader hears, and ``after`` (beside the plate: the backs, or the
 * replay's cards).  p: {seat, base, players, name, mine (your seat), state (classes: "to-act",
 * "acted"), empty, ring (the ring's node), dealer, presence, you, text, words, flag, after}.
 */
export function seatPlate(p) {
  const { x, y } = place(p.seat, p.base, p.players);
  const narrow = placeNarrow(p.seat, p.base, p.players);
  const classes = ["seat"];
  if (p.mine) classes.push("me");
  if (p.seat === p.base) classes.push("bottom");
  classes.push(...(p.state || []));
  if (y < -0.3) classes.push("top"); else if (y > 0.3) classes.push("low");
  if (x < -0.3) classes.push("left"); else if (x > 0.3) classes.push("right");
  if (p.empty) classes.push("empty");
  const words = p.words || [];
  const plate = el("div", { class: classes.join(" "), "data-seat": p.seat },
    el("span", { class: "avatar-wrap" }, p.ring || el("span", { class: "ring", "aria-hidden": "true" }), avatar(p.name),
      p.dealer ? el("span", { class: "dealer-chip", title: t("Dealer"), "aria-hidden": "true" }, tp("dealer button", "D")) : null,
      p.presence || null),
    el("span", { class: "seat-text" },
      el("span", { class: "seat-name" }, p.name, p.you || null),
      ...(p.text || []),
      words.length ? el("span", { class: "sr-only" }, ", " + words.join(", ")) : null,
      p.flag || null),
    p.after || null);
  plate.style.setProperty("--x", x.toFixed(3));
  plate.style.setProperty("--y", y.toFixed(3));
  plate.style.setProperty("--nx", narrow.x.toFixed(3));
  plate.style.setProperty("--ny", narrow.y.toFixed(3));
  return plate;
}

/** A card in the trick, pushed from the middle towards the seat that played it; ``label``
 * names the card and its player, ``key`` keeps its node while the trick lasts. */
export function trickCard(card, seat, base, players, { label, extra = "", key }) {
  const { x, y } = place(seat, base, players);
  const node = face(card, { extra: `in-trick ${extra || ""}`.trim(), label });
  node.dataset.seat = String(seat);
  node.dataset.key = `${key}.${card}`;
  node.style.setProperty("--x", x.toFixed(3));
  node.style.setProperty("--y", y.toFixed(3));
  return node;
}

/**
 * Draw every seat.  info: {players, base, names, seats (table seats), view (or null),
 * acting (seats to act), me, timers: seat -> {left, after}}.
 */
export function renderSeats(box, info) {
  const { players, base, view: v } = info;
  const plates = [];
  for (let s = 0; s < players; s++) {
    const seat = info.seats[s];
    const name = info.names[s];
    const mine = s === info.me;
    const acting = info.acting.includes(s);
    const timer = info.timers[s];
    const ring = el("span", { class: "ring" + (timer ? " timer" : ""), "aria-hidden": "true" });
    if (timer) ring.style.setProperty("--p", String(Math.max(0, Math.min(1, timer.left / timer.after))));
    const dealer = v && v.dealer === s && v.phase !== "over";
    const words = [];
    let line = null, st = null, backs = null;
    if (v) {
      const bid = v.bids[s] !== null ? number(v.bids[s]) : v.has_bid[s] ? t("in") : "–";
      line = seatLine(s, bid, v.tricks_won[s]);
      st = v.phase === "over" ? el("span", { class: "bidst" }, tn("{n} pt", "{n} pts", v.totals[s])) : standing(v.bid_status ? v.bid_status[s] : "");
      if (!mine && v.phase !== "over") {
        const left = info.cardsLeft[s];
        backs = el("span", { class: "backs", "aria-hidden": "true" },
          Array.from({ length: Math.min(left, 8) }, () => back("mini")));
        backs.style.setProperty("--n", String(Math.min(left, 8)));
        if (left) words.push(tn("{n} card left", "{n} cards left", left));
      }
    } else if (seat.kind === "open" || seat.kind === "reserved") {
      line = el("span", { class: "seat-line" }, seat.kind === "reserved" ? t("reserved") : t("open seat"));
    }
    if (dealer) words.push(t("dealer"));
    if (acting) words.push(v && v.phase === "bid" ? t("to bid") : t("to play"));
    if (timer) words.push(t("away: a bot plays in {seconds} s", { seconds: number(Math.ceil(timer.left)) }));
    const tag = seat.kind === "bot" ? null : seat.standin ? t("bot stands in") : seat.kind === "human" && !seat.connected ? t("away") : null;
    plates.push(seatPlate({
      seat: s, base, players, name, mine, state: acting ? ["to-act"] : [], empty: seat.kind === "open" || seat.kind === "reserved", ring, dealer,
      presence: seat.kind === "human" && !seat.standin ? el("span", { class: "presence " + (seat.connected ? "on" : "off"), title: seat.connected ? t("connected") : t("not connected"), "aria-hidden": "true" }) : null,
      you: mine ? el("span", { class: "you" }, " " + t("(you)")) : null,
      text: [seat.account_bot ? accountTag() : null, tag ? el("span", { class: "seat-tag" }, tag) : null, line, st],
      words,
      flag: acting ? el("span", { class: "turn-flag", "aria-hidden": "true" }, v && v.phase === "bid" ? t("bidding…") : mine ? t("your turn") : t("to play")) : null,
      after: backs,
    }));
  }
  patch(box, plates);
}

/** The on-screen rectangle a seat's cards come from and go to. */
export function seatRect(s) {
  const node = document.querySelector(`#seats .seat[data-seat='${s}'] .avatar`);
  return node ? node.getBoundingClientRect() : null;
}
