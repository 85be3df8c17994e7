// The game's WebSocket: reconnects by itself (backing off to 5 s) and notices a dead
// connection by its silence (a ping every 5 s; nothing heard for 12 s: down). The page
// learns at once when the connection is down, to say so and to keep a move pending.
import type { ClientMsg } from './protocol';

export type ConnectionEvents = {
  /** Connected (again): the server sends the whole state first. */
  up(): void;
  /** The connection is lost; a new attempt follows unless stopped. */
  down(): void;
  message(raw: string): void;
};

const PING_MS = 5000;
const SILENCE_MS = 12000;

export class Connection {
  private ws: WebSocket | null = null;
  private delay = 500;
  private stopped = false;
  private heard = 0;
  private timer: number | undefined;
  isUp = false;

  constructor(private readonly url: string, private readonly on: ConnectionEvents) {
    this.open();
    this.timer = window.setInterval(() => this.heartbeat(), PING_MS);
  }

  private open() {
    if (this.stopped) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.delay = 500;
      this.heard = Date.now();
      this.isUp = true;
      this.on.up();
    };
    ws.onmessage = ev => {
      if (ws !== this.ws) return;
      this.heard = Date.now();
      this.on.message(String(ev.data));
    };
    ws.onclose = () => { if (ws === this.ws) this.lost(); };
  }

  /** The connection is gone (closed, or silent too long): say so, try again later. */
  private lost() {
    const old = this.ws;
    this.ws = null;
    if (old) { old.onopen = old.onmessage = old.onclose = null; if (old.readyState <= WebSocket.OPEN) old.close(); }
    this.isUp = false;
    if (this.stopped) return;
    this.on.down();
    window.setTimeout(() => this.open(), this.delay);
    this.delay = Math.min(this.delay * 2, 5000);
  }

  private heartbeat() {
    if (!this.isUp || !this.ws) return;
    if (Date.now() - this.heard > SILENCE_MS) { this.lost(); return; }
    this.send({ t: 'ping' });
  }

  /** Sends when connected; false when the message could not go. */
  send(m: ClientMsg): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(m));
    return true;
  }

  /** No more reconnection (the game does not exist). */
  stop() {
    this.stopped = true;
    window.clearInterval(this.timer);
    const ws = this.ws;
    this.ws = null;
    if (ws) { ws.onclose = null; ws.close(); }
  }
}
