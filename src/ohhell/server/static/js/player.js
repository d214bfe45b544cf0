// A player's page: figures, rating history (an SVG chart), points lost from the analyses of
// their games (a chart of the same kind), bids made exactly, recent games. Everything comes
// from the server's reading of the tables' logs and stored analyses (/api/players/NAME).
import { botName, seatName } from "./common.js";
import { date, dateTime, number, t, tn } from "./i18n.js";

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

function figure(label, value, into = "figures") {
  const box = document.createElement("div");
  box.append(text("dt", label), text("dd", value));
  $(into).append(box);
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * A line chart (SVG) drawn into `box`, shared by the rating and the points lost: `series` are
 * lines over the same points ({ values, cls }; the first gets a dot per point, hollow where
 * `hollow[i]`), `first` and `last` label the ends of the x axis, `across` and `up` title the
 * axes, `label` is its text alternative, `cls` its class; the y axis always shows `floor`.
 */
function lineChart(box, { series, first, last, across, up, label, cls, floor = 0, hollow = [] }) {
  // as wide as its box (up to 640), so that its words keep their size on a phone
  const W = Math.round(Math.max(300, Math.min(640, box.clientWidth || 640))), H = 220, L = 54, R = 10, T = 10, B = 24;
  const all = series.flatMap((s) => s.values);
  const lo = Math.min(floor, ...all), hi = Math.max(lo + 1, ...all);
  const count = series[0].values.length;
  const x = (i) => L + (W - L - R) * (count > 1 ? i / (count - 1) : 0.5);
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: `line-chart ${cls}`, role: "img", "aria-label": label });
  root.append(svg("line", { x1: L, y1: y(lo), x2: W - R, y2: y(lo), class: "axis" }),
    svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    const tick = svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" });
    tick.textContent = number(v, 1);
    root.append(tick);
  }
  const start = svg("text", { x: L, y: H - 6 }); start.textContent = first;
  const end = svg("text", { x: W - R, y: H - 6, "text-anchor": "end" }); end.textContent = last;
  // the axes' titles
  const xTitle = svg("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "axis-title" });
  xTitle.textContent = across;
  const yTitle = svg("text", { x: 12, y: (T + H - B) / 2, "text-anchor": "middle", class: "axis-title",
    transform: `rotate(-90 12 ${(T + H - B) / 2})` });
  yTitle.textContent = up;
  root.append(xTitle, yTitle, start, end);
  for (const s of [...series].reverse()) {   // the first series on top
    root.append(svg("polyline", { class: `line ${s.cls || ""}`, points: s.values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  }
  series[0].values.forEach((v, i) => root.append(svg("circle", { class: hollow[i] ? "dot hollow" : "dot", cx: x(i), cy: y(v), r: 3 })));
  box.append(root);
}

function chart(history) {
  const box = $("chart");
  if (!history.length) { box.append(text("p", t("No rated games yet."), { class: "muted" })); return; }
  const ys = [0, ...history.map((h) => h.ordinal)];   // every player starts at 25 - 3 × 8.33 = 0
  lineChart(box, {
    series: [{ values: ys }], cls: "rating-chart",
    first: t("start"), last: t("game {game}", { game: number(history.length) }),
    across: t("rated games"), up: t("rating"),
    label: t("Rating from the start and after each rated game: {ratings}", { ratings: ys.map((v) => number(v, 1)).join("; ") }),
  });
}

// Cards' losses are cross-fitted (docs/coach.md), so a close call can come out a little below
// zero: no measurable loss, shown as 0 (as the replay and the terminal do), never as a gain.
const lost = (x, digits = 1) => number(Math.max(0, x), digits);
const signed = (x) => (x >= 0.05 ? "+" : "") + number(x, 1);
const Z95 = 1.959964;

/** The points lost per game, from the server's analyses of the player's games (docs/coach.md). */
function analysed(a) {
  if (!a || !a.games) {
    $("analysed-count").textContent = a && a.of
      ? t("None of these games has been analysed yet: the server analyses each finished game in the background, a few minutes after it ends.")
      : t("No finished games yet.");
    $("analysed-more").hidden = true;
    return;
  }
  $("analysed-count").textContent = tn("{n} of {games} game analysed.", "{n} of {games} games analysed.", a.of,
    { n: number(a.games), games: number(a.of) });
  const avg = a.average || a.average_all;
  const notes = [];
  if (a.helped && a.average) {
    notes.push(tn("{n} of them with help (a hint, a take-back or a bot playing for the player): marked, and left out of the averages.",
      "{n} of them with help (a hint, a take-back or a bot playing for the player): marked, and left out of the averages.", a.helped, { n: number(a.helped) }));
  } else if (a.helped) {
    notes.push(t("Every analysed game had help (a hint, a take-back or a bot playing for the player): the averages count those games."));
  }
  $("analysed-help").textContent = notes.join(" ");
  const into = "lost-figures";
  figure(t("Points lost per game"), lost(avg.lost) + (avg.lost_se !== null ? ` ± ${number(Z95 * avg.lost_se, 1)}` : ""), into);
  figure(t("In bidding"), lost(avg.lost_bid), into);
  figure(t("In play"), lost(avg.lost_play), into);
  figure(t("Points lost per hand"), lost(avg.lost_per_hand, 2), into);
  if (avg.mistakes !== null) figure(t("Mistakes per game"), number(avg.mistakes, 1), into);
  figure(t("Points per game"), number(avg.score, 1), into);
  if (avg.luck !== null) {
    figure(t("Luck per game"), number(avg.luck, 1), into);
    figure(t("Skill per game"), signed(avg.skill), into);
  }
  const games = [...a.recent].reverse();   // oldest first
  const said = games.map((g) => (g.helped ? t("{points} (with help)", { points: lost(g.lost) }) : lost(g.lost))).join("; ");
  lineChart($("lost-chart"), {
    series: [{ values: games.map((g) => Math.max(0, g.lost)), cls: "all" },
      { values: games.map((g) => Math.max(0, g.lost_bid)), cls: "bid" },
      { values: games.map((g) => Math.max(0, g.lost_play)), cls: "play" }],
    hollow: games.map((g) => g.helped), cls: "lost-chart",
    first: date(games[0].finished), last: games.length > 1 ? date(games.at(-1).finished) : "",
    across: t("analysed games"), up: t("points lost"),
    label: t("Points lost in each analysed game, oldest first: {games}", { games: said }),
  });
  const body = $("analysed-games").querySelector("tbody");
  for (const g of a.recent.slice(0, 10)) {
    const tr = document.createElement("tr");
    const first = document.createElement("td");
    first.append(g.analysis ? text("a", date(g.finished), { href: g.analysis, title: when(g.finished) })
      : text("span", date(g.finished), { title: when(g.finished) }));
    if (g.private) first.append(" ", text("span", t("private table"), { class: "pill" }));
    if (g.helped) first.append(" ", text("span", t("help used"), { class: "pill help" }));
    tr.append(first, text("td", lost(g.lost)), text("td", lost(g.lost_bid)), text("td", lost(g.lost_play)),
      text("td", g.luck === null ? "—" : number(g.luck, 1)), text("td", g.skill === null ? "—" : signed(g.skill)));
    body.append(tr);
  }
}

/**
 * A recent game's players, each bot marked as the table's seat panel marks it
 * (table/panels.js): a *bot: level* badge on a seat of the server's bots (``bots``), a *bot
 * account* badge on a program's (``account_bots``, docs/bots-api.md).
 */
function players(g) {
  const out = [];
  g.names.forEach((n, i) => {
    if (i) out.push(", ");
    out.push(seatName(n));
    const bot = (g.bots || [])[i];
    if (bot) out.push(" ", text("span", t("bot: {level}", { level: botName(bot) }), { class: "pill bot" }));
    if ((g.account_bots || []).includes(i)) {
      out.push(" ", text("span", t("bot account"), { class: "pill bot-account", title: t("a program playing through the bot API") }));
    }
  });
  return out;
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
  analysed(data.analysis);
  rows("by-cards", Object.entries(data.bids.by_cards), (k) => tn("{n} card", "{n} cards", Number(k)));
  rows("by-seat", Object.entries(data.bids.by_seat), (k) => {
    const [i, n] = k.split("/");
    return i === n ? t("dealer (of {players})", { players: number(Number(n)) })
      : t("{seat} of {players}", { seat: number(Number(i)), players: number(Number(n)) });
  });
  const list = $("recent");
  const analyses = new Map(((data.analysis && data.analysis.recent) || []).filter((g) => g.analysis).map((g) => [`${g.table}/${g.game}`, g.analysis]));
  if (!data.recent.length) list.append(text("li", t("No finished games yet."), { class: "muted" }));
  for (const g of data.recent) {
    const li = document.createElement("li");
    let a = text("span", t("A private table"));
    if (g.replay) {
      a = text("a", "", { href: g.replay });
      a.append(...players(g));
    }
    const place = g.place === 1 ? t("won") : t("place {place} of {players}", { place: number(g.place), players: number(g.players) });
    const facts = [tn("{n} point", "{n} points", g.points), place];
    if (g.rated) facts.push(t("rated"));
    facts.push(when(g.finished));
    li.append(a, " — " + facts.join(", "));
    const analysis = analyses.get(`${g.table}/${g.game}`);
    if (analysis) li.append(" · ", text("a", t("its analysis"), { href: analysis }));
    list.append(li);
  }
}

start();
