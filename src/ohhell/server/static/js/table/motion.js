// Motion that helps follow the play, with the Web Animations API (FLIP: measure where a
// card was and where it is, then animate only transform and opacity, which the compositor
// runs off the main thread).  Every duration is scaled by the speed setting and is zero
// under prefers-reduced-motion.
import { motionScale } from "./settings.js";

export const BASE = { play: 280, deal: 260, dealStagger: 45, collect: 420, hold: 900, flip: 450 };

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

/** Animate ``node`` from the rectangle ``from`` to where it stands now. */
export function flyFrom(node, from, duration, { delay = 0, rotate = 0, fade = false } = {}) {
  if (!duration || !from || !node.isConnected) return null;
  const to = node.getBoundingClientRect();
  if (!to.width) return null;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const sx = from.width / to.width;
  const frames = [
    { transform: `translate(${dx}px, ${dy}px) scale(${sx}) rotate(${rotate}deg)`, opacity: fade ? 0 : 1 },
    { transform: "none", opacity: 1 },
  ];
  return track(node.animate(frames, { duration, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" }));
}

/** Animate ``node`` (already placed) away to the rectangle ``to``, fading; resolves when done. */
export function flyTo(node, to, duration, { delay = 0 } = {}) {
  if (!duration || !to || !node.isConnected) return Promise.resolve();
  const from = node.getBoundingClientRect();
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const anim = track(node.animate([
    { transform: "none", opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(.45)`, opacity: 0 },
  ], { duration, delay, easing: "cubic-bezier(.5,0,.7,.4)", fill: "forwards" }));
  return anim.finished.catch(() => {});
}

/** Turn a card over (the trump card when a hand is dealt). */
export function flip(node, duration) {
  if (!duration || !node.isConnected) return null;
  return track(node.animate([
    { transform: "perspective(600px) rotateY(90deg)", opacity: 0.4 },
    { transform: "perspective(600px) rotateY(0deg)", opacity: 1 },
  ], { duration, easing: "ease-out", fill: "backwards" }));
}

/** A short pop, for a seat's tricks counter going up. */
export function pop(node, duration) {
  if (!duration || !node.isConnected) return null;
  return track(node.animate([{ transform: "scale(1.5)" }, { transform: "scale(1)" }], { duration, easing: "ease-out" }));
}
