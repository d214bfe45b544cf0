// A player's page: figures, rating history (an SVG chart), bids made exactly, recent games.
// Everything comes from the server's reading of the tables' logs (/api/players/NAME).
import { dateTime, number, t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const username = decodeURIComponent(location.pathname.split("/")[2] || "");
const SVG = "http://www.w3.org/2000/svg";

function text(tag, value, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = value;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

const pct = (e) => (e.bids ? t("{made} ({percent}%)", { made: number(e.made), percent: number(Math.round((100 * e.made) / e.bids)) }) : "—");

/** A time as the reader's language writes it (i18n.js dateTime). */
function when(seconds) {
  return dateTime(seconds);
}

function figure(label, value) {
  const box = document.createElement("div");
  box.append(text("dt", label), text("dd", value));
  $("figures").append(box);
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function chart(history) {
  const box = $("chart");
  if (!history.length) { box.append(text("p", t("No rated games yet."), { class: "muted" })); return; }
  const W = 640, H = 220, L = 54, R = 10, T = 10, B = 24;
  const ys = [0, ...history.map((h) => h.ordinal)];   // every player starts at 25 - 3 × 8.33 = 0
  const lo = Math.min(0, ...ys), hi = Math.max(1, ...ys);
  const x = (i) => L + (W - L - R) * (i / (ys.length - 1));
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img",
    "aria-label": t("Rating from the start and after each rated game: {ratings}", { ratings: ys.map((v) => number(v, 1)).join("; ") }) });
  root.append(svg("line", { x1: L, y1: y(lo), x2: W - R, y2: y(lo), class: "axis" }),
    svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    const label = svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" });
    label.textContent = number(v, 1);
    root.append(label);
  }
  const first = svg("text", { x: L, y: H - 6 }); first.textContent = t("start");
  const last = svg("text", { x: W - R, y: H - 6, "text-anchor": "end" });
  last.textContent = t("game {game}", { game: number(history.length) });
  // the axes' titles
  const across = svg("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "axis-title" });
  across.textContent = t("rated games");
  const up = svg("text", { x: 12, y: (T + H - B) / 2, "text-anchor": "middle", class: "axis-title",
    transform: `rotate(-90 12 ${(T + H - B) / 2})` });
  up.textContent = t("rating");
  root.append(across, up);
  root.append(first, last);
  root.append(svg("polyline", { class: "line", points: ys.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  ys.forEach((v, i) => root.append(svg("circle", { class: "dot", cx: x(i), cy: y(v), r: 3 })));
  box.append(root);
}

function rows(id, entries, label) {
  const body = $(id).querySelector("tbody");
  for (const [k, e] of entries) {
    const tr = document.createElement("tr");
    tr.append(text("td", label(k)), text("td", number(e.bids)), text("td", pct(e)));
    body.append(tr);
  }
  if (!entries.length) {
    const tr = document.createElement("tr");
    tr.append(text("td", t("No hands yet"), { colspan: "3", class: "muted" }));
    body.append(tr);
  }
}

async function start() {
  let data;
  try {
    const res = await fetch(`/api/players/${encodeURIComponent(username)}`);
    data = await res.json();
    if (!res.ok) {
      $("status").textContent = res.status === 404 ? t("There is no player called {name} here.", { name: username })
        : t("The player's page could not be loaded (the server answered {status}).", { status: res.status });
      return;
    }
  } catch {
    $("status").textContent = t("The server cannot be reached; reload the page to try again.");
    return;
  }
  document.title = `${data.username} · Oh Hell`;
  $("title").textContent = data.username;
  $("name").textContent = data.username;
  if (data.bot) $("name").append(" ", text("span", t("bot account"), { class: "pill", title: t("a program playing through the bot API") }));
  $("status").textContent = "";
  $("player").classList.remove("hidden");
  const r = data.rating;
  figure(t("Rating"), r ? number(r.ordinal, 1) : t("not rated yet"));
  figure(t("Games played"), number(data.games));
  figure(t("Hands played"), number(data.hands));
  figure(t("Points per hand"), data.points_per_hand === null ? "—" : number(data.points_per_hand, 2));
  figure(t("Bids made exactly"), pct(data.bids.overall));
  chart(data.history);
  rows("by-cards", Object.entries(data.bids.by_cards), (k) => tn("{n} card", "{n} cards", Number(k)));
  rows("by-seat", Object.entries(data.bids.by_seat), (k) => {
    const [i, n] = k.split("/");
    return i === n ? t("dealer (of {players})", { players: number(Number(n)) })
      : t("{seat} of {players}", { seat: number(Number(i)), players: number(Number(n)) });
  });
  const list = $("recent");
  if (!data.recent.length) list.append(text("li", t("No finished games yet."), { class: "muted" }));
  for (const g of data.recent) {
    const li = document.createElement("li");
    const a = g.replay ? text("a", `${g.names.join(", ")}`, { href: g.replay }) : text("span", t("A private table"));
    const place = g.place === 1 ? t("won") : t("place {place} of {players}", { place: number(g.place), players: number(g.players) });
    const facts = [tn("{n} point", "{n} points", g.points), place];
    if (g.rated) facts.push(t("rated"));
    facts.push(when(g.finished));
    li.append(a, " — " + facts.join(", "));
    list.append(li);
  }
}

start();
