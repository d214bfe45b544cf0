// A player's page: figures, rating history (an SVG chart), bids made exactly, recent games.
// Everything comes from the server's reading of the tables' logs (/api/players/NAME).

const $ = (id) => document.getElementById(id);
const username = decodeURIComponent(location.pathname.split("/")[2] || "");
const SVG = "http://www.w3.org/2000/svg";

function text(tag, value, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = value;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

const pct = (e) => (e.bids ? `${e.made} (${Math.round((100 * e.made) / e.bids)}%)` : "—");

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
  if (!history.length) { box.append(text("p", "No rated games yet.", { class: "muted" })); return; }
  const W = 640, H = 220, L = 40, R = 10, T = 10, B = 24;
  const ys = [0, ...history.map((h) => h.ordinal)];   // every player starts at 25 - 3 × 8.33 = 0
  const lo = Math.min(0, ...ys), hi = Math.max(1, ...ys);
  const x = (i) => L + (W - L - R) * (i / (ys.length - 1));
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img",
    "aria-label": `Rating from the start and after each rated game: ${ys.map((v) => v.toFixed(1)).join(", ")}` });
  root.append(svg("line", { x1: L, y1: y(lo), x2: W - R, y2: y(lo), class: "axis" }),
    svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    const label = svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" });
    label.textContent = v.toFixed(1);
    root.append(label);
  }
  const first = svg("text", { x: L, y: H - 6 }); first.textContent = "start";
  const last = svg("text", { x: W - R, y: H - 6, "text-anchor": "end" }); last.textContent = `game ${history.length}`;
  root.append(first, last);
  root.append(svg("polyline", { class: "line", points: ys.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  ys.forEach((v, i) => root.append(svg("circle", { class: "dot", cx: x(i), cy: y(v), r: 3 })));
  box.append(root);
}

function rows(id, entries, label) {
  const body = $(id).querySelector("tbody");
  for (const [k, e] of entries) {
    const tr = document.createElement("tr");
    tr.append(text("td", label(k)), text("td", e.bids), text("td", pct(e)));
    body.append(tr);
  }
  if (!entries.length) {
    const tr = document.createElement("tr");
    tr.append(text("td", "No hands yet", { colspan: "3", class: "muted" }));
    body.append(tr);
  }
}

async function start() {
  let data;
  try {
    const res = await fetch(`/api/players/${encodeURIComponent(username)}`);
    data = await res.json();
    if (!res.ok) { $("status").textContent = data.message ? `Not found: ${data.message}.` : "Not found."; return; }
  } catch {
    $("status").textContent = "The server cannot be reached; reload the page to try again.";
    return;
  }
  document.title = `${data.username} · Oh Hell`;
  $("title").textContent = data.username;
  $("name").textContent = data.username;
  if (data.bot) $("name").append(" ", text("span", "bot account", { class: "pill", title: "a program playing through the bot API" }));
  $("status").textContent = "";
  $("player").classList.remove("hidden");
  const r = data.rating;
  figure("Rating", r ? r.ordinal.toFixed(1) : "not rated yet");
  figure("Games played", data.games);
  figure("Hands played", data.hands);
  figure("Points per hand", data.points_per_hand === null ? "—" : data.points_per_hand.toFixed(2));
  figure("Bids made exactly", pct(data.bids.overall));
  chart(data.history);
  rows("by-cards", Object.entries(data.bids.by_cards), (k) => `${k} card${k === "1" ? "" : "s"}`);
  rows("by-seat", Object.entries(data.bids.by_seat), (k) => {
    const [i, n] = k.split("/");
    return i === n ? `dealer (of ${n})` : `${i} of ${n}`;
  });
  const list = $("recent");
  if (!data.recent.length) list.append(text("li", "No finished games yet.", { class: "muted" }));
  for (const g of data.recent) {
    const li = document.createElement("li");
    const a = g.replay ? text("a", `${g.names.join(", ")}`, { href: g.replay }) : text("span", "A private table");
    const place = g.place === 1 ? "won" : `place ${g.place} of ${g.players}`;
    li.append(a, ` — ${g.points} points, ${place}${g.rated ? ", rated" : ""}, ${new Date(g.finished * 1000).toLocaleString()}`);
    list.append(li);
  }
}

start();
