// The provably fair shuffle, checked in the browser.
//
// Before a game the server publishes, for each hand k, the commitment
// SHA-256(hand_key(seed, k)) where hand_key = SHA-256("ohhell/deal/v1/" + seed + "/" + k).
// After the game it reveals the seed.  verifyRecord() recomputes every commitment
// (Web Crypto SHA-256) and re-derives every deal from the seed with SHAKE-256, exactly
// as ohhell.dealing does, so nobody has to trust the server (or `ohhell verify`).
import { number, t } from "./i18n.js";

const enc = new TextEncoder();

// --- SHA-256: Web Crypto when the page is a secure context, else a small fallback -------

const K256 = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

function sha256Fallback(bytes) {
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const len = bytes.length;
  const total = Math.ceil((len + 9) / 64) * 64;
  const m = new Uint8Array(total);
  m.set(bytes);
  m[len] = 0x80;
  const bits = len * 8;
  new DataView(m.buffer).setUint32(total - 4, bits >>> 0);
  new DataView(m.buffer).setUint32(total - 8, Math.floor(bits / 2 ** 32));
  const w = new Uint32Array(64);
  const dv = new DataView(m.buffer);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(4 * i, h[i]);
  return out;
}

/** SHA-256 of bytes (a Uint8Array), as a Uint8Array. */
export async function sha256(bytes) {
  if (globalThis.crypto && crypto.subtle) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  }
  return sha256Fallback(bytes);
}

export function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// --- SHAKE-256 (Keccak-f[1600] on BigInt lanes; a few permutations per hand) ------------

const MASK = (1n << 64n) - 1n;
const RC = [];
const ROT = new Array(25).fill(0n);
(function buildTables() {
  let r = 1;
  const bit = () => { const out = r & 1; r = (r << 1) ^ ((r & 0x80) ? 0x171 : 0); r &= 0xff; return out; };
  for (let i = 0; i < 24; i++) {
    let c = 0n;
    for (let j = 0; j < 7; j++) if (bit()) c |= 1n << BigInt((1 << j) - 1);
    RC.push(c);
  }
  let x = 1, y = 0;
  for (let t = 0; t < 24; t++) {
    ROT[x + 5 * y] = BigInt(((t + 1) * (t + 2) / 2) % 64);
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
})();

const rotl = (v, n) => (n === 0n ? v : ((v << n) | (v >> (64n - n))) & MASK);

function keccakF(s) {
  const C = new Array(5), B = new Array(25);
  for (let round = 0; round < 24; round++) {
    for (let x = 0; x < 5; x++) C[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
    for (let x = 0; x < 5; x++) {
      const d = C[(x + 4) % 5] ^ rotl(C[(x + 1) % 5], 1n);
      for (let y = 0; y < 25; y += 5) s[x + y] ^= d;
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) B[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(s[x + 5 * y], ROT[x + 5 * y]);
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) s[x + y] = B[x + y] ^ ((~B[(x + 1) % 5 + y] & MASK) & B[(x + 2) % 5 + y]);
    }
    s[0] ^= RC[round];
  }
}

/** SHAKE-256 of bytes, `outLen` bytes of output. */
export function shake256(bytes, outLen) {
  const rate = 136;
  const s = new Array(25).fill(0n);
  const padded = new Uint8Array(Math.ceil((bytes.length + 1) / rate) * rate);
  padded.set(bytes);
  padded[bytes.length] ^= 0x1f;
  padded[padded.length - 1] ^= 0x80;
  const absorb = (block, off) => {
    for (let i = 0; i < rate / 8; i++) {
      let lane = 0n;
      for (let b = 7; b >= 0; b--) lane = (lane << 8n) | BigInt(block[off + 8 * i + b]);
      s[i] ^= lane;
    }
    keccakF(s);
  };
  for (let off = 0; off < padded.length; off += rate) absorb(padded, off);
  const out = new Uint8Array(outLen);
  let pos = 0;
  for (;;) {
    for (let i = 0; i < rate / 8 && pos < outLen; i++) {
      let lane = s[i];
      for (let b = 0; b < 8 && pos < outLen; b++) { out[pos++] = Number(lane & 0xffn); lane >>= 8n; }
    }
    if (pos >= outLen) return out;
    keccakF(s);
  }
}

// --- the deal, as ohhell.dealing makes it --------------------------------------------------

const RANKS = "23456789TJQKA";
const SUITS = "CDHS";
export const cardName = (c) => RANKS[c % 13] + SUITS[Math.floor(c / 13)];

export function cardNumber(name) {
  const t = String(name).toUpperCase().replace("10", "T");
  return SUITS.indexOf(t[1]) * 13 + RANKS.indexOf(t[0]);
}

/** The 32-byte key that deals hand k of a game with this seed. */
export async function handKey(seed, k) {
  return sha256(enc.encode(`ohhell/deal/v1/${seed}/${k}`));
}

/** The public commitment (hex) to hand k's key. */
export async function commitment(seed, k) {
  return hex(await sha256(await handKey(seed, k)));
}

/** The deal of one hand from its key: {hands: [[card names] per seat], trump: name or null}. */
export function dealFromKey(key, players, handSize, dealer, trump) {
  const stream = shake256(key, 416);
  // Card c's sort key: stream bytes 8c..8c+4, then the byte c (keys are distinct).
  const keys = [];
  for (let c = 0; c < 52; c++) {
    let k = 0n;
    for (let i = 0; i < 5; i++) k = (k << 8n) | BigInt(stream[8 * c + i]);
    keys.push((k << 8n) | BigInt(c));
  }
  const deck = Array.from({ length: 52 }, (_, c) => c);
  deck.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  const hands = Array.from({ length: players }, () => []);
  for (let i = 0; i < players * handSize; i++) hands[(dealer + 1 + i) % players].push(deck[i]);
  return {
    hands: hands.map((h) => h.sort((a, b) => a - b).map(cardName)),
    trump: trump ? cardName(deck[players * handSize]) : null,
  };
}

/** The first dealer a seed picks: SHA-256(hand key 0 + "/dealer"), first 8 bytes, mod players. */
export async function firstDealer(seed, players) {
  const key0 = await handKey(seed, 0);
  const msg = new Uint8Array(key0.length + 7);
  msg.set(key0);
  msg.set(enc.encode("/dealer"), key0.length);
  const d = await sha256(msg);
  return Number(new DataView(d.buffer).getBigUint64(0) % BigInt(players));
}

/**
 * Check a finished record's fair-shuffle proof: every commitment against the revealed
 * seed, and every deal (and trump card) against the seed.  Returns
 * {ok, checked, problems: [text]}; `ok` is false when anything disagrees or is missing.
 */
export async function verifyRecord(record) {
  const problems = [];
  const seed = record.seed;
  const commits = record.commitments;
  if (seed === undefined || seed === null) return { ok: false, checked: 0, problems: [t("the record reveals no seed")] };
  if (!Array.isArray(commits)) return { ok: false, checked: 0, problems: [t("the record carries no commitments")] };
  const n = record.rules.players;
  let checked = 0;
  const dealer0 = await firstDealer(String(seed), n);
  if (record.hands.length && dealer0 !== record.hands[0].dealer) {
    problems.push(t("the first dealer is seat {given}, but the seed picks seat {seeded}", { given: number(record.hands[0].dealer), seeded: number(dealer0) }));
  }
  for (let k = 0; k < record.hands.length; k++) {
    const hand = record.hands[k];
    const key = await handKey(String(seed), k);
    const c = hex(await sha256(key));
    if (commits[k] !== c) {
      problems.push(t("hand {hand}: the commitment published before the hand does not match the seed", { hand: number(k + 1) }));
      continue;
    }
    const size = record.rules.hand_sizes[k];
    const deal = dealFromKey(key, n, size, hand.dealer, hand.trump_card !== null);
    const given = hand.deal.map((cards) => cards.map(cardNumber).sort((a, b) => a - b).map(cardName));
    const same = deal.hands.every((h, s) => h.join(" ") === given[s].join(" "));
    const trumpGiven = hand.trump_card === null ? null : cardName(cardNumber(hand.trump_card));
    if (!same || deal.trump !== trumpGiven) {
      problems.push(t("hand {hand}: the cards dealt are not the ones the seed deals", { hand: number(k + 1) }));
      continue;
    }
    checked++;
  }
  return { ok: problems.length === 0, checked, problems };
}
