// Step-by-step replay of a finished game from its record (docs/interfaces.md format).
// Each step shows what the table showed at that moment: the bids and tricks so far, and the
// scores of the hands scored so far (never the final totals before the replay gets there).
// A finished game's record reveals every hand, so the replay shows them all.
import { api, cardEl, cardText, clear, el, runningTotals, scoreChart, sortHand } from "./common.js";
import { verifyRecord } from "./fair.js";
import { ReplayAnalysis } from "./replay-analysis.js";

const [, , tableId, , gameNo] = location.pathname.split("/");
const $ = (id) => document.getElementById(id);
const SPEEDS = [0.5, 1, 2, 4, 8];
const STEP_MS = 900;         // one step at 1×
let record = null, steps = [], at = 0, timer = null, analysis = null;

/** Every state the game passed through, one per bid or card (and one per scored hand), from
 * the record alone.  `scored` is how many hands have been scored at that step. */
export function buildSteps(rec) {
  const n = rec.rules.players;
  const names = rec.players;
  const out = [];
  const totals = new Array(n).fill(0);
  let scored = 0;
  rec.hands.forEach((h, k) => {
    const hands = h.deal.map((cards) => [...cards]);
    const bids = new Array(n).fill(null);
    const won = new Array(n).fill(0);
    const size = h.deal[0].length;
    const base = { k, dealer: h.dealer, trump: h.trump_card, size };
    const snap = (text, extra = {}) => out.push({
      ...base, text, hands: hands.map((c) => [...c]), bids: [...bids], won: [...won], totals: [...totals], scored,
      trick: { leader: 0, cards: [] }, last: null, acting: null, handStart: false, ...extra,
    });
    snap(`Hand ${k + 1}: ${size} card${size > 1 ? "s" : ""} each, ${names[h.dealer]} deals, trump ${h.trump_card ? cardText(h.trump_card) : "none"}.`,
      { handStart: true });
    for (let i = 1; i <= n; i++) {
      const s = (h.dealer + i) % n;
      if (h.bids[s] === null) continue;
      bids[s] = h.bids[s];
      snap(`${names[s]} bids ${h.bids[s]}${rec.rules.simultaneous_bidding ? " (bids were made at once, unseen)" : ""}.`, { acting: s, kind: "bid" });
    }
    let last = null;
    h.tricks.forEach((t, ti) => {
      const cards = [];
      t.cards.forEach((c, i) => {
        const s = (t.leader + i) % n;
        hands[s] = hands[s].filter((x) => x !== c);
        cards.push(c);
        const complete = cards.length === n && t.winner !== undefined;
        if (complete) won[t.winner] += 1;
        snap(`${names[s]} plays ${cardText(c)}${complete ? `; ${names[t.winner]} wins the trick` : ""}.`,
          { acting: s, kind: "play", trickNo: ti + 1, trick: { leader: t.leader, cards: [...cards], winner: complete ? t.winner : null }, last });
      });
      last = t;
    });
    if (h.scores) {
      h.scores.forEach((v, s) => { totals[s] += v; });
      scored = k + 1;
      const made = names.filter((_, s) => h.bids[s] === h.tricks_won[s]);
      snap(`Hand ${k + 1} scored: ${made.length ? made.join(", ") + " made their bid" + (made.length > 1 ? "s" : "") : "nobody made their bid"}.`,
        { last, handScores: h.scores });
    }
  });
  if (rec.winners && out.length) {
    const w = rec.winners.map((s) => names[s]).join(" and ");
    out[out.length - 1].text += ` Game over: ${w} win${rec.winners.length > 1 ? "" : "s"} with ${rec.totals[rec.winners[0]]} points.`;
  }
  return out;
}

function show(i, { announce = true } = {}) {
  at = Math.max(0, Math.min(steps.length - 1, i));
  const st = steps[at];
  const names = record.players;
  const n = names.length;
  const slider = $("slider");
  slider.value = at;
  slider.setAttribute("aria-valuetext", `Step ${at + 1} of ${steps.length}: ${st.text}`);
  $("counter").textContent = `step ${at + 1} of ${steps.length}`;
  $("step-text").textContent = st.text;
  $("step-text").setAttribute("aria-live", timer || !announce ? "off" : "polite");
  const status = clear($("status"));
  status.append(el("span", { class: "item" }, `Hand ${st.k + 1} of ${record.hands.length}`),
    el("span", { class: "item" }, `Dealer: ${names[st.dealer]}`),
    el("span", { class: "item" }, "Trump: ", st.trump ? cardEl(st.trump, { size: "small" }) : el("strong", {}, "none")));
  const trick = clear($("trick"));
  const shown = st.trick.cards.length ? st.trick : (st.last || { leader: (st.dealer + 1) % n, cards: [] });
  for (let j = 0; j < n; j++) {
    const s = (shown.leader + j) % n;
    const c = shown.cards[j];
    trick.append(el("div", { class: "trick-slot" + (c && shown.winner === s ? " winning" : "") },
      c ? cardEl(c) : el("div", { class: "card placeholder", "aria-hidden": "true" }), el("span", { class: "who" }, names[s])));
  }
  $("trick-caption").textContent = !st.trick.cards.length && st.last ? `Last trick: ${names[st.last.winner]} won it` : "";
  const seats = clear($("seats"));
  const trumpSuit = st.trump ? st.trump[1] : null;
  for (let s = 0; s < n; s++) {
    seats.append(el("div", { class: "replay-seat" + (st.acting === s ? " acting" : ""), "data-seat": s },
      el("strong", {}, names[s]), s === st.dealer ? el("span", { class: "pill dealer" }, "dealer") : null,
      el("div", { class: "small" }, `bid ${st.bids[s] === null ? "–" : st.bids[s]} · won ${st.won[s]} · `,
        el("span", { class: "replay-total" }, `total ${st.totals[s]}`)),
      el("div", { class: "cards", role: "group", "aria-label": `${names[s]}'s cards` },
        sortHand(st.hands[s], trumpSuit).map((c) => cardEl(c, { size: "tiny" })))));
  }
  renderScores(st.scored);
  if (analysis) analysis.update(at);
  for (const [id, off] of [["first", at === 0], ["prev", at === 0], ["prev-hand", at === 0],
    ["next", at === steps.length - 1], ["next-hand", at === steps.length - 1], ["last", at === steps.length - 1]]) {
    $(id).disabled = off;
  }
  history.replaceState(null, "", `#step=${at + 1}`);
}

let scoresShown = -1;
/** The score sheet and the chart of the first `upto` hands only. */
function renderScores(upto) {
  if (upto === scoresShown) return;
  scoresShown = upto;
  const n = record.players.length;
  const hands = record.hands.slice(0, upto).filter((h) => h.scores);
  const wrap = clear($("scores"));
  const chart = clear($("chart"));
  $("scores-note").textContent = upto === 0 ? "No hand has been scored yet at this point of the game."
    : upto < record.hands.length ? `After ${upto} of ${record.hands.length} hands.` : "The whole game.";
  if (!hands.length) return;
  const body = el("tbody");
  const totals = new Array(n).fill(0);
  hands.forEach((h, k) => {
    body.append(el("tr", {}, el("th", { scope: "row" }, k + 1), el("td", {}, h.deal[0].length), el("td", {}, h.trump_card ? cardText(h.trump_card) : "none"),
      h.scores.map((v, s) => { totals[s] += v; return el("td", { class: h.bids[s] === h.tricks_won[s] ? "made" : "missed" }, `${h.bids[s]}/${h.tricks_won[s]} `, el("strong", {}, `+${v}`)); })));
  });
  wrap.append(el("table", { class: "grid", id: "score-table" },
    el("caption", { class: "sr-only" }, "Bid/won and points per hand, with totals so far"),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Hand"), el("th", { scope: "col" }, "Cards"), el("th", { scope: "col" }, "Trump"),
      record.players.map((p) => el("th", { scope: "col" }, p)))),
    body, el("tfoot", {}, el("tr", {}, el("th", { scope: "row", colspan: 3 }, "Total"), totals.map((t) => el("td", { class: "total" }, t))))));
  chart.append(scoreChart(record.players, runningTotals(n, hands.map((h) => h.scores)),
    { label: `Running totals after ${hands.length} hand${hands.length === 1 ? "" : "s"}` }));
}

const speed = () => Number($("speed").value) || 1;

function stop() {
  if (!timer) return;
  clearInterval(timer);
  timer = null;
  $("play").textContent = "▶ Play";
  $("play").setAttribute("aria-pressed", "false");
  $("step-text").setAttribute("aria-live", "polite");
}

function start() {
  if (at >= steps.length - 1) show(0, { announce: false });
  $("play").textContent = "❚❚ Pause";
  $("play").setAttribute("aria-pressed", "true");
  timer = setInterval(() => { if (at >= steps.length - 1) stop(); else show(at + 1); }, STEP_MS / speed());
  $("step-text").setAttribute("aria-live", "off");   // a screen reader would read every step at once
}

const toggle = () => (timer ? stop() : start());
function restartTimer() { if (timer) { stop(); start(); } }

function changeSpeed(by) {
  const i = SPEEDS.indexOf(speed());
  const j = Math.max(0, Math.min(SPEEDS.length - 1, (i < 0 ? 1 : i) + by));
  $("speed").value = String(SPEEDS[j]);
  restartTimer();
}

function handJump(dir) {
  if (dir < 0) {
    // To this hand's start, or the previous hand's if already there.
    let i = at - 1;
    while (i > 0 && !steps[i].handStart) i--;
    show(Math.max(0, i));
  } else {
    let i = at + 1;
    while (i < steps.length && !steps[i].handStart) i++;
    show(Math.min(steps.length - 1, i));
  }
}

function stepFromHash() {
  const m = /step=(\d+)/.exec(location.hash);
  return m ? Number(m[1]) - 1 : 0;
}

async function main() {
  const url = `/api/tables/${tableId}/games/${gameNo}/record`;
  $("back").href = `/t/${tableId}`;
  $("download").href = `${url}?download=1`;
  try {
    record = await api(url);
  } catch (e) {
    $("step-text").textContent = `This replay is not available: ${e.message}`;
    $("fair-result").textContent = "";
    for (const b of document.querySelectorAll(".replay-controls button, .replay-controls select, .replay-controls input")) b.disabled = true;
    return;
  }
  document.title = `Replay of game ${gameNo} · Oh Hell`;
  $("title").textContent = `Game ${gameNo} at table ${decodeURIComponent(tableId)}`;
  $("desc").textContent = record.players.join(" · ");
  // A friendly game (record.help, docs/server.md "Hints and undo") says so: a badge by the title.
  const helped = (record.help || []).map((h, s) => [h, s]).filter(([h]) => h.hints || h.undos);
  if (helped.length) $("title").after(el("span", { class: "badge warn", id: "help-badge" },
    "Help used: " + helped.map(([h, s]) => `${record.players[s]} ${h.hints} hint${h.hints === 1 ? "" : "s"}, ${h.undos} undo${h.undos === 1 ? "" : "s"}`).join("; ")));
  steps = buildSteps(record);
  $("slider").max = steps.length - 1;
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(steps.length - 1));
  $("prev-hand").addEventListener("click", () => handJump(-1));
  $("next-hand").addEventListener("click", () => handJump(1));
  $("play").addEventListener("click", toggle);
  $("speed").addEventListener("change", restartTimer);
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t instanceof HTMLSelectElement || (t instanceof HTMLInputElement && t.type !== "range")) return;
    const onRange = t instanceof HTMLInputElement && t.type === "range";
    const key = e.key;
    let done = true;
    if (key === " " && !(t instanceof HTMLButtonElement)) toggle();
    else if (key === "ArrowRight" && !onRange) show(at + 1);
    else if (key === "ArrowLeft" && !onRange) show(at - 1);
    else if (key === "Home" && !onRange) show(0);
    else if (key === "End" && !onRange) show(steps.length - 1);
    else if (key === "PageDown") handJump(1);
    else if (key === "PageUp") handJump(-1);
    else if (key === "+" || key === "=") changeSpeed(1);
    else if (key === "-" || key === "_") changeSpeed(-1);
    else done = false;
    if (done) e.preventDefault();
  });
  analysis = new ReplayAnalysis({ url: `/api/tables/${tableId}/games/${gameNo}/analysis`, record, steps, jump: (i) => show(i) });
  show(stepFromHash(), { announce: false });
  analysis.start();
  window.addEventListener("hashchange", () => show(stepFromHash()));   // a link to another step
  const res = await verifyRecord(record);
  const out = $("fair-result");
  out.className = "fair " + (res.ok ? "ok" : "bad");
  out.textContent = res.ok
    ? `✔ Verified in your browser: all ${res.checked} deals came from seed ${record.seed}, and each matches the SHA-256 commitment published before the game.`
    : `✘ ${res.problems.join("; ")}`;
}

main();
window.ohhellReplay = { get at() { return at; }, get steps() { return steps.length; }, get playing() { return !!timer; },
  show: (i) => show(i) };
