// One duplicate event: its seats, its tables, its results and the commitment to its deals.
// Everything comes from GET /api/events/{id}; the server decides what may be shown (no card
// of a game in progress, no seed before every table has finished).
import { el, clear, store } from "./common.js";

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
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || `${res.status} ${res.statusText}`);
  return data;
}

function who(entry) {
  const name = entry.name || "open";
  return entry.bot ? [name, el("span", { class: "pill bot" }, "bot")] : [name];
}

function renderSeats(ev) {
  const box = clear($("seats"));
  const open = ev.status === "open";
  const held = ev.you.seat || (mine() && [mine().table, mine().seat]);
  $("seats-note").textContent = open
    ? (held ? `You hold seat ${held[1] + 1} of table ${held[0] + 1}. The organiser starts the event; empty seats get a ${ev.bot} bot.`
      : `Take an empty seat. When the organiser starts the event, empty seats get a ${ev.bot} bot.`)
    : "The seats as the tables were made.";
  $("guest-name-row").hidden = !open || Boolean(me) || Boolean(held);
  $("leave-row").hidden = !open || !held;
  ev.seats.forEach((row, t) => {
    const list = el("ol", {});
    row.forEach((entry, s) => {
      const item = el("li", {}, ...who(entry));
      if (open && entry.kind === "open" && !held) {
        item.append(" ", el("button", { type: "button", class: "take", "data-table": t, "data-seat": s,
          "aria-label": `Take seat ${s + 1} of table ${t + 1}`, onclick: () => take(t, s) }, "Take this seat"));
      }
      list.append(item);
    });
    box.append(el("div", { class: "event-table" }, el("h3", {}, `Table ${t + 1}`), list));
  });
}

function renderLive(ev) {
  $("live-panel").hidden = ev.live.length === 0;
  const list = clear($("live"));
  const held = ev.you.seat || (mine() && [mine().table, mine().seat]);
  const guest = mine();
  for (const t of ev.live) {
    const yours = held && held[0] === t.table;
    if (yours && guest && guest.token) store.set(`seat.${t.id}`, guest.token);   // the table page finds the guest's seat
    list.append(el("li", {}, el("a", { href: t.url }, `Table ${t.table + 1}`), " · ",
      t.status === "over" ? "finished" : `playing, ${t.hands_finished} of ${ev.rules.hand_sizes.length} hands done`,
      " · ", yours && t.status !== "over" ? el("a", { href: t.url, class: "play-link" }, "Play at your table") : el("a", { href: t.url }, t.status === "over" ? "See it" : "Watch")));
  }
}

function renderResults(ev) {
  const r = ev.results;
  const body = clear($("ranking").querySelector("tbody"));
  const hands = ev.rules.hand_sizes.length;
  $("results-note").textContent = ev.status === "open" ? "Results appear as every table finishes each hand."
    : `${r.hands_done} of ${hands} hands finished at every table${ev.revealed ? "" : " (a hand is shown once every table has finished it)"}.`;
  for (const e of r.ranking) {
    body.append(el("tr", {}, el("td", {}, e.place), el("td", {}, ...who(e)), el("td", {}, `${e.table + 1}, ${e.seat + 1}`),
      el("td", { class: "mp" }, e.total), el("td", {}, e.percentage === null ? "" : e.percentage.toFixed(1)), el("td", {}, e.points)));
  }
  const box = clear($("hands"));
  for (const h of r.hands) {
    const head = el("tr", {}, el("th", { scope: "col" }, "Table"),
      ...ev.seats[0].map((_, s) => el("th", { scope: "col" }, `Seat ${s + 1}`)));
    const rows = h.tables.map((seats, t) => el("tr", {}, el("th", { scope: "row" }, `Table ${t + 1}`),
      ...seats.map((x) => el("td", { class: "mp" }, `bid ${x.bid}, won ${x.tricks}: ${x.score} pts · ${x.mp} mp`))));
    const table = el("table", { class: "player-table wide hand-result" },
      el("caption", {}, `Hand ${h.hand} (${h.size} card${h.size === 1 ? "" : "s"})`), el("thead", {}, head), el("tbody", {}, ...rows));
    box.append(table);
    if (h.deal) {
      box.append(el("p", { class: "small deal" }, `Dealt to every table: `,
        h.deal.hands.map((cards, s) => `seat ${s + 1}: ${cards.join(" ")}`).join("; "),
        h.deal.trump ? `; turned ${h.deal.trump}` : "; no trump", h.deal.same_at_every_table ? " (the same at every table)" : " (TABLES DIFFER)"));
    }
  }
}

function renderFair(ev) {
  $("seed").textContent = ev.seed || "secret until every table has finished";
  const list = clear($("commitments"));
  ev.commitments.forEach((c) => list.append(el("li", {}, c)));
}

function render(ev) {
  document.title = `${ev.title} · Oh Hell`;
  $("ev-name").textContent = ev.title;
  $("ev-heading").textContent = ev.title;
  $("ev-summary").textContent = `${ev.status === "open" ? "Open for entries" : ev.status === "playing" ? "Being played"
    : ev.status === "over" ? "Over" : "Cancelled"} · organised by ${ev.organiser} · ${ev.tables} tables of ${ev.players} · ${ev.description}`;
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
    const ev = await res.json();
    if (!res.ok) throw new Error(ev.message);
    render(ev);
    if (!ev.revealed && ev.status !== "cancelled" || ev.status === "cancelled" && ev.live.length && !ev.revealed) {
      timer = setTimeout(load, 3000);
    }
  } catch (err) {
    $("ev-error").textContent = `The event could not be loaded (${err.message || "no connection"}).`;
    timer = setTimeout(load, 5000);
  }
}

async function leave() {
  $("ev-error").textContent = "";
  try {
    await post(`/api/events/${encodeURIComponent(eventId)}/leave`, { token: (mine() || {}).token || null });
    store.remove(`event.${eventId}`);
  } catch (err) {
    $("ev-error").textContent = err.message;
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
    $("ev-error").textContent = err.message;
  }
  load();
}

$("ev-start").addEventListener("click", async () => {
  $("ev-error").textContent = "";
  try { await post(`/api/events/${encodeURIComponent(eventId)}/start`); } catch (err) { $("ev-error").textContent = err.message; }
  load();
});
$("ev-cancel").addEventListener("click", async () => {
  if (!confirm("Cancel this event? Tables already playing play on.")) return;
  $("ev-error").textContent = "";
  try { await post(`/api/events/${encodeURIComponent(eventId)}/cancel`); } catch (err) { $("ev-error").textContent = err.message; }
  load();
});

fetch("/api/account", { credentials: "same-origin" }).then((r) => r.json()).then((data) => {
  csrf = data.csrf;
  me = data.user;
}).catch(() => {}).finally(load);
