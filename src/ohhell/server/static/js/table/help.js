// Friendly tables (docs/server.md, "Hints and undo"): the Hint and Undo buttons, each
// player's "Allow undo" switch, and the hint panel (the expert's suggestion, the expected
// score of each choice as bars with their numbers, and for a bid the chance of each number
// of tricks).  The server decides everything: whether undo is possible now (you.undo, with
// its reason) and the hint itself, worked out from this seat's own view.
import { botName, cardWords, el, errorWords, toast } from "../common.js";
import { number, t, tn } from "../i18n.js";
import { ctx, game, me, myTurn, view } from "./state.js";
import { patch } from "./dom.js";

const $ = (id) => document.getElementById(id);
let hint = null;        // the last hint frame (shown while the game is where it was asked)
let asking = false;

const helpOn = () => !!(ctx.state && ctx.state.table.help && ctx.state.table.help.allowed);
const words = (a) => (typeof a === "number" ? t("bid {bid}", { bid: number(a) }) : cardWords(a));
// The hint bot's note (bots' Decision.note), worded here; a note this page does not know
// is shown as the bot wrote it.
const NOTES = { "the only legal card": t("the only legal card"), "the only legal bid": t("the only legal bid"),
  "the only legal action": t("the only legal action") };
const noteWords = (note) => NOTES[note] || note;
const undoWhy = (u) => (u.code ? errorWords({ code: u.code, message: u.why }) : t("Nothing to take back."));

export function askHint() {
  if (!helpOn() || me() === null) return;
  if (!myTurn()) { toast(t("A hint is for your turn."), "error"); return; }
  if (asking) return;
  if (ctx.send({ type: "hint" })) { asking = true; renderHelp(); }
}

export function askUndo() {
  const u = ctx.state && ctx.state.you.undo;
  if (!helpOn() || !u) return;
  if (!u.ok) { toast(undoWhy(u), "error", 4000); return; }
  ctx.send({ type: "undo" });
}

/** A hint frame arrived. */
export function onHint(msg) {
  asking = false;
  hint = msg;
  renderHelp();
  const box = $("hint");
  if (box && !box.hidden) box.querySelector("h2").focus({ preventScroll: true });
}

/** A refusal arrived: stop waiting for a hint. */
export function onHelpError(msg) {
  if (String(msg.code).startsWith("hint")) { asking = false; renderHelp(); }
}

export function renderHelp(follow) {
  const tools = [];
  const box = $("hint");
  const s = me();
  const g = game();
  if (hint && (!g || g.number !== hint.game || g.n !== hint.n)) hint = null;   // the game moved on
  if (box.hidden !== !hint) box.hidden = !hint;
  for (const k of document.querySelectorAll(".help-keys")) if (k.hidden !== !helpOn()) k.hidden = !helpOn();
  if (!helpOn() || s === null || !view() || view().phase === "over") { box.hidden = true; patch($("help-tools"), []); return; }
  const u = ctx.state.you.undo || { ok: false, code: null };
  tools.push(
    el("button", { type: "button", id: "hint-button", "aria-keyshortcuts": "H", disabled: asking,
      "aria-disabled": myTurn() ? null : "true", title: myTurn() ? t("What the expert would do (H)") : t("A hint is for your turn."),
      onclick: askHint }, asking ? t("Thinking…") : t("Hint")),
    el("button", { type: "button", id: "undo-button", "aria-keyshortcuts": "U Control+Z",
      "aria-disabled": u.ok ? null : "true", title: u.ok ? t("Take back your last move (U)") : undoWhy(u),
      onclick: askUndo }, t("Undo")));
  const others = ctx.state.table.seats.filter((x) => x.kind === "human" && x.seat !== s).length;
  if (others) {
    const on = ctx.state.table.help.undo_ok.includes(s);
    tools.push(el("label", { class: "check", title: t("Let the other players take back their last move") },
      el("input", { type: "checkbox", id: "allow-undo", checked: on,
        onchange: (e) => ctx.send({ type: "allow_undo", on: e.target.checked }) }), " ", t("Allow undo")));
  }
  patch($("help-tools"), tools);
  if (hint) drawHint(box, follow);
}

function drawHint(box, follow) {
  const h = hint;
  const vals = h.values.map((x) => x.value);
  const best = Math.max(...vals), worst = Math.min(...vals);
  const span = best - worst || 1;
  const valueTitle = h.kind === "bid" ? t("Expected score of each bid") : t("Estimated value of each card (expected score for the hand)");
  patch(box, [
    el("div", { class: "lt-head" },
      el("h2", { id: "hint-heading", tabindex: "-1" }, t("The {bot} bot suggests:", { bot: botName(h.bot || "expert") }), " ", el("strong", {}, words(h.action))),
      el("button", { type: "button", class: "close", "aria-label": t("Close the hint"), onclick: () => { hint = null; renderHelp(); } }, "×")),
    h.note ? el("p", { class: "small muted" }, noteWords(h.note)) : "",
    el("h3", {}, valueTitle),
    el("ul", { class: "hint-bars", id: "hint-values" }, h.values.map((x) =>
      el("li", { class: x.best ? "best" : "" },
        el("span", { class: "lbl" }, words(x.action), x.best ? " ★" : ""),
        el("span", { class: "bar", "aria-hidden": "true" }, el("span", { style: `width:${Math.max(3, Math.round(100 * (x.value - worst) / span))}%` })),
        el("span", { class: "num" }, number(x.value, 2))))),
    h.trick_probs ? el("h3", {}, t("Chance of winning exactly k tricks")) : "",
    h.trick_probs ? el("ul", { class: "hint-bars probs", id: "hint-probs" }, h.trick_probs.map((p, k) =>
      el("li", {}, el("span", { class: "lbl" }, tn("{n} trick", "{n} tricks", k)),
        el("span", { class: "bar", "aria-hidden": "true" }, el("span", { style: `width:${Math.round(100 * p)}%` })),
        el("span", { class: "num" }, t("{percent}%", { percent: number(Math.round(100 * p)) }))))) : "",
    el("p", {}, el("button", { type: "button", class: "primary", id: "hint-follow", onclick: () => follow && follow(h.action) },
      t("Follow the hint: {choice}", { choice: words(h.action) })))]);
}

/** The game-over screen's note (and the live table's): who used help in this game. */
export function helpWords() {
  if (!helpOn()) return null;
  const used = ctx.state.table.help.used;
  const v = view();
  if (!used || !v) return null;
  const parts = used.map((u, s) => [u, s]).filter(([u]) => u.hints || u.undos).map(([u, s]) =>
    `${v.names[s]}: ${tn("{n} hint", "{n} hints", u.hints)}, ${tn("{n} undo", "{n} undos", u.undos)}`);
  return parts.length ? t("Help used (a friendly game, not rated) — {uses}.", { uses: parts.join("; ") })
    : t("A friendly game: hints and undo allowed; none used.");
}

// H asks for a hint, U or Ctrl+Z (⌘Z) takes back one's last move.
document.addEventListener("keydown", (e) => {
  const target = e.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement || e.altKey) return;
  if (target.closest && target.closest("#chat")) return;
  if (!helpOn() || me() === null) return;
  const k = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && k === "z") { askUndo(); e.preventDefault(); return; }
  if (e.ctrlKey || e.metaKey) return;
  if (k === "h") { askHint(); e.preventDefault(); } else if (k === "u") { askUndo(); e.preventDefault(); }
  else if (e.key === "Escape" && hint) { hint = null; renderHelp(); e.preventDefault(); }
});
