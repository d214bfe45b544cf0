// The page's one copy of what the server said: the last "state" frame and a few facts read
// from it.  Nothing here decides a rule; the core's words come in game.explain.
import { number, t } from "../i18n.js";
export const ctx = {
  state: null,        // the last "state" frame
  stateAt: 0,         // performance.now() when it came (countdowns count from it)
  options: { bots: [], default_bot: "intermediate" },
  pending: false,     // an action of ours is on its way
  connection: "connecting",
  fairness: {},       // game number -> verification result
  invite: null,       // {seat, code} from an invite link
  send: () => false,  // set by table.js
};

export const me = () => (ctx.state ? ctx.state.you.seat : null);
export const game = () => (ctx.state && ctx.state.game ? ctx.state.game : null);
export const view = () => (game() ? game().view : null);
export const explained = () => (game() && game().explain) || { why_not: {}, winning: null, hook: null };
export const names = () => (view() ? view().names : ctx.state.table.seats.map((s) => s.name || (s.kind === "reserved" ? t("Reserved") : t("Seat {n}", { n: number(s.seat + 1) }))));
export const standin = () => { const s = me(); return s !== null && !!ctx.state.table.seats[s].standin; };
export const myTurn = () => { const v = view(); return !!(v && v.legal.length && !standin() && !ctx.pending); };

/** The seats the table waits for now. */
export function waitingFor(v) {
  if (!v || v.phase === "over") return [];
  if (v.phase === "bid" && v.rules.simultaneous_bidding) return v.has_bid.map((b, s) => (b ? null : s)).filter((s) => s !== null);
  return [v.to_act];
}

/** Seconds left before the away timer lets a bot play for this seat (null: no countdown). */
export function takeoverLeft(seat) {
  if (seat.takeover_in === null || seat.takeover_in === undefined) return null;
  return Math.max(0, seat.takeover_in - (performance.now() - ctx.stateAt) / 1000);
}

/** How many cards each seat still holds this hand (counted from the plays shown). */
export function cardsLeft(v) {
  const left = new Array(v.players).fill(v.phase === "over" ? 0 : v.hand_size);
  if (v.phase === "over") return left;
  for (const trick of [...v.tricks, v.trick]) {
    trick.cards.forEach((_, i) => { left[(trick.leader + i) % v.players] -= 1; });
  }
  return left;
}
