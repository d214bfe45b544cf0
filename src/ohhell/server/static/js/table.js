// The table page: everything is drawn from the last state frame, so a reconnect (or a
// reload) restores exactly what was on screen.  Motion and sound only follow the frames:
// the server is the one authority, and the page works out no rule (game.explain carries
// the core's reasons).  Modules: table/state.js (the frame), seats.js (seats around the
// felt), cards.js (card art), motion.js (FLIP animations), panels.js (side panels and the
// game-over screen), settings.js and sound.js.
import { api, botName, cardWords, clear, closeWords, describeRules, el, errorWords, reasonWords, seatName, store, SUIT_NAME, SUIT_SYMBOL, toast } from "./common.js";
import { number, t, tn } from "./i18n.js";
import { TableSocket } from "./socket.js";
import { ctx, cardsLeft, explained, game, me, myTurn, names, standin, takeoverLeft, view, waitingFor } from "./table/state.js";
import { deckParts, face, sortHand, suitWords, trumpItem } from "./table/cards.js";
import { avatar, renderSeats, seatRect, trickCard } from "./table/seats.js";
import { activeCount, finishAll, flip, flyFrom, flyTo, ms, pop } from "./table/motion.js";
import { patch, setHidden, setText } from "./table/dom.js";
import { countdown, renderBidTable, renderEnd, renderFairness, renderInvite, renderScores, renderSeatActions } from "./table/panels.js";
import { bindSettingsForm, motionScale, onSettings, settings } from "./table/settings.js";
import { sounds } from "./table/sound.js";
import { onHelpError, onHint, renderHelp } from "./table/help.js";

const WIDE = window.matchMedia("(min-width: 721px)");
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);
ctx.invite = parseInvite();
const renderTimes = [];   // ms to handle each state frame (the benchmark reads them)
let resolving = null;      // a finished trick shown before it slides to its winner
let resolveTimer = null;
let lastTrickOpen = false;
let handResult = null;     // the hand number whose result is shown

const socket = new TableSocket(tableId, {
  state(msg) {
    const t0 = performance.now();
    localNames(msg);
    const prev = ctx.state;
    const change = diff(prev, msg);
    // where the moving cards come from, read before this frame writes anything (the page's
    // layout is still clean then, so reading costs nothing)
    const from = motionSources(change, msg);
    finishAll();
    motionEpoch++;
    ctx.state = msg;
    ctx.stateAt = performance.now();
    ctx.pending = false;
    announceTable(prev, msg);
    autoJoin();
    if (change.completed) startResolving(change.completed);
    render();
    animate(change, from);
    narrate(change, prev);
    renderTimes.push(Math.round((performance.now() - t0) * 10) / 10);
    if (renderTimes.length > 500) renderTimes.shift();
  },
  hint(msg) {
    onHint(msg);
    say(typeof msg.action === "number" ? t("Hint: the expert suggests bidding {bid}.", { bid: number(msg.action) })
      : t("Hint: the expert suggests the {card}.", { card: cardWords(msg.action) }));
  },
  joined(msg) { toast(t("You sit in seat {n}.", { n: number(msg.seat + 1) })); history.replaceState(null, "", location.pathname); },
  error(msg) {
    if (String(msg.code).startsWith("chat_")) return;   // the chat (js/chat.js) words its own refusals
    ctx.pending = false;
    onHelpError(msg);
    const words = errorWords(msg, view() ? view().names : ctx.state ? names() : []);
    if (msg.code === "event_player") { socket.stopped = true; showRefused(words); say(words); return; }   // no toast: the page says it
    toast(words, "error");
    say(words);
    if (msg.code === "no_table") { socket.stopped = true; showMissing(); }
    render();
  },
  pong() {},
  status(s, reason) {
    ctx.connection = s;
    if (s === "closed" && reason) toast(closeWords(reason), "error");
    renderConnection();
  },
});

/** Bots' seat names in the page's language (common.js seatName), in the frame itself so
 * every panel and announcement shows the same names. */
function localNames(msg) {
  for (const seat of msg.table.seats) if (seat.kind === "bot") seat.name = seatName(seat.name);
  const v = msg.game && msg.game.view;
  if (v) v.names = v.names.map((n, s) => (msg.table.seats[s] && msg.table.seats[s].kind === "bot" ? seatName(n) : n));
}

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
  if (me() === null && name && ctx.state.table.seats[Number(seat)].kind === "open") {
    send({ type: "join", seat: Number(seat), name });
  }
}

function send(message) {
  if (!socket.send(message)) { toast(t("Not connected; reconnecting…"), "error"); return false; }
  return true;
}
ctx.send = send;

function act(action) {
  if (ctx.pending) return;
  if (send({ type: "act", action })) {
    ctx.pending = true;
    letGoOfFocus(action);
    // only what waiting for our move changes: the turn line, our cards and bids, the help
    keepFocus(() => { renderStatus(); renderHandAndBids(); renderHelp(act); });
  }
}

/** The card just played leaves the hand with the next state frame: hand the focus on now, to
 * the card beside it, while the page is laid out (a focused node removed later makes the
 * browser restyle and lay out the page there and then).  A bid button likewise lets go. */
function letGoOfFocus(action) {
  const a = document.activeElement;
  if (!a || a === document.body || !a.dataset) return;
  if (typeof action === "string" && a.dataset.card === action && a.closest("#hand")) {
    const cards = [...document.querySelectorAll("#hand .card")];
    const i = cards.indexOf(a);
    const next = cards[i + 1] || cards[i - 1];
    if (next) {
      cards.forEach((c) => c.setAttribute("tabindex", c === next ? "0" : "-1"));
      next.focus({ preventScroll: true });
    } else a.blur();
  } else if (typeof action === "number" && a.dataset.bid !== undefined) a.blur();
}

// --- the live region: plays, tricks, turns and results in words -------------------------

function say(text) {
  const log = $("announcer");
  log.append(el("p", {}, text));
  while (log.childElementCount > 30) log.firstElementChild.remove();
}

/** What changed between two frames: new plays, a finished trick, a new hand, a new turn. */
function diff(prev, msg) {
  const out = { plays: [], completed: null, newHand: false, handDone: null, bids: [], revealed: false, turn: false, over: false };
  const v = msg.game ? msg.game.view : null;
  const p = prev && prev.game && prev.table.id === msg.table.id && prev.game.number === (msg.game && msg.game.number) ? prev.game.view : null;
  if (!v) return out;
  const you = msg.you.seat;
  out.turn = !!(v.legal.length && you !== null && !msg.table.seats[you].standin) &&
    !(p && p.legal.length && p.phase === v.phase && p.hand_index === v.hand_index && sameTrick(p, v));
  if (!p) { out.newHand = !prev || !prev.game; out.fresh = true; return out; }
  const seatOf = (t, i) => (t.leader + i) % v.players;
  const playsOf = (view) => [...view.tricks, view.trick].flatMap((t) => t.cards.map((c, i) => ({ seat: seatOf(t, i), card: c })));
  if (p.hand_index === v.hand_index) {
    const was = playsOf(p).length;
    out.plays = playsOf(v).slice(was);
    if (v.tricks.length > p.tricks.length) out.completed = v.tricks[v.tricks.length - 1];
  } else {
    out.newHand = v.phase !== "over";
    const last = v.past_hands[v.past_hands.length - 1];
    out.handDone = last || null;
    if (p.phase === "play" && last && last.tricks.length) {
      const final = last.tricks[last.tricks.length - 1];
      const had = p.tricks.length === p.hand_size - 1 ? p.trick.cards.length : 0;
      out.plays = final.cards.slice(had).map((c, i) => ({ seat: seatOf(final, had + i), card: c }));
      out.completed = final;
    }
  }
  for (let s = 0; s < v.players; s++) {
    if (p.hand_index === v.hand_index && p.bids[s] === null && v.bids[s] !== null) out.bids.push(s);
  }
  out.revealed = !p.bids_revealed && v.bids_revealed && v.rules.simultaneous_bidding;
  out.over = p.phase !== "over" && v.phase === "over";
  return out;
}

const sameTrick = (p, v) => p.tricks.length === v.tricks.length && p.trick.cards.length === v.trick.cards.length;

function narrate(change, prev) {
  const v = view();
  if (!v || change.fresh) { if (v && change.turn) say(turnWords(v)); return; }
  const n = v.names;
  if (change.revealed) say(t("Bids revealed: {bids}.", { bids: v.bids.map((b, s) => `${n[s]} ${number(b)}`).join(", ") }));
  else for (const s of change.bids) {
    say(s === me() ? t("You bid {bid}.", { bid: number(v.bids[s]) }) : t("{name} bids {bid}.", { name: n[s], bid: number(v.bids[s]) }));
  }
  for (const pl of change.plays) {
    const card = cardWords(pl.card);
    say(pl.seat === me() ? t("You play the {card}.", { card }) : t("{name} plays the {card}.", { name: n[pl.seat], card }));
  }
  if (change.plays.length) sounds.card();
  if (change.completed && change.completed.winner !== null) {
    const w = change.completed.winner;
    const won = change.handDone ? change.handDone.tricks_won[w] : v.tricks_won[w];
    const bid = change.handDone ? change.handDone.bids[w] : v.bids[w];
    const facts = { name: n[w], won: number(won), bid: bid === null ? "?" : number(bid) };
    say(w === me() ? t("You win the trick: {won} won of {bid} bid.", facts) : t("{name} wins the trick: {won} won of {bid} bid.", facts));
    sounds.trick();
  }
  if (change.handDone) say(handWords(change.handDone, v.past_hands.length));
  if (change.over) {
    const pts = tn("{n} point", "{n} points", v.totals[v.winners[0]]);
    say(v.winners.length > 1 ? t("Game over. {names} share the win with {points}.", { names: v.winners.map((s) => n[s]).join(", "), points: pts })
      : t("Game over. {name} wins with {points}.", { name: n[v.winners[0]], points: pts }));
  } else if (change.newHand) {
    const facts = { hand: number(v.hand_index + 1), hands: number(v.hand_count), cards: tn("{n} card each", "{n} cards each", v.hand_size), dealer: n[v.dealer] };
    say(v.trump_card ? t("Hand {hand} of {hands}: {cards}, {dealer} deals, the trump card is the {card}.", { ...facts, card: cardWords(v.trump_card) })
      : t("Hand {hand} of {hands}: {cards}, {dealer} deals, no trump.", facts));
    sounds.deal();
  }
  if (change.turn) { say(turnWords(v)); sounds.turn(); }
  void prev;
}

function turnWords(v) {
  if (v.phase === "bid") {
    const legal = v.legal.map(Number);
    return t("Your turn to bid: {bids}.", { bids: legal.map((b) => number(b)).join(", ") });
  }
  const k = v.legal.length;
  return tn("Your turn to play: {n} of your {cards} cards can be played.", "Your turn to play: {n} of your {cards} cards can be played.", k, { cards: number(v.hand.length) });
}

function handWords(h, hand) {
  const n = view().names;
  const parts = n.map((name, s) => {
    const facts = { name, bid: number(h.bids[s]), won: number(h.tricks_won[s]), score: number(h.scores[s]) };
    return h.bids[s] === h.tricks_won[s] ? t("{name} made {bid}: +{score}", facts) : t("{name} missed {bid}, won {won}: +{score}", facts);
  });
  return t("Hand {hand} over. {results}.", { hand: number(hand), results: parts.join("; ") });
}

// Tell everyone when a bot starts or stops playing for someone (the state says who and why).
function announceTable(prev, msg) {
  if (!prev || prev.table.id !== msg.table.id) return;
  const after = msg.table.away ? msg.table.away.after : null;
  msg.table.seats.forEach((seat, i) => {
    const before = prev.table.seats[i];
    if (seat.kind !== "human" || !before || before.name !== seat.name) return;
    const you = i === msg.you.seat;
    if (seat.standin && !before.standin) {
      let text;
      const facts = { name: seat.name, bot: botName(seat.standin), seconds: number(after) };
      if (seat.standin_by === "timer") {
        text = you ? t("You were away on your turn for {seconds} s, so a bot ({bot}) plays for you until you take your seat back.", facts)
          : t("{name} was away on their turn for {seconds} s: a bot ({bot}) plays for them until they come back.", facts);
      } else {
        text = you ? t("The creator let a bot ({bot}) play for you.", facts) : t("The creator let a bot ({bot}) play for {name}.", facts);
      }
      toast(text, "info", 6000);
    } else if (!seat.standin && before.standin) {
      toast(you ? t("You have your seat back.") : t("{name} is back and plays again.", { name: seat.name }));
    }
  });
}

// Countdowns and the away rings tick between state frames.
setInterval(() => {
  if (!ctx.state) return;
  for (const node of document.querySelectorAll("[data-countdown]")) {
    const left = takeoverLeft(ctx.state.table.seats[Number(node.dataset.countdown)]);
    if (left !== null) node.textContent = node.dataset.words.replace("#", number(Math.ceil(left)));
  }
  const after = ctx.state.table.away ? ctx.state.table.away.after : null;
  for (const ring of document.querySelectorAll("#seats .ring.timer")) {
    const seat = ctx.state.table.seats[Number(ring.closest(".seat").dataset.seat)];
    const left = takeoverLeft(seat);
    if (left !== null && after) ring.style.setProperty("--p", String(left / after));
  }
}, 500);

// --- rendering ---------------------------------------------------------------------------

function renderConnection() {
  const b = $("conn");
  b.className = "badge " + (ctx.connection === "open" ? "ok" : ctx.connection === "closed" ? "bad" : "warn");
  b.textContent = ctx.connection === "open" ? t("Connected") : ctx.connection === "closed" ? t("Reconnecting…") : t("Connecting…");
}

function render() {
  if (!ctx.state) return;
  const tb = ctx.state.table;
  const title = tb.title || t("Table {id}", { id: tb.id });
  if (document.title !== `${title} · Oh Hell`) document.title = `${title} · Oh Hell`;
  setText($("title"), title);
  setText($("page-heading"), t("Oh Hell table: {title}", { title }));
  setText($("desc"), tb.rules ? describeRules(tb.rules) : tb.description);
  keepFocus(() => {
    renderStatus();
    renderTable();
    renderNotices();
    renderHandAndBids();
    renderBidTable();
    renderSeatActions();
    renderHelp(act);
  });
  // the panels that change only between hands are drawn again only when their facts change
  const v = view();
  once("scores", v && JSON.stringify([v.past_hands.map((h) => h.scores), v.bids, v.has_bid, v.tricks_won, v.hand_index, v.phase]), renderScores);
  once("end", v && v.phase === "over" && JSON.stringify([game().number, tb.votes, me(), tb.seats.map((x) => x.kind + x.standin)]), () => { renderEnd(); renderFairness(); });
  once("invite", JSON.stringify([tb.id, tb.private, tb.finished, tb.description, tb.seats.map((x) => x.kind)]), renderInvite);
  once("fair", game() && JSON.stringify([game().number, game().seed, v.hand_index, v.phase]), renderFairness);
  renderLastTrick();
  renderHandResult();
  // animation off (or reduced motion): the CSS motion stops too (the turn ring's pulse, a card's lift)
  document.body.classList.toggle("no-motion", motionScale() === 0);
  $("felt").classList.toggle("four-colour", settings.fourColour);
  $("hand-area").classList.toggle("four-colour", settings.fourColour);
}

const drawn = {};
function once(name, key, fn) {
  if (key && drawn[name] === key) return;
  drawn[name] = key;
  fn();
}

/** Re-render without losing the keyboard focus (a hand card, a bid button, a control). */
function keepFocus(fn) {
  const a = document.activeElement;
  let key = null;
  if (a && a !== document.body) {
    if (a.dataset.card) key = { sel: `#hand [data-card='${a.dataset.card}']`, hand: [...document.querySelectorAll("#hand .card")].indexOf(a) };
    else if (a.dataset.bid !== undefined) key = { sel: `#bids [data-bid='${a.dataset.bid}']` };
    else if (a.id) key = { sel: `#${CSS.escape(a.id)}` };
  }
  fn();
  if (!key || document.activeElement === a && a.isConnected) return;
  // the focused card was played (or a button went away): focus its neighbour in the next
  // animation frame, when the browser lays the page out anyway (focusing now would force it)
  const epoch = motionEpoch;
  requestAnimationFrame(() => {
    if (epoch !== motionEpoch || (document.activeElement && document.activeElement !== document.body)) return;
    let node = document.querySelector(key.sel);
    if (!node && key.hand !== undefined) {
      const cards = [...document.querySelectorAll("#hand .card")];
      node = cards[Math.min(Math.max(key.hand, 0), cards.length - 1)] || null;
    }
    if (node) node.focus({ preventScroll: true });
  });
}

function renderStatus() {
  const box = $("status");
  const v = view();
  if (!v) {
    const open = ctx.state.table.seats.filter((s) => s.kind === "open" || s.kind === "reserved").length;
    patch(box, [el("span", { class: "turn", id: "turn" }, open ? tn("Waiting for {n} more player", "Waiting for {n} more players", open) : t("Starting…"))]);
    return;
  }
  const parts = [
    el("span", { class: "item" }, t("Hand {hand} of {hands}", { hand: number(v.hand_index + 1), hands: number(v.hand_count) })),
    el("span", { class: "item" }, tn("{n} card", "{n} cards", v.hand_size)),
    trumpItem(v.trump_card),
  ];
  let text, mine = false;
  if (v.phase === "over") text = t("Game over");
  else if (myTurn()) { mine = true; text = v.phase === "bid" ? t("Your turn: bid") : t("Your turn: play a card"); }
  else {
    const w = waitingFor(v).filter((s) => s !== me());
    text = v.phase === "bid" && v.rules.simultaneous_bidding
      ? (w.length ? t("Waiting for bids from {names}", { names: w.map((s) => v.names[s]).join(", ") }) : t("Revealing bids…"))
      : t("Waiting for {name}", { name: v.names[v.to_act] });
    if (ctx.pending) text = t("Sending…");
  }
  parts.push(el("span", { class: "turn" + (mine ? " mine" : ""), id: "turn" }, text));
  patch(box, parts);
}

function renderTable() {
  const v = view();
  const tb = ctx.state.table;
  const players = v ? v.players : tb.seats.length;
  const base = me() === null ? 0 : me();
  const timers = {};
  for (const seat of tb.seats) {
    const left = takeoverLeft(seat);
    if (left !== null && tb.away) timers[seat.seat] = { left, after: tb.away.after };
  }
  const felt = $("felt");
  felt.dataset.players = String(players);
  felt.classList.toggle("many", players >= 6);
  felt.classList.toggle("bidding", !!(v && v.phase === "bid"));
  felt.classList.toggle("over", !!(v && v.phase === "over"));
  renderSeats($("seats"), {
    players, base, names: names(), seats: tb.seats, view: v, me: me(),
    acting: v ? waitingFor(v) : [], timers, cardsLeft: v ? cardsLeft(v) : [],
  });
  renderDeck(v);
  renderTrick(v, base);
}

function renderDeck(v) {
  const deck = $("deck");
  if (!v || v.phase === "over") { patch(deck, []); return; }
  patch(deck, deckParts(v.trump_card));
}

function renderTrick(v, base) {
  const area = $("trick");
  const caption = $("trick-caption");
  if (!v) {
    patch(area, []);
    setText(caption, t("The cards are dealt when every seat is filled."));
    return;
  }
  const ex = explained();
  const n = v.players;
  let trick = v.trick, winner = ex.winning, done = false;
  let key = `${game().number}.${v.hand_index}.${v.tricks.length}`;
  if (!trick.cards.length && resolving) { trick = resolving.trick; winner = trick.winner; done = true; key = resolving.key; }
  patch(area, trick.cards.map((card, i) => {
    const seat = (trick.leader + i) % n;
    return trickCard(card, seat, base, n, { label: `${v.names[seat]}: ${cardWords(card)}`, extra: seat === winner ? (done ? "won" : "winning") : "", key });
  }));
  const who = { name: v.names[winner] };
  let text = "";
  if (done) text = winner === me() ? t("You win the trick") : t("{name} wins the trick", who);
  else if (trick.cards.length) text = winner === me() ? t("You are winning") : t("{name} is winning", who);
  else if (v.phase === "play") text = v.to_act === me() ? t("You lead") : t("{name} leads", { name: v.names[v.to_act] });
  else if (v.phase === "bid") {
    const total = v.bids.reduce((a, b) => a + (b || 0), 0);
    text = v.rules.simultaneous_bidding && !v.bids_revealed ? t("Bidding, unseen")
      : tn("Bids: {total} for {n} trick", "Bids: {total} for {n} tricks", v.hand_size, { total: number(total) });
  }
  setText(caption, text);
}

let resolved = 0;   // numbers the tricks shown while they resolve (their nodes' keys)

function startResolving(trick) {
  clearTimeout(resolveTimer);
  resolving = { trick, key: `r${++resolved}` };
  const hold = Math.max(ms("hold"), 350);
  resolveTimer = setTimeout(async () => {
    const winner = trick.winner;
    const target = seatRect(winner);
    const cards = [...document.querySelectorAll("#trick .card")];
    if (resolving && resolving.trick === trick && cards.length && !(view() && view().trick.cards.length)) {
      await Promise.all(cards.map((c, i) => flyTo(c, target, ms("collect"), { delay: i * 25 })));
    }
    if (resolving && resolving.trick === trick) {
      resolving = null;
      if (ctx.state) renderTrick(view(), me() === null ? 0 : me());
      const won = document.querySelector(`#seats [data-won='${winner}']`);
      if (won) pop(won, ms("pop"));
    }
  }, hold);
}

function renderNotices() {
  const box = [];
  const s = me();
  if (s === null) {
    if (view()) box.push(el("div", { class: "notice", id: "spectating" }, t("You are watching. Nobody's cards are shown until they are played.")));
  } else if (standin()) {
    const seat = ctx.state.table.seats[s];
    box.push(el("div", { class: "notice", id: "standin-notice" },
      seat.standin_by === "timer" ? t("You were away on your turn, so a bot ({bot}) is playing for you.", { bot: botName(seat.standin) })
        : t("A bot ({bot}) is playing for you.", { bot: botName(seat.standin) }),
      el("button", { class: "primary", id: "reclaim", onclick: () => send({ type: "reclaim" }) }, t("Take my seat back"))));
  }
  // Everyone sees who is away while the table waits for them, and when a bot will step in.
  for (const seat of ctx.state.table.seats) {
    if (takeoverLeft(seat) === null) continue;
    const bot = botName(ctx.state.table.away ? ctx.state.table.away.bot : "");
    box.push(el("div", { class: "notice away", id: `away-${seat.seat}` },
      countdown(seat, t("{name} is away. Unless they come back, a bot ({bot}) plays for them in # s.", { name: seat.name, bot }))));
  }
  patch($("notices"), box);
}

/** Why a card or bid of ours cannot be chosen now, in the core's words where it has any. */
function whyNot(choice) {
  const v = view();
  const ex = explained();
  const code = (ex.why_code || {})[String(choice)];
  if (code) return reasonWords(code, v.names);
  const why = ex.why_not[String(choice)];
  if (why) return why;
  if (ctx.pending) return t("Your last move is on its way.");
  if (standin()) return t("A bot is playing for you: take your seat back first.");
  if (v.phase === "bid" && typeof choice === "string") return t("The bidding is not over yet: bid first.");
  const w = waitingFor(v).filter((s) => s !== me());
  if (v.phase === "bid" && v.has_bid[me()]) return t("You have bid; waiting for the others.");
  if (!w.length) return t("Not now.");
  return v.phase === "bid" ? t("It is not your turn: {name} is to bid.", { name: v.names[w[0]] })
    : t("It is not your turn: {name} is to play.", { name: v.names[w[0]] });
}

function refuse(choice) {
  const why = whyNot(choice);
  toast(why, "error", 3500);
  say(why);
}

function renderHandAndBids() {
  const handBox = $("hand");
  const bidBox = $("bids");
  const v = view();
  const s = me();
  const show = s !== null && v && v.phase !== "over";
  $("hand-area").classList.toggle("hidden", !show);
  if (!show) { patch(handBox, []); patch(bidBox, []); return; }
  const legal = new Set(v.legal.map(String));
  const playing = v.phase === "play" && myTurn();
  const trumpSuit = v.trump_card ? v.trump_card[1] : null;
  const cards = sortHand(v.hand, trumpSuit).map((card) => {
    const playable = playing && legal.has(card);
    return face(card, { button: true, playable, trump: card[1] === trumpSuit, why: playable ? null : whyNot(card) });
  });
  layoutHand(handBox, cards);
  handBox.classList.toggle("my-turn", playing);
  patch(bidBox, v.phase === "bid" ? bidPanel(v, s, legal) : []);
  bidBox.classList.toggle("hidden", v.phase !== "bid");
  // wide screens: the bidding panel in the middle of the felt; phones: above the hand
  const home = WIDE.matches ? $("centre") : $("hand-area");
  if (bidBox.parentElement !== home) home.prepend(bidBox);
}

// The hand's width and a card's width, kept up to date by a ResizeObserver (told after the
// browser's own layout), so that drawing the hand never has to ask for a size.
const handSize = { width: 0, card: 0, used: null };
const cardProbe = el("span", { class: "card-probe", "aria-hidden": "true" });
$("hand-area").append(cardProbe);
new ResizeObserver((entries) => {
  for (const e of entries) {
    const w = e.contentRect.width;
    if (!w) continue;   // hidden: keep the last sizes
    if (e.target === cardProbe) handSize.card = w; else handSize.width = w;
  }
  if (handSize.used && (handSize.used.width !== handSize.width || handSize.used.card !== handSize.card)) render();
}).observe($("hand"));
// (observed apart: one observer's entries for two targets may come in either order)
new ResizeObserver(([e]) => {
  if (e.contentRect.width) handSize.card = e.contentRect.width;
  if (handSize.used && handSize.used.card !== handSize.card) render();
}).observe(cardProbe);

/** Lay the hand out as a fan, in as many rows as keep every card wide enough to tap. */
function layoutHand(box, cards) {
  if (!cards.length) { patch(box, []); return; }
  if (!handSize.width || !handSize.card) {   // the first hand on this page: measure once
    handSize.width = box.clientWidth;
    handSize.card = cardProbe.offsetWidth;
  }
  const width = handSize.width || 320;
  const w = handSize.card || 80;
  handSize.used = { width: handSize.width, card: handSize.card };
  const slice = Math.max(44, w * 0.4);
  const perRow = Math.max(1, Math.floor((width - w) / slice) + 1);
  const rows = Math.ceil(cards.length / perRow);
  const per = Math.ceil(cards.length / rows);
  const lines = [];
  for (let r = 0; r < rows; r++) {
    const part = cards.slice(r * per, (r + 1) * per);
    const line = el("div", { class: "hand-row" }, part);
    line.style.setProperty("--n", String(part.length));
    line.style.setProperty("--gaps", String(Math.max(1, part.length - 1)));
    const mid = (part.length - 1) / 2;
    part.forEach((c, i) => {
      const off = i - mid;
      const rot = Math.max(-12, Math.min(12, off * (rows > 1 ? 1 : 2.2)));
      c.style.setProperty("--rot", `${rot.toFixed(2)}deg`);
      c.style.setProperty("--drop", `${(Math.abs(rot) * 0.7).toFixed(1)}px`);
    });
    lines.push(line);
  }
  // one tab stop for the hand; the arrows move inside it (a toolbar): it stays on the card
  // that has the focus, else it is the first playable card
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand") ? document.activeElement.dataset.card : null;
  const first = cards.find((c) => c.dataset.card === focused) || cards.find((c) => c.classList.contains("legal")) || cards[0];
  cards.forEach((c) => c.setAttribute("tabindex", c === first ? "0" : "-1"));
  patch(box, lines);
}

/** The bidding panel's contents: the title, the bid buttons, the bids so far, the note. */
function bidPanel(v, s, legal) {
  const box = [];
  const canBid = myTurn();
  const mine = v.bids[s];
  const ex = explained();
  const title = mine !== null && mine !== undefined ? t("You bid {bid}", { bid: number(mine) })
    : canBid ? (v.dealer === s ? t("Your bid (you deal, so you bid last)") : t("Your bid"))
      : v.has_bid[s] ? t("You have bid") : t("Waiting for {names} to bid", { names: waitingFor(v).filter((x) => x !== s).map((x) => v.names[x]).join(", ") });
  box.push(el("h2", { class: "bid-title" }, title));
  if (mine === null && !v.has_bid[s]) {
    const row = el("div", { class: "bid-buttons" });
    for (let b = 0; b <= v.hand_size; b++) {
      const ok = canBid && legal.has(String(b));
      const why = ok ? null : canBid ? whyNot(b) : null;
      row.append(el("button", {
        type: "button", class: "bid" + (ok ? " legal" : canBid ? " blocked" : ""), "data-bid": b,
        disabled: !canBid, "aria-disabled": canBid && !ok ? "true" : null,
        "aria-label": why ? t("Bid {bid}: not allowed. {why}", { bid: number(b), why }) : t("Bid {bid}", { bid: number(b) }),
        title: why || t("Bid {bid}", { bid: number(b) }),
      }, number(b)));
    }
    box.push(row);
  }
  // the bids so far, in bidding order from the dealer's left
  const order = Array.from({ length: v.players }, (_, k) => (v.dealer + 1 + k) % v.players);
  const hidden = v.rules.simultaneous_bidding && !v.bids_revealed;
  box.push(el("ol", { class: "bids-so-far", "aria-label": t("Bids so far") }, order.map((x) => {
    const b = v.bids[x];
    const text = b !== null ? number(b) : v.has_bid[x] ? t("in") : "…";
    return el("li", { class: b !== null || v.has_bid[x] ? "done" : "" }, avatar(v.names[x], "tiny"),
      el("span", { class: "nm" }, x === s ? t("You") : v.names[x]), el("b", {}, text));
  })));
  const total = v.bids.reduce((a, b) => a + (b || 0), 0);
  const lines = [];
  if (hidden) lines.push(t("Everyone bids at once; the bids are shown when all are in."));
  else {
    const diffText = total === v.hand_size ? t("as many as the tricks") : total < v.hand_size
      ? tn("{n} fewer than the tricks", "{n} fewer than the tricks", v.hand_size - total) : tn("{n} more than the tricks", "{n} more than the tricks", total - v.hand_size);
    lines.push(tn("Bids total {total} for {n} trick ({diff}).", "Bids total {total} for {n} tricks ({diff}).", v.hand_size, { total: number(total), diff: diffText }));
  }
  if (ex.hook) {
    const facts = { name: v.names[v.dealer], total: number(v.hand_size), bid: number(ex.hook.bid) };
    const you = v.dealer === s;
    lines.push(ex.hook.bid === null
      ? (you ? t("Hook: you deal and may not make the bids total {total}.", facts) : t("Hook: {name} deals and may not make the bids total {total}.", facts))
      : (you ? t("Hook: you deal and may not bid {bid} (the bids would total {total}).", facts) : t("Hook: {name} deals and may not bid {bid} (the bids would total {total}).", facts)));
  }
  box.push(el("p", { class: "bid-note", id: "bid-note" }, lines.join(" "),
    canBid ? el("span", { class: "keys-note" }, " " + t("Type a number to bid.")) : null));
  return box;
}

function renderLastTrick() {
  const box = $("last-trick");
  const btn = $("last-trick-button");
  const v = view();
  let trick = null, label = t("Last trick");
  if (v) {
    if (v.tricks.length) trick = v.tricks[v.tricks.length - 1];
    else if (v.past_hands.length) {
      const last = v.past_hands[v.past_hands.length - 1];
      if (last.tricks.length) { trick = last.tricks[last.tricks.length - 1]; label = v.phase === "over" ? t("Last trick") : t("Last trick of the previous hand"); }
    }
  }
  if (btn.disabled !== !trick) btn.disabled = !trick;
  if (btn.getAttribute("aria-expanded") !== String(lastTrickOpen && !!trick)) btn.setAttribute("aria-expanded", String(lastTrickOpen && !!trick));
  setHidden(box, !(lastTrickOpen && trick));
  if (box.hidden) return;
  const n = v.players;
  const hadFocus = box.contains(document.activeElement);
  patch(box, [el("div", { class: "lt-head" }, el("h2", {}, t("{label}: {name} won it", { label, name: v.names[trick.winner] })),
    el("button", { type: "button", class: "close", "aria-label": t("Close the last trick"), onclick: () => toggleLastTrick(false) }, "×")),
  el("ol", { class: "lt-cards" }, trick.cards.map((c, i) => {
    const seat = (trick.leader + i) % n;
    return el("li", { class: seat === trick.winner ? "won" : "" }, face(c, { label: t("{name} played the {card}", { name: v.names[seat], card: cardWords(c) }) }),
      el("span", { class: "nm" }, v.names[seat] + (seat === trick.winner ? " ★" : "")));
  }))]);
  if (hadFocus && !box.contains(document.activeElement)) box.querySelector(".close").focus({ preventScroll: true });
}

function toggleLastTrick(open = !lastTrickOpen) {
  lastTrickOpen = open;
  renderLastTrick();
  if (open && !$("last-trick").hidden) $("last-trick").querySelector(".close").focus();
  else if (!open) $("last-trick-button").focus();
}

function renderHandResult() {
  const box = $("hand-result");
  const v = view();
  if (!v || !v.past_hands.length || handResult !== v.past_hands.length || (v.phase === "play" && (v.trick.cards.length || v.tricks.length))) {
    setHidden(box, true);
    return;
  }
  const h = v.past_hands[v.past_hands.length - 1];
  setHidden(box, false);
  patch(box, [el("div", { class: "lt-head" }, el("h2", {}, t("Hand {hand} result", { hand: number(v.past_hands.length) })),
    el("button", { type: "button", class: "close", "aria-label": t("Close the hand result"), onclick: () => { handResult = null; renderHandResult(); } }, "×")),
  el("ul", { class: "results" }, v.names.map((name, s) => {
    const made = h.bids[s] === h.tricks_won[s];
    return el("li", { class: made ? "made" : "missed" }, avatar(name, "tiny"), el("span", { class: "nm" }, s === me() ? t("You") : name),
      el("span", { class: "res" }, made ? "✓ " + t("made {bid}", { bid: number(h.bids[s]) })
        : "✗ " + t("bid {bid}, won {won}", { bid: number(h.bids[s]), won: number(h.tricks_won[s]) })),
      el("b", {}, `+${number(h.scores[s])}`));
  }))]);
}

/** A player of a running duplicate event asked to watch another table of it (the server says no). */
function showRefused(words) {
  clear(document.querySelector("main")).append(el("div", { class: "panel", id: "refused" },
    el("h1", {}, t("Not while the event is running")), el("p", {}, words),
    el("a", { href: "/" }, t("Back to the lobby"))));
}

function showMissing() {
  clear(document.querySelector("main")).append(el("div", { class: "panel" },
    el("h1", {}, t("No such table")), el("p", {}, t("The link may be mistyped, or the table was never created.")),
    el("a", { href: "/" }, t("Back to the lobby"))));
}

// --- motion: deal, play, collect, turn the trump card ----------------------------------

/** Where this frame's moving cards start: a played card at its place in your hand or at
 * its player's seat, a new hand's cards at the dealer's seat.  Read before anything is
 * written, while the page's layout is still the one on screen. */
function motionSources(change, msg) {
  const out = { plays: [], deal: null };
  const v = msg.game ? msg.game.view : null;
  if (!v) return out;
  if (change.newHand && !change.fresh && ms("deal")) out.deal = seatRect(v.dealer);
  if (ms("play")) {
    for (const pl of change.plays) {
      const card = pl.seat === msg.you.seat ? document.querySelector(`#hand .card[data-card='${pl.card}']`) : null;
      out.plays.push({ card: pl.card, from: card ? card.getBoundingClientRect() : seatRect(pl.seat) });
    }
  }
  return out;
}

let motionEpoch = 0;   // a newer state frame cancels the motion an older one planned
// A new hand's deal that a newer frame cancelled before it started (a bot bid within the same
// animation frame): the newer frame runs it, since the cards still fly from the same dealer.
let pendingDeal = null;

/** Start this frame's motion in the next animation frame: measuring where the cards now
 * stand needs the new layout, which the browser computes for that frame anyway (measuring
 * now would make it lay the page out twice). */
function animate(change, from) {
  const v = view();
  if (!v) return;
  const epoch = motionEpoch;
  if (change.newHand && !change.fresh) pendingDeal = { from: from.deal, handIndex: v.hand_index };
  else if (pendingDeal && (change.newHand || pendingDeal.handIndex !== v.hand_index)) pendingDeal = null;
  if (pendingDeal || from.plays.length) {
    requestAnimationFrame(() => {
      if (epoch !== motionEpoch) return;
      const deal = pendingDeal;
      pendingDeal = null;
      if (deal && view() && view().hand_index === deal.handIndex) {
        if (deal.from) {
          [...document.querySelectorAll("#hand .card")].forEach((c, i) => flyFrom(c, deal.from, ms("deal"), { delay: i * ms("dealStagger"), rotate: -20 }));
          // each seat's cards fly in as one fan: one animation a seat, not one a card
          for (const b of document.querySelectorAll("#seats .backs")) flyFrom(b, deal.from, ms("deal"), { delay: 60 });
        }
        const trump = document.querySelector("#deck .trump-card");
        if (trump) flip(trump, ms("flip"));
      }
      for (const pl of from.plays) {
        const node = document.querySelector(`#trick .card[data-card='${pl.card}']`);
        if (node) flyFrom(node, pl.from, ms("play"));
      }
    });
  }
  if (change.handDone && v.past_hands.length) handResult = v.past_hands.length;
  if (change.handDone) renderHandResult();
}

// --- keyboard: digits bid, arrows move between cards, Enter/Space plays, L last trick --

let digits = "", digitTimer = null;
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest && e.target.closest("#chat")) return;
  const v = view();
  if (e.key === "Escape" && lastTrickOpen) { toggleLastTrick(false); e.preventDefault(); return; }
  if (!v) return;
  if ((e.key === "l" || e.key === "L") && !$("last-trick-button").disabled) { toggleLastTrick(); e.preventDefault(); return; }
  if (/^[0-9]$/.test(e.key) && v.phase === "bid" && myTurn()) {
    digits += e.key;
    clearTimeout(digitTimer);
    const legal = v.legal.map(Number);
    const bid = Number(digits);
    const couldGrow = Array.from({ length: v.hand_size + 1 }, (_, b) => b).some((b) => String(b).startsWith(digits) && String(b) !== digits);
    const fire = () => { digits = ""; if (legal.includes(bid)) act(bid); else if (bid <= v.hand_size) refuse(bid); else toast(t("Bids are 0 to {max}.", { max: number(v.hand_size) }), "error"); };
    if (couldGrow) digitTimer = setTimeout(fire, 700); else fire();
    e.preventDefault();
    return;
  }
  const arrows = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
  if (e.key in arrows || ((e.key === "Home" || e.key === "End") && e.target.closest && e.target.closest("#hand"))) {
    const everyCard = e.key === "ArrowUp" || e.key === "ArrowDown" || !(v.phase === "play" && myTurn());
    const all = [...document.querySelectorAll("#hand .card")];
    const cards = everyCard ? all : all.filter((c) => c.classList.contains("legal"));
    if (!cards.length) return;
    if (!(e.key in arrows) || e.target.closest("#hand") || e.key === "ArrowLeft" || e.key === "ArrowRight") {
      const i = cards.indexOf(document.activeElement);
      let next;
      if (e.key === "Home") next = 0;
      else if (e.key === "End") next = cards.length - 1;
      else if (i < 0) {
        const j = all.indexOf(document.activeElement);
        next = j < 0 ? 0 : Math.max(0, cards.findIndex((c) => all.indexOf(c) >= j));
      } else next = (i + arrows[e.key] + cards.length) % cards.length;
      all.forEach((c) => c.setAttribute("tabindex", c === cards[next] ? "0" : "-1"));
      cards[next].focus();
      e.preventDefault();
    }
  }
});

// --- start -------------------------------------------------------------------------------

$("name").value = store.get("name") || "";
$("last-trick-button").addEventListener("click", () => toggleLastTrick());
// a card or a bid button chosen: played or bid if it may be now, else it says why (one
// listener each for the hand and the bids, so the cards and buttons drawn carry none)
$("hand").addEventListener("click", (e) => {
  const node = e.target.closest && e.target.closest(".card[data-card]");
  const v = view();
  if (!node || !v) return;
  const card = node.dataset.card;
  if (v.phase === "play" && myTurn() && v.legal.map(String).includes(card)) act(card); else refuse(card);
});
$("bids").addEventListener("click", (e) => {
  const node = e.target.closest && e.target.closest("button.bid[data-bid]");
  const v = view();
  if (!node || node.disabled || !v) return;
  const bid = Number(node.dataset.bid);
  if (v.phase === "bid" && myTurn() && v.legal.map(Number).includes(bid)) act(bid); else refuse(bid);
});
bindSettingsForm({ speed: $("speed"), sound: $("sound"), fourColour: $("four-colour"), note: $("motion-note") });
onSettings(() => render());
let resizeTimer = null;
window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(render, 120); });
api("/api/options").then((o) => { ctx.options = o; render(); }).catch(() => {});
socket.connect();
renderConnection();
window.ohhell = { socket, get state() { return ctx.state; }, animations: activeCount, renderTimes };  // for the curious (and the tests)
export { SUIT_NAME, SUIT_SYMBOL, suitWords };
