// The replay page of a finished game: forward, back and jump through the frames the server
// gives after the end (GET /games/{id}/replay), hidden information revealed (every seat's view).
import { call, tokenFor, el, sideName, importRenderer } from "./app.js";
import { named } from "./events.js";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean);
const gameId = decodeURIComponent(parts[parts.length - 1] || "");
let frames = [];
let k = 0;
let renderer = null;
let names = [];

function draw() {
  const f = frames[k];
  $("jump").value = String(k);
  $("where").textContent = `move ${k} of ${frames.length - 1}`;
  $("move-line").textContent = k === 0 ? "Start of the game" : `Move ${f.ply}: ${sideName(names, f.seat)} played ${f.text}`;
  $("frame-events").replaceChildren(...(f.events || []).map((e) => el("li", {}, typeof e === "string" ? named(e, names) : JSON.stringify(e))));
  // Each view names its viewer; anything else that differs from the spectator's is hidden
  // information, and then each seat's own view is drawn.
  const plain = (view) => JSON.stringify(Object.assign({}, view, { viewer: null }));
  const spec = plain(f.spectator);
  const seats = Object.keys(f.views || {}).sort((a, b) => Number(a) - Number(b));
  const hidden = seats.some((s) => plain(f.views[s]) !== spec);
  const boards = [];
  const one = (view, seat, label) => {
    // the replay acts on nothing: the context's actions are inert
    const ctx = { seat, names, replay: true, state: null, notice: () => {}, api: async () => ({}),
      refresh: async () => {}, confirm: () => {}, rejected: () => {} };
    const box = el("section", { class: "board card", "data-seat": seat === null ? "all" : String(seat) }, el("h2", {}, label));
    if (renderer && renderer.render) box.append(renderer.render(view, ctx));
    else box.append(el("pre", { class: "raw-view" }, JSON.stringify(view, null, 1)));
    if (renderer && renderer.panel) box.append(renderer.panel(view, ctx));
    boards.push(box);
  };
  if (hidden) seats.forEach((s) => one(f.views[s], Number(s), `${sideName(names, Number(s))}'s view`));
  else one(f.spectator, null, "Board");
  $("boards").replaceChildren(...boards);
  // the move that led here, marked on every board as the game page marks the last move
  const keys = new Set(Array.isArray(f.targets) ? f.targets : []);
  for (const node of $("boards").querySelectorAll("[data-key]")) {
    node.classList.toggle("last-move", keys.has(node.getAttribute("data-key")));
  }
  $("boards").dataset.lastMove = [...keys].join(" ");
  $("back").disabled = k === 0;
  $("first").disabled = k === 0;
  $("forward").disabled = k === frames.length - 1;
  $("last").disabled = k === frames.length - 1;
}

function go(n) {
  k = Math.max(0, Math.min(frames.length - 1, n));
  draw();
}

async function main() {
  const token = tokenFor(gameId);
  let st;
  let rep;
  try {
    st = await call("GET", `/games/${encodeURIComponent(gameId)}`, undefined, token);
    rep = await call("GET", `/games/${encodeURIComponent(gameId)}/replay`, undefined, token);
  } catch (e) {
    $("notice").textContent = `No replay: ${e.message}`;
    $("notice").className = "notice error";
    $("notice").hidden = false;
    return;
  }
  names = st.names || [];
  document.title = `Replay: ${st.title} — boardct`;
  $("title").textContent = `Replay: ${st.title}${st.result && st.result.text ? " — " + named(st.result.text, names) : ""}`;
  renderer = await importRenderer(st.game);
  frames = rep.frames || [];
  if (!frames.length) return;
  $("jump").max = String(frames.length - 1);
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(k - 1);
  $("forward").onclick = () => go(k + 1);
  $("last").onclick = () => go(frames.length - 1);
  $("jump").oninput = () => go(Number($("jump").value));
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowRight") go(k + 1);
    else if (ev.key === "ArrowLeft") go(k - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(frames.length - 1);
  });
  go(0);
}

main();
