// One websocket to the table that reconnects by itself. A reconnect asks for what it missed
// (`?since=` the seq of the last state seen): the server sends exactly the missed events, then the state.

const PING_MS = 20000;
const MAX_BACKOFF_MS = 5000;
const UNKNOWN_TOKEN = 4404;

export class TableSocket {
  /**
   * url: the websocket URL; onMessage(message); onStatus("connecting" | "open" | "closed" | "gone");
   * since(): the seq of the last state seen (a number >= 0), or null on the first connection.
   * A close with code 4404 means the token is not valid: no reconnect. Any other close reconnects.
   */
  constructor(url, { onMessage, onStatus, since = () => null }) {
    this.url = url;
    this.since = since;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.backoff = 250;
    this.socket = null;
    this.pinger = null;
    this.stopped = false;
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  connect() {
    if (this.stopped) return;
    this.onStatus("connecting");
    const seen = this.since();
    const socket = new WebSocket(typeof seen === "number" && seen >= 0 ? `${this.url}?since=${seen}` : this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.backoff = 250;
      this.onStatus("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === UNKNOWN_TOKEN) {
        this.stopped = true;
        this.onStatus("gone", event.reason);
        return;
      }
      this.onStatus("closed");
      this.timer = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    });
  }

  reconnectNow() {
    if (this.stopped || (this.socket && this.socket.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.timer);
    this.backoff = 250;
    this.connect();
  }

  /** Send if connected; false when not (the controls are disabled while the socket is down). */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
