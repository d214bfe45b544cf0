// The table's chat: built inside <section id="chat"> on the table page, fed by the page's
// socket through tableFrames (socket.js). The server says who spoke (a seat's name, or
// "Spectator xxxx"), never the client; every message is shown with textContent, never as HTML.
// Muting is this browser's own: the muted names of each table are kept in localStorage.
import { clear, el, errorWords, store } from "./common.js";
import { number, t, tn } from "./i18n.js";
import { tableFrames } from "./socket.js";

const MAX_LENGTH = 300;            // the server's limit (config.CHAT_MAX_LENGTH; /api/options says it)
const box = document.getElementById("chat");
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const muteKey = `chatmute.${tableId}`;

let messages = [];                 // as the server sent them, oldest first
let hasRemove = false;             // whether the lines carry the creator's Remove button
let maxLength = MAX_LENGTH;

function loadMuted() {
  try {
    const list = JSON.parse(store.get(muteKey) || "[]");
    return new Set(Array.isArray(list) ? list.filter((x) => typeof x === "string") : []);
  } catch { return new Set(); }
}
const muted = loadMuted();
const saveMuted = () => store.set(muteKey, JSON.stringify([...muted]));

const state = () => tableFrames.state;
const mySeat = () => (state() ? state().you.seat : null);
const isCreator = () => !!(state() && state().you.admin);
const apart = () => !!(state() && state().table.spectator_chat === "apart");

let log, list, form, input, sendButton, statusLine, note, hiddenLine, mutedBox, setting, apartBox;

function build() {
  clear(box);
  box.classList.add("chat");
  // role=log is a live region (new messages are read out politely); the list inside keeps
  // list semantics (an <ol role=log> would lose them)
  list = el("ol", { class: "chat-list" });
  log = el("div", { class: "chat-log", role: "log", "aria-label": t("Chat messages"), tabindex: "0" }, list);
  input = el("input", {
    type: "text", id: "chat-input", maxlength: maxLength, autocomplete: "off", enterkeyhint: "send",
    placeholder: t("Say something to the table"), "aria-describedby": "chat-count",
  });
  sendButton = el("button", { type: "submit", class: "primary", disabled: true }, t("Send"));
  const count = el("span", { id: "chat-count", class: "chat-count small", "aria-live": "off" }, `${number(0)}/${number(maxLength)}`);
  form = el("form", { class: "chat-form", autocomplete: "off" },
    el("label", { for: "chat-input", class: "sr-only" }, t("Chat message")), input, sendButton);
  statusLine = el("p", { class: "chat-status small", role: "status", "aria-live": "polite" });
  note = el("p", { class: "chat-note small" });
  hiddenLine = el("p", { class: "chat-hidden small" });
  mutedBox = el("div", { class: "chat-muted small" });
  // the creator's own switch: whether spectators chat apart (a logged change the server makes)
  apartBox = el("input", { type: "checkbox", id: "chat-apart" });
  setting = el("label", { class: "chat-setting small", hidden: true }, apartBox, " ", t("Spectators chat separately"));
  apartBox.addEventListener("change", () => {
    const want = apartBox.checked ? "apart" : "together";
    if (tableFrames.send({ type: "chat_setting", spectator_chat: want }) === null) {
      apartBox.checked = apart();
      say(t("Not connected: nothing was changed."));
    }
  });
  box.append(el("div", { class: "chat-head" }, el("h2", {}, t("Chat")), count), note, setting, log, hiddenLine, form,
    statusLine, mutedBox);
  input.addEventListener("input", () => {
    count.textContent = `${number(input.value.length)}/${number(maxLength)}`;
    sendButton.disabled = !input.value.trim();
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (tableFrames.send({ type: "chat", text }) === null) {
      say(t("Not connected: your message was not sent (it is still in the box)."));
      return;
    }
    say("");
    input.value = "";
    input.dispatchEvent(new Event("input"));
  });
}

function say(text) { statusLine.textContent = text; }

function timeOf(ts) {
  const d = new Date(ts * 1000);
  return el("time", { datetime: d.toISOString(), class: "chat-time" },
    d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }));
}

// Whether a message is this page's own: the server marks the sender's echo (`you`); a
// spectator's chat name is remembered from it, for the history after a reload.
const nameKey = `chatname.${tableId}`;
const isMine = (m) => !!m.you || (m.seat !== null ? m.seat === mySeat()
  : mySeat() === null && m.name === store.get(nameKey));

function line(m) {
  const mine = isMine(m);
  const who = mine ? t("You") : m.name;
  const tags = [];
  if (m.seat === null) tags.push(el("span", { class: "chat-tag" }, m.audience === "spectators" ? t("spectators only") : t("spectator")));
  const mute = mine ? null : el("button", {
    type: "button", class: "chat-mute", "aria-label": t("Mute {name}", { name: m.name }), title: t("Hide {name}'s messages (in this browser)", { name: m.name }),
    onclick: () => { muted.add(m.name); saveMuted(); render(); say(t("{name} is muted.", { name: m.name })); },
  }, t("Mute"));
  // the table's creator may remove any message for everyone (the server checks it is them)
  const remove = isCreator() ? el("button", {
    type: "button", class: "chat-remove", "aria-label": t("Remove {name}'s message for everyone", { name: m.name }),
    title: t("Remove this message for everyone"),
    onclick: () => {
      if (tableFrames.send({ type: "chat_remove", id: m.id }) === null) say(t("Not connected: nothing was removed."));
    },
  }, t("Remove")) : null;
  return el("li", { class: "chat-line" + (mine ? " mine" : ""), "data-id": m.id },
    el("div", { class: "chat-meta" }, el("span", { class: "chat-who" }, who), tags, timeOf(m.ts), mute, remove),
    el("div", { class: "chat-text" }, m.text));
}

function removed(id) {
  const had = messages.some((x) => x.id === id);
  messages = messages.filter((x) => x.id !== id);
  render();
  if (had) say(isCreator() ? t("The message was removed for everyone.") : t("The table's creator removed a message."));
}

function render() {
  if (!log) return;
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  clear(list);
  let hidden = 0;
  for (const m of messages) {
    if (muted.has(m.name) && !isMine(m)) { hidden += 1; continue; }
    list.append(line(m));
  }
  if (!list.firstChild) list.append(el("li", { class: "chat-empty muted" }, t("No messages yet.")));
  hiddenLine.textContent = hidden ? tn("{n} message from muted people hidden.", "{n} messages from muted people hidden.", hidden) : "";
  clear(mutedBox);
  if (muted.size) {
    mutedBox.append(el("span", {}, t("Muted:"), " "), ...[...muted].map((name) => el("span", { class: "chat-muted-name" }, name, " ",
      el("button", {
        type: "button", class: "chat-unmute", "aria-label": t("Unmute {name}", { name }),
        onclick: () => { muted.delete(name); saveMuted(); render(); say(t("{name} is no longer muted.", { name })); },
      }, t("Unmute")))));
  }
  if (atBottom) log.scrollTop = log.scrollHeight;
  renderNote();
}

let wasApart = null;               // the last spectator-chat choice seen (a change is said aloud)

function renderNote() {
  if (!state()) return;
  setting.hidden = !isCreator();
  apartBox.checked = apart();
  if (wasApart !== null && wasApart !== apart()) {
    say(apart() ? t("Spectators now chat separately.") : t("Spectators now chat with everyone."));
  }
  wasApart = apart();
  const spectator = mySeat() === null;
  note.textContent = !apart() ? (spectator ? t("You are watching: players and spectators read this chat.") : "")
    : spectator ? t("Spectators chat apart here: the players do not see your messages, you see theirs.")
      : t("Spectators chat apart at this table: you do not see their messages.");
  input.placeholder = spectator && apart() ? t("Say something to the other spectators") : t("Say something to the table");
}

function add(m) {
  if (messages.some((x) => x.id === m.id)) return;
  const inOrder = !messages.length || messages[messages.length - 1].id < m.id;
  messages.push(m);
  messages.sort((a, b) => a.id - b.id);
  if (messages.length > 300) messages = messages.slice(-300);
  if (!inOrder || (muted.has(m.name) && !isMine(m))) { render(); return; }
  // Appended, not redrawn: the log's live region then reads out the new message alone.
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  list.querySelector(".chat-empty")?.remove();
  list.append(line(m));
  while (list.children.length > 300) list.firstChild.remove();
  if (atBottom || isMine(m)) log.scrollTop = log.scrollHeight;
}

if (box) {
  build();
  render();
  tableFrames.addEventListener("frame", (e) => {
    const msg = e.detail;
    if (msg.type === "chat_history") { messages = [...msg.messages]; render(); }
    else if (msg.type === "chat") {
      if (msg.you && msg.seat === null) store.set(nameKey, msg.name);
      add(msg);
    }
    else if (msg.type === "chat_removed") removed(msg.id);
    else if (msg.type === "state") {
      // the Remove buttons follow whether this page is the creator's (known from the first state)
      if (isCreator() !== hasRemove) { hasRemove = isCreator(); render(); }
      renderNote();
    }
    else if (msg.type === "error" && String(msg.code).startsWith("chat_")) say(errorWords(msg));
  });
  tableFrames.addEventListener("status", (e) => {
    const open = e.detail.status === "open";
    input.disabled = !open && e.detail.status === "closed";
  });
  fetch("/api/options").then((r) => r.json()).then((o) => {
    if (o.chat && o.chat.max_length) { maxLength = o.chat.max_length; input.maxLength = maxLength; input.dispatchEvent(new Event("input")); }
  }).catch(() => {});
}

// For the curious (and the tests): the messages held, the muted names, this page's seat.
window.ohhellChat = { get messages() { return messages; }, muted, get seat() { return mySeat(); } };
