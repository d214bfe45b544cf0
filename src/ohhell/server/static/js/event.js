// One duplicate event: its seats, its tables, its results and the commitment to its deals.
// Everything comes from GET /api/events/{id}; the server decides what may be shown (no card
// of a game in progress, no seed before every table has finished).  Every text is in the
// page's language (i18n.js); the server's data (names, rules, codes) is worded here.
import { botName, cardText, clear, describeRules, el, seatName, store } from "./common.js";
import { number, t, tn } from "./i18n.js";
import { answerError, eventTitle, statusWords } from "./event-words.js";

const $ = (id) => document.getElementById(id);
const eventId = decodeURIComponent(location.pathname.split("/").pop());
let csrf = null;
let me = null;
let timer = null;

const mine = () => { try { return JSON.parse(store.get(`event.${eventId}`) || "null"); } catch { return null; } };

// The CSRF token is asked for just before each request: the page's two first looks at
// /api/account (this script's and the header link's) may each set a fresh anonymous cookie,
// and only the token of the cookie the browser kept is good.
async function csrfToken() {
  const data = await (await fetch("/api/account", { credentials: "same-origin" })).json();
  csrf = data.csrf;
  return csrf;
}

async function post(path, body = {}) {
  const token = await csrfToken();
  const res = await fetch(path, { method: "POST", credentials: "same-origin",
    headers: { "content-type": "application/json", "x-csrf-token": token || "" }, body: JSON.stringify(body) });
  if (!res.ok) throw await answerError(res);
  return res.json().catch(() => ({}));
}

/** What went wrong with a request, in words (a refusal by its code, else no connection). */
const failure = (err) => (err && err.code !== undefined ? err.message : t("No connection to the server."));

function who(entry) {
  const name = entry.name ? seatName(entry.name) : t("open seat");
  return entry.bot ? [name, el("span", { class: "pill bot" }, t("bot"))] : [name];
}

const tableSeat = (table, seat) => t("table {table}, seat {seat}", { table: number(table + 1), seat: number(seat + 1) });

function renderSeats(ev) {
  const box = clear($("seats"));
  const open = ev.status === "open";
  const held = ev.you.seat || (mine() && [mine().table, mine().seat]);
  const bot = botName(ev.bot);
  $("seats-note").textContent = open
    ? (held ? t("You hold seat {seat} of table {table}. The organiser starts the event; empty seats get a bot ({bot}).",
      { seat: number(held[1] + 1), table: number(held[0] + 1), bot })
      : t("Take an empty seat. When the organiser starts the event, empty seats get a bot ({bot}).", { bot }))
    : t("The seats as the tables were made.");
  $("guest-name-row").hidden = !open || Boolean(me) || Boolean(held);
  $("leave-row").hidden = !open || !held;
  ev.seats.forEach((row, tb) => {
    const list = el("ol", {});
    row.forEach((entry, s) => {
      const item = el("li", {}, ...who(entry));
      if (open && entry.kind === "open" && !held) {
        item.append(" ", el("button", { type: "button", class: "take", "data-table": tb, "data-seat": s,
          "aria-label": t("Take seat {seat} of table {table}", { seat: number(s + 1), table: number(tb + 1) }),
          onclick: () => take(tb, s) }, t("Take this seat")));
      }
      list.append(item);
    });
    box.append(el("div", { class: "event-table" }, el("h3", {}, t("Table {n}", { n: number(tb + 1) })), list));
  });
}

function renderLive(ev) {
  $("live-panel").hidden = ev.live.length === 0;
  const list = clear($("live"));
  const held = ev.you.seat || (mine() && [mine().table, mine().seat]);
  const guest = mine();
  const hands = ev.rules.hand_sizes.length;
  for (const tb of ev.live) {
    const yours = held && held[0] === tb.table;
    if (yours && guest && guest.token) store.set(`seat.${tb.id}`, guest.token);   // the table page finds the guest's seat
    const over = tb.status === "over";
    const progress = over ? t("finished") : tn("playing, {done} of {n} hand done", "playing, {done} of {n} hands done", hands,
      { done: number(tb.hands_finished) });
    if (held && !yours && !ev.revealed) {   // the server lets no player watch another table while the event runs
      list.append(el("li", {}, t("Table {n}", { n: number(tb.table + 1) }), " · ", progress));
      continue;
    }
    list.append(el("li", {}, el("a", { href: tb.url }, t("Table {n}", { n: number(tb.table + 1) })), " · ", progress,
      " · ", yours && !over ? el("a", { href: tb.url, class: "play-link" }, t("Play at your table"))
        : el("a", { href: tb.url }, over ? t("See it") : t("Watch"))));
  }
}

function renderResults(ev) {
  const r = ev.results;
  const body = clear($("ranking").querySelector("tbody"));
  const hands = ev.rules.hand_sizes.length;
  $("results-note").textContent = ev.status === "open" ? t("Results appear as every table finishes each hand.")
    : tn("{done} of {n} hand finished at every table.", "{done} of {n} hands finished at every table.", hands,
      { done: number(r.hands_done) })
      + (ev.revealed ? "" : " " + t("(A hand is shown once every table has finished it.)"));
  for (const e of r.ranking) {
    body.append(el("tr", {}, el("td", {}, number(e.place)), el("td", {}, ...who(e)), el("td", {}, tableSeat(e.table, e.seat)),
      el("td", { class: "mp" }, number(e.total, e.total % 1 ? 1 : 0)),
      el("td", {}, e.percentage === null ? "" : number(e.percentage, 1)), el("td", {}, number(e.points))));
  }
  const box = clear($("hands"));
  for (const h of r.hands) {
    const head = el("tr", {}, el("th", { scope: "col" }, t("Table")),
      ...ev.seats[0].map((_, s) => el("th", { scope: "col" }, t("Seat {n}", { n: number(s + 1) }))));
    const rows = h.tables.map((seats, tb) => el("tr", {}, el("th", { scope: "row" }, t("Table {n}", { n: number(tb + 1) })),
      ...seats.map((x) => el("td", { class: "mp" }, t("bid {bid}, won {won}: {points} · {mp} MP", {
        bid: number(x.bid), won: number(x.tricks), points: tn("{n} point", "{n} points", x.score),
        mp: number(x.mp, x.mp % 1 ? 1 : 0) })))));
    const table = el("table", { class: "player-table wide hand-result" },
      el("caption", {}, tn("Hand {hand} ({n} card)", "Hand {hand} ({n} cards)", h.size, { hand: number(h.hand) })),
      el("thead", {}, head), el("tbody", {}, ...rows));
    box.append(table);
    if (h.deal) {
      const dealt = h.deal.hands.map((cards, s) => t("seat {seat}: {cards}", { seat: number(s + 1), cards: cards.map(cardText).join(" ") }));
      box.append(el("p", { class: "small deal" }, t("Dealt to every table:") + " ", dealt.join("; "),
        "; " + (h.deal.trump ? t("turned {card}", { card: cardText(h.deal.trump) }) : t("no trump")),
        " " + (h.deal.same_at_every_table ? t("(the same at every table)") : t("(THE TABLES DIFFER)"))));
    }
  }
}

function renderFair(ev) {
  $("seed").textContent = ev.seed || t("secret until every table has finished");
  const list = clear($("commitments"));
  ev.commitments.forEach((c) => list.append(el("li", {}, c)));
}

function render(ev) {
  const title = eventTitle(ev.title);
  document.title = t("{title} · Oh Hell", { title });
  $("ev-name").textContent = title;
  $("ev-heading").textContent = title;
  $("ev-summary").textContent = [statusWords(ev.status), t("organised by {name}", { name: ev.organiser }),
    tn("{n} table of {players}", "{n} tables of {players}", ev.tables,
      { players: tn("{n} player", "{n} players", ev.players) }),
    describeRules(ev.rules)].join(" · ");
  $("ev-summary").dataset.status = ev.status;
  $("ev-controls").hidden = !ev.you.organiser || !["open", "playing"].includes(ev.status);
  $("ev-start").hidden = ev.status !== "open";
  renderSeats(ev);
  renderLive(ev);
  renderResults(ev);
  renderFair(ev);
}

async function load() {
  clearTimeout(timer);
  try {
    const res = await fetch(`/api/events/${encodeURIComponent(eventId)}`, { credentials: "same-origin" });
    if (!res.ok) throw await answerError(res);
    const ev = await res.json();
    $("ev-error").textContent = "";
    render(ev);
    if (!ev.revealed && ev.status !== "cancelled" || ev.status === "cancelled" && ev.live.length && !ev.revealed) {
      timer = setTimeout(load, 3000);
    }
  } catch (err) {
    $("ev-error").textContent = t("The event could not be loaded ({why}).", { why: failure(err) });
    if (err.code !== "no_event") timer = setTimeout(load, 5000);
  }
}

async function leave() {
  $("ev-error").textContent = "";
  try {
    await post(`/api/events/${encodeURIComponent(eventId)}/leave`, { token: (mine() || {}).token || null });
    store.remove(`event.${eventId}`);
  } catch (err) {
    $("ev-error").textContent = failure(err);
  }
  load();
}
$("leave").addEventListener("click", leave);

async function take(table, seat) {
  $("ev-error").textContent = "";
  try {
    const data = await post(`/api/events/${encodeURIComponent(eventId)}/join`, { table, seat, name: $("guest-name").value });
    if (data.token) store.set(`event.${eventId}`, JSON.stringify({ table, seat, token: data.token }));
    if (!data.token) store.set(`event.${eventId}`, JSON.stringify({ table, seat }));
  } catch (err) {
    $("ev-error").textContent = failure(err);
  }
  load();
}

$("ev-start").addEventListener("click", async () => {
  $("ev-error").textContent = "";
  try { await post(`/api/events/${encodeURIComponent(eventId)}/start`); } catch (err) { $("ev-error").textContent = failure(err); }
  load();
});
$("ev-cancel").addEventListener("click", async () => {
  if (!confirm(t("Cancel this event? Tables already playing play on."))) return;
  $("ev-error").textContent = "";
  try { await post(`/api/events/${encodeURIComponent(eventId)}/cancel`); } catch (err) { $("ev-error").textContent = failure(err); }
  load();
});

fetch("/api/account", { credentials: "same-origin" }).then((r) => r.json()).then((data) => {
  csrf = data.csrf;
  me = data.user;
}).catch(() => {}).finally(load);
