// The game page: one seat's (or a spectator's) live view of one game.
// It draws only what the server sends for this seat (the state message built from view(seat)
// and events_for), so the page can never show what the seat may not know. The board is drawn
// by the game's own renderer, an ES module the game ships in its package and the server serves
// at /static/games/<game id>/renderer.js; without one the view is shown as JSON. Which board
// elements a legal action involves comes with the legal list (`targets`, from the engine): the
// page makes those clickable and never reads the game's notation.
import { call, tokenFor, rememberToken, forgetToken, GameSocket, el, sideBadge, sideName, newId, ApiError, importRenderer, currentAccount } from "./app.js";
import { named, groups } from "./events.js";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean);
const gameId = decodeURIComponent(parts[parts.length - 1] || "");

let token = tokenFor(gameId);
let account = null; // the signed-in account: its seat here needs no token in this browser
let state = null;
let renderer = null;
let rendererFor = null;
let socket = null;
let source = null; // the board element picked first in a two-click move
let okVersion = null; // the version a confirmation notice was given at
let newsVersion = null; // the version the news line was given at

function notice(text, kind = "error") {
  const box = $("notice");
  box.className = `notice ${kind}`;
  box.textContent = text;
  box.hidden = !text;
}

// News of the table (a seat taken) has a line of its own, so that it never hides a refusal
// or a confirmation the player has still to read, nor is hidden by one. Like a confirmation,
// it belongs to the position it was given in (`show` clears it at a later one).
function news(text) {
  const box = $("news");
  box.textContent = text;
  box.hidden = !text;
  newsVersion = text && state ? state.version : null;
}

function showRejection(msg) {
  const rule = msg.rule ? `[${msg.rule}] ` : "";
  const what = !msg.of || msg.of === "move" ? "Move rejected" : `Refused (${msg.of})`;
  notice(`${what}: ${rule}${named(msg.message || "not allowed", state ? state.names : [])}`, "error");
}

async function loadRenderer(game) {
  if (rendererFor === game) return renderer;
  renderer = await importRenderer(game);
  rendererFor = game;
  return renderer;
}

// ---- invites -------------------------------------------------------------------------------
async function claimInvite(code) {
  const form = $("claim");
  form.hidden = false;
  $("claim-name").value = localStorage.getItem("boardct:name") || "";
  $("claim-name").focus();
  return new Promise((resolve) => {
    form.onsubmit = async (ev) => {
      ev.preventDefault();
      const name = $("claim-name").value.trim() || "Guest";
      localStorage.setItem("boardct:name", name);
      try {
        const res = await call("POST", `/invites/${encodeURIComponent(code)}`, { name });
        if (account) {
          // the seat is now the account's: the cookie plays it, on every device
          forgetToken(res.game_id);
          token = null;
        } else {
          rememberToken(res.game_id, res.token);
          token = res.token;
        }
        form.hidden = true;
        notice("");
        resolve();
      } catch (e) {
        notice(`Could not take the seat: ${e.message}`);
        if (token) {
          form.hidden = true;
          resolve();
        }
      }
    };
    $("claim-watch").onclick = () => {
      form.hidden = true;
      resolve();
    };
  }).finally(() => {
    // The invite code is single-use: take it out of the address bar and history.
    history.replaceState(null, "", location.pathname);
  });
}

// ---- where the seat lives ------------------------------------------------------------------
/** A personal link carried in the address's fragment (#seat=TOKEN: never sent to a server,
 * nor in a Referer) puts the seat in this browser too; it is then taken out of the address. */
function takeCarriedSeat() {
  const m = /^#seat=([A-Za-z0-9_-]{16,200})$/.exec(location.hash || "");
  if (!m) return;
  rememberToken(gameId, m[1]);
  token = m[1];
  history.replaceState(null, "", location.pathname + location.search);
}

/** Tell the player where their seat lives: in their account (any device where they are
 * signed in), or, for a guest, in this browser only, with a personal link to carry it. */
function seatHome(st) {
  const box = $("seat-home");
  if (st.seat === null || st.seat === undefined) {
    box.hidden = true;
    return;
  }
  if (!token && account) {
    box.replaceChildren(el("p", {}, `Signed in as ${account.username}: this seat follows your account. Open this game on any device where you are signed in.`));
    box.dataset.home = "account";
    delete box.dataset.token;
  } else if (token) {
    // rebuilt only when the seat changes: the box stays open or closed as the player left it
    if (box.dataset.home === "browser" && box.dataset.token === token) {
      box.hidden = false;
      return;
    }
    const link = el("input", { readonly: true, id: "carry-link", value: `${location.origin}/play/${encodeURIComponent(gameId)}#seat=${token}`, "aria-label": "personal link to this seat" });
    const copy = el("button", { type: "button", onclick: async () => {
      link.select();
      try { await navigator.clipboard.writeText(link.value); } catch (e) { /* selected: copy by hand */ }
    } }, "Copy");
    // one line until asked: the board stays near the top, on a phone too
    box.replaceChildren(el("details", { id: "carry" },
      el("summary", {}, "Your seat lives in this browser only: play it on another device"),
      el("p", {}, "Clearing this browser, or another device, and you can only watch. To play it on another device, open this personal link there (keep it to yourself: whoever opens it plays your seat): "),
      el("div", { class: "links" }, link, copy),
      el("p", {}, "Or ", el("a", { href: `/account?next=${encodeURIComponent(location.pathname)}`, id: "carry-signin" }, "sign in or sign up"), " to keep this seat in an account, on every device.")));
    box.dataset.home = "browser";
    box.dataset.token = token;
  } else {
    box.hidden = true;
    return;
  }
  box.hidden = false;
}

// ---- moves ---------------------------------------------------------------------------------
async function play(text) {
  text = text.trim();
  if (!text || !state) return;
  source = null;
  notice("");
  if (socket) {
    // Sent now if connected, else as soon as the socket is back (resent until acknowledged).
    socket.act({ type: "move", text, version: state.version });
    $("sending").hidden = false;
    return;
  }
  try {
    await call("POST", `/games/${encodeURIComponent(gameId)}/moves`, { text, move_id: newId(), version: state.version }, token);
    await refresh();
  } catch (e) {
    if (e instanceof ApiError) showRejection({ rule: e.rule, message: e.message });
    else notice(e.message);
  }
}

function act(msg, restPath, body) {
  if (socket) {
    socket.act(msg);
    return;
  }
  call("POST", restPath, body, token).then(refresh).catch((e) => notice(e.message));
}

async function refresh() {
  const st = await call("GET", `/games/${encodeURIComponent(gameId)}`, undefined, token);
  await show(st);
}

/** Whether this seat may move now: its turn, and the moderator does not hold the game (a
 *  paused game takes no move, so its moves are neither listed nor clickable). */
function movable() {
  return !!state && !!state.my_turn && !state.over && !state.paused;
}

// ---- clicking on the board -----------------------------------------------------------------
// Each legal action names its board elements (`targets`, the element acted with first) as the
// renderer's `data-key`s. One target: a click plays it (or offers a choice when several
// actions share it). Two or more: the first click picks the source, the next a target.
function keyed() {
  if (!state || !movable()) return [];
  return state.legal.map((a) => ({ a, keys: a.targets || [] }));
}

function candidatesFor(key) {
  const all = keyed();
  if (source && key !== source) {
    const c = all.filter((x) => x.keys[0] === source && x.keys.includes(key));
    if (c.length) return c;
  }
  return all.filter((x) => x.keys.includes(key));
}

function clickKey(key, label) {
  const cands = candidatesFor(key);
  if (!cands.length) return;
  const twoStep = cands.some((x) => x.keys.length > 1 && x.keys[0] === key);
  if (twoStep && source !== key) {
    source = key;
    showChoices(cands, label);
    decorate();
    return;
  }
  if (cands.length === 1) {
    play(cands[0].a.text);
    return;
  }
  showChoices(cands, label);
}

function showChoices(cands, label) {
  const box = $("choices");
  box.replaceChildren(
    el("h3", {}, `Choices for ${label}`),
    el("div", { class: "choice-buttons" }, cands.map((x) =>
      el("button", { type: "button", class: "action", "data-text": x.a.text, onclick: () => play(x.a.text) },
        el("code", {}, x.a.text), " ", x.a.description))),
    el("button", { type: "button", class: "quiet", onclick: clearChoices }, "Cancel (Esc)"));
  box.hidden = false;
  // where the player is looking: on a phone the box is a sheet at the bottom of the screen
  // (style.css), elsewhere it is scrolled into view; the first choice takes the focus
  if (box.scrollIntoView && getComputedStyle(box).position !== "fixed") box.scrollIntoView({ block: "nearest" });
  const first = box.querySelector("button");
  if (first) first.focus({ preventScroll: true });
}

function clearChoices() {
  source = null;
  $("choices").hidden = true;
  $("choices").replaceChildren();
  decorate();
}

/** Mark what is clickable now (from the legal actions) and give it keyboard access. */
function decorate() {
  const board = $("board");
  const all = keyed();
  const clickable = new Set();
  const targets = new Set();
  for (const x of all) {
    if (source) {
      if (x.keys[0] === source) x.keys.slice(1).forEach((k) => targets.add(k));
    }
    x.keys.forEach((k) => clickable.add(k));
  }
  for (const node of board.querySelectorAll("[data-key]")) {
    const key = node.getAttribute("data-key");
    const on = clickable.has(key);
    node.classList.toggle("clickable", on);
    node.classList.toggle("picked", key === source);
    node.classList.toggle("target", targets.has(key));
    if (on) {
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      // its name: the drawing's own <title> (SVG) or title and text (HTML); a label that
      // left out the text drawn inside would tell a screen reader something else
      if (!node.querySelector(":scope > title") && !node.getAttribute("title") && !node.textContent.trim()) node.setAttribute("aria-label", key);
    } else {
      node.removeAttribute("tabindex");
      node.removeAttribute("role");
    }
  }
}

function wireBoard() {
  const board = $("board");
  const handler = (ev) => {
    const node = ev.target.closest("[data-key].clickable");
    if (!node) return;
    if (ev.type === "keydown" && ev.key !== "Enter" && ev.key !== " ") return;
    ev.preventDefault();
    const t = node.querySelector("title");
    clickKey(node.getAttribute("data-key"), node.getAttribute("title") || (t ? t.textContent : node.getAttribute("aria-label") || ""));
  };
  board.addEventListener("click", handler);
  board.addEventListener("keydown", handler);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") clearChoices();
  });
}

// ---- drawing the page ----------------------------------------------------------------------
function legalList() {
  const box = $("legal");
  box.replaceChildren();
  if (!movable() || !state.legal.length || (renderer && renderer.hideLegal)) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const groups = new Map();
  for (const a of state.legal) {
    const g = a.group || "moves";
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(a);
  }
  const many = state.legal.length > 40;
  box.append(el("h2", {}, `Your moves (${state.legal.length})`));
  for (const [g, acts] of groups) {
    const det = el("details", { class: "group", open: !many || groups.size === 1 || acts.length <= 6 },
      el("summary", {}, `${g} (${acts.length})`),
      el("div", { class: "actions" }, acts.map((a) =>
        el("button", { type: "button", class: "action", "data-text": a.text, title: a.description, onclick: () => play(a.text) },
          el("code", {}, a.text), " ", a.description))));
    box.append(det);
  }
}

function offers() {
  const box = $("offers");
  box.replaceChildren();
  for (const o of state.offers || []) {
    if (!o.open) continue;
    if (o.by === state.seat) {
      box.append(el("p", { class: "offer" }, `Your ${o.kind} offer is waiting for an answer.`));
    } else {
      const ans = (accept) => () => act({ type: "answer", offer: o.id, accept },
        `/games/${encodeURIComponent(gameId)}/offers/${encodeURIComponent(o.id)}`, { accept });
      box.append(el("p", { class: "offer" }, `${sideName(state.names, o.by)} offers: ${o.kind}. `,
        state.seat !== null ? el("button", { type: "button", class: "accept", onclick: ans(true) }, `Accept ${o.kind}`) : "",
        state.seat !== null ? el("button", { type: "button", class: "deny", onclick: ans(false) }, `Deny ${o.kind}`) : ""));
    }
  }
  box.hidden = !box.childNodes.length;
}

// ---- chat ----------------------------------------------------------------------------------
// Chat text arrives as written (the server does not escape it): it is only ever inserted as
// text (el() makes text nodes, i.e. textContent), so `<script>` shows as the characters typed.
const chatSeen = new Map(); // id -> message, oldest first

function chatAdd(msg) {
  if (!msg || typeof msg.id !== "number" || chatSeen.has(msg.id)) return false;
  chatSeen.set(msg.id, msg);
  return true;
}

function chatView() {
  const list = $("chat-log");
  const msgs = [...chatSeen.values()].sort((a, b) => a.id - b.id).slice(-200);
  list.replaceChildren(...msgs.map((m) => {
    const who = typeof m.seat === "number" ? el("span", { class: `side side-${sideOf(m.seat)} tiny` }, m.name || sideName(state ? state.names : [], m.seat)) : "";
    const li = el("li", { class: `chat-line${m.to === "team" ? " team" : ""}`, "data-id": String(m.id) },
      who, m.to === "team" ? " (team)" : "", ": ");
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = String(m.text || "");
    li.append(text);
    return li;
  }));
  if (!msgs.length) list.append(el("li", { class: "hint" }, "No messages yet."));
  list.scrollTop = list.scrollHeight;
}

function chatPanel(st) {
  for (const m of st.chat || []) chatAdd(m);
  const seated = st.seat !== null && st.seat !== undefined;
  $("chat-form").hidden = !seated;
  $("chat-spectator").hidden = seated;
  $("chat-to").hidden = !(seated && (st.team || []).length > 1);
  chatView();
}

async function sendChat(ev) {
  ev.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  const to = $("chat-to").hidden ? "all" : $("chat-to").value;
  try {
    const msg = await call("POST", `/games/${encodeURIComponent(gameId)}/chat`, { text, to }, token);
    input.value = "";
    if (chatAdd(msg)) chatView();
  } catch (e) {
    notice(`Chat not sent: ${e.message}`);
  }
}

function logView() {
  const list = $("log");
  list.replaceChildren();
  // One item per change, numbered as this seat numbers them; inside it who did what (events.js:
  // names for "Player N", an agent's reply under the agent, "whose turn" lines as dividers).
  const tidy = renderer && renderer.eventText ? (line) => renderer.eventText(line, state.view, pageContext(state)) : (x) => x;
  for (const entry of state.log || []) {
    const parts = groups(entry, state.names, tidy);
    if (!parts.length) continue;
    const body = parts.map((g) => g.divider
      ? el("div", { class: "log-turn" }, g.lines[0])
      : el("div", { class: "log-act" },
        g.seat === null ? "" : el("span", { class: `side side-${sideOf(g.seat)} tiny` }, sideName(state.names, g.seat)),
        g.seat === null ? "" : " ", withoutName(g, state.names).join(" · ")));
    list.append(el("li", { "data-version": String(entry.version) }, el("span", { class: "log-num", "aria-hidden": "true" }, `${entry.version}.`), el("div", { class: "log-body" }, body)));
  }
  list.scrollTop = list.scrollHeight;
}

// ---- the deadline: a live countdown, the local clock time on hover ----------------------------
let deadlineAt = null;
let gamePaused = false;
let ticker = null;

/** "4:05", "1 h 02 min", "2 days 3 h": how long until the deadline, for people. */
function untilText(ms) {
  const sec = Math.max(0, Math.round(ms / 1000));
  if (sec >= 172800) return `${Math.floor(sec / 86400)} days ${Math.floor((sec % 86400) / 3600)} h`;
  if (sec >= 3600) return `${Math.floor(sec / 3600)} h ${String(Math.floor((sec % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, "0")}`;
}

function tick() {
  const box = $("deadline");
  box.classList.toggle("paused", gamePaused);
  if (gamePaused) {  // the moderator stopped the clock: no countdown, no moves
    box.replaceChildren("Paused by the moderator: the clock is stopped.");
    clearInterval(ticker);
    ticker = null;
    return;
  }
  if (!deadlineAt || Number.isNaN(deadlineAt.getTime())) {
    box.replaceChildren();
    clearInterval(ticker);
    ticker = null;
    return;
  }
  const left = deadlineAt.getTime() - Date.now();
  const local = deadlineAt.toLocaleString();
  box.replaceChildren("Deadline: ", el("time", { datetime: deadlineAt.toISOString(), title: `at ${local} (your local time)`, id: "countdown", "data-left": String(Math.max(0, Math.round(left / 1000))) },
    left > 0 ? `in ${untilText(left)}` : "now (the server acts on it)"));
  box.classList.toggle("soon", left > 0 && left < 60000);
  if (!ticker) ticker = setInterval(tick, 1000);
}

// ---- the moderator (the game's creator): deadline, pause, absent players, announcements -------
let modState = null;
let modOpened = false;

function renderModerator(st) {
  modState = st;
  const box = $("moderate");
  box.hidden = !st.moderator || !!st.over;
  if (box.hidden) return;
  // folded away in a game without a clock (a creator playing a friend or the computer rarely
  // needs it); open by itself once, when the game has a deadline or is paused
  if (!modOpened && (st.deadline || st.paused)) {
    modOpened = true;
    $("moderate-tools").open = true;
  }
  $("mod-pause").textContent = st.paused ? "Resume the game" : "Pause the game";
  $("mod-extend").disabled = !!st.paused || !st.deadline;
  const sel = $("mod-seat");
  const chosen = sel.value;
  const people = (st.seats || []).filter((s) => s.kind === "human" && s.seat !== st.seat);
  sel.replaceChildren(...people.map((s) => el("option", { value: String(s.seat), selected: String(s.seat) === chosen }, `Seat ${s.seat + 1}${s.name ? " (" + s.name + ")" : ""}`)));
  for (const id of ["mod-seat", "mod-agent", "mod-invite"]) $(id).disabled = !people.length;
  // no other person's seat (a game against the computer): nobody to replace, no empty choice
  sel.closest(".moderate-row").hidden = !people.length;
}

/** One moderator act through the API; the result (or the refusal) said under the buttons. */
async function moderate(act, body, said) {
  try {
    const res = await call("POST", `/games/${encodeURIComponent(gameId)}/moderator/${act}`, body, token);
    $("mod-result").textContent = said(res);
  } catch (e) {
    $("mod-result").textContent = `Refused: ${e.message}`;
  }
}

// A guest's address for this seat's notices (server/notices.py): an account's seats follow
// the account's preferences instead, so the form is for a seated guest only.
let contactShown = false;

async function showContact(st) {
  const seated = st.seat !== null && st.seat !== undefined && !!token && !account && !st.over;
  $("contact").hidden = !seated;
  if (!seated || contactShown) return;
  contactShown = true;
  try {
    const got = await call("GET", `/games/${encodeURIComponent(gameId)}/contact`, undefined, token);
    if (got.contact && got.contact.email) $("contact-email").value = got.contact.email;
  } catch (e) {
    // a server without notices, or a seat given away meanwhile: the form stays empty
  }
}

async function saveContact(ev) {
  ev.preventDefault();
  const email = $("contact-email").value.trim();
  try {
    await call("PUT", `/games/${encodeURIComponent(gameId)}/contact`, { email: email || null, apprise_url: null }, token);
    $("contact-status").textContent = email ? `Saved: notices of this seat go to ${email}.` : "Saved: no more mail for this seat.";
  } catch (e) {
    $("contact-status").textContent = `Not saved: ${e.message}`;
  }
}

function wireModerator() {
  $("mod-extend").addEventListener("click", () => moderate("deadline", { extend: 86400 }, (r) => `Deadline now ${new Date(r.deadline).toLocaleString()}.`));
  $("mod-pause").addEventListener("click", () => (modState && modState.paused
    ? moderate("resume", {}, () => "Resumed.")
    : moderate("pause", {}, () => "Paused: no moves, the clock stopped.")));
  $("mod-announce-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("mod-announce").value.trim();
    if (!text) return;
    $("mod-announce").value = "";
    moderate("announce", { text }, () => "Announced.");
  });
  $("mod-agent").addEventListener("click", () => moderate("replace", { seat: Number($("mod-seat").value), by: "agent", agent: "random" }, (r) => `Seat ${r.seat + 1} is played by an agent from now on.`));
  $("mod-invite").addEventListener("click", () => moderate("replace", { seat: Number($("mod-seat").value), by: "invite" }, (r) => `Seat ${r.seat + 1}: send this invite link: ${location.origin}/play/${gameId}?invite=${r.invite}`));
}

/** A group's lines without the name the badge already shows ("Bob downshifts" reads "[Bob]
 * downshifts"); "Bob's Infantry" keeps it. */
function withoutName(g, names) {
  const name = names[g.seat];
  if (!name) return g.lines;
  return g.lines.map((line) => (line.startsWith(name + " ") ? line.slice(name.length + 1) : line));
}

/** The colour a seat is drawn in: the game's (a team game draws seats in their team's colour,
 * null where this page does not know the team), else the seat's own. */
function seatSide(st, seat) {
  if (renderer && renderer.seatSide) {
    const side = renderer.seatSide(st, seat);
    return side === undefined ? seat : side;
  }
  return seat;
}
function sideOf(seat) {
  const side = state ? seatSide(state, seat) : seat;
  return side === null ? "none" : side;
}

/** "You play Ann. Players: Ann ● online vs Bob ○ last seen 2 min ago". */
function whoLine(st) {
  const seatLine = st.seat === null || st.seat === undefined
    ? el("span", { id: "seat-line" }, "You are watching as a spectator.")
    : el("span", { id: "seat-line" }, "You play ", sideBadge(st.names, st.seat, seatSide(st, st.seat)), ".");
  $("who").replaceChildren(seatLine, " Players: ", ...st.names.flatMap((_, i) => [
    el("span", { class: "player", "data-seat": String(i) }, sideBadge(st.names, i, seatSide(st, i)), presenceMark(st, i)),
    i < st.names.length - 1 ? " vs " : ""]));
}

// Who is at the table is not a change of the game: the page asks for it every few seconds
// (a small answer from the server's memory) instead of being sent a message.
const PRESENCE_EVERY_MS = 8000;
async function pollPresence() {
  if (!state || document.hidden) return;
  try {
    const res = await call("GET", `/games/${encodeURIComponent(gameId)}/presence`);
    if (state && Array.isArray(res.presence)) {
      state.presence = res.presence;
      whoLine(state);
    }
  } catch (e) {
    // the next state message or poll brings it
  }
}

/** "online" or "last seen 5 min ago" after a player's badge (`presence`, from the server). */
function presenceMark(st, seat) {
  const p = (st.presence || []).find((x) => x.seat === seat);
  if (!p || (st.seats && st.seats[seat] && st.seats[seat].kind !== "human")) return "";
  if (p.online) return el("span", { class: "presence online", title: "connected now" }, " ● online");
  if (!p.last_seen) return el("span", { class: "presence away" }, " ○ not here");
  const when = new Date(p.last_seen);
  const mins = Math.max(0, Math.round((Date.now() - when.getTime()) / 60000));
  const ago = mins < 1 ? "just now" : mins < 60 ? `${mins} min ago` : mins < 1440 ? `${Math.round(mins / 60)} h ago` : `${Math.round(mins / 1440)} days ago`;
  return el("span", { class: "presence away", title: `last seen ${when.toLocaleString()}` }, ` ○ last seen ${ago}`);
}

/** Mark the board elements of the last move (or the last turn's moves: `last_move`, from the
 * engine's action targets, only those this seat may know) and say it in their labels. */
function markLast() {
  const last = state && state.last_move;
  const keys = new Set(last && Array.isArray(last.targets) ? last.targets : []);
  for (const node of $("board").querySelectorAll("[data-key]")) {
    const on = keys.has(node.getAttribute("data-key"));
    node.classList.toggle("last-move", on);
    if (on) node.setAttribute("data-last", "1");
    else node.removeAttribute("data-last");
  }
  $("board").dataset.lastMove = [...keys].join(" ");
}

/** The ARIA live region: what the newest entries did and the result, said once each. */
let announced = null;
function announce() {
  const box = $("announce");
  if (!box || !state) return;
  const entries = state.log || [];
  const newest = entries.length ? entries[entries.length - 1].version : 0;
  if (announced === null) {
    announced = newest;
    if (!state.over) return;
  }
  const fresh = entries.filter((e) => e.version > announced);
  announced = Math.max(announced, newest);
  const words = [];
  for (const e of fresh) {
    for (const g of groups(e, state.names)) {
      if (g.divider) words.push(g.lines[0]);
      else words.push(`${g.seat === null ? "" : sideName(state.names, g.seat) + ": "}${g.lines.join(". ")}`);
    }
  }
  if (state.over && !box.dataset.over) {
    box.dataset.over = "1";
    words.push(`Game over. ${resultWords().join(" ")}`);
  }
  if (words.length) box.textContent = words.join(". ").slice(-600);
}

/** The result and its reason in words, with the seats' names. */
function resultWords() {
  const res = state.result || {};
  const said = named(res.text || state.status_line || "The game has ended.", state.names);
  const text = said.charAt(0).toUpperCase() + said.slice(1);
  const reason = res.reason ? named(String(res.reason), state.names) : "";
  return reason && !text.toLowerCase().includes(reason.toLowerCase()) ? [text, `(${reason})`] : [text];
}

/** At the end, the result at the top of the page, where a phone shows it first. */
function outcomeTop() {
  const box = $("outcome");
  if (!box) return;
  if (!state.over) {
    box.hidden = true;
    return;
  }
  const [text, reason] = resultWords();
  box.replaceChildren(el("strong", {}, "Game over: "), el("span", { id: "outcome-text" }, text),
    reason ? el("span", { class: "outcome-reason" }, " ", reason) : "",
    " ", el("a", { href: "#end" }, "rematch and replay"));
  box.hidden = false;
}

function endPanel() {
  const box = $("end");
  if (!state.over) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.replaceChildren(
    el("h2", {}, "Game over"),
    el("p", { id: "result", class: "result" }, resultWords().join(" ")),
    el("p", {},
      state.seat !== null && state.seat !== undefined ? el("button", { type: "button", id: "rematch", onclick: rematch }, state.rematch ? "Join the rematch" : "Rematch") : "",
      " ",
      el("a", { href: `/replay/${encodeURIComponent(gameId)}`, id: "replay-link" }, "Replay this game")));
}

async function rematch() {
  try {
    const res = await call("POST", `/games/${encodeURIComponent(gameId)}/rematch`, {}, token);
    rememberToken(res.game_id, res.token);
    location.href = `/play/${encodeURIComponent(res.game_id)}`;
  } catch (e) {
    notice(`Rematch failed: ${e.message}`);
  }
}

// ---- hints -----------------------------------------------------------------------------------
// The computer's suggestion for this seat (POST /hint: core.table.hint, the terminal's `hint`),
// with the win probability its search gives it and the best three moves with theirs. It
// belongs to the position it was asked in: a new position clears it.
let hintVersion = null;

function pct(value) {
  return `${Math.round(100 * value)}%`;
}

async function askHint() {
  const box = $("hint-box");
  const asked = state ? state.version : null;
  $("hint").disabled = true;
  box.hidden = false;
  box.replaceChildren(el("p", {}, "The computer is thinking of a hint…"));
  try {
    const h = await call("POST", `/games/${encodeURIComponent(gameId)}/hint`, {}, token);
    if (!state || state.version !== asked) return;
    hintVersion = asked;
    const parts = [el("h2", {}, "Hint"),
      el("p", {}, el("strong", {}, h.text), h.words && h.words !== h.text ? ` (${h.words})` : "")];
    if (h.value !== null && h.value !== undefined) {
      parts.push(el("p", { class: "hint-value" }, `Win chance: ${pct(h.value)} for you (the search's estimate).`));
    }
    if (h.best && h.best.length > 1) {
      parts.push(el("ol", { class: "hint-best" }, h.best.map((b) =>
        el("li", {}, el("button", { type: "button", class: "action", "data-text": b.text, onclick: () => play(b.text) }, b.text), ` ${pct(b.value)}`))));
    }
    if (h.line && h.line.length > 1) parts.push(el("p", { class: "hint" }, `Expected line: ${h.line.join(" | ")}`));
    box.replaceChildren(...parts);
  } catch (e) {
    box.replaceChildren(el("p", {}, `No hint: ${e.message}`));
  } finally {
    $("hint").disabled = false;
  }
}

async function show(st) {
  // A confirmation ("sheet accepted") belongs to the position it was given in: a later one
  // (the turn processed) clears it.
  if (okVersion !== null && st.version > okVersion && $("notice").classList.contains("ok")) {
    notice("");
    okVersion = null;
  }
  if (newsVersion !== null && st.version > newsVersion) news("");
  state = st;
  showContact(st);
  await loadRenderer(st.game);
  document.title = `${st.title} — boardct`;
  $("title").textContent = st.title;
  whoLine(st);
  $("status").textContent = named(st.status_line || "", st.names);
  // Who is still to decide as this seat may know it (the view's `to_move`, the engine's
  // to_move_seen: a game with sealed orders does not tell who has handed in); a renderer may
  // say it in the game's own words (`waiting`).
  const others = (st.view && Array.isArray(st.view.to_move) ? st.view.to_move : st.to_move || []).filter((s) => s !== st.seat);
  const waiting = renderer.waiting ? renderer.waiting(st) : others.length ? `Waiting for ${others.map((s) => sideName(st.names, s)).join(", ")}.` : "";
  // a paused game takes no move: not "Your move" while the moderator holds the clock
  const held = !!st.paused && !st.over;
  $("turn").textContent = st.over ? "" : held ? "Paused: no move until the moderator resumes the game." : st.my_turn ? `Your move. ${named(st.prompt || "", st.names)}` : named(waiting, st.names);
  $("turn").classList.toggle("mine", !!st.my_turn && !st.over && !held);
  deadlineAt = st.deadline && !st.over ? new Date(st.deadline) : null;
  gamePaused = !!st.paused && !st.over;
  tick();
  renderModerator(st);
  const board = $("board");
  const ctx = pageContext(st);
  const nodes = [];
  if (renderer.render) nodes.push(renderer.render(st.view, ctx));
  else nodes.push(el("pre", { class: "raw-view" }, JSON.stringify(st.view, null, 1)));
  if (renderer.panel) nodes.push(renderer.panel(st.view, ctx));
  // Keep what the player is typing in a form on the board (an order sheet) across updates.
  const edited = new Map();
  for (const inp of board.querySelectorAll("form[data-bot] input[name]")) {
    if (inp.value !== inp.defaultValue) edited.set(`${inp.form.dataset.bot}:${inp.name}`, inp.value);
  }
  board.replaceChildren(...nodes.filter(Boolean));
  for (const inp of board.querySelectorAll("form[data-bot] input[name]")) {
    const v = edited.get(`${inp.form.dataset.bot}:${inp.name}`);
    if (v !== undefined) inp.value = v;
  }
  $("sending").hidden = true;
  const canAct = st.seat !== null && st.seat !== undefined && !st.over;
  $("command").hidden = !canAct;
  $("command-hint").textContent = (renderer && renderer.commandHint) || "Type a move in the game's notation.";
  $("actions-bar").hidden = !canAct;
  $("hint").hidden = !movable();
  if (hintVersion !== null && hintVersion !== st.version) {
    $("hint-box").hidden = true;
    hintVersion = null;
  }
  // Only the offers this game can carry out (the server asks the core: a game may draw only
  // by its own command, have no drawn result, or take no undo of a sealed turn).
  const allowed = new Set(st.offers_allowed || []);
  $("offer-draw").hidden = !allowed.has("draw");
  // nothing to take back before the first move
  $("offer-undo").hidden = !allowed.has("undo") || !(st.log || []).some((e) => e.seat !== null && e.seat !== undefined);
  if ($("choices").hidden === false && !movable()) clearChoices();
  if (!movable()) source = null;
  decorate();
  legalList();
  offers();
  chatPanel(st);
  logView();
  markLast();
  endPanel();
  outcomeTop();
  announce();
  // For tests and assistive tools: which state this page has drawn.
  document.body.dataset.version = String(st.version);
  document.body.dataset.myTurn = st.my_turn ? "1" : "0";
  document.body.dataset.over = st.over ? "1" : "0";
  document.body.dataset.mySeat = st.seat === null || st.seat === undefined ? "" : String(st.seat);
  seatHome(st);
}

/**
 * What a renderer may use besides the view: the seat, the names, the state message, the game's
 * API with this seat's token (`api(method, "/path", body)` under /games/<id>), `refresh()`
 * after acting through it, `confirm(text)` for a notice that lasts until the next position,
 * `rejected(error, rule)` to show a refusal with its ruling, and `notice(text, kind)`.
 */
function pageContext(st) {
  return {
    seat: st.seat,
    names: st.names,
    state: st,
    notice,
    api: (method, path, body) => call(method, `/games/${encodeURIComponent(gameId)}${path}`, body, token),
    refresh,
    confirm: (text) => {
      okVersion = state ? state.version : null;
      notice(text, "ok");
    },
    rejected: (e, rule) => showRejection({ rule: (e && e.rule) || rule || null, message: e && e.message }),
  };
}

// ---- start ---------------------------------------------------------------------------------
async function main() {
  wireBoard();
  // Boards may be drawn differently at phone width: redraw when the width class changes.
  if (window.matchMedia) window.matchMedia("(max-width: 600px)").addEventListener("change", () => { if (state) show(state); });
  $("command").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("command-input");
    const text = input.value;
    input.value = "";
    play(text);
  });
  $("offer-draw").addEventListener("click", () => act({ type: "offer", kind: "draw" }, `/games/${encodeURIComponent(gameId)}/offers`, { kind: "draw" }));
  $("offer-undo").addEventListener("click", () => act({ type: "offer", kind: "undo" }, `/games/${encodeURIComponent(gameId)}/offers`, { kind: "undo" }));
  $("chat-form").addEventListener("submit", sendChat);
  wireModerator();
  $("contact-form").addEventListener("submit", saveContact);
  $("hint").addEventListener("click", askHint);
  $("resign").addEventListener("click", () => {
    $("resign-confirm").hidden = false;
    $("resign-yes").focus();
  });
  $("resign-no").addEventListener("click", () => { $("resign-confirm").hidden = true; });
  $("resign-yes").addEventListener("click", () => {
    $("resign-confirm").hidden = true;
    act({ type: "resign" }, `/games/${encodeURIComponent(gameId)}/resign`, {});
  });

  takeCarriedSeat();
  account = await currentAccount();
  if (account && token) {
    // A seat this browser held as a guest and the account now holds (moved at sign-in): the
    // cookie plays it from here on. A seat the account does not hold keeps its token.
    try {
      const mine = await call("GET", `/games/${encodeURIComponent(gameId)}`);
      if (mine.seat !== null && mine.seat !== undefined) {
        forgetToken(gameId);
        token = null;
      }
    } catch (e) {
      // not found or refused: the token decides below
    }
  }
  const params = new URLSearchParams(location.search);
  const invite = params.get("invite");
  if (invite) await claimInvite(invite);
  try {
    await refresh();
  } catch (e) {
    if (e instanceof ApiError && e.code === "unauthorized" && token) {
      forgetToken(gameId);
      token = null;
      notice("This browser's seat token is no longer valid; you are watching as a spectator.", "info");
      await refresh();
    } else {
      notice(`Could not load the game: ${e.message}`);
      return;
    }
  }
  socket = new GameSocket(gameId, token, {
    status: (s) => { $("conn").textContent = s === "live" ? "● live" : `○ ${s}…`; $("conn").className = `conn ${s}`; },
    state: (m) => show(m),
    update: (m) => {
      // An update carries what changed of this seat's state (the board, whose turn, the
      // legal actions...), not what the page has already (the game, the names, the log): it
      // is merged into the state drawn, its own entry added to the log.
      if (!state) {
        socket.send({ type: "state" });
        return;
      }
      const entry = { version: m.version, seat: m.seat, events: m.events || [] };
      const log = (state.log || []).filter((e) => e.version < m.version).concat([entry]).slice(-100);
      show(Object.assign({}, state, m.state, { log }));
    },
    chat: (m) => { if (chatAdd(m)) chatView(); },
    seatTaken: (m) => news(`${m.name || "Someone"} took seat ${m.seat + 1}${m.how === "lobby" ? " from the lobby" : " with an invite"}.`),
    ack: () => { $("sending").hidden = true; },
    reject: (m) => { $("sending").hidden = true; showRejection(m); },
    error: (m) => notice(`${m.message || m.code}`),
  });
  socket.version = state ? state.version : null;
  socket.connect();
  setInterval(pollPresence, PRESENCE_EVERY_MS);
}

main();
