// The list of duplicate events and the form that creates one (docs/events.md).
import { botName, clear, el } from "./common.js";
import { number, t, tn } from "./i18n.js";
import { answerError, eventTitle, statusWords } from "./event-words.js";

const $ = (id) => document.getElementById(id);
let csrf = null;
let maxHandSize = {};

async function account() {
  const res = await fetch("/api/account", { credentials: "same-origin" });
  const data = await res.json();
  csrf = data.csrf;
  const signedIn = Boolean(data.user);
  $("signin-note").hidden = signedIn;
  $("ev-create").disabled = !signedIn;
}

async function options() {
  const data = await (await fetch("/api/options")).json();
  maxHandSize = data.max_hand_size || {};
  const select = $("ev-bot");
  for (const name of data.bots) {
    select.append(el("option", { value: name, selected: name === data.default_bot }, botName(name)));
  }
}

async function list() {
  const body = $("event-list").querySelector("tbody");
  try {
    const res = await fetch("/api/events");
    if (!res.ok) throw await answerError(res);
    const data = await res.json();
    clear(body);
    for (const e of data.events) {
      body.append(el("tr", {},
        el("td", {}, el("a", { href: e.url }, eventTitle(e.title))), el("td", {}, statusWords(e.status)),
        el("td", {}, t("{tables} × {players}", { tables: number(e.tables), players: tn("{n} player", "{n} players", e.players) })),
        el("td", {}, number(e.hands)), el("td", {}, e.organiser || "")));
    }
    $("list-status").textContent = data.events.length ? "" : t("No events yet.");
  } catch (err) {
    $("list-status").textContent = t("The events could not be loaded ({why}).",
      { why: err.code ? err.message : t("no connection") });
  }
}

/** The custom hand sizes typed, or a sentence saying what is wrong with them. */
function handSizes(players) {
  const parts = $("ev-sizes").value.split(/[\s,;]+/).filter(Boolean);
  const most = maxHandSize[String(players)] || 15;
  if (!parts.length) return { error: t("Type the hand sizes, e.g. 1, 2, 3.") };
  if (parts.some((p) => !/^\d+$/.test(p) || Number(p) < 1 || Number(p) > most)) {
    return { error: tn("A hand size is a whole number from 1 to {n} with {players} player.",
      "A hand size is a whole number from 1 to {n} with {players} players.", players,
      { n: number(most), players: number(players) }) };
  }
  return { sizes: parts.map(Number) };
}

$("new-event").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("create-error").textContent = "";
  const schedule = $("ev-schedule").value;
  const players = Number($("ev-players").value);
  const body = { title: $("ev-title").value, tables: Number($("ev-tables").value), players,
    rules: schedule === "custom" ? {} : { schedule }, bot: $("ev-bot").value };
  if (schedule === "custom") {
    const typed = handSizes(players);
    if (typed.error) {
      $("create-error").textContent = typed.error;
      return;
    }
    body.hand_sizes = typed.sizes;
  }
  try {
    await account();   // a fresh token: the first looks at /api/account may have set two anonymous cookies
    const res = await fetch("/api/events", { method: "POST", credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrf-token": csrf || "" }, body: JSON.stringify(body) });
    if (!res.ok) {
      const err = await answerError(res);
      // English readers get the server's own sentence (it says which setting and why)
      $("create-error").textContent = document.documentElement.lang === "en" && err.detail ? err.detail : err.message;
      return;
    }
    location.href = (await res.json()).url;
  } catch {
    $("create-error").textContent = t("No connection to the server.");
  }
});

account().catch(() => { $("ev-create").disabled = true; });
options().catch(() => {});
list();
