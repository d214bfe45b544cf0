// The table's settings, kept in this browser (localStorage): animation speed, sounds and
// the four-colour deck.  Sounds are off until the player turns them on.
import { store } from "../common.js";
import { t } from "../i18n.js";

const DEFAULTS = { speed: "normal", sound: false, fourColour: false };
const SPEEDS = { slow: 1.6, normal: 1, fast: 0.5, off: 0 };
const listeners = [];

function load() {
  let saved = {};
  try { saved = JSON.parse(store.get("settings") || "{}") || {}; } catch { saved = {}; }
  const s = { ...DEFAULTS };
  if (saved.speed in SPEEDS) s.speed = saved.speed;
  if (typeof saved.sound === "boolean") s.sound = saved.sound;
  if (typeof saved.fourColour === "boolean") s.fourColour = saved.fourColour;
  return s;
}

export const settings = load();

const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

/** Whether the system asks for no motion (then nothing moves, whatever the setting). */
export const reducedMotion = () => !!(reduced && reduced.matches);

/** The factor for every animation's duration: 0 when nothing should move. */
export function motionScale() {
  return reducedMotion() ? 0 : SPEEDS[settings.speed];
}

export function setSetting(key, value) {
  settings[key] = value;
  store.set("settings", JSON.stringify(settings));
  for (const f of listeners) f(settings);
}

export function onSettings(f) { listeners.push(f); }

/** Wire the settings form (speed select, two checkboxes) to the stored settings. */
export function bindSettingsForm({ speed, sound, fourColour, note }) {
  speed.value = settings.speed;
  sound.checked = settings.sound;
  fourColour.checked = settings.fourColour;
  speed.addEventListener("change", () => setSetting("speed", speed.value));
  sound.addEventListener("change", () => setSetting("sound", sound.checked));
  fourColour.addEventListener("change", () => setSetting("fourColour", fourColour.checked));
  const say = () => {
    note.textContent = reducedMotion() ? t("Your system asks for reduced motion, so nothing moves.") : "";
    speed.disabled = reducedMotion();
  };
  say();
  reduced?.addEventListener?.("change", say);
}
