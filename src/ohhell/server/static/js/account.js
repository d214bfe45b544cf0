// The account page: sign up, sign in, sign out, claim this browser's guest seats, change
// the password, make and revoke API tokens (for programs: docs/bots-api.md).  Every request carries the page's CSRF token (X-CSRF-Token); the session
// itself is an HttpOnly cookie this script never sees.

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

async function call(path, body) {
  let res;
  try {
    res = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf },
      body: JSON.stringify(body || {}),
    });
  } catch {
    throw new Error("The server cannot be reached; check your connection and try again.");
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.message ? data.message.charAt(0).toUpperCase() + data.message.slice(1) + "." : `The server answered ${res.status}.`);
    err.code = data.error;
    const retry = Number(res.headers.get("retry-after"));
    if (res.status === 429 && retry) err.message = `Too many attempts: try again in ${retry < 90 ? `${retry} s` : `${Math.ceil(retry / 60)} min`}.`;
    throw err;
  }
  if (data.csrf) setCsrf(data.csrf);
  return data;
}

function setCsrf(token) {
  csrf = token;
  for (const input of document.querySelectorAll("input[name=csrf]")) input.value = token;
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function showClaim() {
  const seats = guestSeats();
  $("claim-row").classList.toggle("hidden", seats.length === 0);
  $("claim-text").textContent = `Make the ${plural(seats.length, "guest seat")} this browser holds mine`;
  const button = $("claim-button");
  button.classList.toggle("hidden", seats.length === 0);
  button.textContent = `Claim the ${plural(seats.length, "guest seat")} on this browser`;
}

async function loadSeats() {
  const list = $("seats");
  try {
    const res = await fetch("/api/account/seats", { credentials: "same-origin" });
    const data = await res.json();
    list.replaceChildren();
    if (!res.ok) throw new Error(data.message || "not available");
    if (!data.seats.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = "No tables yet: join one from the lobby.";
      list.append(li);
    }
    for (const s of data.seats) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = s.url;
      a.textContent = `Table ${s.table}`;
      li.append(a, ` — seat ${s.seat + 1}, since ${new Date(s.since * 1000).toLocaleString()}`);
      list.append(li);
    }
  } catch (e) {
    list.replaceChildren(Object.assign(document.createElement("li"), { className: "muted", textContent: `Your tables could not be loaded (${e.message}).` }));
  }
}

const when = (t) => (t ? new Date(t * 1000).toLocaleString() : "never");

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
    if (!res.ok) throw new Error(data.message || "not available");
    body.replaceChildren();
    if (!data.tokens.length) {
      const tr = row("No tokens yet.");
      tr.firstChild.colSpan = 5;
      tr.firstChild.className = "muted";
      body.append(tr);
    }
    for (const t of data.tokens) {
      const hint = Object.assign(document.createElement("code"), { textContent: `${t.hint}…` });
      const revoke = Object.assign(document.createElement("button"), { type: "button", className: "token-revoke", textContent: "Revoke" });
      revoke.setAttribute("aria-label", `Revoke the token ${t.name}`);
      revoke.addEventListener("click", async () => {
        if (!confirm(`Revoke the token "${t.name}"? A program using it is disconnected at once.`)) return;
        revoke.disabled = true;
        try {
          await call("/api/account/tokens/revoke", { id: t.id });
          $("status").textContent = `The token "${t.name}" is revoked.`;
          loadTokens();
        } catch (e) {
          $("token-error").textContent = e.message;
          revoke.disabled = false;
        }
      });
      body.append(row(t.name, hint, when(t.created), when(t.last_used), revoke));
    }
  } catch (e) {
    body.replaceChildren(row(`Your tokens could not be loaded (${e.message}).`));
  }
}

function render() {
  $("signed-out").classList.toggle("hidden", !!me);
  $("signed-in").classList.toggle("hidden", !me);
  if (!me) { $("token-new").classList.add("hidden"); $("token-value").textContent = ""; }
  $("status").textContent = me ? "" : "Sign in, or create an account to keep your games and your name.";
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
  return data.claimed.length ? ` ${plural(data.claimed.length, "guest seat")} claimed.` : "";
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
  $("status").textContent = `Welcome back, ${me.username}.`;
});

form("signup-form", "signup-error", "signup-button", async () => {
  if ($("signup-password").value !== $("signup-again").value) {
    $("signup-again").focus();
    throw new Error("The two passwords differ.");
  }
  const data = await call("/api/account/signup", { username: $("signup-username").value, password: $("signup-password").value, bot: $("signup-bot").checked });
  $("signup-password").value = $("signup-again").value = "";
  me = data.user;
  let claimed = "";
  if ($("signup-claim").checked && !$("claim-row").classList.contains("hidden")) {
    try { claimed = await claim(); } catch (e) { claimed = ` Your guest seats were not claimed: ${e.message}`; }
  }
  render();
  $("status").textContent = `Welcome, ${me.username}: your account is ready.${claimed}`;
});

form("password-form", "password-error", "password-button", async () => {
  await call("/api/account/password", { current: $("password-current").value, password: $("password-new").value });
  $("password-current").value = $("password-new").value = "";
  $("status").textContent = "Your password is changed; other browsers are signed out.";
});

form("token-form", "token-error", "token-button", async () => {
  const data = await call("/api/account/tokens", { name: $("token-name").value });
  $("token-name").value = "";
  $("token-value").textContent = data.token;
  $("token-new").classList.remove("hidden");
  $("token-copy").textContent = "Copy";
  loadTokens();
});

$("token-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("token-value").textContent);
    $("token-copy").textContent = "Copied";
  } catch {
    $("token-copy").textContent = "Select it and copy";
  }
});

$("signout-button").addEventListener("click", async () => {
  try {
    await call("/api/account/signout", {});
    me = null;
    render();
    $("status").textContent = "You are signed out.";
  } catch (e) {
    $("account-error").textContent = e.message;
  }
});

$("claim-button").addEventListener("click", async () => {
  try {
    const text = await claim();
    $("status").textContent = text ? text.trim() : "Those seats are no longer held (the players left), so there was nothing to claim.";
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
    $("status").textContent = "The server cannot be reached; reload the page to try again.";
  }
}

start();
