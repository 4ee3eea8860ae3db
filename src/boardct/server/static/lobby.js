// The lobby: create a game (options with their help texts, each seat a person or an agent),
// copy the invite links, list open public games and the games this browser holds a seat in.
import { call, rememberToken, allTokens, el, currentAccount, myGamesLine } from "./app.js";

const $ = (id) => document.getElementById(id);
let catalog = [];
let account = null; // the signed-in account, or null for a guest
const LAST_GAME = "boardct:lobby-game";

function remembered(key) {
  try {
    return localStorage.getItem(key);
  } catch (e) {
    return null;
  }
}

function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (e) {
    // storage refused (private mode): the lobby just does not remember
  }
}

function notice(text) {
  $("notice").textContent = text;
  $("notice").className = "notice error";
  $("notice").hidden = !text;
}

function optionField(opt) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.choices && opt.choices.length) {
    input = el("select", { id, name: opt.name }, opt.choices.map((c) => el("option", { value: String(c), selected: String(c) === String(opt.default) }, String(c))));
  } else if (opt.type === "bool") {
    input = el("input", { id, name: opt.name, type: "checkbox", checked: !!opt.default });
  } else if (opt.type === "int") {
    input = el("input", { id, name: opt.name, type: "number", value: opt.default, min: opt.minimum, max: opt.maximum, step: 1 });
  } else {
    input = el("input", { id, name: opt.name, value: opt.default === null ? "" : opt.default, maxlength: 200 });
  }
  input.dataset.type = opt.type;
  return el("div", { class: "field" }, el("label", { for: id }, opt.name), input, opt.help ? el("p", { class: "help" }, opt.help) : "");
}

// The strength ladder's levels as the lobby offers them (`level=N`, docs/agents.md). The words
// hold in every game: what each level plays differs by game (CTF 2187's level 1 mostly holds
// still, FieldShift's plays random moves), each about 100 Elo or more above the one below.
const STRENGTHS = [[1, "the weakest"], [2, "a beginner"], [3, "a casual player"], [4, "a good player"], [5, "the strongest (about a second a move)"]];
const DEFAULT_LEVEL = 5;

function seatRow(i, kind) {
  const kindSel = el("select", { id: `seat-${i}-kind`, "aria-label": `seat ${i + 1} plays as` },
    el("option", { value: "human", selected: kind === "human" }, "a person"),
    el("option", { value: "agent", selected: kind === "agent" }, "an agent"));
  const name = el("input", { id: `seat-${i}-name`, "aria-label": `seat ${i + 1} name`, placeholder: `Player ${i + 1}`, maxlength: 40 });
  const agent = el("input", { id: `seat-${i}-agent`, "aria-label": `seat ${i + 1} agent`, value: `level=${DEFAULT_LEVEL}`, maxlength: 100, list: "agent-specs" });
  // The computer's strength: the ladder's levels (agents/levels.py), which write the agent's
  // spec into the field beside it; a spec written there by hand is "other".
  const strength = el("select", { id: `seat-${i}-strength`, "aria-label": `seat ${i + 1} computer strength` },
    ...STRENGTHS.map(([n, words]) => el("option", { value: `level=${n}`, selected: n === DEFAULT_LEVEL }, `strength ${n}: ${words}`)),
    el("option", { value: "" }, "other (write an agent spec)"));
  strength.addEventListener("change", () => { if (strength.value) agent.value = strength.value; });
  agent.addEventListener("input", () => { strength.value = STRENGTHS.some(([n]) => agent.value.trim() === `level=${n}`) ? agent.value.trim() : ""; });
  // The creator's own seat (theirs at creation, never offered), and the seats the lobby may
  // offer to anyone.
  const mine = el("input", { type: "radio", name: "my-seat", id: `seat-${i}-mine`, value: String(i), checked: i === 0 });
  const open = el("input", { type: "checkbox", id: `seat-${i}-open`, class: "seat-open" });
  const mineLabel = el("label", { class: "seat-mine" }, mine, " my seat");
  const openLabel = el("label", { class: "seat-open-label" }, open, " open to the lobby");
  const sync = () => {
    const person = kindSel.value !== "agent";
    agent.hidden = person;
    strength.hidden = person;
    name.hidden = !person;
    mineLabel.hidden = !person;
    openLabel.hidden = !person || mine.checked;
    if (!person) mine.checked = false;
  };
  kindSel.addEventListener("change", sync);
  mine.addEventListener("change", () => document.querySelectorAll("#seat-rows .seat-row").forEach((r) => r.dispatchEvent(new Event("sync"))));
  const row = el("div", { class: "seat-row" }, el("span", {}, `Seat ${i + 1}:`), kindSel, name, strength, agent, mineLabel, openLabel);
  row.addEventListener("sync", sync);
  sync();
  return row;
}

function showGame() {
  const g = catalog.find((x) => x.id === $("game").value);
  if (!g) return;
  const facts = [`${g.min_players}${g.max_players !== g.min_players ? "–" + g.max_players : ""} players`,
    g.perfect_information ? "perfect information" : "hidden information",
    g.has_chance ? "chance" : "no chance", g.simultaneous ? "simultaneous turns" : "turn by turn"];
  $("game-facts").textContent = facts.join(" · ");
  $("clock-time-label").textContent = g.simultaneous ? "Turn deadline (every player's orders)" : "Time per move";
  $("options").replaceChildren(el("legend", {}, "Options"), ...(g.options || []).map(optionField));
  const count = el("input", { id: "seat-count", type: "number", min: g.min_players, max: g.max_players, value: g.min_players, "aria-label": "number of seats" });
  const rows = el("div", { id: "seat-rows" });
  const fill = () => {
    const n = Math.max(g.min_players, Math.min(g.max_players, Number(count.value) || g.min_players));
    rows.replaceChildren(...Array.from({ length: n }, (_, i) => seatRow(i, "human")));
  };
  count.addEventListener("change", fill);
  fill();
  $("seats").replaceChildren(el("legend", {}, "Seats"),
    g.max_players > g.min_players ? el("div", { class: "field" }, el("label", { for: "seat-count" }, "Seats"), count) : "",
    rows,
    el("datalist", { id: "agent-specs" }, ["level=1", "level=3", "level=5", "random", "greedy", "mcts:time=1", "mcts:time=0.2"].map((v) => el("option", { value: v }))));
}

/** The clock fields of a new game: the time per move (a simultaneous game's turn deadline) in
 * hours or days as seconds, what a timeout does, the reminder hours, the missed-deadline rule.
 * Bad input is the server's to refuse (its message is shown). */
function clockFields(g) {
  const out = {};
  const amount = $("clock-time").value.trim();
  if (amount !== "") {
    const seconds = Math.round(Number(amount) * Number($("clock-unit").value));
    out[g.simultaneous ? "turn_deadline" : "move_time"] = Number.isFinite(seconds) ? seconds : amount;
    out.on_timeout = $("clock-timeout").value;
  }
  const hours = $("clock-reminders").value.split(/[\s,;]+/).filter((h) => h !== "");
  out.reminders = hours.map((h) => (Number.isFinite(Number(h)) ? Number(h) : h));
  const misses = $("clock-misses").value.trim();
  if (misses !== "") {
    out.miss_limit = Number(misses);
    out.miss_action = $("clock-miss-action").value;
  }
  return out;
}

async function create(ev) {
  ev.preventDefault();
  notice("");
  const g = catalog.find((x) => x.id === $("game").value);
  const options = {};
  for (const opt of g.options || []) {
    const input = $(`opt-${opt.name}`);
    let v = input.type === "checkbox" ? input.checked : input.value;
    if (opt.type === "int") v = Number(v);
    if (String(v) !== String(opt.default)) options[opt.name] = v;
  }
  const seats = [];
  let creatorSeat = null;
  document.querySelectorAll("#seat-rows .seat-row").forEach((row, i) => {
    const kindSel = row.querySelector("select");
    const [name, agent] = row.querySelectorAll("input:not([type])");
    const mine = row.querySelector('input[name="my-seat"]').checked;
    if (kindSel.value === "agent") {
      seats.push({ kind: "agent", agent: agent.value.trim() });
      return;
    }
    if (mine) creatorSeat = i;
    seats.push({ kind: "human", name: name.value.trim() || null, open: !mine && row.querySelector(".seat-open").checked });
  });
  try {
    const res = await call("POST", "/games", { game: g.id, options, seats, public: $("public").checked, creator_seat: creatorSeat, ...($("rated").checked ? { rated: true } : {}), ...clockFields(g) });
    res.creatorSeat = creatorSeat;
    showCreated(res);
    loadMine();
    loadOpen();
  } catch (e) {
    notice(`Could not create the game: ${e.message}`);
  }
}

function copyButton(input) {
  return el("button", { type: "button", onclick: async () => {
    input.select();
    try { await navigator.clipboard.writeText(input.value); } catch (e) { document.execCommand && document.execCommand("copy"); }
  } }, "Copy");
}

function showCreated(res) {
  const box = $("created");
  const origin = location.origin;
  const items = [];
  for (const seat of res.seats) {
    if (seat.kind !== "human") {
      items.push(el("li", {}, `Seat ${seat.seat + 1}: agent ${seat.name || ""}`));
      continue;
    }
    const link = el("input", { readonly: true, value: `${origin}/play/${res.game_id}?invite=${seat.invite}`, "aria-label": `invite link for seat ${seat.seat + 1}`, class: "invite-link", "data-seat": seat.seat });
    const own = seat.seat === res.creatorSeat;
    const how = own ? " — your seat: its invite link opens it on another device, or " : ": send this invite link, or ";
    items.push(el("li", { class: "links" }, el("div", {}, `Seat ${seat.seat + 1}${seat.name ? " (" + seat.name + ")" : ""}${how}`,
      el("button", { type: "button", class: "play-here", "data-seat": seat.seat, onclick: () => {
        // signed in, my own seat is my account's: no token to keep in this browser
        if (!(account && seat.seat === res.creatorSeat)) rememberToken(res.game_id, seat.token);
        location.href = `/play/${res.game_id}`;
      } }, `play seat ${seat.seat + 1} here`)), link, copyButton(link)));
  }
  const spec = el("input", { readonly: true, value: origin + (res.spectate || `/play/${res.game_id}`), "aria-label": "spectator link", id: "spectate-link" });
  const mod = el("input", { readonly: true, value: res.moderator_token || "", "aria-label": "moderator key", id: "moderator-key" });
  box.replaceChildren(el("h3", {}, "Game created"), el("ul", { class: "game-list" }, items),
    el("div", { class: "links" }, "Spectators: ", spec, copyButton(spec)),
    res.moderator_token ? el("div", { class: "links" }, "Moderator key (keep it: it moderates the game through the API, shown only now): ", mod, copyButton(mod)) : "");
  box.hidden = false;
}

function summaryLine(g, extra) {
  const names = (g.names || []).join(" vs ") || (g.seats || []).map((s) => s.name || "?").join(" vs ");
  return el("li", {}, el("a", { href: `/play/${encodeURIComponent(g.game_id)}` }, `${g.title}: ${names}`), ` — ${g.status}${g.result_text ? ": " + g.result_text : ""}`, extra || "");
}

/** An open public game: a "Join" button per seat its creator opened, still free, takes it (no
 * invite needed). */
function openLine(g) {
  const free = (g.seats || []).filter((s) => s.kind === "human" && s.open && !s.claimed);
  const buttons = free.map((s) => el("button", { type: "button", class: "join-seat",
    "data-game": g.game_id, "data-seat": String(s.seat), onclick: () => takeSeat(g.game_id, s.seat),
    "aria-label": `Join as seat ${s.seat + 1}${s.name ? " (" + s.name + ")" : ""} of ${g.title}` },
  `Join as seat ${s.seat + 1}${s.name ? " (" + s.name + ")" : ""}`));
  return summaryLine(g, el("span", { class: "join-buttons" }, ` (${free.length} seat(s) free) `, ...buttons));
}

async function takeSeat(gameId, seat) {
  notice("");
  const name = $("join-name").value.trim() || localStorage.getItem("boardct:name") || (account && account.username) || "Guest";
  localStorage.setItem("boardct:name", name);
  try {
    const res = await call("POST", `/games/${encodeURIComponent(gameId)}/seats/${seat}/take`, { name });
    if (!account) rememberToken(res.game_id, res.token); // signed in: the seat is the account's
    location.href = `/play/${encodeURIComponent(res.game_id)}`;
  } catch (e) {
    notice(`Could not take the seat: ${e.message}`);
    loadOpen();
  }
}

async function loadOpen() {
  try {
    const res = await call("GET", "/lobby");
    const list = res.open || [];
    $("open").replaceChildren(...(list.length ? list.map(openLine) : [el("li", {}, "No open games.")]));
  } catch (e) {
    $("open").replaceChildren(el("li", {}, `Could not load: ${e.message}`));
  }
}

/** My games: the account's seats (signed in) and the seats this browser holds as a guest. */
async function loadMine() {
  const tokens = allTokens();
  try {
    const list = account ? (await call("GET", "/account/games")).games || [] : [];
    const seen = new Set(list.map((g) => `${g.game_id}:${g.seat}`));
    if (tokens.length) {
      for (const g of (await call("POST", "/mine", { tokens })).games || []) {
        if (!seen.has(`${g.game_id}:${g.seat}`)) list.push(g);
      }
    }
    const none = account ? "None yet: games you create or join appear here." : "None yet: games you create or join appear here. As a guest, a seat lives in this browser: sign in to play it from any device.";
    $("mine").replaceChildren(...(list.length ? list.map(myGamesLine) : [el("li", {}, none)]));
  } catch (e) {
    $("mine").replaceChildren(el("li", {}, `Could not load: ${e.message}`));
  }
}

/** Claim a seat from a pasted invite link (…/play/ID?invite=CODE) or a bare code. */
async function join(ev) {
  ev.preventDefault();
  notice("");
  const raw = $("join-invite").value.trim();
  let code = raw;
  try {
    const u = new URL(raw, location.origin);
    if (u.searchParams.get("invite")) code = u.searchParams.get("invite");
  } catch (e) {
    code = raw;
  }
  if (!/^[A-Za-z0-9_-]{4,200}$/.test(code)) {
    notice("That is not an invite link or code: paste the whole link you were sent.");
    return;
  }
  const name = $("join-name").value.trim() || (account && account.username) || "Guest";
  localStorage.setItem("boardct:name", name);
  try {
    const res = await call("POST", `/invites/${encodeURIComponent(code)}`, { name });
    if (!account) rememberToken(res.game_id, res.token); // signed in: the seat is the account's
    location.href = `/play/${encodeURIComponent(res.game_id)}`;
  } catch (e) {
    notice(`Could not take the seat: ${e.message}`);
  }
}

async function main() {
  account = await currentAccount();
  if (account) {
    $("account-link").textContent = `${account.username} · my account`;
    document.body.dataset.account = account.username;
  }
  $("join-name").value = localStorage.getItem("boardct:name") || "";
  $("join").addEventListener("submit", join);
  try {
    catalog = await call("GET", "/catalog");
  } catch (e) {
    notice(`Could not load the game list: ${e.message}`);
    return;
  }
  // Featured games first (each game says whether it is), then the rest in the server's order.
  catalog = [...catalog.filter((g) => g.featured), ...catalog.filter((g) => !g.featured)];
  $("game").replaceChildren(...catalog.map((g) => el("option", { value: g.id }, g.title)));
  // The game this browser chose last time, else the first listed.
  const last = remembered(LAST_GAME);
  if (last && catalog.some((g) => g.id === last)) $("game").value = last;
  $("game").addEventListener("change", () => {
    remember(LAST_GAME, $("game").value);
    showGame();
  });
  showGame();
  $("create").addEventListener("submit", create);
  $("refresh-open").addEventListener("click", loadOpen);
  loadOpen();
  loadMine();
}

main();
