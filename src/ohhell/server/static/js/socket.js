// One websocket per client, speaking protocol v1 (docs/protocol.md), reconnecting by itself.
import { store } from "./common.js";

export const PROTOCOL = 1;

/**
 * The page's frames, for modules besides the one that owns the socket (the chat).
 * Every frame a TableSocket receives is dispatched as a "frame" event whose `detail` is the
 * parsed message, after the socket's own handlers ran; `status` events carry
 * {status, reason}. `tableFrames.state` is the last "state" frame, `tableFrames.send(msg)`
 * sends through the page's socket (the last TableSocket made) and returns the ref, or null
 * when offline.
 *
 *   import { tableFrames } from "./socket.js";
 *   tableFrames.addEventListener("frame", (e) => { if (e.detail.type === "chat") show(e.detail); });
 *   tableFrames.send({ type: "chat", text: "hello" });
 */
class FrameHub extends EventTarget {
  constructor() { super(); this.socket = null; this.state = null; }
  send(message) { return this.socket ? this.socket.send(message) : null; }
}
export const tableFrames = new FrameHub();

export class TableSocket {
  /**
   * handlers: {state(msg), error(msg), joined(msg), status("connecting"|"open"|"closed")}.
   * After every (re)connection it says hello with the seat and admin tokens this browser
   * holds for the table, and the server answers with the full state: the exact view again.
   */
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    this.ws = null;
    this.retry = 0;
    this.timer = null;
    this.refs = 0;
    this.stopped = false;
    tableFrames.socket = this;
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  get open() { return this.ws && this.ws.readyState === WebSocket.OPEN; }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    this.notifyStatus("connecting");
    ws.onopen = () => {
      this.retry = 0;
      this.notifyStatus("open");
      this.send({
        type: "hello", table: this.tableId,
        token: store.get(`seat.${this.tableId}`), admin: store.get(`admin.${this.tableId}`),
      });
    };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "joined") store.set(`seat.${msg.table}`, msg.token);
      if (msg.type === "state") tableFrames.state = msg;
      try {
        this.handlers[msg.type]?.(msg);
      } finally {   // the other modules hear every frame, even one the page's own handler failed on
        tableFrames.dispatchEvent(new CustomEvent("frame", { detail: msg }));
      }
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.notifyStatus("closed", event.reason);
      const delay = Math.min(8000, 400 * 2 ** this.retry) * (0.75 + Math.random() / 2);
      this.retry = Math.min(this.retry + 1, 6);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  notifyStatus(status, reason) {
    this.handlers.status?.(status, reason);
    tableFrames.dispatchEvent(new CustomEvent("status", { detail: { status, reason } }));
  }

  reconnectNow() {
    if (this.stopped || this.open || (this.ws && this.ws.readyState === WebSocket.CONNECTING)) return;
    this.retry = 0;
    this.connect();
  }

  /** Send a message (v and a ref are added); returns the ref, or null when offline. */
  send(message) {
    if (!this.open) return null;
    const ref = ++this.refs;
    this.ws.send(JSON.stringify({ v: PROTOCOL, ref, ...message }));
    return ref;
  }

  /** Drop the connection as if the network went away (used by tests and the "reconnect" key). */
  drop() {
    if (this.ws) this.ws.close();
  }
}
