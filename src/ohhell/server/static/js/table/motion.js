// Motion that helps follow the play, with the Web Animations API (FLIP: measure where a
// card was and where it is, then animate only the transform properties and opacity, which
// the compositor runs off the main thread).  Every duration is scaled by the speed setting and is zero
// under prefers-reduced-motion.
import { motionScale } from "./settings.js";

export const BASE = { play: 280, deal: 260, dealStagger: 45, collect: 420, hold: 900, flip: 450, pop: 300 };

/** The duration of a motion now, in ms (0: do not move). */
export const ms = (name) => Math.round(BASE[name] * motionScale());

const running = new Set();

function track(anim) {
  running.add(anim);
  const done = () => running.delete(anim);
  anim.finished.then(done, done);
  return anim;
}

/** Finish every running animation at once (a new state frame arrived). */
export function finishAll() {
  for (const a of [...running]) { try { a.finish(); } catch { /* already gone */ } }
}

/** How many animations are running (the benchmark and the tests read it). */
export const activeCount = () => running.size;

/** Where ``node``'s centre is drawn, relative to its transform origin, in px: the card's own
 * CSS transform (a trick card is centred with translate(-50%, -50%) and tilted, a hand card
 * is rotated in its fan) stays in place while it moves, so the motion has to allow for it. */
function centreFromOrigin(node) {
  const cs = getComputedStyle(node);
  const [ox, oy] = cs.transformOrigin.split(" ").map(parseFloat);
  const vx = node.offsetWidth / 2 - ox, vy = node.offsetHeight / 2 - oy;
  const m = /^matrix\(([^)]+)\)$/.exec(cs.transform);
  if (!m) return { x: vx, y: vy };
  const [a, b, c, d, e, f] = m[1].split(",").map(parseFloat);
  return { x: a * vx + c * vy + e, y: b * vx + d * vy + f };
}

/** Animate ``node`` from the rectangle ``from`` to where it stands now.  Only the
 * individual ``translate``, ``scale`` and ``rotate`` properties move (the compositor runs
 * them): the card's own ``transform`` is left alone, so it ends exactly where it stands. */
export function flyFrom(node, from, duration, { delay = 0, rotate = 0, fade = false } = {}) {
  if (!duration || !from || !node.isConnected) return null;
  const to = node.getBoundingClientRect();
  if (!to.width) return null;
  const q = centreFromOrigin(node);
  const s = from.width / to.width;
  const r = (rotate * Math.PI) / 180;
  // the first frame's centre is the origin + translate + rotate(scale(q)): put it on from's centre
  const rx = s * (q.x * Math.cos(r) - q.y * Math.sin(r)), ry = s * (q.x * Math.sin(r) + q.y * Math.cos(r));
  const tx = from.left + from.width / 2 - (to.left + to.width / 2) + q.x - rx;
  const ty = from.top + from.height / 2 - (to.top + to.height / 2) + q.y - ry;
  const frames = [
    { translate: `${tx}px ${ty}px`, scale: `${s}`, rotate: `${rotate}deg`, opacity: fade ? 0 : 1 },
    { translate: "0px 0px", scale: "1", rotate: "0deg", opacity: 1 },
  ];
  return track(node.animate(frames, { duration, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" }));
}

/** Animate ``node`` (already placed) away to the rectangle ``to``, fading; resolves when done. */
export function flyTo(node, to, duration, { delay = 0 } = {}) {
  if (!duration || !to || !node.isConnected) return Promise.resolve();
  const from = node.getBoundingClientRect();
  const q = centreFromOrigin(node);
  const s = 0.45;
  const tx = to.left + to.width / 2 - (from.left + from.width / 2) + q.x * (1 - s);
  const ty = to.top + to.height / 2 - (from.top + from.height / 2) + q.y * (1 - s);
  const anim = track(node.animate([
    { translate: "0px 0px", scale: "1", opacity: 1 },
    { translate: `${tx}px ${ty}px`, scale: `${s}`, opacity: 0 },
  ], { duration, delay, easing: "cubic-bezier(.5,0,.7,.4)", fill: "forwards" }));
  return anim.finished.catch(() => {});
}

/** Turn a card over (the trump card when a hand is dealt), keeping its own tilt. */
export function flip(node, duration) {
  if (!duration || !node.isConnected) return null;
  const own = getComputedStyle(node).transform;
  const tilt = own && own !== "none" ? ` ${own}` : "";
  return track(node.animate([
    { transform: `perspective(600px) rotateY(90deg)${tilt}`, opacity: 0.4 },
    { transform: `perspective(600px) rotateY(0deg)${tilt}`, opacity: 1 },
  ], { duration, easing: "ease-out", fill: "backwards" }));
}

/** A short pop, for a seat's tricks counter going up. */
export function pop(node, duration) {
  if (!duration || !node.isConnected) return null;
  return track(node.animate([{ scale: "1.5" }, { scale: "1" }], { duration, easing: "ease-out" }));
}
