// The table page: everything is drawn from the last state frame, so a reconnect
// (or a reload) restores exactly what was on screen.
import {
  api, cardEl, cardText, clear, el, runningTotals, scoreChart, sortHand, store, SUIT_NAME, SUIT_SYMBOL, toast,
} from "./common.js";
import { TableSocket } from "./socket.js";
import { verifyRecord } from "./fair.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);
let state = null;          // the last "state" frame
let stateAt = 0;           // performance.now() when it came (away countdowns count from it)
let options = { bots: [], default_bot: "intermediate" };
let pending = false;       // an action of ours is on its way
let connection = "connecting";
const fairness = {};       // game number -> verification result
const invite = parseInvite();

const socket = new TableSocket(tableId, {
  state(msg) {
    const prev = state;
    state = msg;
    stateAt = performance.now();
    pending = false;
    announce(prev, msg);
    autoJoin();
    render();
  },
  joined(msg) { toast(`You sit in seat ${msg.seat + 1}.`); history.replaceState(null, "", location.pathname); },
  error(msg) {
    pending = false;
    toast(msg.message, "error");
    if (msg.code === "no_table") { socket.stopped = true; showMissing(); }
    render();
  },
  pong() {},
  status(s, reason) {
    connection = s;
    if (s === "closed" && reason) toast(`Disconnected: ${reason}`, "error");
    renderConnection();
  },
});

function parseInvite() {
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = params.get("seat");
  return seat !== null ? { seat: Number(seat), code: params.get("code") } : null;
}

// The lobby's "I will sit in seat 1": join once, with the name typed there.
function autoJoin() {
  const key = `autojoin.${tableId}`;
  const seat = store.get(key);
  if (seat === null) return;
  store.remove(key);
  const name = store.get("name");
  if (me() === null && name && state.table.seats[Number(seat)].kind === "open") {
    send({ type: "join", seat: Number(seat), name });
  }
}

function send(message) {
  if (!socket.send(message)) { toast("Not connected; reconnecting…", "error"); return false; }
  return true;
}

function act(action) {
  if (pending) return;
  if (send({ type: "act", action })) { pending = true; render(); }
}

// Tell everyone when a bot starts or stops playing for someone (the state says who and why).
function announce(prev, msg) {
  if (!prev || prev.table.id !== msg.table.id) return;
  const after = msg.table.away ? msg.table.away.after : null;
  msg.table.seats.forEach((seat, i) => {
    const before = prev.table.seats[i];
    if (seat.kind !== "human" || !before || before.name !== seat.name) return;
    const you = i === msg.you.seat;
    if (seat.standin && !before.standin) {
      let text;
      if (seat.standin_by === "timer") {
        text = you ? `You were away on your turn for ${after} s, so a ${seat.standin} bot plays for you until you take your seat back.`
          : `${seat.name} was away on their turn for ${after} s: a ${seat.standin} bot plays for them until they come back.`;
      } else {
        text = `The creator let a ${seat.standin} bot play for ${you ? "you" : seat.name}.`;
      }
      toast(text, "info", 6000);
    } else if (!seat.standin && before.standin) {
      toast(you ? "You have your seat back." : `${seat.name} is back and plays again.`);
    }
  });
}

/** Seconds left before the away timer lets a bot play for this seat (null: no countdown). */
function takeoverLeft(seat) {
  if (seat.takeover_in === null || seat.takeover_in === undefined) return null;
  return Math.max(0, Math.ceil(seat.takeover_in - (performance.now() - stateAt) / 1000));
}

function countdown(seat, words) {
  return el("span", { class: "countdown", "data-countdown": seat.seat, "data-words": words }, words.replace("#", takeoverLeft(seat)));
}

// Countdowns tick between state frames.
setInterval(() => {
  if (!state) return;
  for (const node of document.querySelectorAll("[data-countdown]")) {
    const left = takeoverLeft(state.table.seats[Number(node.dataset.countdown)]);
    if (left !== null) node.textContent = node.dataset.words.replace("#", left);
  }
}, 500);

// --- derived facts ----------------------------------------------------------------------

const me = () => (state ? state.you.seat : null);
const game = () => (state && state.game ? state.game : null);
const view = () => (game() ? game().view : null);
const names = () => (view() ? view().names : state.table.seats.map((s) => s.name || `Seat ${s.seat + 1}`));
const myTurn = () => { const v = view(); return !!(v && v.legal.length && !standin() && !pending); };
const standin = () => { const s = me(); return s !== null && !!state.table.seats[s].standin; };

function waitingFor(v) {
  if (v.phase === "over") return [];
  if (v.phase === "bid" && v.rules.simultaneous_bidding) return v.has_bid.map((b, s) => (b ? null : s)).filter((s) => s !== null);
  return [v.to_act];
}

// --- rendering --------------------------------------------------------------------------

function renderConnection() {
  const b = $("conn");
  b.className = "badge " + (connection === "open" ? "ok" : connection === "closed" ? "bad" : "warn");
  b.textContent = connection === "open" ? "Connected" : connection === "closed" ? "Reconnecting…" : "Connecting…";
}

function render() {
  if (!state) return;
  const t = state.table;
  document.title = `${t.title || "Table " + t.id} · Oh Hell`;
  $("title").textContent = t.title || `Table ${t.id}`;
  $("desc").textContent = t.description;
  renderStatus();
  renderTrick();
  renderNotices();
  renderHandAndBids();
  renderBidTable();
  renderSeatActions();
  renderScores();
  renderEnd();
  renderInvite();
  renderFairness();
}

function renderStatus() {
  const box = clear($("status"));
  const v = view();
  if (!v) {
    const open = state.table.seats.filter((s) => s.kind === "open" || s.kind === "reserved").length;
    box.append(el("span", { class: "turn", id: "turn" }, open ? `Waiting for ${open} more player${open > 1 ? "s" : ""}` : "Starting…"));
    return;
  }
  box.append(
    el("span", { class: "item" }, `Hand ${v.hand_index + 1} of ${v.hand_count}`),
    el("span", { class: "item" }, `${v.hand_size} card${v.hand_size > 1 ? "s" : ""} each`),
    el("span", { class: "item" }, `Dealer: ${v.names[v.dealer]}`),
    el("span", { class: "item", id: "trump" }, "Trump: ",
      v.trump_card ? cardEl(v.trump_card, { size: "small" }) : el("strong", {}, "none")),
  );
  let text, mine = false;
  if (v.phase === "over") text = "Game over";
  else if (myTurn()) { mine = true; text = v.phase === "bid" ? "Your turn: bid" : "Your turn: play a card"; }
  else {
    const w = waitingFor(v).filter((s) => s !== me());
    text = v.phase === "bid" && v.rules.simultaneous_bidding
      ? (w.length ? `Waiting for bids from ${w.map((s) => v.names[s]).join(", ")}` : "Revealing bids…")
      : `Waiting for ${v.names[v.to_act]}`;
    if (pending) text = "Sending…";
  }
  box.append(el("span", { class: "turn" + (mine ? " mine" : ""), id: "turn", "aria-live": "polite" }, text));
}

function renderTrick() {
  const area = clear($("trick"));
  const caption = $("trick-caption");
  caption.textContent = "";
  const v = view();
  if (!v) { area.append(el("div", { class: "muted" }, "The cards will be dealt when every seat is filled.")); return; }
  let trick = v.trick, done = false, label = "";
  if (!trick.cards.length) {
    if (v.tricks.length) { trick = v.tricks[v.tricks.length - 1]; done = true; label = "Last trick"; }
    else if (v.past_hands.length && v.phase !== "play") {
      const last = v.past_hands[v.past_hands.length - 1];
      if (last.tricks.length) {
        trick = last.tricks[last.tricks.length - 1];
        done = true;
        label = v.phase === "over" ? "Last trick" : "Last trick of the previous hand";
      }
    }
  }
  const n = v.players;
  const winning = done ? trick.winner : currentWinner(trick, v);
  for (let i = 0; i < n; i++) {
    const seat = (trick.leader + i) % n;
    const card = trick.cards[i];
    area.append(el("div", { class: "trick-slot" + (card && seat === winning ? " winning" : ""), "data-seat": seat },
      card ? cardEl(card) : el("div", { class: "card placeholder", "aria-hidden": "true" }),
      el("span", { class: "who" }, v.names[seat] + (seat === me() ? " (you)" : "")),
      el("span", { class: "score" }, v.phase === "over" ? `${v.totals[seat]} pts`
        : `bid ${v.bids[seat] !== null ? v.bids[seat] : v.has_bid[seat] ? "✓" : "–"} · won ${v.tricks_won[seat]}`)));
  }
  if (done && trick.winner !== null && trick.winner !== undefined) caption.textContent = `${label}: ${v.names[trick.winner]} won it`;
  else if (trick.cards.length) caption.textContent = `${v.names[winning]} is winning the trick`;
  else if (v.phase === "play") caption.textContent = `${v.names[v.to_act]} leads`;
}

function currentWinner(trick, v) {
  if (!trick.cards.length) return null;
  const trump = v.trump_card ? v.trump_card[1] : null;
  const led = trick.cards[0][1];
  const RANKS = "23456789TJQKA";
  let best = -1, who = trick.leader;
  trick.cards.forEach((c, i) => {
    const strength = c[1] === trump ? 26 + RANKS.indexOf(c[0]) : c[1] === led ? 13 + RANKS.indexOf(c[0]) : -1;
    if (strength > best) { best = strength; who = (trick.leader + i) % v.players; }
  });
  return who;
}

function renderNotices() {
  const box = clear($("notices"));
  const s = me();
  if (s === null) {
    if (view()) box.append(el("div", { class: "notice", id: "spectating" }, "You are watching. Nobody's cards are shown until they are played."));
  } else if (standin()) {
    const seat = state.table.seats[s];
    box.append(el("div", { class: "notice", id: "standin-notice" },
      seat.standin_by === "timer" ? `You were away on your turn, so a bot (${seat.standin}) is playing for you.`
        : `A bot (${seat.standin}) is playing for you.`,
      el("button", { class: "primary", id: "reclaim", onclick: () => send({ type: "reclaim" }) }, "Take my seat back")));
  }
  // Everyone sees who is away while the table waits for them, and when a bot will step in.
  for (const seat of state.table.seats) {
    if (takeoverLeft(seat) === null) continue;
    const bot = state.table.away ? state.table.away.bot : "a";
    box.append(el("div", { class: "notice away", id: `away-${seat.seat}` },
      countdown(seat, `${seat.name} is away. Unless they come back, a ${bot} bot plays for them in # s.`)));
  }
}

function renderHandAndBids() {
  const handBox = clear($("hand"));
  const bidBox = clear($("bids"));
  const v = view();
  const s = me();
  $("hand-area").classList.toggle("hidden", s === null || !v || v.phase === "over");
  if (s === null || !v || v.phase === "over") return;
  const legal = new Set(v.legal.map(String));
  const playing = v.phase === "play" && myTurn();
  const trumpSuit = v.trump_card ? v.trump_card[1] : null;
  let lastSuit = null;
  for (const card of sortHand(v.hand, trumpSuit)) {
    if (lastSuit && card[1] !== lastSuit) handBox.append(el("span", { class: "suit-gap" }));
    lastSuit = card[1];
    handBox.append(cardEl(card, {
      button: true, legal: playing && legal.has(card), trump: card[1] === trumpSuit,
      onclick: () => act(card),
    }));
  }
  if (v.phase === "bid") {
    const canBid = myTurn();
    const mine = v.bids[s];
    if (mine !== null && mine !== undefined) {
      bidBox.append(el("div", { class: "hint" }, `You bid ${mine}.`));
    } else {
      for (let b = 0; b <= v.hand_size; b++) {
        const ok = canBid && legal.has(String(b));
        bidBox.append(el("button", {
          type: "button", class: "bid", "data-bid": b, disabled: !ok,
          title: canBid && !ok ? `The hook: the bids may not add up to ${v.hand_size}` : `Bid ${b}`,
          onclick: () => act(b),
        }, String(b)));
      }
      const visible = v.bids.filter((b) => b !== null);
      const total = visible.reduce((a, b) => a + b, 0);
      bidBox.append(el("div", { class: "hint" }, v.rules.simultaneous_bidding
        ? "Everyone bids at once; bids are revealed when all are in. Type a number to bid."
        : `Bids so far: ${total} for ${v.hand_size} trick${v.hand_size > 1 ? "s" : ""}. Type a number to bid.`));
    }
  }
}

// The core's words for a seat against its bid (ohhell.scoring.bid_status): shown once
// there is something to say, coloured by whether the bid is on course.
function bidStanding(status) {
  if (!status || ["to bid", "bid in", "bid hidden"].includes(status)) return null;
  const tone = /^(made|on bid)$/.test(status) ? "good" : /^(over|under)/.test(status) ? "bad" : "warn";
  return el("span", { class: "bidst " + tone }, status);
}

function renderBidTable() {
  const tbl = clear($("bidtable"));
  const t = state.table;
  const v = view();
  tbl.append(el("thead", {}, el("tr", {},
    el("th", {}, "Player"), el("th", {}, "Bid"), el("th", {}, "Won"), el("th", {}, "Total"))));
  const body = el("tbody");
  const acting = v ? waitingFor(v) : [];
  for (const seat of t.seats) {
    const i = seat.seat;
    const name = v ? v.names[i] : (seat.name || (seat.kind === "reserved" ? "Reserved" : "Open seat"));
    const dot = seat.kind === "bot" || seat.standin ? null
      : seat.kind === "human" ? el("span", { class: "dot " + (seat.connected ? "on" : "off"), title: seat.connected ? "connected" : "away" }) : null;
    const tags = [];
    if (v && v.dealer === i && v.phase !== "over") tags.push(el("span", { class: "pill dealer" }, "dealer"));
    if (seat.kind === "bot") tags.push(el("span", { class: "pill" }, `bot: ${seat.bot}`));
    if (seat.standin) tags.push(el("span", { class: "pill", title: seat.standin_by === "timer" ? "away too long on their turn" : "put in by the creator" },
      seat.standin_by === "timer" ? "away: bot plays" : "bot stands in"));
    if (takeoverLeft(seat) !== null) tags.push(el("span", { class: "pill away" }, countdown(seat, "bot in # s")));
    if (i === me()) tags.push(el("span", { class: "pill" }, "you"));
    let bid = "", won = "", total = "", standing = null;
    if (v) {
      bid = v.bids[i] !== null ? String(v.bids[i]) : v.has_bid[i] ? "✓" : "–";
      won = v.phase === "over" ? "" : String(v.tricks_won[i]);
      total = String(v.totals[i]);
      standing = bidStanding(v.bid_status ? v.bid_status[i] : "");
    } else if (seat.kind === "open" || seat.kind === "reserved") {
      bid = joinControl(i, seat);
    }
    const row = el("tr", { class: (acting.includes(i) ? "to-act " : "") + (i === me() ? "me" : ""), "data-seat": i },
      el("td", {}, dot, name, ...tags), el("td", {}, bid), el("td", {}, won, standing), el("td", {}, total));
    if (!v && (seat.kind === "open" || seat.kind === "reserved")) {
      row.replaceChildren(el("td", {}, name, seat.kind === "reserved" ? el("span", { class: "pill" }, "invite only") : null),
        el("td", { colspan: 3 }, bid));
    }
    body.append(row);
  }
  tbl.append(body);
}

function joinControl(i, seat) {
  const box = el("div", { class: "join-box" });
  if (me() === null && (seat.kind === "open" || (invite && invite.seat === i))) {
    box.append(el("button", { class: "primary join", "data-seat": i, onclick: () => join(i) }, "Sit here"));
  }
  if (state.you.admin && !game()) {
    const sel = el("select", { "aria-label": `Bot for seat ${i + 1}` },
      options.bots.map((b) => el("option", { value: b, selected: b === options.default_bot }, b)));
    box.append(sel, el("button", { class: "add-bot", onclick: () => send({ type: "set_seat", seat: i, kind: "bot", bot: sel.value }) }, "Add bot"));
  }
  return box;
}

function join(seat) {
  const name = $("name").value.trim();
  if (!name) { toast("Type the name the others will see first.", "error"); $("name").focus(); return; }
  store.set("name", name);
  send({ type: "join", seat, name, code: invite && invite.seat === seat ? invite.code : null });
}

function renderSeatActions() {
  const box = clear($("seat-actions"));
  const t = state.table;
  const v = view();
  const inGame = v && v.phase !== "over";
  $("name-row").classList.toggle("hidden", !(me() === null && !inGame && t.seats.some((s) => s.kind !== "human" && s.kind !== "bot")));
  if (state.you.admin) {
    if (!inGame && t.seats.some((s) => s.kind === "open" || s.kind === "reserved")) {
      box.append(el("button", { id: "fill-bots", onclick: () => send({ type: "fill_bots" }) }, "Fill empty seats with bots"));
    }
    for (const seat of t.seats) {
      if (seat.kind === "human" && !seat.connected && !seat.standin) {
        const sel = el("select", { "aria-label": `Bot to stand in for ${seat.name}` },
          options.bots.map((b) => el("option", { value: b, selected: b === options.default_bot }, b)));
        box.append(el("div", { class: "join-box" }, `${seat.name} has left.`, sel,
          el("button", { class: "replace", "data-seat": seat.seat, onclick: () => send({ type: "replace", seat: seat.seat, bot: sel.value }) },
            "Let a bot play")));
      }
      if (seat.kind === "bot" && !inGame) {
        box.append(el("button", { class: "open-seat", onclick: () => send({ type: "set_seat", seat: seat.seat, kind: "open" }) },
          `Open seat ${seat.seat + 1} for a person`));
      }
    }
  }
  if (me() !== null && !inGame) {
    box.append(el("button", { id: "leave", onclick: () => send({ type: "leave" }) }, "Leave my seat"));
  }
  const away = t.away;
  box.append(el("p", { class: "small muted", id: "away-setting" }, away
    ? `Away timer: a player away for ${away.after} s on their turn gets a ${away.bot} bot until they come back.`
    : "Away timer off: the table waits for players who leave (the creator can let a bot play for them)."));
}

function renderScores() {
  const box = clear($("scores"));
  const chartBox = clear($("chart"));
  const v = view();
  if (!v) { box.append(el("p", { class: "muted" }, "No hand has been played yet.")); return; }
  const head = el("tr", {}, el("th", {}, "Hand"), el("th", {}, "Cards"), el("th", {}, "Trump"),
    v.names.map((n) => el("th", {}, n)));
  const body = el("tbody");
  const totals = new Array(v.players).fill(0);
  v.past_hands.forEach((h, k) => {
    body.append(el("tr", {}, el("td", {}, k + 1), el("td", {}, h.hand_size),
      el("td", {}, h.trump_card ? cardText(h.trump_card) : "none"),
      h.scores.map((sc, s) => {
        totals[s] += sc;
        const made = h.bids[s] === h.tricks_won[s];
        return el("td", { class: made ? "made" : "missed", title: `bid ${h.bids[s]}, won ${h.tricks_won[s]}, scored ${sc}` },
          `${h.bids[s]}/${h.tricks_won[s]} `, el("strong", {}, `+${sc}`));
      })));
  });
  if (v.phase !== "over") {
    body.append(el("tr", { class: "current" }, el("td", {}, v.hand_index + 1), el("td", {}, v.hand_size),
      el("td", {}, v.trump_card ? cardText(v.trump_card) : "none"),
      v.bids.map((b, s) => el("td", {}, `${b === null ? (v.has_bid[s] ? "✓" : "–") : b}/${v.tricks_won[s]}`))));
  }
  box.append(el("table", { class: "grid", id: "score-table" }, el("thead", {}, head), body,
    el("tfoot", {}, el("tr", {}, el("td", { colspan: 3 }, "Total"), totals.map((x) => el("td", {}, x))))),
    el("p", { class: "small muted" }, "Each cell: bid/won, then the points scored."));
  if (v.past_hands.length) {
    chartBox.append(scoreChart(v.names, runningTotals(v.players, v.past_hands.map((h) => h.scores))));
  }
}

function renderEnd() {
  const box = $("end");
  const g = game();
  const v = view();
  box.hidden = !(v && v.phase === "over");
  if (box.hidden) return;
  clear(box);
  const order = v.totals.map((t, s) => [t, s]).sort((a, b) => b[0] - a[0]);
  const humans = state.table.seats.filter((s) => s.kind === "human" && !s.standin).length;
  const votes = state.table.votes;
  const s = me();
  box.append(el("h2", {}, v.winners.length > 1 ? "A shared win!" : `${v.names[v.winners[0]]} wins!`),
    el("ol", { class: "standings", id: "standings" }, order.map(([t, seat]) =>
      el("li", { class: v.winners.includes(seat) ? "winner" : "" }, el("span", {}, v.names[seat]), el("span", {}, `${t} points`)))));
  const actions = el("div", { class: "seat-actions" });
  if (s !== null) {
    const voted = votes.includes(s);
    actions.append(el("button", { class: "primary", id: "rematch", disabled: voted, onclick: () => send({ type: "rematch" }) },
      voted ? "Waiting for the others…" : "Rematch"));
  }
  actions.append(el("a", { href: `${g.record}?download=1`, id: "download", download: "" }, "Download the record"),
    el("a", { href: `/t/${encodeURIComponent(state.table.id)}/replay/${g.number}`, id: "replay-link" }, "Step through the replay"));
  box.append(actions, el("p", { class: "small muted" }, `Rematch: ${votes.length} of ${humans} player${humans === 1 ? "" : "s"} ready.`),
    el("p", { class: "fair", id: "fair-result" }, "Checking the fair shuffle…"));
  if (!fairness[g.number]) {
    fairness[g.number] = "checking";
    fetch(g.record).then((r) => r.json()).then(verifyRecord).then((res) => {
      fairness[g.number] = res;
      renderFairness();
    }).catch((e) => { fairness[g.number] = { ok: false, checked: 0, problems: [String(e)] }; renderFairness(); });
  }
}

function renderFairness() {
  const g = game();
  const out = $("fair-result");
  const side = clear($("commitments"));
  if (g) {
    side.append(el("p", { class: "small" }, `Before the first card the server published a SHA-256 commitment to the key of each of the ${g.commitments.length} deals:`),
      el("ol", { class: "small", id: "commitment-list" }, g.commitments.map((c, k) =>
        el("li", { title: c }, el("code", {}, c.slice(0, 16) + "…"), k === view().hand_index && view().phase !== "over" ? " ← this hand" : ""))),
      el("p", { class: "small muted" }, g.seed ? `Seed revealed: ${g.seed}` : "The seed that dealt them is revealed when the game ends."));
  }
  if (!out || !g) return;
  const res = fairness[g.number];
  if (!res || res === "checking") return;
  out.className = "fair " + (res.ok ? "ok" : "bad");
  out.textContent = res.ok
    ? `✔ Fair shuffle verified in your browser: all ${res.checked} deals came from the seed committed to before the game.`
    : `✘ Fair shuffle check failed: ${res.problems.join("; ")}`;
}

function renderInvite() {
  const box = clear($("invite"));
  const url = `${location.origin}/t/${encodeURIComponent(state.table.id)}`;
  box.append(linkBox(url, "invite-link"));
  if (state.table.private) box.append(el("p", { class: "small muted" }, "This table is private: only people with the link can find it."));
  const codes = JSON.parse(store.get(`invites.${state.table.id}`) || "{}");
  for (const [seat, path] of Object.entries(codes)) {
    if (state.table.seats[seat].kind === "reserved") {
      box.append(el("p", { class: "small" }, `Seat ${Number(seat) + 1} is reserved; send this link to the person it is for:`),
        linkBox(location.origin + path, `reserved-${seat}`));
    }
  }
  const finished = state.table.finished;
  if (finished.length) {
    box.append(el("p", { class: "small" }, "Finished games: ", finished.map((g) =>
      el("a", { href: `/t/${encodeURIComponent(state.table.id)}/replay/${g}`, style: "margin-right:.5rem" }, `#${g}`))));
  }
}

function linkBox(url, id) {
  const input = el("input", { type: "text", readonly: true, value: url, id, "aria-label": "Link" });
  const copy = async () => {
    try { await navigator.clipboard.writeText(url); toast("Link copied."); }
    catch { input.select(); document.execCommand?.("copy"); toast("Link selected: copy it."); }
  };
  return el("div", { class: "linkbox" }, input, el("button", { onclick: copy }, "Copy"));
}

function showMissing() {
  clear(document.querySelector("main")).append(el("div", { class: "panel" },
    el("h1", {}, "No such table"), el("p", {}, "The link may be mistyped, or the table was never created. "),
    el("a", { href: "/" }, "Back to the lobby")));
}

// --- keyboard: digits bid, arrows move between playable cards, Enter/Space plays ------

let digits = "", digitTimer = null;
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.ctrlKey || e.metaKey || e.altKey) return;
  const v = view();
  if (!v) return;
  if (/^[0-9]$/.test(e.key) && v.phase === "bid" && myTurn()) {
    digits += e.key;
    clearTimeout(digitTimer);
    const legal = v.legal.map(Number);
    const bid = Number(digits);
    const couldGrow = legal.some((b) => String(b).startsWith(digits) && String(b) !== digits);
    const fire = () => { digits = ""; if (legal.includes(bid)) act(bid); else toast(`You cannot bid ${bid} now.`, "error"); };
    if (couldGrow) digitTimer = setTimeout(fire, 700); else fire();
    e.preventDefault();
    return;
  }
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    const cards = [...document.querySelectorAll("#hand button.card:not(:disabled)")];
    if (!cards.length) return;
    const i = cards.indexOf(document.activeElement);
    const next = i < 0 ? 0 : (i + (e.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
    cards[next].focus();
    e.preventDefault();
  }
});

// --- start ----------------------------------------------------------------------------

$("name").value = store.get("name") || "";
api("/api/options").then((o) => { options = o; render(); }).catch(() => {});
socket.connect();
renderConnection();
window.ohhell = { socket, get state() { return state; } };  // for the curious (and the tests)
export { SUIT_NAME, SUIT_SYMBOL };
