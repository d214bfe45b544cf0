// The list of duplicate events and the form that creates one (docs/events.md).
import { el, clear } from "./common.js";

const $ = (id) => document.getElementById(id);
let csrf = null;

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
  const select = $("ev-bot");
  for (const name of data.bots) select.append(el("option", { value: name, selected: name === data.default_bot }, name));
}

async function list() {
  const body = $("event-list").querySelector("tbody");
  try {
    const res = await fetch("/api/events");
    const data = await res.json();
    if (!res.ok) throw new Error(data.message);
    clear(body);
    for (const e of data.events) {
      body.append(el("tr", {},
        el("td", {}, el("a", { href: e.url }, e.title)), el("td", {}, e.status),
        el("td", {}, `${e.tables} × ${e.players}`), el("td", {}, e.hands), el("td", {}, e.organiser || "")));
    }
    $("list-status").textContent = data.events.length ? "" : "No events yet.";
  } catch (err) {
    $("list-status").textContent = `The events could not be loaded (${err.message || "no connection"}).`;
  }
}

$("new-event").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("create-error").textContent = "";
  const schedule = $("ev-schedule").value;
  const body = { title: $("ev-title").value, tables: Number($("ev-tables").value), players: Number($("ev-players").value),
    rules: schedule === "custom" ? {} : { schedule }, bot: $("ev-bot").value };
  if (schedule === "custom") body.hand_sizes = $("ev-sizes").value.split(/[\s,]+/).filter(Boolean).map(Number);
  await account();   // a fresh token: the first looks at /api/account may have set two anonymous cookies
  const res = await fetch("/api/events", { method: "POST", credentials: "same-origin",
    headers: { "content-type": "application/json", "x-csrf-token": csrf || "" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    $("create-error").textContent = data.message || `${res.status} ${res.statusText}`;
    return;
  }
  location.href = data.url;
});

account().catch(() => { $("ev-create").disabled = true; });
options().catch(() => {});
list();
