// Step-by-step replay of a finished game from its record (docs/interfaces.md format).
import { api, cardEl, cardText, clear, el, runningTotals, scoreChart, sortHand } from "./common.js";
import { verifyRecord } from "./fair.js";

const [, , tableId, , gameNo] = location.pathname.split("/");
const $ = (id) => document.getElementById(id);
let record = null, steps = [], at = 0, timer = null;

/** Every state the game passed through, one per bid or card, from the record alone. */
function buildSteps(rec) {
  const n = rec.rules.players;
  const names = rec.players;
  const out = [];
  const totals = new Array(n).fill(0);
  rec.hands.forEach((h, k) => {
    const hands = h.deal.map((cards) => [...cards]);
    const bids = new Array(n).fill(null);
    const won = new Array(n).fill(0);
    const size = h.deal[0].length;
    const base = { k, dealer: h.dealer, trump: h.trump_card, size };
    const snap = (text, extra = {}) => out.push({
      ...base, text, hands: hands.map((c) => [...c]), bids: [...bids], won: [...won], totals: [...totals],
      trick: { leader: 0, cards: [] }, last: null, acting: null, ...extra,
    });
    snap(`Hand ${k + 1}: ${size} card${size > 1 ? "s" : ""} each, ${names[h.dealer]} deals, trump ${h.trump_card ? cardText(h.trump_card) : "none"}.`);
    for (let i = 1; i <= n; i++) {
      const s = (h.dealer + i) % n;
      if (h.bids[s] === null) continue;
      bids[s] = h.bids[s];
      snap(`${names[s]} bids ${h.bids[s]}${rec.rules.simultaneous_bidding ? " (bids were made at once, unseen)" : ""}.`, { acting: s });
    }
    let last = null;
    for (const t of h.tricks) {
      const cards = [];
      t.cards.forEach((c, i) => {
        const s = (t.leader + i) % n;
        hands[s] = hands[s].filter((x) => x !== c);
        cards.push(c);
        const complete = cards.length === n && t.winner !== undefined;
        if (complete) won[t.winner] += 1;
        snap(`${names[s]} plays ${cardText(c)}${complete ? `; ${names[t.winner]} wins the trick` : ""}.`,
          { acting: s, trick: { leader: t.leader, cards: [...cards], winner: complete ? t.winner : null }, last });
      });
      last = t;
    }
    if (h.scores) {
      h.scores.forEach((v, s) => { totals[s] += v; });
      const made = names.filter((_, s) => h.bids[s] === h.tricks_won[s]);
      snap(`Hand ${k + 1} scored: ${made.length ? made.join(", ") + " made their bid" + (made.length > 1 ? "s" : "") : "nobody made their bid"}.`,
        { last, scored: h.scores });
    }
  });
  if (rec.winners) {
    const w = rec.winners.map((s) => names[s]).join(" and ");
    out[out.length - 1].text += ` Game over: ${w} win${rec.winners.length > 1 ? "" : "s"} with ${rec.totals[rec.winners[0]]} points.`;
  }
  return out;
}

function show(i) {
  at = Math.max(0, Math.min(steps.length - 1, i));
  const st = steps[at];
  const names = record.players;
  const n = names.length;
  $("slider").value = at;
  $("counter").textContent = `step ${at + 1} of ${steps.length}`;
  $("step-text").textContent = st.text;
  const status = clear($("status"));
  status.append(el("span", { class: "item" }, `Hand ${st.k + 1} of ${record.hands.length}`),
    el("span", { class: "item" }, `Dealer: ${names[st.dealer]}`),
    el("span", { class: "item" }, "Trump: ", st.trump ? cardEl(st.trump, { size: "small" }) : el("strong", {}, "none")));
  const trick = clear($("trick"));
  const shown = st.trick.cards.length ? st.trick : (st.last || { leader: (st.dealer + 1) % n, cards: [] });
  for (let i = 0; i < n; i++) {
    const s = (shown.leader + i) % n;
    const c = shown.cards[i];
    trick.append(el("div", { class: "trick-slot" + (c && shown.winner === s ? " winning" : "") },
      c ? cardEl(c) : el("div", { class: "card placeholder" }), el("span", { class: "who" }, names[s])));
  }
  $("trick-caption").textContent = !st.trick.cards.length && st.last ? `Last trick: ${names[st.last.winner]} won it` : "";
  const seats = clear($("seats"));
  const trumpSuit = st.trump ? st.trump[1] : null;
  for (let s = 0; s < n; s++) {
    seats.append(el("div", { class: "replay-seat" + (st.acting === s ? " acting" : "") },
      el("strong", {}, names[s]), s === st.dealer ? el("span", { class: "pill dealer" }, "dealer") : null,
      el("div", { class: "small" }, `bid ${st.bids[s] === null ? "–" : st.bids[s]} · won ${st.won[s]} · total ${st.totals[s]}`),
      el("div", { class: "cards" }, sortHand(st.hands[s], trumpSuit).map((c) => cardEl(c, { size: "tiny" })))));
  }
}

function renderScores() {
  const n = record.players.length;
  const body = el("tbody");
  const totals = new Array(n).fill(0);
  record.hands.forEach((h, k) => {
    if (!h.scores) return;
    body.append(el("tr", {}, el("td", {}, k + 1), el("td", {}, h.deal[0].length), el("td", {}, h.trump_card ? cardText(h.trump_card) : "none"),
      h.scores.map((v, s) => { totals[s] += v; return el("td", { class: h.bids[s] === h.tricks_won[s] ? "made" : "missed" }, `${h.bids[s]}/${h.tricks_won[s]} `, el("strong", {}, `+${v}`)); })));
  });
  $("scores").append(el("table", { class: "grid" },
    el("thead", {}, el("tr", {}, el("th", {}, "Hand"), el("th", {}, "Cards"), el("th", {}, "Trump"), record.players.map((p) => el("th", {}, p)))),
    body, el("tfoot", {}, el("tr", {}, el("td", { colspan: 3 }, "Total"), totals.map((t) => el("td", {}, t))))));
  $("chart").append(scoreChart(record.players, runningTotals(n, record.hands.filter((h) => h.scores).map((h) => h.scores))));
}

function play() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "▶ Play"; return; }
  if (at >= steps.length - 1) show(0);
  $("play").textContent = "❚❚ Pause";
  timer = setInterval(() => { if (at >= steps.length - 1) play(); else show(at + 1); }, 900);
}

async function main() {
  const url = `/api/tables/${tableId}/games/${gameNo}/record`;
  $("back").href = `/t/${tableId}`;
  $("download").href = `${url}?download=1`;
  try {
    record = await api(url);
  } catch (e) {
    $("step-text").textContent = `This replay is not available: ${e.message}`;
    return;
  }
  document.title = `Replay of game ${gameNo} · Oh Hell`;
  $("title").textContent = `Game ${gameNo} at table ${decodeURIComponent(tableId)}`;
  $("desc").textContent = record.players.join(" · ");
  steps = buildSteps(record);
  $("slider").max = steps.length - 1;
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(steps.length - 1));
  $("play").addEventListener("click", play);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.key === "ArrowRight") { show(at + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { show(at - 1); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(steps.length - 1); e.preventDefault(); }
    else if (e.key === " ") { play(); e.preventDefault(); }
  });
  show(0);
  renderScores();
  const res = await verifyRecord(record);
  const out = $("fair-result");
  out.className = "fair " + (res.ok ? "ok" : "bad");
  out.textContent = res.ok
    ? `✔ Verified in your browser: all ${res.checked} deals came from seed ${record.seed}, and each matches the SHA-256 commitment published before the game.`
    : `✘ ${res.problems.join("; ")}`;
}

main();
