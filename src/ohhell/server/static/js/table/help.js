// Friendly tables (docs/server.md, "Hints and undo"): the Hint and Undo buttons, each
// player's "Allow undo" switch, and the hint panel (the expert's suggestion, the expected
// score of each choice as bars with their numbers, and for a bid the chance of each number
// of tricks).  The server decides everything: whether undo is possible now (you.undo, with
// its reason) and the hint itself, worked out from this seat's own view.
import { cardWords, clear, el, toast } from "../common.js";
import { ctx, game, me, myTurn, view } from "./state.js";

const $ = (id) => document.getElementById(id);
let hint = null;        // the last hint frame (shown while the game is where it was asked)
let asking = false;

const helpOn = () => !!(ctx.state && ctx.state.table.help && ctx.state.table.help.allowed);
const words = (a) => (typeof a === "number" ? `bid ${a}` : cardWords(a));

export function askHint() {
  if (!helpOn() || me() === null) return;
  if (!myTurn()) { toast("A hint is for your turn.", "error"); return; }
  if (asking) return;
  if (ctx.send({ type: "hint" })) { asking = true; renderHelp(); }
}

export function askUndo() {
  const u = ctx.state && ctx.state.you.undo;
  if (!helpOn() || !u) return;
  if (!u.ok) { toast(u.why, "error", 4000); return; }
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
  const tools = clear($("help-tools"));
  const box = $("hint");
  const s = me();
  const g = game();
  if (hint && (!g || g.number !== hint.game || g.n !== hint.n)) hint = null;   // the game moved on
  box.hidden = !hint;
  for (const k of document.querySelectorAll(".help-keys")) k.hidden = !helpOn();
  if (!helpOn() || s === null || !view() || view().phase === "over") { box.hidden = true; return; }
  const u = ctx.state.you.undo || { ok: false, why: "Nothing to take back." };
  tools.append(
    el("button", { type: "button", id: "hint-button", "aria-keyshortcuts": "H", disabled: asking,
      "aria-disabled": myTurn() ? null : "true", title: myTurn() ? "What the expert would do (H)" : "A hint is for your turn",
      onclick: askHint }, asking ? "Thinking…" : "Hint"),
    el("button", { type: "button", id: "undo-button", "aria-keyshortcuts": "U Control+Z",
      "aria-disabled": u.ok ? null : "true", title: u.ok ? "Take back your last move (U)" : u.why,
      onclick: askUndo }, "Undo"));
  const others = ctx.state.table.seats.filter((x) => x.kind === "human" && x.seat !== s).length;
  if (others) {
    const on = ctx.state.table.help.undo_ok.includes(s);
    tools.append(el("label", { class: "check", title: "Let the other players take back their last move" },
      el("input", { type: "checkbox", id: "allow-undo", checked: on,
        onchange: (e) => ctx.send({ type: "allow_undo", on: e.target.checked }) }), " Allow undo"));
  }
  if (hint) drawHint(box, follow);
}

function drawHint(box, follow) {
  const h = hint;
  const vals = h.values.map((x) => x.value);
  const best = Math.max(...vals), worst = Math.min(...vals);
  const span = best - worst || 1;
  const valueTitle = h.kind === "bid" ? "Expected score of each bid" : "Estimated value of each card (expected score for the hand)";
  box.replaceChildren(
    el("div", { class: "lt-head" },
      el("h2", { id: "hint-heading", tabindex: "-1" }, `The ${h.bot || "expert"} bot suggests: `, el("strong", {}, words(h.action))),
      el("button", { type: "button", class: "close", "aria-label": "Close the hint", onclick: () => { hint = null; renderHelp(); } }, "×")),
    h.note ? el("p", { class: "small muted" }, h.note) : "",
    el("h3", {}, valueTitle),
    el("ul", { class: "hint-bars", id: "hint-values" }, h.values.map((x) =>
      el("li", { class: x.best ? "best" : "" },
        el("span", { class: "lbl" }, words(x.action), x.best ? " ★" : ""),
        el("span", { class: "bar", "aria-hidden": "true" }, el("span", { style: `width:${Math.max(3, Math.round(100 * (x.value - worst) / span))}%` })),
        el("span", { class: "num" }, x.value.toFixed(2))))),
    h.trick_probs ? el("h3", {}, "Chance of winning exactly k tricks") : "",
    h.trick_probs ? el("ul", { class: "hint-bars probs", id: "hint-probs" }, h.trick_probs.map((p, k) =>
      el("li", {}, el("span", { class: "lbl" }, `${k} trick${k === 1 ? "" : "s"}`),
        el("span", { class: "bar", "aria-hidden": "true" }, el("span", { style: `width:${Math.round(100 * p)}%` })),
        el("span", { class: "num" }, `${Math.round(100 * p)}%`)))) : "",
    el("p", {}, el("button", { type: "button", class: "primary", id: "hint-follow", onclick: () => follow && follow(h.action) },
      `Follow the hint: ${words(h.action)}`)));
}

/** The game-over screen's note (and the live table's): who used help in this game. */
export function helpWords() {
  if (!helpOn()) return null;
  const used = ctx.state.table.help.used;
  const v = view();
  if (!used || !v) return null;
  const parts = used.map((u, s) => [u, s]).filter(([u]) => u.hints || u.undos).map(([u, s]) =>
    `${v.names[s]}: ${u.hints} hint${u.hints === 1 ? "" : "s"}, ${u.undos} undo${u.undos === 1 ? "" : "s"}`);
  return parts.length ? `Help used (a friendly game, not rated) — ${parts.join("; ")}.` : "A friendly game: hints and undo allowed; none used.";
}

// H asks for a hint, U or Ctrl+Z (⌘Z) takes back one's last move.
document.addEventListener("keydown", (e) => {
  const t = e.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement || e.altKey) return;
  if (t.closest && t.closest("#chat")) return;
  if (!helpOn() || me() === null) return;
  const k = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && k === "z") { askUndo(); e.preventDefault(); return; }
  if (e.ctrlKey || e.metaKey) return;
  if (k === "h") { askHint(); e.preventDefault(); } else if (k === "u") { askUndo(); e.preventDefault(); }
  else if (e.key === "Escape" && hint) { hint = null; renderHelp(); e.preventDefault(); }
});
