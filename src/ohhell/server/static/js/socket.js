// One websocket per client, speaking protocol v1 (docs/protocol.md), reconnecting by itself.
import { store } from "./common.js";

export const PROTOCOL = 1;

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
    this.handlers.status?.("connecting");
    ws.onopen = () => {
      this.retry = 0;
      this.handlers.status?.("open");
      this.send({
        type: "hello", table: this.tableId,
        token: store.get(`seat.${this.tableId}`), admin: store.get(`admin.${this.tableId}`),
      });
    };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "joined") store.set(`seat.${msg.table}`, msg.token);
      this.handlers[msg.type]?.(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.handlers.status?.("closed", event.reason);
      const delay = Math.min(8000, 400 * 2 ** this.retry) * (0.75 + Math.random() / 2);
      this.retry = Math.min(this.retry + 1, 6);
      this.timer = setTimeout(() => this.connect(), delay);
    };
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
