// Shift, the single-card duel: both cards with their gear ring (current gear on top; its two
// neighbours, the gears a shift may reach (SH-16), left and right), power, guard and this round's
// mods, spirit tokens lit or burnt, and the coin flips as they happen. Drawn only from view(seat).
import { s, svgRoot, sideShape, SIDE_FILL } from "../svg.js";
import { el, sideName } from "../app.js";

const RING = ["1", "2L", "3", "2R"];

function card(view, p, x, names, me) {
  const pl = view.players[p];
  const g = s("g", { class: `shift-card side-${p}` });
  const active = view.to_move && view.to_move.includes(p) && !view.result;
  g.append(s("rect", { x, y: 10, width: 380, height: 300, rx: 14, fill: "#fffdf6", stroke: SIDE_FILL[p], "stroke-width": active ? 6 : 3, "stroke-dasharray": p === 1 ? "10 4" : null }));
  g.append(sideShape(p, x + 24, 36, 11));
  g.append(s("text", { x: x + 44, y: 42, "font-size": 18, "font-weight": 700, text: `${pl.card}` }));
  g.append(s("text", { x: x + 44, y: 62, "font-size": 13, fill: "#444", text: `${sideName(names, p)}${p === me ? " (you)" : ""}${active ? " — to play" : ""}` }));
  // the gear ring, rotated so the current gear is on top
  const cx = x + 110;
  const cy = 175;
  const cur = RING.indexOf(pl.gear);
  const pos = [[0, -62], [62, 0], [0, 62], [-62, 0]];
  g.append(s("circle", { cx, cy, r: 62, fill: "none", stroke: "#bbb", "stroke-width": 2 }));
  RING.forEach((gear, i) => {
    const k = (i - cur + 4) % 4;
    const [dx, dy] = pos[k];
    const on = k === 0;
    const gg = s("g", { class: "gear", "data-key": `gear:${p}:${gear}` });
    gg.append(s("circle", { class: "hit", cx: cx + dx, cy: cy + dy, r: on ? 27 : 21, fill: on ? SIDE_FILL[p] : "#fff", stroke: "#222", "stroke-width": 2 }));
    gg.append(s("text", { x: cx + dx, y: cy + dy + 6, "text-anchor": "middle", "font-size": on ? 20 : 16, "font-weight": 700, fill: on && p === 0 ? "#fff" : "#111", text: gear }));
    gg.append(s("title", { text: `${pl.card}: gear ${gear}${on ? " (current)" : ""}` }));
    g.append(gg);
  });
  g.append(s("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 11, fill: "#666", text: "gears" }));
  // stats
  const sx = x + 210;
  const mod = (n) => (n ? ` (${n > 0 ? "+" : ""}${n} this round)` : "");
  g.append(s("text", { x: sx, y: 110, "font-size": 16, text: `Level ${pl.level}` }));
  g.append(s("text", { x: sx, y: 138, "font-size": 16, "font-weight": 700, text: `Power ${pl.power}` }));
  g.append(s("text", { x: sx, y: 156, "font-size": 11, fill: "#555", text: mod(pl.temp_power) }));
  g.append(s("text", { x: sx, y: 182, "font-size": 16, "font-weight": 700, text: `Guard ${pl.guard}` }));
  g.append(s("text", { x: sx, y: 200, "font-size": 11, fill: "#555", text: mod(pl.temp_guard) }));
  // spirit tokens: stack (unused), lit, burnt
  g.append(s("text", { x: sx, y: 232, "font-size": 12, fill: "#444", text: "Spirit tokens" }));
  const tokens = [];
  for (let i = 0; i < pl.stack; i++) tokens.push("stack");
  for (let i = 0; i < pl.lit; i++) tokens.push("lit");
  for (let i = 0; i < pl.burnt; i++) tokens.push("burnt");
  tokens.forEach((t, i) => {
    const tx = sx + 10 + i * 28;
    const tg = s("g", {});
    tg.append(s("circle", { cx: tx, cy: 252, r: 11, fill: t === "lit" ? "#ffd400" : t === "burnt" ? "#333" : "#fff", stroke: "#222", "stroke-width": 1.5 }));
    if (t === "burnt") tg.append(s("path", { d: `M${tx - 6} 246 l12 12 M${tx + 6} 246 l-12 12`, stroke: "#fff", "stroke-width": 2 }));
    if (t === "lit") tg.append(s("text", { x: tx, y: 256, "text-anchor": "middle", "font-size": 11, "font-weight": 700, text: "L" }));
    tg.append(s("title", { text: `spirit token: ${t === "stack" ? "unused" : t}` }));
    g.append(tg);
  });
  g.append(s("text", { x: sx, y: 284, "font-size": 11, fill: "#444", text: `${pl.stack} unused · ${pl.lit} lit · ${pl.burnt} burnt` }));
  const notes = [];
  if (pl.skip_shift_phase) notes.push("skips the shift phase");
  if (pl.skip_next_turn) notes.push("skips the next turn");
  if (notes.length) g.append(s("text", { x: x + 20, y: 300, "font-size": 12, fill: "#b00020", "font-weight": 700, text: notes.join(", ") }));
  return g;
}

function render(view, ctx) {
  const svg = svgRoot(800, 400, "Shift: the two cards");
  svg.append(card(view, 0, 10, ctx.names || [], ctx.seat));
  svg.append(card(view, 1, 410, ctx.names || [], ctx.seat));
  // the coin flips, newest last
  svg.append(s("text", { x: 12, y: 338, "font-size": 13, "font-weight": 700, text: "Coin flips (newest right):" }));
  (view.flips || []).forEach((f, i) => {
    const [who, face, why] = f;
    const x = 30 + i * 64;
    const g = s("g", { class: "flip" });
    g.append(s("circle", { cx: x, cy: 365, r: 16, fill: face === "H" ? "#f2c94c" : "#c0c0c0", stroke: "#6b5200", "stroke-width": 2 }));
    g.append(s("text", { x, y: 371, "text-anchor": "middle", "font-size": 15, "font-weight": 700, text: face }));
    g.append(s("text", { x, y: 395, "text-anchor": "middle", "font-size": 9, fill: "#444", text: who < 0 ? "toss" : `P${who + 1}` }));
    g.append(s("title", { text: `${face === "H" ? "heads" : "tails"}: ${why}${who >= 0 ? " (" + sideName(ctx.names || [], who) + ")" : ""}` }));
    svg.append(g);
  });
  return svg;
}

function panel(view, ctx) {
  const names = ctx.names || [];
  const bits = [`Turn ${view.turn} of ${view.turn_limit}`, `phase: ${view.phase}`];
  if (view.toss_winner !== null && view.toss_winner !== undefined && view.toss_winner >= 0) bits.push(`toss won by ${sideName(names, view.toss_winner)}`);
  const out = el("div", { class: "shift-panel" }, el("p", { class: "game-facts" }, bits.join(" · ")));
  if (view.attack) out.append(el("p", { class: "pending" }, `Attack declared: ${view.attack.type}${view.attack.mod ? " — " + view.attack.mod : ""}`));
  const last = (view.flips || []).slice(-3).map(([who, face, why]) => `${face === "H" ? "heads" : "tails"} (${why}${who >= 0 ? ", " + sideName(names, who) : ""})`);
  if (last.length) out.append(el("p", { id: "last-flips" }, el("span", { class: "label" }, "Latest flips: "), last.join("; ")));
  return out;
}

/** `shift 2L` is a click on that gear of my card; attacks and the rest are in the list. */
function keys(action, view, seat) {
  const me = seat === null || seat === undefined ? view.mover : seat;
  const m = /^shift\s+(\S+)$/i.exec(action.text);
  return m ? [`gear:${me}:${m[1].toUpperCase()}`] : [];
}

export default { render, panel, keys, commandHint: "Type an action, e.g. `shift 2L`, `attack omega`, or pick one from the list." };
