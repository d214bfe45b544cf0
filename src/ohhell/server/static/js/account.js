// The account page: sign up, sign in, sign out, claim this browser's guest seats, change
// the password, make and revoke API tokens (for programs: docs/bots-api.md).  Every request carries the page's CSRF token (X-CSRF-Token); the session
// itself is an HttpOnly cookie this script never sees.  The server's errors carry a code
// (and an English message for programs): the page words them by code in its reader's language.
import { dateTime, number, t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let csrf = "";
let me = null;

/** The guest seats this browser holds: {table, token} from the table pages' localStorage. */
function guestSeats() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("ohhell.seat.")) out.push({ table: key.slice("ohhell.seat.".length), token: localStorage.getItem(key) });
    }
  } catch { /* storage disabled */ }
  return out.filter((s) => s.table && s.token);
}

/** The server's refusal `code` in the reader's words; `path` and `body` tell which form asked. */
export function refusalWords(code, status, path, body = {}) {
  if (code === "bad_credentials") {
    return path === "/api/account/password" ? t("The current password is not right.")
      : t("That username and password do not match an account.");
  }
  if (code === "bad_password") {
    const password = String(body.password || "");
    if (password.length < 8) return t("A password has at least {n} characters.", { n: number(8) });
    if (body.username !== undefined && password.toLowerCase() === String(body.username).toLowerCase()) {
      return t("The password must not be the username.");
    }
    return t("A password has {lo} to {hi} characters and must not be the username.", { lo: number(8), hi: number(1024) });
  }
  const words = {
    bad_username: t("A username is 3 to 24 letters, digits, _ - or ., starting with a letter or digit; some names are reserved."),
    username_taken: t("The username '{name}' is taken; choose another.", { name: String(body.username || "").trim() }),
    bad_name: t("A token's name is 1 to 40 characters: say what it is for (\"my bot\")."),
    too_many_tokens: t("This account holds as many tokens as it may; revoke one first."),
    no_token: t("This account has no such token (revoked already?)."),
    signed_out: t("Sign in first."),
    slow_down: t("Too many attempts from here; wait a while and try again."),
    storage: t("The server could not save this; nothing was changed. Try again."),
    bad_origin: t("This request came from a page of another site, so it was refused."),
    csrf: t("This page's security token is missing or old: reload the page and try again."),
    too_large: t("The request is too large."),
    too_slow: t("The request was too slow; try again."),
    bad_form: t("The form could not be read; reload the page and try again."),
    bad_json: t("The form could not be read; reload the page and try again."),
    bad_request: t("The server could not understand the request; reload the page and try again."),
  };
  return words[code] || t("The server answered {status}.", { status });
}

async function call(path, body) {
  let res;
  try {
    res = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf },
      body: JSON.stringify(body || {}),
    });
  } catch {
    throw new Error(t("The server cannot be reached; check your connection and try again."));
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(refusalWords(data.error, res.status, path, body));
    err.code = data.error;
    const retry = Number(res.headers.get("retry-after"));
    if (res.status === 429 && retry) {
      err.message = retry < 90 ? tn("Too many attempts: try again in {n} second.", "Too many attempts: try again in {n} seconds.", retry)
        : tn("Too many attempts: try again in {n} minute.", "Too many attempts: try again in {n} minutes.", Math.ceil(retry / 60));
    }
    throw err;
  }
  if (data.csrf) setCsrf(data.csrf);
  return data;
}

function setCsrf(token) {
  csrf = token;
  for (const input of document.querySelectorAll("input[name=csrf]")) input.value = token;
}

function showClaim() {
  const seats = guestSeats();
  $("claim-row").classList.toggle("hidden", seats.length === 0);
  $("claim-text").textContent = tn("Make the {n} guest seat this browser holds mine", "Make the {n} guest seats this browser holds mine", seats.length);
  const button = $("claim-button");
  button.classList.toggle("hidden", seats.length === 0);
  button.textContent = tn("Claim the {n} guest seat on this browser", "Claim the {n} guest seats on this browser", seats.length);
}

async function loadSeats() {
  const list = $("seats");
  try {
    const res = await fetch("/api/account/seats", { credentials: "same-origin" });
    const data = await res.json();
    list.replaceChildren();
    if (!res.ok) throw new Error(refusalWords(data.error, res.status, ""));
    if (!data.seats.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = t("No tables yet: join one from the lobby.");
      list.append(li);
    }
    for (const s of data.seats) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = s.url;
      a.textContent = t("Table {table}", { table: s.table });
      li.append(a, " — ", t("seat {seat}, since {when}", { seat: number(s.seat + 1), when: when(s.since) }));
      list.append(li);
    }
  } catch (e) {
    list.replaceChildren(Object.assign(document.createElement("li"), { className: "muted", textContent: t("Your tables could not be loaded ({why}).", { why: e.message }) }));
  }
}

/** A time as the reader's language writes it (the browser's own format where it knows no other). */
function when(seconds) {
  if (!seconds) return t("never");
  return dateTime(seconds);
}

async function loadTokens() {
  const body = $("token-table").querySelector("tbody");
  const row = (...cells) => {
    const tr = document.createElement("tr");
    for (const c of cells) {
      const td = document.createElement("td");
      td.append(c);
      tr.append(td);
    }
    return tr;
  };
  try {
    const res = await fetch("/api/account/tokens", { credentials: "same-origin", headers: { accept: "application/json" } });
    const data = await res.json();
    if (!res.ok) throw new Error(refusalWords(data.error, res.status, ""));
    body.replaceChildren();
    if (!data.tokens.length) {
      const tr = row(t("No tokens yet."));
      tr.firstChild.colSpan = 5;
      tr.firstChild.className = "muted";
      body.append(tr);
    }
    for (const tok of data.tokens) {
      const hint = Object.assign(document.createElement("code"), { textContent: `${tok.hint}…` });
      const revoke = Object.assign(document.createElement("button"), { type: "button", className: "token-revoke", textContent: t("Revoke") });
      revoke.setAttribute("aria-label", t("Revoke the token {name}", { name: tok.name }));
      revoke.addEventListener("click", async () => {
        if (!confirm(t("Revoke the token \"{name}\"? A program using it is disconnected at once.", { name: tok.name }))) return;
        revoke.disabled = true;
        try {
          await call("/api/account/tokens/revoke", { id: tok.id });
          $("status").textContent = t("The token \"{name}\" is revoked.", { name: tok.name });
          loadTokens();
        } catch (e) {
          $("token-error").textContent = e.message;
          revoke.disabled = false;
        }
      });
      body.append(row(tok.name, hint, when(tok.created), when(tok.last_used), revoke));
    }
  } catch (e) {
    body.replaceChildren(row(t("Your tokens could not be loaded ({why}).", { why: e.message })));
  }
}

function render() {
  $("signed-out").classList.toggle("hidden", !!me);
  $("signed-in").classList.toggle("hidden", !me);
  if (!me) { $("token-new").classList.add("hidden"); $("token-value").textContent = ""; }
  $("status").textContent = me ? "" : t("Sign in, or create an account to keep your games and your name.");
  if (me) {
    $("me").textContent = me.username;
    $("player-link").href = `/players/${encodeURIComponent(me.username)}`;
    $("password-username").value = me.username;
    try { localStorage.setItem("ohhell.name", me.username); } catch { /* private mode */ }
    $("tokens-me").textContent = me.username;
    $("bot-note").classList.toggle("hidden", !me.bot);
    loadSeats();
    loadTokens();
  }
  showClaim();
}

async function claim() {
  const seats = guestSeats();
  if (!seats.length) return "";
  const data = await call("/api/account/claim", { seats });
  return data.claimed.length ? " " + tn("{n} guest seat claimed.", "{n} guest seats claimed.", data.claimed.length) : "";
}

function form(id, errorId, buttonId, run) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $(errorId), button = $(buttonId);
    error.textContent = "";
    button.disabled = true;
    try {
      await run();
    } catch (e) {
      error.textContent = e.message;
    } finally {
      button.disabled = false;
    }
  });
}

form("signin-form", "signin-error", "signin-button", async () => {
  const data = await call("/api/account/signin", { username: $("signin-username").value, password: $("signin-password").value });
  $("signin-password").value = "";
  me = data.user;
  render();
  $("status").textContent = t("Welcome back, {name}.", { name: me.username });
});

form("signup-form", "signup-error", "signup-button", async () => {
  if ($("signup-password").value !== $("signup-again").value) {
    $("signup-again").focus();
    throw new Error(t("The two passwords differ."));
  }
  const data = await call("/api/account/signup", { username: $("signup-username").value, password: $("signup-password").value, bot: $("signup-bot").checked });
  $("signup-password").value = $("signup-again").value = "";
  me = data.user;
  let claimed = "";
  if ($("signup-claim").checked && !$("claim-row").classList.contains("hidden")) {
    try { claimed = await claim(); } catch (e) { claimed = " " + t("Your guest seats were not claimed: {why}", { why: e.message }); }
  }
  render();
  $("status").textContent = t("Welcome, {name}: your account is ready.", { name: me.username }) + claimed;
});

form("password-form", "password-error", "password-button", async () => {
  await call("/api/account/password", { current: $("password-current").value, password: $("password-new").value });
  $("password-current").value = $("password-new").value = "";
  $("status").textContent = t("Your password is changed; other browsers are signed out.");
});

form("token-form", "token-error", "token-button", async () => {
  const data = await call("/api/account/tokens", { name: $("token-name").value });
  $("token-name").value = "";
  $("token-value").textContent = data.token;
  $("token-new").classList.remove("hidden");
  $("token-copy").textContent = t("Copy");
  loadTokens();
});

$("token-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("token-value").textContent);
    $("token-copy").textContent = t("Copied");
  } catch {
    $("token-copy").textContent = t("Select it and copy");
  }
});

$("signout-button").addEventListener("click", async () => {
  try {
    await call("/api/account/signout", {});
    me = null;
    render();
    $("status").textContent = t("You are signed out.");
  } catch (e) {
    $("account-error").textContent = e.message;
  }
});

$("claim-button").addEventListener("click", async () => {
  try {
    const text = await claim();
    $("status").textContent = text ? text.trim() : t("Those seats are no longer held (the players left), so there was nothing to claim.");
    loadSeats();
  } catch (e) {
    $("account-error").textContent = e.message;
  }
});

async function start() {
  try {
    const res = await fetch("/api/account", { credentials: "same-origin", headers: { accept: "application/json" } });
    const data = await res.json();
    setCsrf(data.csrf);
    me = data.user;
    render();
  } catch {
    $("status").textContent = t("The server cannot be reached; reload the page to try again.");
  }
}

start();
