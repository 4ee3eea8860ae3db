// Shift, the single-card duel: both cards with their four gears on the ring (current gear on
// top; its two neighbours, the gears a shift may reach (SH-16), left and right), each gear drawn
// with its own printed numbers (level, power, guard and its alpha/beta/omega attacks: coin
// pattern and spirit cost; no text under 12 units, so a phone's card stays readable), the card's power, guard and this round's mods, spirit tokens lit or
// burnt, and the coin flips as they happen. Drawn only from the view envelope (`view.board`).
// Each gear is `gear:<player>:<1|2L|3|2R>`: the engine names the gear a shift goes to, the gear
// an attack is made with, and the gears a defence activates or spirit-guards.
import { s, svgRoot, sideShape, SIDE_FILL } from "/static/svg.js";
import { el, sideName } from "/static/app.js";

const RING = ["1", "2L", "3", "2R"];
const ATTACKS = [["α", "alpha"], ["β", "beta"], ["ω", "omega"]];
const CARD_H = 350;
const TILE_W = 112;
const TILE_H = 74;

/** "α HT", "β 1✦" (a spirit cost), "ω HHTW": the printed attacks of one gear. */
function attackBits(gear) {
  const out = [];
  (gear && gear.attacks ? gear.attacks : []).forEach((a, i) => {
    if (!a || !ATTACKS[i]) return;
    const pattern = a.pattern || "";
    const cost = a.cost ? `${a.cost}✦` : "";
    out.push({ short: `${ATTACKS[i][0]} ${[pattern, cost].filter(Boolean).join(" ") || "—"}`,
      long: `${ATTACKS[i][1]}${pattern ? " on " + pattern : ""}${a.cost ? ", costs " + a.cost + " spirit" : ""}` });
  });
  return out;
}

/** One gear as a tile of the ring: its name, level, power, guard and attacks. */
function gearTile(p, pl, gearName, i, cx, cy, on, card) {
  const gear = (pl.gears || [])[i];
  const g = s("g", { class: `gear${on ? " current" : ""}`, "data-key": `gear:${p}:${gearName}` });
  const x = cx - TILE_W / 2;
  const y = cy - TILE_H / 2;
  g.append(s("rect", { class: "hit", x, y, width: TILE_W, height: TILE_H, rx: 9, fill: on ? "#fff1b8" : "#fff", stroke: on ? SIDE_FILL[p] : "#777", "stroke-width": on ? 4 : 1.5 }));
  g.append(s("text", { x: x + 8, y: y + 19, "font-size": on ? 18 : 16, "font-weight": 700, fill: "#111", text: gearName }));
  const bits = attackBits(gear);
  if (gear) {
    g.append(s("text", { x: x + TILE_W - 8, y: y + 18, "text-anchor": "end", "font-size": 13, fill: "#444", text: `Lv ${gear.level}` }));
    g.append(s("text", { class: "gear-stats", x: x + 8, y: y + 37, "font-size": 13, "font-weight": 700, fill: "#111", text: `P ${gear.power} · G ${gear.guard}` }));
    const lines = bits.length > 2 ? [bits.slice(0, 2), bits.slice(2)] : [bits];
    lines.forEach((line, k) => {
      g.append(s("text", { class: "gear-attacks", x: x + 6, y: y + 54 + k * 15, "font-size": 13, fill: "#333", text: line.map((b) => b.short).join("  ") || (k === 0 ? "no attack" : "") }));
    });
  }
  const facts = gear ? `level ${gear.level}, power ${gear.power}, guard ${gear.guard}; ${bits.map((b) => b.long).join("; ") || "no attack"}` : "";
  g.append(s("title", { text: `${card}: gear ${gearName}${on ? " (current)" : ""}${facts ? " — " + facts : ""}` }));
  return g;
}

function card(view, p, x, names, me) {
  const pl = view.board.players[p];
  const g = s("g", { class: `shift-card side-${p}` });
  const active = view.to_move && view.to_move.includes(p) && !view.result;
  g.append(s("rect", { x, y: 10, width: 380, height: CARD_H, rx: 14, fill: "#fffdf6", stroke: SIDE_FILL[p], "stroke-width": active ? 6 : 3, "stroke-dasharray": p === 1 ? "10 4" : null }));
  g.append(sideShape(p, x + 24, 36, 11));
  g.append(s("text", { x: x + 44, y: 42, "font-size": 18, "font-weight": 700, text: `${pl.card}` }));
  g.append(s("text", { x: x + 44, y: 62, "font-size": 14, fill: "#444", text: `${sideName(names, p)}${p === me ? " (you)" : ""}${active ? " — to play" : ""}` }));
  // the gear ring, rotated so the current gear is on top, each gear with its printed numbers
  const cx = x + 130;
  const cy = 212;
  const cur = Math.max(0, RING.indexOf(pl.gear));
  const pos = [[0, -86], [62, 0], [0, 86], [-62, 0]];
  g.append(s("circle", { cx, cy, r: 74, fill: "none", stroke: "#ccc", "stroke-width": 2, "stroke-dasharray": "4 4" }));
  // the current gear last, so its tile is drawn over the ring's others
  const order = RING.map((gear, i) => [gear, i, (i - cur + 4) % 4]).sort((a, b) => (a[2] === 0) - (b[2] === 0));
  for (const [gear, i, k] of order) {
    const [dx, dy] = pos[k];
    g.append(gearTile(p, pl, gear, i, cx + dx, cy + dy, k === 0, pl.card));
  }
  // stats
  const sx = x + 262;
  const mod = (n) => (n ? `(${n > 0 ? "+" : ""}${n} this round)` : "");
  g.append(s("text", { x: sx, y: 100, "font-size": 15, text: `Level ${pl.level}` }));
  g.append(s("text", { x: sx, y: 128, "font-size": 16, "font-weight": 700, text: `Power ${pl.power}` }));
  g.append(s("text", { x: sx, y: 146, "font-size": 12, fill: "#555", text: mod(pl.temp_power) }));
  g.append(s("text", { x: sx, y: 170, "font-size": 16, "font-weight": 700, text: `Guard ${pl.guard}` }));
  g.append(s("text", { x: sx, y: 188, "font-size": 12, fill: "#555", text: mod(pl.temp_guard) }));
  // spirit tokens: stack (unused), lit, burnt
  g.append(s("text", { x: sx, y: 222, "font-size": 13, fill: "#444", text: "Spirit tokens" }));
  const tokens = [];
  for (let i = 0; i < pl.stack; i++) tokens.push("stack");
  for (let i = 0; i < pl.lit; i++) tokens.push("lit");
  for (let i = 0; i < pl.burnt; i++) tokens.push("burnt");
  tokens.forEach((t, i) => {
    const tx = sx + 10 + (i % 5) * 21;
    const ty = 242 + Math.floor(i / 5) * 22;
    const tg = s("g", {});
    tg.append(s("circle", { cx: tx, cy: ty, r: 9, fill: t === "lit" ? "#ffd400" : t === "burnt" ? "#333" : "#fff", stroke: "#222", "stroke-width": 1.5 }));
    if (t === "burnt") tg.append(s("path", { d: `M${tx - 5} ${ty - 5} l10 10 M${tx + 5} ${ty - 5} l-10 10`, stroke: "#fff", "stroke-width": 2 }));
    if (t === "lit") tg.append(s("text", { x: tx, y: ty + 4, "text-anchor": "middle", "font-size": 10, "font-weight": 700, text: "L" }));
    tg.append(s("title", { text: `spirit token: ${t === "stack" ? "unused" : t}` }));
    g.append(tg);
  });
  g.append(s("text", { x: sx, y: 300, "font-size": 12, fill: "#444", text: `${pl.stack} unused · ${pl.lit} lit` }));
  g.append(s("text", { x: sx, y: 316, "font-size": 12, fill: "#444", text: `${pl.burnt} burnt` }));
  const notes = [];
  if (pl.skip_shift_phase) notes.push("skips the shift phase");
  if (pl.skip_next_turn) notes.push("skips the next turn");
  if (notes.length) g.append(s("text", { x: x + 20, y: CARD_H + 2, "font-size": 12, fill: "#b00020", "font-weight": 700, text: notes.join(", ") }));
  return g;
}

/** A name cut to fit under a coin. */
const short = (name) => (name.length > 9 ? name.slice(0, 8) + "…" : name);

/** The coin flips, newest last, from `top`: `perRow` coins a row. */
function flips(svg, board, names, top, perRow) {
  svg.append(s("text", { x: 12, y: top, "font-size": 13, "font-weight": 700, text: "Coin flips (newest right):" }));
  (board.flips || []).forEach((f, i) => {
    const [who, face, why] = f;
    const x = 30 + (i % perRow) * 64;
    const y = top + 27 + Math.floor(i / perRow) * 62;
    const g = s("g", { class: "flip" });
    g.append(s("circle", { cx: x, cy: y, r: 16, fill: face === "H" ? "#f2c94c" : "#c0c0c0", stroke: "#6b5200", "stroke-width": 2 }));
    g.append(s("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 15, "font-weight": 700, text: face }));
    g.append(s("text", { x, y: y + 30, "text-anchor": "middle", "font-size": 9, fill: "#444", text: who < 0 ? "toss" : short(sideName(names, who)) }));
    g.append(s("title", { text: `${face === "H" ? "heads" : "tails"}: ${why}${who >= 0 ? " (" + sideName(names, who) + ")" : ""}` }));
    svg.append(g);
  });
}

function render(view, ctx) {
  const board = view.board;
  const names = ctx.names || [];
  const narrow = typeof window !== "undefined" && window.matchMedia && window.matchMedia("(max-width: 600px)").matches;
  if (!narrow) {
    const svg = svgRoot(800, 460, "Shift: the two cards");
    svg.append(card(view, 0, 10, names, ctx.seat));
    svg.append(card(view, 1, 410, names, ctx.seat));
    flips(svg, board, names, CARD_H + 42, 12);
    return svg;
  }
  // Phone screens: the cards one above the other, so each gear stays readable and tappable.
  const perRow = 6;
  const rows = Math.max(1, Math.ceil((board.flips || []).length / perRow));
  const top = 2 * (CARD_H + 10) + 32;
  const svg = svgRoot(400, top + rows * 62 + 10, "Shift: the two cards");
  svg.classList.add("tall"); // as tall as it needs: the page scrolls, the gears stay legible
  [0, 1].forEach((p) => {
    const g = card(view, p, 10, names, ctx.seat);
    g.setAttribute("transform", `translate(0, ${p * (CARD_H + 10)})`);
    svg.append(g);
  });
  flips(svg, board, names, top, perRow);
  return svg;
}

function panel(view, ctx) {
  const names = ctx.names || [];
  const board = view.board;
  const bits = [`Turn ${view.turn} of ${board.turn_limit}`, `phase: ${board.phase}`];
  if (board.toss_winner !== null && board.toss_winner !== undefined && board.toss_winner >= 0) bits.push(`toss won by ${sideName(names, board.toss_winner)}`);
  const out = el("div", { class: "shift-panel" }, el("p", { class: "game-facts" }, bits.join(" · ")));
  if (board.attack) out.append(el("p", { class: "pending" }, `Attack declared: ${board.attack.type}${board.attack.mod ? " — " + board.attack.mod : ""}`));
  const last = (board.flips || []).slice(-3).map(([who, face, why]) => `${face === "H" ? "heads" : "tails"} (${why}${who >= 0 ? ", " + sideName(names, who) : ""})`);
  if (last.length) out.append(el("p", { id: "last-flips" }, el("span", { class: "label" }, "Latest flips: "), last.join("; ")));
  return out;
}

export default { render, panel, commandHint: "Type an action, e.g. `shift 2L`, `attack omega`, or pick one from the list." };
