// The lobby: create a table (every variant, each seat open, a bot or reserved) and list open tables.
import { api, botName, clear, describeRules, el, presetName, scheduleName, seatName, store, toast } from "./common.js";
import { number, t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let options = null;
const FLAGS = ["hook", "simultaneous_bidding", "must_trump", "missed_bid_scores_tricks", "zero_bid_scores_hand_size"];

function scheduleSizes(schedule, players) {
  const m = options.max_hand_size[String(players)];
  const up = Array.from({ length: m }, (_, i) => i + 1);
  if (schedule === "up") return up;
  if (schedule === "down") return [...up].reverse();
  if (schedule === "up-down") return [...up, ...up.slice(0, -1).reverse()];
  if (schedule === "down-up") return [...[...up].reverse(), ...up.slice(1)];
  return null;
}

function customSizes() {
  const text = $("hand-sizes").value.trim();
  if (!text) return null;
  return text.split(/[ ,]+/).filter(Boolean).map(Number);
}

function renderSchedule() {
  const players = Number($("players").value);
  const schedule = $("schedule").value;
  $("hand-sizes").classList.toggle("hidden", schedule !== "custom");
  const sizes = schedule === "custom" ? customSizes() : scheduleSizes(schedule, players);
  $("schedule-text").textContent = sizes
    ? tn("{n} hand: {sizes}", "{n} hands: {sizes}", sizes.length, { sizes: sizes.map((x) => number(x)).join(", ") }) : "";
}

function renderSeats() {
  const players = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll(".row")].map((r) => ({
    kind: r.querySelector(".kind").value, bot: r.querySelector(".bot").value,
  }));
  clear(box);
  for (let i = 0; i < players; i++) {
    const prev = old[i] || { kind: i === 0 ? "open" : i === 1 ? "open" : "bot", bot: options.default_bot };
    const seatNo = number(i + 1);
    const kind = el("select", { class: "kind", "aria-label": t("Seat {n}", { n: seatNo }) },
      el("option", { value: "open", selected: prev.kind === "open" }, t("Open: anyone with the link")),
      el("option", { value: "bot", selected: prev.kind === "bot" }, t("Bot")),
      el("option", { value: "reserved", selected: prev.kind === "reserved" }, t("Reserved: a private invite link")));
    const bot = el("select", { class: "bot", "aria-label": t("Bot level for seat {n}", { n: seatNo }) },
      options.bots.map((b) => el("option", { value: b, selected: b === prev.bot }, botName(b))));
    const sync = () => bot.classList.toggle("hidden", kind.value !== "bot");
    kind.addEventListener("change", sync);
    sync();
    box.append(el("div", { class: "row" }, el("span", { class: "n" }, t("Seat {n}", { n: seatNo })), kind, bot));
  }
}

function applyPreset() {
  const preset = options.presets[$("preset").value];
  if (!preset) return;
  for (const f of FLAGS) $(f).checked = !!preset[f];
  $("no-trump").value = preset.no_trump;
  if (preset.schedule === "custom") {
    $("schedule").value = "custom";
    $("hand-sizes").value = preset.hand_sizes.join(",");
  } else {
    $("schedule").value = preset.schedule;
  }
  renderSchedule();
}

function rulesFromForm() {
  const rules = { players: Number($("players").value), no_trump: $("no-trump").value };
  const schedule = $("schedule").value;
  if (schedule === "custom") {
    rules.schedule = "custom";
    rules.hand_sizes = customSizes() || [];
  } else {
    rules.schedule = schedule;
  }
  for (const f of FLAGS) rules[f] = $(f).checked;
  return rules;
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const sit = $("sit").checked;
  const name = $("yourname").value.trim();
  if (sit && !name) { $("create-error").textContent = t("Type your name to sit at the table (or untick “I will sit in seat 1”)."); $("yourname").focus(); return; }
  const seats = [...document.querySelectorAll("#seats .row")].map((r) => {
    const kind = r.querySelector(".kind").value;
    return kind === "bot" ? { kind, bot: r.querySelector(".bot").value } : { kind };
  });
  if (sit && seats[0].kind !== "open") seats[0] = { kind: "open" };
  let away = null;
  if ($("away-on").checked) {
    const after = Number($("away-after").value);
    const [lo, hi] = options.away.range;
    if (!Number.isFinite(after) || after < lo || after > hi) {
      $("create-error").textContent = t("The away time is {lo} to {hi} seconds.", { lo: number(lo), hi: number(hi) });
      $("away-after").focus();
      return;
    }
    away = { after, bot: $("away-bot").value };
  }
  const body = {
    title: $("title").value, private: $("private").checked, rules: rulesFromForm(), seats, away,
    spectator_chat: $("spectators-apart").checked ? "apart" : "together",
    help: $("help").checked,
  };
  $("create-button").disabled = true;
  try {
    // the page's CSRF token (docs/accounts.md), asked for just before the request: the page's
    // first looks at /api/account (the header link's) may each set a fresh anonymous cookie, and
    // only the token of the cookie the browser kept is good
    const { csrf } = await api("/api/account", { credentials: "same-origin" });
    const res = await api("/api/tables", { method: "POST", credentials: "same-origin",
      headers: { "x-csrf-token": csrf || "" }, body: JSON.stringify(body) });
    store.set(`admin.${res.id}`, res.admin);
    store.set(`invites.${res.id}`, JSON.stringify(res.invites));
    if (name) store.set("name", name);
    if (sit) store.set(`autojoin.${res.id}`, "0");
    location.href = res.url;
  } catch (e) {
    $("create-error").textContent = e.code ? e.message : t("The server cannot be reached; check your connection and try again.");
  } finally {
    $("create-button").disabled = false;
  }
}

const PAGE = 50;
let shown = PAGE;  // how many tables of the list to show ("Show more" adds a page)

let lastList = "";  // the list as last drawn: redrawn only when it changed (keeps keyboard focus)

async function refreshTables() {
  let data;
  try { data = await api(`/api/tables?limit=${shown}`); } catch { return; }
  const key = JSON.stringify([data.total, data.tables.map(({ updated, ...row }) => row)]);
  if (key === lastList) return;
  lastList = key;
  const list = clear($("tables"));
  $("tables-count").textContent = data.total ? `(${number(data.total)})` : "";
  if (!data.tables.length) list.append(el("li", { class: "muted" }, t("No open tables yet: create one!")));
  for (const row of data.tables) {
    const url = `/t/${encodeURIComponent(row.id)}`;
    const name = row.title || t("Table {id}", { id: row.id });
    const who = row.names.map((n, i) => (!n ? t("open seat") : (row.account_bots || []).includes(i) ? t("{name} (bot)", { name: n }) : seatName(n))).join(", ");
    const state = row.status === "waiting" ? tn("{n} open seat", "{n} open seats", row.open.length)
      : row.status === "playing" ? t("playing hand {hand} of {hands}", { hand: number(row.hand), hands: number(row.hands) }) : t("game over");
    list.append(el("li", { "data-table": row.id },
      el("div", { class: "what" }, el("strong", {}, name), el("br"),
        el("span", { class: "small" }, row.rules ? describeRules(row.rules) : row.description), el("br"), el("span", { class: "small muted" }, `${who} · ${state}`)),
      row.open.length ? el("a", { href: url, class: "join-link", "aria-label": t("Join {name}", { name }) }, t("Join")) : null,
      el("a", { href: url, class: "watch-link", "aria-label": t("Watch {name}", { name }) }, t("Watch"))));
  }
  if (data.total > data.tables.length) {
    list.append(el("li", { class: "more" }, el("button", {
      id: "more-tables", onclick: () => { shown = Math.min(shown + PAGE, 500); refreshTables(); },
    }, tn("Show more ({n} not shown)", "Show more ({n} not shown)", data.total - data.tables.length))));
  }
}

async function main() {
  options = await api("/api/options");
  $("version").textContent = `v${options.version}`;
  $("yourname").value = store.get("name") || "";
  for (let p = 3; p <= 7; p++) $("players").append(el("option", { value: p, selected: p === 4 }, tn("{n} player", "{n} players", p)));
  for (const name of Object.keys(options.presets)) $("preset").append(el("option", { value: name }, presetName(name)));
  for (const s of options.schedules) $("schedule").append(el("option", { value: s }, s === "custom" ? t("custom…") : scheduleName(s)));
  $("players").addEventListener("change", () => { renderSeats(); renderSchedule(); });
  $("schedule").addEventListener("change", renderSchedule);
  $("hand-sizes").addEventListener("input", renderSchedule);
  $("preset").addEventListener("change", applyPreset);
  $("simultaneous_bidding").addEventListener("change", () => { if ($("simultaneous_bidding").checked) $("hook").checked = false; });
  $("hook").addEventListener("change", () => { if ($("hook").checked) $("simultaneous_bidding").checked = false; });
  $("create").addEventListener("submit", create);
  $("away-after").value = options.away.after;
  [$("away-after").min, $("away-after").max] = options.away.range;
  for (const b of options.bots) $("away-bot").append(el("option", { value: b, selected: b === options.away.bot }, botName(b)));
  const syncAway = () => { $("away-after").disabled = $("away-bot").disabled = !$("away-on").checked; };
  $("away-on").addEventListener("change", syncAway);
  syncAway();
  renderSeats();
  applyPreset();
  refreshTables();
  setInterval(refreshTables, 4000);
}

main().catch((e) => toast(t("The lobby could not load: {error}", { error: e.code ? e.message : t("no connection") }), "error"));
