// The shared client of the boardct pages: REST calls, the seat token store and the websocket
// connection (hello with token + since, resend of unacknowledged moves, reconnect with backoff).
// Everything a page shows comes from JSON the server built for this seat: the pages never hold
// more than the seat may know.

export const API = "/api/v1";
const TOKEN_PREFIX = "boardct:seat:";

/** The seat token remembered for a game, or null (spectator). */
export function tokenFor(gameId) {
  try {
    return localStorage.getItem(TOKEN_PREFIX + gameId);
  } catch (e) {
    return null;
  }
}

export function rememberToken(gameId, token) {
  localStorage.setItem(TOKEN_PREFIX + gameId, token);
}

export function forgetToken(gameId) {
  localStorage.removeItem(TOKEN_PREFIX + gameId);
}

/** Every token this browser holds, for "my games". */
export function allTokens() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith(TOKEN_PREFIX)) out.push(localStorage.getItem(key));
  }
  return out;
}

/** An error from the server's error body: code, message and the ruling it names. */
export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `request failed (HTTP ${status})`);
    this.status = status;
    this.code = err.code || "error";
    this.rule = err.rule || null;
  }
}

/** A JSON request to the API; the token goes in the Authorization header, never the URL. */
export async function call(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  const resp = await fetch(API + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await resp.json();
  } catch (e) {
    data = null;
  }
  if (!resp.ok) throw new ApiError(resp.status, data);
  return data;
}

export function newId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const a = new Uint8Array(16);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The websocket of one game page. `handlers` get: welcome(msg), state(stateMsg),
 * update(msg), ack(msg), reject(msg), chat(msg), status(text), error(msg).
 * Moves not yet acknowledged are kept and sent again after a reconnect; the server answers a
 * move id it has already applied with its original ack, so nothing is played twice. A move's
 * acknowledgement is its `ack`, or the update that carries its id (hello's `ack_in_update`).
 */
export class GameSocket {
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token;
    this.handlers = handlers;
    this.version = null;
    this.pending = new Map();
    this.ws = null;
    this.delay = 500;
    this.closed = false;
    this.ready = false;
    this.timer = null;
    this.heartbeat = null; // a ping every 30 s: the server closes a socket silent for long
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${API}/games/${encodeURIComponent(this.gameId)}/ws`;
  }

  emit(name, arg) {
    const h = this.handlers[name];
    if (h) h(arg);
  }

  connect() {
    if (this.closed) return;
    this.ready = false;
    this.emit("status", "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      // ack_in_update: a move's acknowledgement comes in its update (the update carrying the
      // move's id), one message fewer; a server that does not offer it sends an `ack`
      ws.send(JSON.stringify({ type: "hello", v: 1, token: this.token || null, since: this.version,
                               ack_in_update: true }));
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = () => {
      this.ready = false;
      clearInterval(this.heartbeat);
      if (this.ws === ws) this.ws = null;
      if (!this.closed) this.retry();
    };
    ws.onerror = () => {};
  }

  retry() {
    this.emit("status", "reconnecting");
    const wait = this.delay * (0.75 + Math.random() * 0.5);
    this.delay = Math.min(this.delay * 2, 10000);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.ready = true;
        this.delay = 500;
        this.emit("status", "live");
        this.emit("welcome", msg);
        clearInterval(this.heartbeat);
        this.heartbeat = setInterval(() => this.send({ type: "ping" }), 30000);
        for (const m of this.pending.values()) this.ws.send(JSON.stringify(m));
        break;
      case "state":
        this.version = msg.version;
        this.emit("state", msg);
        break;
      case "update":
        this.version = msg.version;
        this.emit("update", msg);
        if (msg.id != null && this.pending.has(msg.id)) {
          this.pending.delete(msg.id); // the update of our own move is its acknowledgement
          this.emit("ack", msg);
        }
        break;
      case "ack":
        this.pending.delete(msg.id);
        this.emit("ack", msg);
        break;
      case "reject": {
        const orig = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        this.emit("reject", Object.assign({ of: orig ? orig.type : null }, msg));
        break;
      }
      case "chat":
        this.emit("chat", msg);
        break;
      case "seat_taken":
        this.emit("seatTaken", msg);
        break;
      case "error":
        this.emit("error", msg);
        break;
      default:
        break;
    }
  }

  /** Send an acting message (move, resign, offer, answer) with a fresh id; kept until acked. */
  act(msg) {
    const full = Object.assign({ id: newId() }, msg);
    this.pending.set(full.id, full);
    if (this.ws && this.ready) this.ws.send(JSON.stringify(full));
    return full.id;
  }

  send(msg) {
    if (this.ws && this.ready) this.ws.send(JSON.stringify(msg));
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    if (this.ws) this.ws.close();
  }
}

// ---- the game's renderer -------------------------------------------------------------------

/**
 * A game's page renderer: the ES module the game ships in its own package, served at
 * /static/games/<game id>/renderer.js. Its default export may have `render(view, ctx)` (the
 * board), `panel(view, ctx)` (what goes under it), `commandHint` and `hideLegal`. A game
 * without one (or a renderer that fails to load) gets {}: the page shows the view as JSON.
 */
export async function importRenderer(game) {
  if (typeof game !== "string" || !/^[a-z0-9_-]{1,40}$/.test(game)) return {};
  try {
    return (await import(`/static/games/${encodeURIComponent(game)}/renderer.js`)).default || {};
  } catch (e) {
    return {};
  }
}

// ---- accounts --------------------------------------------------------------------------------

/** The signed-in account {id, username, email}, or null for a guest (the session cookie is
 * HttpOnly: only the server can tell). */
export async function currentAccount() {
  try {
    return (await call("GET", "/account")).account || null;
  } catch (e) {
    return null;
  }
}

/** A line of "My games": the game, its players, where it stands, and the seat that is mine. */
export function myGamesLine(g) {
  const names = (g.names || []).join(" vs ");
  return el("li", { "data-game": g.game_id }, el("a", { href: `/play/${encodeURIComponent(g.game_id)}` }, `${g.title}: ${names}`),
    ` — ${g.status}${g.result_text ? ": " + g.result_text : ""}`, g.seat !== undefined ? ` (you: seat ${g.seat + 1})` : "");
}

// ---- small DOM helpers shared by the pages ------------------------------------------------

/** el("div", {class: "x", onclick: f}, child, "text") */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** The seat's side label and shape glyph, the same on every page: shape, not colour alone. */
export const SIDE_GLYPH = ["●", "■", "▲", "◆"];
export function sideName(names, seat) {
  const n = names && names[seat];
  return (n ? n : `Player ${seat + 1}`);
}
/** `side`: the colour and shape to draw the seat in (a game may draw seats in their team's;
 * null: a seat whose team this page does not know, drawn plain). */
export function sideBadge(names, seat, side = seat) {
  if (side === null) return el("span", { class: "side side-none" }, sideName(names, seat));
  return el("span", { class: `side side-${side}` }, SIDE_GLYPH[side % 4] + " ", sideName(names, seat));
}
