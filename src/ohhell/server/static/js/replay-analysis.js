// The replay's "Analysis" panel: the coach's analysis of the finished game (docs/coach.md),
// made by the server in the background (docs/server.md, "Replay analysis").  Until it is
// ready the panel polls GET /api/tables/{id}/games/{n}/analysis and shows its progress; then
// it shows each player's running score beside the running expected score (what their cards
// were worth, from their own information), the points lost per hand in bidding and in play,
// and each mistake on the step where it happened.  Like the score sheet, everything is shown
// only up to the replay's current step: the slider's marks say where mistakes are, the words
// come when the replay gets there.
import { PALETTE, cardText, clear, el, seatName } from "./common.js";
import { number, t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1500;
const Z95 = 1.959964;
const SVG = "http://www.w3.org/2000/svg";
const fmt = (x) => number(Math.abs(x) < 0.05 ? 0 : x, 1);
// Cards' losses are cross-fitted (docs/coach.md), so a close call can come out a little
// below zero: that is no measurable loss, shown as 0 (as the terminal does), never as a gain.
const fmtLost = (x) => fmt(Math.max(0, x));
// Every estimate with its 95% interval: " ± 1.2" from a standard error (nothing for an exact
// number, or for an analysis made before the field was written).
const pm = (se) => (Z95 * se >= 0.05 ? ` ± ${fmt(Z95 * se)}` : "");
/** The standard error of one seat's points lost in a hand (older analyses: from its parts). */
const lostSe = (r) => r.lost_se ?? Math.hypot(r.lost_bid_se ?? 0, r.lost_play_se ?? 0);

/** The step each decision of the analysis happened at (bids by seat, cards by trick and seat). */
export function decisionSteps(steps, analysis) {
  const index = new Map();
  steps.forEach((st, i) => {
    if (st.kind === "bid") index.set(`${st.k}/bid/${st.acting}`, i);
    else if (st.kind === "play") index.set(`${st.k}/play/${st.trickNo}/${st.acting}`, i);
  });
  const out = [];
  for (const h of analysis.hands) {
    for (const d of h.decisions) {
      const key = d.kind === "bid" ? `${h.hand}/bid/${d.seat}` : `${h.hand}/play/${d.trick}/${d.seat}`;
      if (index.has(key)) out.push({ hand: h, d, step: index.get(key) });
    }
  }
  return out;
}

/** A mistake in words: "Bob bid 3; 1 was best (cost 4.2 ± 1.8 points)". */
export function mistakeText(names, d) {
  const card = (c) => (typeof c === "string" ? cardText(c) : c);
  const facts = { name: names[d.seat], cost: fmt(d.loss), margin: fmt(Z95 * d.loss_se) };
  return d.kind === "bid"
    ? t("{name} bid {bid}; {best} was best (cost {cost} ± {margin} points)", { ...facts, bid: number(d.action), best: number(d.best) })
    : t("{name} played {card}; {best} was best (cost {cost} ± {margin} points)", { ...facts, card: card(d.action), best: card(d.best) });
}

/** Why the server could not give the analysis, by its error code (its English message is for programs). */
function refusal(status, body) {
  const why = {
    no_table: t("There is no such table."),
    no_game: t("There is no such game at this table."),
    not_over: t("The game is still being played; its analysis comes when it ends."),
    storage: t("The server could not read the analysis; try again."),
  }[body.error];
  if (why) return why;
  if (status === 429) return t("The server is analysing many games for you already; try again in a while.");
  return t("The server answered {status}.", { status });
}

export class ReplayAnalysis {
  constructor({ url, record, steps, jump }) {
    this.url = url;
    this.record = record;
    this.steps = steps;
    this.jump = jump;
    this.data = null;
    this.at = 0;
    this.shownHands = -1;
    this.shownStep = -1;
    this.timer = null;
    $("analysis-retry").addEventListener("click", () => { $("analysis-retry").hidden = true; this.poll(true); });
  }

  start() { this.poll(false); }

  async poll(retry) {
    clearTimeout(this.timer);
    let res, body;
    try {
      res = await fetch(this.url + (retry ? "?retry=1" : ""), { headers: { accept: "application/json" } });
      body = await res.json().catch(() => ({}));
    } catch {
      this.waiting(t("The server could not be reached; trying again…"), null, "");
      this.timer = setTimeout(() => this.poll(false), POLL_MS * 4);
      return;
    }
    if (!res.ok) {
      this.waiting(t("The analysis is not available."), null, refusal(res.status, body));
      $("analysis-retry").hidden = res.status !== 429 && res.status !== 503;
      return;
    }
    if (body.status === "ready") {
      this.ready(body.analysis);
      return;
    }
    if (body.status === "failed") {
      this.waiting(t("The analysis failed."), null, t("Something went wrong while analysing this game; try again."));
      $("analysis-retry").hidden = false;
      return;
    }
    if (body.status === "running") {
      const pct = Math.round(100 * body.progress);
      this.waiting(t("Analysing every bid and card: {percent}%", { percent: number(pct) }), body.progress,
        body.paused ? t("Paused for a moment: the bots at live tables come first.")
          : t("Each decision is played out in many deals from the deciding player's view."));
    } else {
      const ahead = body.ahead || 0;
      this.waiting(t("Waiting for its turn to be analysed…"), 0,
        ahead ? tn("{n} other game is ahead of this one.", "{n} other games are ahead of this one.", ahead) : t("It starts in a moment."));
    }
    this.timer = setTimeout(() => this.poll(false), POLL_MS);
  }

  waiting(state, progress, detail) {
    $("analysis-state").textContent = state;
    const bar = $("analysis-progress");
    if (progress === null) bar.hidden = true;
    else { bar.hidden = false; bar.value = progress; bar.textContent = `${number(Math.round(progress * 100))}%`; }
    $("analysis-detail").textContent = detail;
  }

  ready(analysis) {
    this.data = analysis;
    this.decisions = decisionSteps(this.steps, analysis);
    this.mistakes = this.decisions.filter((x) => x.d.mistake);
    this.byStep = new Map(this.mistakes.map((m) => [m.step, m]));
    $("analysis-wait").hidden = true;
    $("analysis-ready").hidden = false;
    const s = analysis.settings || {};
    $("analysis-note").textContent = [
      t("Each decision was judged from the deciding player's own view: {samples} sampled deals of the unseen cards, every legal choice played out.",
        { samples: number(s.samples) }),
      t("A mistake lost at least {points} points, with 95% confidence.", { points: number(s.min_loss, s.min_loss % 1 ? 1 : 0) }),
      t("The expected score is what each player's cards were worth as dealt (playing them as well as the analysis can)."),
    ].join(" ");
    const marks = clear($("mistake-marks"));
    const last = Math.max(1, this.steps.length - 1);
    for (const m of this.mistakes) {
      marks.append(el("span", { class: "mark", style: `--at: ${m.step / last}`, "data-step": m.step }));
    }
    this.shownHands = -1;
    this.shownStep = -1;
    this.update(this.at);
  }

  /** Show what the analysis says up to step `at` (called by the replay on every step). */
  update(at) {
    this.at = at;
    if (!this.data) return;
    const st = this.steps[at];
    const note = $("mistake-note");
    const m = this.byStep.get(at);
    note.hidden = !m;
    note.textContent = m ? t("Mistake: {what}.", { what: mistakeText(this.record.players.map(seatName), m.d) }) : "";
    if (st.scored !== this.shownHands) {
      this.shownHands = st.scored;
      this.renderChart(st.scored);
      this.renderLost(st.scored);
    }
    if (at !== this.shownStep) {
      this.shownStep = at;
      this.renderMistakes(at);
    }
  }

  renderChart(upto) {
    const names = this.record.players.map(seatName);
    const n = names.length;
    const hands = this.data.hands.filter((h) => h.finished).slice(0, upto);
    const wrap = clear($("analysis-chart"));
    if (!hands.length) {
      wrap.append(el("p", { class: "small muted" }, t("The chart starts when the first hand is scored.")));
      return;
    }
    const score = Array.from({ length: n }, () => [0]);
    const expected = Array.from({ length: n }, () => [0]);
    for (const h of hands) {
      h.seats.forEach((r, s) => {
        score[s].push(score[s].at(-1) + (r.score ?? 0));
        expected[s].push(expected[s].at(-1) + (r.cards ?? 0));
      });
    }
    const total = this.data.hands.length;
    const W = 560, H = 252, L = 52, R = 12, T = 12, B = 40;
    const values = [...score.flat(), ...expected.flat()];
    const maxY = Math.max(10, ...values), minY = Math.min(0, ...values);
    const x = (i) => L + (W - L - R) * (i / total);
    const y = (v) => T + (H - T - B) * (1 - (v - minY) / (maxY - minY));
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("role", "img");
    const summary = names.map((p, s) => t("{name} {score} (expected {expected})",
      { name: p, score: number(score[s].at(-1)), expected: fmt(expected[s].at(-1)) })).join(", ");
    svg.setAttribute("aria-label", tn("Running score, solid, and expected score, dashed, after {n} hand: {summary}",
      "Running score, solid, and expected score, dashed, after {n} hands: {summary}", hands.length, { summary }));
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(SVG, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = text;
      svg.append(node);
      return node;
    };
    const span = maxY - minY;
    const step = span > 200 ? 50 : span > 80 ? 20 : span > 30 ? 10 : 5;
    for (let v = Math.ceil(minY / step) * step; v <= maxY; v += step) {
      add("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: v === 0 ? "#aab4ba" : "#e3e7ea" });
      add("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#4f5b62" }, number(v));
    }
    const every = Math.ceil(total / 15);
    for (let i = 1; i <= total; i += every) add("text", { x: x(i), y: H - 21, "text-anchor": "middle", "font-size": 11, fill: "#4f5b62" }, number(i));
    // the axes' titles
    add("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", "font-size": 11, fill: "#4f5b62", class: "axis-title" }, t("hand"));
    add("text", { x: 12, y: (T + H - B) / 2, "text-anchor": "middle", "font-size": 11, fill: "#4f5b62", class: "axis-title",
      transform: `rotate(-90 12 ${(T + H - B) / 2})` }, t("points"));
    for (let s = 0; s < n; s++) {
      const c = PALETTE[s % PALETTE.length];
      const pts = (series) => series.map((v, i) => `${x(i)},${y(v)}`).join(" ");
      add("polyline", { points: pts(expected[s]), fill: "none", stroke: c, "stroke-width": 2, "stroke-dasharray": "5 4", opacity: 0.75, class: "expected" });
      add("polyline", { points: pts(score[s]), fill: "none", stroke: c, "stroke-width": 2.5, class: "score" });
      score[s].forEach((v, i) => { if (i) add("circle", { cx: x(i), cy: y(v), r: 3, fill: c }); });
    }
    const legend = el("div", { class: "legend" },
      names.map((p, s) => el("span", { style: `--c: ${PALETTE[s % PALETTE.length]}` }, p)),
      el("span", { class: "key-expected" }, t("dashed: expected score")));
    wrap.append(el("div", { class: "chart analysis-chart" }, svg, legend));
  }

  renderLost(upto) {
    const names = this.record.players.map(seatName);
    const hands = this.data.hands.filter((h) => h.finished).slice(0, upto);
    const wrap = clear($("analysis-lost"));
    if (!hands.length) {
      wrap.append(el("p", { class: "small muted" }, t("No hand has been scored yet at this point of the game.")));
      return;
    }
    // the sums' variances add up: each decision is sampled on its own deals
    const sums = names.map(() => ({ bid: 0, play: 0, mistakes: 0, score: 0, cards: 0, lostVar: 0, cardsVar: 0 }));
    const body = el("tbody", {}, hands.map((h) => el("tr", {}, el("th", { scope: "row" }, number(h.hand + 1)),
      h.seats.map((r, s) => {
        const sum = sums[s];
        sum.bid += r.lost_bid; sum.play += r.lost_play; sum.mistakes += r.mistakes; sum.score += r.score ?? 0; sum.cards += r.cards ?? 0;
        sum.lostVar += lostSe(r) ** 2; sum.cardsVar += (r.cards_se ?? 0) ** 2;
        return lostCell(r.lost_bid, r.lost_play, r.mistakes, false, lostSe(r));
      }))));
    wrap.append(el("table", { class: "grid lost-table", id: "lost-table" },
      el("caption", { class: "sr-only" }, t("Points each player lost per hand, in bidding and in play, and their mistakes")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Hand")), names.map((p) => el("th", { scope: "col" }, p)))),
      body,
      el("tfoot", {}, el("tr", {}, el("th", { scope: "row" }, t("Total")), sums.map((sum) => lostCell(sum.bid, sum.play, sum.mistakes, true, Math.sqrt(sum.lostVar)))),
        el("tr", {}, el("th", { scope: "row" }, t("Expected / scored")),
          sums.map((sum) => el("td", {}, `${fmt(sum.cards)}${pm(Math.sqrt(sum.cardsVar))} / ${number(sum.score)}`))))));
  }

  renderMistakes(at) {
    const list = clear($("mistake-list"));
    const reached = this.mistakes.filter((m) => m.step <= at);
    for (const m of reached) {
      list.append(el("li", {}, el("button", { type: "button", class: "linkish", "data-step": m.step, onclick: () => this.jump(m.step) },
        t("Hand {hand}, step {step}", { hand: number(m.hand.hand + 1), step: number(m.step + 1) })), `: ${mistakeText(this.record.players.map(seatName), m.d)}`));
    }
    const later = this.mistakes.length - reached.length;
    const next = this.mistakes.find((m) => m.step > at);
    if (!this.mistakes.length) list.append(el("li", { class: "muted" }, t("No mistakes were found in this game.")));
    else if (!reached.length) list.append(el("li", { class: "muted" }, t("None yet at this point of the game.")));
    if (later) {
      list.append(el("li", { class: "muted" }, tn("{n} more later in the game.", "{n} more later in the game.", later), " ",
        el("button", { type: "button", id: "next-mistake", onclick: () => this.jump(next.step) }, t("Go to the next mistake"))));
    }
  }
}

function lostCell(bid, play, mistakes, strong = false, se = 0) {
  const total = bid + play;
  const cls = total >= 2 ? "lost high" : total >= 0.5 ? "lost some" : "lost";
  return el("td", { class: cls },
    strong ? el("strong", {}, fmtLost(total)) : fmtLost(total),
    pm(se) ? el("span", { class: "margin" }, pm(se)) : null,
    el("span", { class: "small muted" }, " ", mistakes
      ? tn("(bid {bid}, play {play}, {n} mistake)", "(bid {bid}, play {play}, {n} mistakes)", mistakes, { bid: fmtLost(bid), play: fmtLost(play) })
      : t("(bid {bid}, play {play})", { bid: fmtLost(bid), play: fmtLost(play) })));
}
