// Optional sounds, made with WebAudio (no audio files): a soft tick for a card, a chime
// for your turn, a two-note rise for a trick won.  Off by default (settings.sound).
import { settings } from "./settings.js";

let ctx = null;

function audio() {
  if (!settings.sound) return null;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!ctx) ctx = new AC();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function tone(freq, start, length, { type = "sine", gain = 0.12 } = {}) {
  const a = audio();
  if (!a) return;
  const t = a.currentTime + start;
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  g.gain.setValueAtTime(0.0001, t);
  g.gain.exponentialRampToValueAtTime(gain, t + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(g).connect(a.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

function noise(length, gain = 0.18) {
  const a = audio();
  if (!a) return;
  const buf = a.createBuffer(1, Math.ceil(a.sampleRate * length), a.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const src = a.createBufferSource();
  src.buffer = buf;
  const filter = a.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 2400;
  const g = a.createGain();
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(a.destination);
  src.start();
}

export const sounds = {
  card() { noise(0.07); },
  turn() { tone(660, 0, 0.18); tone(880, 0.12, 0.25); },
  trick() { tone(523, 0, 0.12, { type: "triangle" }); tone(784, 0.09, 0.2, { type: "triangle" }); },
  deal() { for (let i = 0; i < 4; i++) setTimeout(() => noise(0.04, 0.1), i * 60); },
};
