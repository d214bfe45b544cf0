// Step-by-step replay of a finished game from its record (docs/interfaces.md format).
// Each step shows what the table showed at that moment: the bids and tricks so far, and the
// scores of the hands scored so far (never the final totals before the replay gets there).
// A finished game's record reveals every hand, so the replay shows them all: each seat's
// cards still in hand at that step, face up by its plate.  The felt, the seats, the cards and
// the motion are the table page's own (js/table/*.js, felt.css, cards.css).
import { api, cardText, cardWords, clear, el, runningTotals, scoreChart, seatName } from "./common.js";
import { verifyRecord } from "./fair.js";
import { number, t, tn, tp } from "./i18n.js";
import { ReplayAnalysis } from "./replay-analysis.js";
import { deckParts, face, sortHand, trumpItem } from "./table/cards.js";
import { patch } from "./table/dom.js";
import { finishAll, flyFrom, ms } from "./table/motion.js";
import { accountTag, seatLine, seatPlate, standing, trickCard } from "./table/seats.js";
import { settings } from "./table/settings.js";

const [, , tableId, , gameNo] = location.pathname.split("/");
const $ = (id) => document.getElementById(id);
const SPEEDS = [0.5, 1, 2, 4, 8];
const STEP_MS = 900;         // one step at 1×
let record = null, steps = [], at = 0, timer = null, analysis = null;
/** Whether a bot account (a program, through the bot API) held seat ``s``: the record's ``account_bots``. */
const isBot = (s) => Array.isArray(record.account_bots) && record.account_bots.includes(s);

/** Names as a list in words: "Ann", "Ann and Bob", "Ann, Bob and Cy". */
export function listWords(items) {
  if (items.length < 2) return items.join("");
  return t("{list} and {last}", { list: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

/** The players' names as this page shows them (the server's names for bots' seats, "Random
 * bot 2", in the page's language: common.js seatName). */
export const shownNames = (rec) => rec.players.map(seatName);

/** Every state the game passed through, one per bid or card (and one per scored hand), from
 * the record alone.  `scored` is how many hands have been scored at that step. */
export function buildSteps(rec) {
  const n = rec.rules.players;
  const names = shownNames(rec);
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
    const facts = { hand: number(k + 1), dealer: names[h.dealer] };
    snap(h.trump_card
      ? tn("Hand {hand}: {n} card each, {dealer} deals, trump {trump}.", "Hand {hand}: {n} cards each, {dealer} deals, trump {trump}.",
        size, { ...facts, trump: cardText(h.trump_card) })
      : tn("Hand {hand}: {n} card each, {dealer} deals, no trump.", "Hand {hand}: {n} cards each, {dealer} deals, no trump.", size, facts),
    { handStart: true });
    for (let i = 1; i <= n; i++) {
      const s = (h.dealer + i) % n;
      if (h.bids[s] === null) continue;
      bids[s] = h.bids[s];
      const said = { name: names[s], bid: number(h.bids[s]) };
      snap(rec.rules.simultaneous_bidding ? t("{name} bids {bid} (bids were made at once, unseen).", said)
        : t("{name} bids {bid}.", said), { acting: s, kind: "bid" });
    }
    let last = null;
    h.tricks.forEach((trick, ti) => {
      const cards = [];
      trick.cards.forEach((c, i) => {
        const s = (trick.leader + i) % n;
        hands[s] = hands[s].filter((x) => x !== c);
        cards.push(c);
        const complete = cards.length === n && trick.winner !== undefined;
        if (complete) won[trick.winner] += 1;
        snap(complete ? t("{name} plays {card}; {winner} wins the trick.", { name: names[s], card: cardText(c), winner: names[trick.winner] })
          : t("{name} plays {card}.", { name: names[s], card: cardText(c) }),
          { acting: s, kind: "play", trickNo: ti + 1, trick: { leader: trick.leader, cards: [...cards], winner: complete ? trick.winner : null }, last });
      });
      last = trick;
    });
    if (h.scores) {
      h.scores.forEach((v, s) => { totals[s] += v; });
      scored = k + 1;
      const made = names.filter((_, s) => h.bids[s] === h.tricks_won[s]);
      snap(made.length ? tn("Hand {hand} scored: {names} made their bid.", "Hand {hand} scored: {names} made their bids.", made.length,
        { hand: number(k + 1), names: listWords(made) }) : t("Hand {hand} scored: nobody made their bid.", { hand: number(k + 1) }),
        { last, handScores: h.scores });
    }
  });
  if (rec.winners && out.length) {
    const w = listWords(rec.winners.map((s) => names[s]));
    out[out.length - 1].text += " " + tn("Game over: {names} wins with {points} points.", "Game over: {names} win with {points} points.",
      rec.winners.length, { names: w, points: number(rec.totals[rec.winners[0]]) });
  }
  return out;
}

/** One seat's standing against its bid at a step, in the core's words (ohhell.scoring.bid_status). */
export function bidStatus(bid, won, stage) {
  if (bid === null) return "to bid";
  if (stage === "bidding") return "bid in";
  if (won > bid) return `over by ${won - bid}`;
  if (won === bid) return stage === "done" ? "made" : "on bid";
  return stage === "done" ? `under by ${bid - won}` : `needs ${bid - won}`;
}

/** The felt at step ``st``: the bar above it, the seats around it (seat 1 at the bottom, as a
 * spectator sees the table), each with the cards it still holds, the trick and the trump. */
function drawTable(st, names) {
  const n = names.length;
  const felt = $("felt");
  felt.classList.toggle("many", n >= 6);
  felt.classList.toggle("four-colour", settings.fourColour);
  patch($("status"), [
    el("span", { class: "item" }, t("Hand {hand} of {hands}", { hand: number(st.k + 1), hands: number(record.hands.length) })),
    el("span", { class: "item" }, tn("{n} card", "{n} cards", st.size)),
    trumpItem(st.trump),
  ]);
  patch($("deck"), deckParts(st.trump));
  const shown = st.trick.cards.length ? st.trick : (st.last || { leader: 0, cards: [] });
  const key = `${st.k}.${shown.leader}.${shown.cards[0]}`;
  patch($("trick"), shown.cards.map((c, j) => {
    const s = (shown.leader + j) % n;
    return trickCard(c, s, 0, n, { label: `${names[s]}: ${cardWords(c)}`, extra: shown.winner === s ? "won" : "", key });
  }));
  $("trick-caption").textContent = !st.trick.cards.length && st.last ? t("Last trick: {name} won it", { name: names[st.last.winner] }) : "";
  const trumpSuit = st.trump ? st.trump[1] : null;
  const stage = st.handScores ? "done" : st.kind === "play" ? "playing" : "bidding";
  const plates = [];
  for (let s = 0; s < n; s++) {
    const bid = st.bids[s] === null ? "–" : number(st.bids[s]);
    plates.push(seatPlate({
      seat: s, base: 0, players: n, name: names[s], state: st.acting === s ? ["acted"] : [], dealer: s === st.dealer,
      text: [isBot(s) ? accountTag() : null, seatLine(s, bid, st.won[s]),
        el("span", { class: "seat-sum" }, el("span", { class: "replay-total" }, t("total {total}", { total: number(st.totals[s]) })),
          standing(bidStatus(st.bids[s], st.won[s], stage)))],
      words: s === st.dealer ? [t("dealer")] : [],
      after: el("div", { class: "seat-hand", role: "group", "aria-label": t("{name}'s cards", { name: names[s] }) },
        sortHand(st.hands[s], trumpSuit).map((c) => face(c))),
    }));
  }
  patch($("seats"), plates);
}

function show(i, { announce = true } = {}) {
  const before = at;
  at = Math.max(0, Math.min(steps.length - 1, i));
  const st = steps[at];
  const names = shownNames(record);
  finishAll();
  // one step forward onto a card played: it travels from its player's hand to the trick
  // (the table page's motion: none under prefers-reduced-motion or with animation off)
  const played = at === before + 1 && st.kind === "play" ? st.trick.cards[st.trick.cards.length - 1] : null;
  const inHand = played && document.querySelector(`#seats .seat[data-seat='${st.acting}'] .seat-hand [data-card='${played}']`);
  const from = inHand ? inHand.getBoundingClientRect() : null;
  const slider = $("slider");
  slider.value = at;
  const where = { step: number(at + 1), steps: number(steps.length) };
  slider.setAttribute("aria-valuetext", t("Step {step} of {steps}: {text}", { ...where, text: st.text }));
  $("counter").textContent = t("step {step} of {steps}", where);
  $("step-text").textContent = st.text;
  $("step-text").setAttribute("aria-live", timer || !announce ? "off" : "polite");
  drawTable(st, names);
  if (from) {
    const node = document.querySelector(`#trick [data-card='${played}']`);
    if (node) flyFrom(node, from, Math.round(ms("play") / Math.max(1, speed())));
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
  $("scores-note").textContent = upto === 0 ? t("No hand has been scored yet at this point of the game.")
    : upto < record.hands.length ? t("After {hands} of {total} hands.", { hands: number(upto), total: number(record.hands.length) })
      : t("The whole game.");
  if (!hands.length) return;
  const body = el("tbody");
  const totals = new Array(n).fill(0);
  hands.forEach((h, k) => {
    body.append(el("tr", {}, el("th", { scope: "row" }, number(k + 1)), el("td", {}, number(h.deal[0].length)),
      el("td", {}, h.trump_card ? cardText(h.trump_card) : tp("no trump", "none")),
      h.scores.map((v, s) => {
        totals[s] += v;
        return el("td", { class: h.bids[s] === h.tricks_won[s] ? "made" : "missed" }, `${number(h.bids[s])}/${number(h.tricks_won[s])} `,
          el("strong", {}, `+${number(v)}`));
      })));
  });
  wrap.append(el("table", { class: "grid", id: "score-table" },
    el("caption", { class: "sr-only" }, t("Bid/won and points per hand, with totals so far")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Hand")), el("th", { scope: "col" }, t("Cards")), el("th", { scope: "col" }, t("Trump")),
      shownNames(record).map((p) => el("th", { scope: "col" }, p)))),
    body, el("tfoot", {}, el("tr", {}, el("th", { scope: "row", colspan: 3 }, t("Total")), totals.map((v) => el("td", { class: "total" }, number(v)))))));
  chart.append(scoreChart(shownNames(record), runningTotals(n, hands.map((h) => h.scores)),
    { label: tn("Running totals after {n} hand", "Running totals after {n} hands", hands.length) }));
}

const speed = () => Number($("speed").value) || 1;

function stop() {
  if (!timer) return;
  clearInterval(timer);
  timer = null;
  $("play").textContent = "▶ " + t("Play");
  $("play").setAttribute("aria-pressed", "false");
  $("step-text").setAttribute("aria-live", "polite");
}

function start() {
  if (at >= steps.length - 1) show(0, { announce: false });
  $("play").textContent = "❚❚ " + t("Pause");
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
  if (location.hash === "#analysis") return steps.length - 1;   // a player page's link: the whole game's analysis
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
    // (the server's error code, worded here: its English message is for programs)
    const why = e.code === "not_over" ? t("This replay is not available yet: the game is still being played.")
      : e.code === "no_table" || e.code === "no_game" ? t("This replay is not available: there is no such game.")
        : t("This replay is not available: the server could not send the game; try again later.");
    $("step-text").textContent = why;
    $("fair-result").textContent = "";
    for (const b of document.querySelectorAll(".replay-controls button, .replay-controls select, .replay-controls input")) b.disabled = true;
    return;
  }
  document.title = t("Replay of game {game} · Oh Hell", { game: number(Number(gameNo)) });
  $("title").textContent = t("Game {game} at table {table}", { game: number(Number(gameNo)), table: decodeURIComponent(tableId) });
  // the seats programs played through the bot API (docs/bots-api.md) say so
  $("desc").textContent = shownNames(record).map((name, s) => (isBot(s) ? t("{name} (bot)", { name }) : name)).join(" · ");
  // A friendly game (record.help, docs/server.md "Hints and undo") says so: a badge by the title.
  const helped = (record.help || []).map((h, s) => [h, s]).filter(([h]) => h.hints || h.undos);
  const helpWords = ([h, s]) => {
    const hints = tn("{n} hint", "{n} hints", h.hints);
    const undos = tn("{n} undo", "{n} undos", h.undos);
    return t("{name}: {hints}, {undos}", { name: shownNames(record)[s], hints, undos });
  };
  if (helped.length) {
    const list = helped.map(helpWords).join("; ");
    $("title").after(el("span", { class: "badge warn", id: "help-badge" }, t("Help used: {list}", { list })));
  }
  steps = buildSteps(record);
  // the felt is as tall as the game's longest hand needs, the same at every step
  $("felt").style.setProperty("--cards", String(Math.max(...record.hands.map((h) => h.deal[0].length))));
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
    const target = e.target;
    if (target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type !== "range")) return;
    const onRange = target instanceof HTMLInputElement && target.type === "range";
    const key = e.key;
    let done = true;
    if (key === " " && !(target instanceof HTMLButtonElement)) toggle();
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
  if (location.hash === "#analysis") $("analysis").scrollIntoView();
  analysis.start();
  window.addEventListener("hashchange", () => show(stepFromHash()));   // a link to another step
  const res = await verifyRecord(record);
  const out = $("fair-result");
  out.className = "fair " + (res.ok ? "ok" : "bad");
  out.textContent = res.ok
    ? "✔ " + tn("Verified in your browser: the deal came from seed {seed}, and it matches the SHA-256 commitment published before the game.",
      "Verified in your browser: all {n} deals came from seed {seed}, and each matches the SHA-256 commitment published before the game.",
      res.checked, { seed: record.seed })
    : `✘ ${res.problems.join("; ")}`;
}

main();
window.ohhellReplay = { get at() { return at; }, get steps() { return steps.length; }, get playing() { return !!timer; },
  show: (i) => show(i) };
