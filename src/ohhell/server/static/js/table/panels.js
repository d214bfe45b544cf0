// The side panels and the game-over screen: the bid table, the seat controls, the score
// table and chart, the invite links and the fair-shuffle check.
import { helpWords } from "./help.js";
import { botName, cardText, clear, describeRules, el, runningTotals, scoreChart, store, toast } from "../common.js";
import { number, t, tn, tp } from "../i18n.js";
import { verifyRecord } from "../fair.js";
import { ctx, game, me, takeoverLeft, view, waitingFor } from "./state.js";
import { avatar, standing } from "./seats.js";
import { patch } from "./dom.js";

const $ = (id) => document.getElementById(id);

function countdown(seat, words) {
  const left = takeoverLeft(seat);
  return el("span", { class: "countdown", "data-countdown": seat.seat, "data-words": words },
    words.replace("#", left === null ? "" : number(Math.ceil(left))));
}
export { countdown };

export function renderBidTable() {
  const tbl = $("bidtable");
  const tb = ctx.state.table;
  const v = view();
  const head = [el("caption", { class: "sr-only" }, t("Each player's bid, tricks won and points")),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("Player")), el("th", { scope: "col" }, tp("noun", "Bid")), el("th", { scope: "col" }, t("Won")), el("th", { scope: "col" }, t("Total"))))];
  const body = el("tbody");
  const acting = v ? waitingFor(v) : [];
  for (const seat of tb.seats) {
    const i = seat.seat;
    const name = v ? v.names[i] : (seat.name || (seat.kind === "reserved" ? t("Reserved") : t("Open seat")));
    const dot = seat.kind === "human" && !seat.standin
      ? el("span", { class: "dot " + (seat.connected ? "on" : "off"), title: seat.connected ? t("connected") : t("away") },
        el("span", { class: "sr-only" }, seat.connected ? t("connected") : t("not connected"))) : null;
    const tags = [];
    if (v && v.dealer === i && v.phase !== "over") tags.push(el("span", { class: "pill dealer" }, t("dealer")));
    if (seat.kind === "bot") tags.push(el("span", { class: "pill" }, t("bot: {level}", { level: botName(seat.bot) })));
    if (seat.account_bot) tags.push(el("span", { class: "pill bot-account", title: t("a program playing through the bot API") }, t("bot account")));
    if (seat.standin) tags.push(el("span", { class: "pill", title: seat.standin_by === "timer" ? t("away too long on their turn") : t("put in by the creator") },
      seat.standin_by === "timer" ? t("away: bot plays") : t("bot stands in")));
    if (takeoverLeft(seat) !== null) tags.push(el("span", { class: "pill away" }, countdown(seat, t("bot in # s"))));
    if (i === me()) tags.push(el("span", { class: "pill" }, t("you")));
    let bid = "", won = "", total = "", st = null;
    if (v) {
      bid = v.bids[i] !== null ? number(v.bids[i]) : v.has_bid[i] ? "✓" : "–";
      won = v.phase === "over" ? "" : number(v.tricks_won[i]);
      total = number(v.totals[i]);
      st = standing(v.bid_status ? v.bid_status[i] : "");
    }
    const row = el("tr", { class: (acting.includes(i) ? "to-act " : "") + (i === me() ? "me" : ""), "data-seat": i },
      el("th", { scope: "row" }, el("span", { class: "who" }, avatar(name, "small"), dot, el("span", { class: "nm" }, name)), el("span", { class: "tags" }, ...tags)),
      el("td", {}, bid), el("td", {}, won, st), el("td", {}, total));
    if (!v && (seat.kind === "open" || seat.kind === "reserved")) {
      row.replaceChildren(el("th", { scope: "row" }, name, seat.kind === "reserved" ? el("span", { class: "pill" }, t("invite only")) : null),
        el("td", { colspan: 3 }, joinControl(i, seat)));
    }
    body.append(row);
  }
  patch(tbl, [...head, body]);
}

function joinControl(i, seat) {
  const box = el("div", { class: "join-box" });
  if (me() === null && (seat.kind === "open" || (ctx.invite && ctx.invite.seat === i))) {
    box.append(el("button", { class: "primary join", "data-seat": i, onclick: () => join(i) }, t("Sit here")));
  }
  if (ctx.state.you.admin && !game()) {
    const sel = el("select", { "aria-label": t("Bot for seat {n}", { n: number(i + 1) }) },
      ctx.options.bots.map((b) => el("option", { value: b, selected: b === ctx.options.default_bot }, botName(b))));
    box.append(sel, el("button", { class: "add-bot", onclick: () => ctx.send({ type: "set_seat", seat: i, kind: "bot", bot: sel.value }) }, t("Add bot")));
  }
  return box;
}

function join(seat) {
  const name = $("name").value.trim();
  if (!name) { toast(t("Type the name the others will see first."), "error"); $("name").focus(); return; }
  store.set("name", name);
  if (ctx.send({ type: "join", seat, name, code: ctx.invite && ctx.invite.seat === seat ? ctx.invite.code : null })) {
    // the button goes once we sit: let go of the focus now, while the page is laid out
    if (document.activeElement && document.activeElement.closest && document.activeElement.closest(".join-box")) document.activeElement.blur();
  }
}

export function renderSeatActions() {
  const box = [];
  const tb = ctx.state.table;
  const v = view();
  const inGame = v && v.phase !== "over";
  $("name-row").classList.toggle("hidden", !(me() === null && !inGame && tb.seats.some((s) => s.kind !== "human" && s.kind !== "bot")));
  if (ctx.state.you.admin) {
    if (!inGame && tb.seats.some((s) => s.kind === "open" || s.kind === "reserved")) {
      box.push(el("button", { id: "fill-bots", onclick: () => ctx.send({ type: "fill_bots" }) }, t("Fill empty seats with bots")));
    }
    for (const seat of tb.seats) {
      if (seat.kind === "human" && !seat.connected && !seat.standin) {
        const sel = el("select", { "aria-label": t("Bot to stand in for {name}", { name: seat.name }) },
          ctx.options.bots.map((b) => el("option", { value: b, selected: b === ctx.options.default_bot }, botName(b))));
        box.push(el("div", { class: "join-box" }, t("{name} has left.", { name: seat.name }), sel,
          el("button", { class: "replace", "data-seat": seat.seat, onclick: () => ctx.send({ type: "replace", seat: seat.seat, bot: sel.value }) },
            t("Let a bot play"))));
      }
      if (seat.kind === "bot" && !inGame) {
        box.push(el("button", { class: "open-seat", onclick: () => ctx.send({ type: "set_seat", seat: seat.seat, kind: "open" }) },
          t("Open seat {n} for a person", { n: number(seat.seat + 1) })));
      }
    }
  }
  if (me() !== null && !inGame) {
    box.push(el("button", { id: "leave", onclick: () => ctx.send({ type: "leave" }) }, t("Leave my seat")));
  }
  const away = tb.away;
  box.push(el("p", { class: "small muted", id: "away-setting" }, away
    ? t("Away timer: a player away for {seconds} s on their turn gets a bot ({bot}) until they come back.", { seconds: number(away.after), bot: botName(away.bot) })
    : t("Away timer off: the table waits for players who leave (the creator can let a bot play for them).")));
  patch($("seat-actions"), box);
}

export function renderScores() {
  const box = $("scores");
  const chartBox = $("chart");
  const v = view();
  if (!v) { patch(box, [el("p", { class: "muted" }, t("No hand has been played yet."))]); patch(chartBox, []); return; }
  const head = el("tr", {}, el("th", { scope: "col" }, t("Hand")), el("th", { scope: "col" }, t("Cards")), el("th", { scope: "col" }, t("Trump")),
    v.names.map((n) => el("th", { scope: "col", title: n }, el("span", { class: "nm" }, n))));
  const body = el("tbody");
  const totals = new Array(v.players).fill(0);
  v.past_hands.forEach((h, k) => {
    body.append(el("tr", {}, el("td", {}, number(k + 1)), el("td", {}, number(h.hand_size)),
      el("td", {}, h.trump_card ? cardText(h.trump_card) : t("none")),
      h.scores.map((sc, s) => {
        totals[s] += sc;
        const made = h.bids[s] === h.tricks_won[s];
        return el("td", { class: made ? "made" : "missed", title: t("bid {bid}, won {won}, scored {score}", { bid: number(h.bids[s]), won: number(h.tricks_won[s]), score: number(sc) }) },
          el("span", { class: "mark", "aria-label": made ? t("made") : t("missed") }, made ? "✓" : "✗"), ` ${number(h.bids[s])}/${number(h.tricks_won[s])} `, el("strong", {}, `+${number(sc)}`));
      })));
  });
  if (v.phase !== "over") {
    body.append(el("tr", { class: "current" }, el("td", {}, number(v.hand_index + 1)), el("td", {}, number(v.hand_size)),
      el("td", {}, v.trump_card ? cardText(v.trump_card) : t("none")),
      v.bids.map((b, s) => el("td", {}, `${b === null ? (v.has_bid[s] ? "✓" : "–") : number(b)}/${number(v.tricks_won[s])}`))));
  }
  patch(box, [el("table", { class: "grid scores", id: "score-table" },
    el("caption", { class: "sr-only" }, t("Scores by hand")), el("thead", {}, head), body,
    el("tfoot", {}, el("tr", {}, el("th", { colspan: 3, scope: "row" }, t("Total")), totals.map((x) => el("td", {}, number(x)))))),
  el("p", { class: "small muted" }, t("Each cell: ✓ made or ✗ missed, bid/won, then the points scored."))]);
  patch(chartBox, v.past_hands.length ? [scoreChart(v.names, runningTotals(v.players, v.past_hands.map((h) => h.scores)))] : []);
}

function trophy() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "trophy");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M7 3h10v3h3v2a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V18h3v3H8v-3h3v-3.1A5 5 0 0 1 8.3 12H8a4 4 0 0 1-4-4V6h3V3zm-1 5a2 2 0 0 0 1.1 1.8L7 6H6v2zm12 0V6h-1l-.1 3.8A2 2 0 0 0 18 8z");
  path.setAttribute("fill", "#d9a400");
  svg.append(path);
  return svg;
}

export function renderEnd() {
  const box = $("end");
  const g = game();
  const v = view();
  const wasHidden = box.hidden;
  box.hidden = !(v && v.phase === "over");
  if (box.hidden) return;
  clear(box);
  const order = v.totals.map((t, s) => [t, s]).sort((a, b) => b[0] - a[0]);
  const seats = ctx.state.table.seats;
  const humans = ctx.state.table.seats.filter((s) => s.kind === "human" && !s.standin).length;
  const votes = ctx.state.table.votes;
  const s = me();
  const made = v.names.map((_, seat) => v.past_hands.filter((h) => h.bids[seat] === h.tricks_won[seat]).length);
  const heading = v.winners.length > 1 ? t("Game over: a shared win!") : t("Game over: {name} wins!", { name: v.names[v.winners[0]] });
  box.append(el("h2", { id: "end-heading", tabindex: "-1" }, trophy(), heading),
    el("ol", { class: "standings", id: "standings" }, order.map(([total, seat], k) =>
      el("li", { class: v.winners.includes(seat) ? "winner" : "" },
        el("span", { class: "place" }, `${number(k + 1)}.`), avatar(v.names[seat], "small"),
        el("span", { class: "nm" }, v.names[seat] + (seat === s ? " " + t("(you)") : ""),
          seats[seat] && seats[seat].account_bot ? el("span", { class: "pill bot-account", title: t("a program playing through the bot API") }, t("bot account")) : null),
        el("span", { class: "made" }, tn("made {made} of {n} bid", "made {made} of {n} bids", v.past_hands.length, { made: number(made[seat]) })),
        el("span", { class: "pts" }, tn("{n} point", "{n} points", total))))));
  const actions = el("div", { class: "seat-actions" });
  if (s !== null) {
    const voted = votes.includes(s);
    actions.append(el("button", { class: "primary", id: "rematch", disabled: voted, onclick: () => ctx.send({ type: "rematch" }) },
      voted ? t("Waiting for the others…") : t("Rematch")));
  }
  actions.append(el("a", { href: `${g.record}?download=1`, id: "download", download: "", class: "button" }, t("Download the record")),
    el("a", { href: `/t/${encodeURIComponent(ctx.state.table.id)}/replay/${g.number}`, id: "replay-link", class: "button" }, t("Step through the replay")));
  const help = helpWords();
  if (help) box.append(el("p", { class: "badge help-used", id: "help-used" }, help));
  box.append(actions, el("p", { class: "small muted" }, tn("Rematch: {votes} of {n} player ready.", "Rematch: {votes} of {n} players ready.", humans, { votes: number(votes.length) })),
    el("p", { class: "fair", id: "fair-result" }, t("Checking the fair shuffle…")));
  if (wasHidden && document.activeElement === document.body) box.querySelector("h2").focus({ preventScroll: false });
  if (!ctx.fairness[g.number]) {
    ctx.fairness[g.number] = "checking";
    fetch(g.record).then((r) => r.json()).then(verifyRecord).then((res) => {
      ctx.fairness[g.number] = res;
      renderFairness();
    }).catch((e) => { ctx.fairness[g.number] = { ok: false, checked: 0, problems: [String(e)] }; renderFairness(); });
  }
}

export function renderFairness() {
  const g = game();
  const out = $("fair-result");
  const side = $("commitments");
  if (g) {
    patch(side, [el("p", { class: "small" }, tn("Before the first card the server published a SHA-256 commitment to the key of the deal:",
      "Before the first card the server published a SHA-256 commitment to the key of each of the {n} deals:", g.commitments.length)),
      el("ol", { class: "small", id: "commitment-list" }, g.commitments.map((c, k) =>
        el("li", { title: c }, el("code", {}, c.slice(0, 16) + "…"), k === view().hand_index && view().phase !== "over" ? " ← " + t("this hand") : ""))),
      el("p", { class: "small muted" }, g.seed ? t("Seed revealed: {seed}", { seed: g.seed }) : t("The seed that dealt them is revealed when the game ends."))]);
  }
  if (!out || !g) return;
  const res = ctx.fairness[g.number];
  if (!res || res === "checking") return;
  out.className = "fair " + (res.ok ? "ok" : "bad");
  out.textContent = res.ok
    ? "✔ " + tn("Fair shuffle verified in your browser: the deal came from the seed committed to before the game.",
      "Fair shuffle verified in your browser: all {n} deals came from the seed committed to before the game.", res.checked)
    : "✘ " + t("Fair shuffle check failed: {problems}", { problems: res.problems.join("; ") });
}

export function renderInvite() {
  const box = clear($("invite"));
  const url = `${location.origin}/t/${encodeURIComponent(ctx.state.table.id)}`;
  box.append(linkBox(url, "invite-link", t("Invite link")));
  const rules = ctx.state.table.rules ? describeRules(ctx.state.table.rules) : ctx.state.table.description;
  if (rules) box.append(el("p", { class: "small rules-line" }, t("Rules: {rules}", { rules })));
  if (ctx.state.table.private) box.append(el("p", { class: "small muted" }, t("This table is private: only people with the link can find it.")));
  const codes = JSON.parse(store.get(`invites.${ctx.state.table.id}`) || "{}");
  for (const [seat, path] of Object.entries(codes)) {
    if (ctx.state.table.seats[seat] && ctx.state.table.seats[seat].kind === "reserved") {
      box.append(el("p", { class: "small" }, t("Seat {n} is reserved; send this link to the person it is for:", { n: number(Number(seat) + 1) })),
        linkBox(location.origin + path, `reserved-${seat}`, t("Invite link for seat {n}", { n: number(Number(seat) + 1) })));
    }
  }
  const finished = ctx.state.table.finished;
  if (finished.length) {
    box.append(el("p", { class: "small finished" }, t("Finished games:"), " ", finished.map((g) =>
      el("a", { href: `/t/${encodeURIComponent(ctx.state.table.id)}/replay/${g}` }, `#${g}`))));
  }
}

function linkBox(url, id, label) {
  const input = el("input", { type: "text", readonly: true, value: url, id, "aria-label": label });
  const copy = async () => {
    try { await navigator.clipboard.writeText(url); toast(t("Link copied.")); }
    catch { input.select(); document.execCommand?.("copy"); toast(t("Link selected: copy it.")); }
  };
  return el("div", { class: "linkbox" }, input, el("button", { type: "button", onclick: copy }, t("Copy")));
}
