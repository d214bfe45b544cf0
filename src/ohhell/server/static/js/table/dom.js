// Drawing a state frame without rebuilding the table: every part of the page is still drawn
// in full from the frame (el() builds detached nodes, which costs the browser nothing), and
// patch() then changes only what differs in the live page.  Unchanged seats, cards and rows
// keep their nodes, so the browser restyles and lays out only what changed, the focused card
// keeps the focus, and no node is removed and made again on every frame.
import { on } from "../common.js";

/** A child's identity among its siblings: its id, else data-key, data-card, data-seat or
 * data-bid (worked out once a node: a kept node keeps its key). */
function keyOf(node) {
  if (node._key !== undefined) return node._key;
  let k = null;
  if (node.nodeType === 1) {
    const id = node.getAttribute("id");
    if (id) k = "#" + id;
    else {
      for (const [attr, mark] of KEYS) {
        const v = node.getAttribute(attr);
        if (v !== null) { k = mark + v; break; }
      }
    }
  }
  node._key = k;
  return k;
}
const KEYS = [["data-key", "k"], ["data-card", "c"], ["data-seat", "s"], ["data-bid", "b"]];

const sameType = (a, b) => a.nodeType === b.nodeType && a.nodeName === b.nodeName;

/** Make ``parent``'s children look like ``next`` (nodes or strings, as el() takes them). */
export function patch(parent, next) {
  const want = [];
  for (const c of next.flat()) {
    if (c === null || c === undefined || c === false) continue;
    want.push(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  patchChildren(parent, want);
  return parent;
}

function patchChildren(parent, want) {
  const old = [...parent.childNodes];
  const keyed = new Map();
  for (const o of old) {
    const k = keyOf(o);
    if (k !== null) keyed.set(k, o);
  }
  const used = new Set();
  const result = [];
  let cursor = 0;
  for (const n of want) {
    const k = keyOf(n);
    let match = null;
    if (k !== null) {
      const o = keyed.get(k);
      if (o && !used.has(o) && sameType(o, n)) match = o;
    } else {
      while (cursor < old.length && (used.has(old[cursor]) || keyOf(old[cursor]) !== null)) cursor++;
      if (cursor < old.length && sameType(old[cursor], n)) match = old[cursor++];
    }
    if (match) {
      used.add(match);
      morph(match, n);
      result.push(match);
    } else result.push(n);
  }
  for (const o of old) if (!used.has(o)) parent.removeChild(o);
  let ref = parent.firstChild;
  for (const node of result) {
    if (node === ref) ref = ref.nextSibling;
    else parent.insertBefore(node, ref);
  }
}

/** Change ``old`` (in the page) to look like ``n`` (just drawn), keeping ``old``. */
function morph(old, n) {
  if (old.nodeType !== 1) {
    if (old.nodeValue !== n.nodeValue) old.nodeValue = n.nodeValue;
    return;
  }
  if (old.isEqualNode(n)) {   // the browser compares the whole subtree natively: most of a frame
    adopt(old, n);
    return;
  }
  const attrs = n.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const { name, value } = attrs[i];
    if (old.getAttribute(name) === value) continue;
    // the page's Content-Security-Policy refuses a style attribute set as text; through the
    // CSSOM (as el() and the page set styles) it is allowed
    if (name === "style") old.style.cssText = n.style.cssText;
    else old.setAttribute(name, value);
  }
  const gone = [];
  for (let i = 0; i < old.attributes.length; i++) {
    const name = old.attributes[i].name;
    if (!n.hasAttribute(name)) gone.push(name);
  }
  for (const name of gone) old.removeAttribute(name);
  takeState(old, n);
  patchChildren(old, [...n.childNodes]);
}

/** What attributes do not say: an input's state, and the handlers drawn with the new node
 * (they close over this frame's facts). */
function takeState(old, n) {
  if (old.tagName === "INPUT") {   // what a person may have changed since: a checkbox follows the frame again
    if (old.type === "checkbox" || old.type === "radio") {
      if (old.checked !== n.checked) old.checked = n.checked;
    } else if (old !== document.activeElement && old.value !== n.value) old.value = n.value;
  }
  if (!old._on && !n._on) return;
  const had = old._on || {};
  const fresh = n._on || {};
  for (const type of Object.keys(had)) if (!(type in fresh)) had[type] = null;
  for (const [type, fn] of Object.entries(fresh)) on(old, type, fn);
}

/** ``old`` equals ``n``: only what attributes do not say is taken over, node by node. */
function adopt(old, n) {
  takeState(old, n);
  for (let a = old.firstElementChild, b = n.firstElementChild; a && b; a = a.nextElementSibling, b = b.nextElementSibling) adopt(a, b);
}

/** Set a node's text only when it changes (an equal write still costs a restyle). */
export function setText(node, text) {
  if (node && node.textContent !== text) node.textContent = text;
}

/** Set or clear ``hidden`` only when it changes. */
export function setHidden(node, hidden) {
  if (node && node.hidden !== hidden) node.hidden = hidden;
}
