// FieldShift: the ten sectors as a strip with their terrain, operators as chips, both players'
// blocks. Drawn only from the view envelope (`view.board` is the game's board; FieldShift has
// no hidden information). Which elements a legal command involves comes with the legal list
// (the engine's `action_targets`): the `data-key`s drawn here are `sector:<0-9>`,
// `op:<+|-><0-9>` and `fac:<player>:<0-2>`.
import { s, svgRoot, SIDE_FILL, SIDE_TEXT } from "/static/svg.js";
import { el, sideName, SIDE_GLYPH } from "/static/app.js";

const TERRAIN_FILL = { Ruins: "#b9b2a6", Grass: "#b7dba0", Plain: "#f1e7c6", Mount: "#a99680" };
const TERRAIN_NOTE = {
  Ruins: "Ruins: -1 damage taken, -2 range in and out",
  Grass: "Grass: -1 range in",
  Plain: "Plain",
  Mount: "Mountain: +1 damage dealt and taken",
};
const FACILITIES = ["Artillery", "Medbay", "Command center"];
const SIGN = ["+", "−"];

function opLabel(op) {
  return `${SIGN[op.player]}${op.number}`;
}

function opWords(op, names) {
  const parts = [`${op.id} ${op.class} of ${sideName(names, op.player)}`, `vitality ${op.vitality}/5`];
  if (op.status === "bleeding") parts.push(`bleeding out, ${op.bleed} turns left`);
  if (op.watching) parts.push("on overwatch");
  if (op.skill) parts.push("skill armed" + (op.skill > 1 ? ` (${op.skill})` : ""));
  if (op.status === "reserve") parts.push("in reserve");
  if (op.status === "dead") parts.push("dead");
  return parts.join(", ");
}

/** One operator chip at (x, y) (top-left), 44 x 50. */
function chip(op, x, y, names, selected) {
  const side = op.player;
  const g = s("g", { class: `chip side-${side}`, "data-key": `op:${op.id}`, title: opWords(op, names) });
  const cx = x + 22;
  const cy = y + 20;
  if (op.id === selected) {
    g.append(s("rect", { x: x - 3, y: y - 3, width: 50, height: 56, rx: 8, fill: "none", stroke: "#111", "stroke-width": 2.5, "stroke-dasharray": "5 3" }));
  }
  const dim = op.status === "bleeding" ? 0.55 : 1;
  if (side === 0) g.append(s("circle", { class: "hit", cx, cy, r: 19, fill: SIDE_FILL[0], stroke: "#111", "stroke-width": 1.5, opacity: dim }));
  else g.append(s("rect", { class: "hit", x: cx - 18, y: cy - 18, width: 36, height: 36, rx: 4, fill: SIDE_FILL[1], stroke: "#111", "stroke-width": 1.5, opacity: dim }));
  g.append(s("text", { x: cx, y: cy + 3, "text-anchor": "middle", "font-size": 16, "font-weight": 700, fill: SIDE_TEXT[side], text: opLabel(op) }));
  g.append(s("text", { x: cx, y: cy + 13, "text-anchor": "middle", "font-size": 7, fill: SIDE_TEXT[side], text: op.class.slice(0, 4).toUpperCase() }));
  // vitality: five pips under the chip
  for (let i = 0; i < 5; i++) {
    g.append(s("rect", { x: x + 3 + i * 8, y: y + 42, width: 6, height: 6, fill: i < op.vitality ? "#222" : "#fff", stroke: "#222", "stroke-width": 0.8 }));
  }
  if (op.status === "bleeding") {
    g.append(s("rect", { x: x + 24, y: y - 4, width: 24, height: 15, rx: 3, fill: "#b00020" }));
    g.append(s("text", { x: x + 36, y: y + 7, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#fff", text: `X${op.bleed}` }));
  }
  if (op.watching) {
    g.append(s("circle", { cx: x + 2, cy: y + 2, r: 8, fill: "#fff", stroke: "#111" }));
    g.append(s("text", { x: x + 2, y: y + 6, "text-anchor": "middle", "font-size": 11, "font-weight": 700, text: "W" }));
  }
  if (op.skill) {
    g.append(s("circle", { cx: x + 42, cy: y + 36, r: 7, fill: "#ffe14d", stroke: "#111" }));
    g.append(s("text", { x: x + 42, y: y + 40, "text-anchor": "middle", "font-size": 10, "font-weight": 700, text: "S" }));
  }
  return g;
}

function terrainIcon(t, x, y) {
  if (t === "Mount") return s("path", { d: `M${x} ${y} l12 -14 l12 14 M${x + 20} ${y} l10 -11 l10 11`, stroke: "#5b4a38", fill: "none", "stroke-width": 1.5 });
  if (t === "Grass") return s("path", { d: `M${x + 2} ${y} l3 -8 l3 8 M${x + 12} ${y} l3 -8 l3 8`, stroke: "#3d7a22", fill: "none", "stroke-width": 1.5 });
  if (t === "Ruins") return s("path", { d: `M${x} ${y} v-10 h6 v4 h6 v-8 h6 v14`, stroke: "#555", fill: "none", "stroke-width": 1.5 });
  return null;
}

function sectorGroup(i, t, names, x, y, w, h) {
  const g = s("g", { class: "sector", "data-key": `sector:${i}` });
  g.append(s("title", { text: `Sector ${i}, ${TERRAIN_NOTE[t] || t}${i === 0 ? ", base of " + sideName(names, 0) : ""}${i === 9 ? ", base of " + sideName(names, 1) : ""}` }));
  g.append(s("rect", { class: "sector-bg hit", x: x + 1, y: y + 1, width: w - 2, height: h - 2, fill: TERRAIN_FILL[t] || "#eee", stroke: "#555", "stroke-width": 1 }));
  return g;
}

/** Wide screens: the ten sectors side by side, 0 (base +) on the left. */
function renderStrip(board, names, byId, selected, terrain) {
  const most = Math.max(2, ...board.sectors.map((ids) => ids.length));
  const rows = Math.max(3, Math.ceil(most / 2));
  const W = 100;
  const top = 44;
  const H = top + rows * 58 + 22; // room under the chips for the terrain mark and base label
  const svg = svgRoot(1000, H, "FieldShift board: ten sectors");
  board.sectors.forEach((ids, i) => {
    const t = terrain[i];
    const g = sectorGroup(i, t, names, i * W, 0, W, H);
    g.append(terrainIcon(t, i * W + 8, H - 8) || "");
    g.append(s("text", { x: i * W + W / 2, y: 18, "text-anchor": "middle", "font-size": 16, "font-weight": 700, text: String(i) }));
    g.append(s("text", { x: i * W + W / 2, y: 36, "text-anchor": "middle", "font-size": 12, text: t }));
    if (i === 0 || i === 9) {
      g.append(s("text", { x: i * W + W - 6, y: H - 8, "text-anchor": "end", "font-size": 10, fill: "#222", text: `base ${SIGN[i === 0 ? 0 : 1]}` }));
    }
    svg.append(g);
    ids.forEach((id, k) => {
      const op = byId[id];
      if (op) svg.append(chip(op, i * W + 5 + (k % 2) * 48, top + 6 + Math.floor(k / 2) * 58, names, selected));
    });
  });
  return svg;
}

/** Phone screens: the sectors as rows, 0 at the top, so chips stay readable at 360 px. */
function renderColumn(board, names, byId, selected, terrain) {
  const per = 5;
  const heights = board.sectors.map((ids) => Math.max(1, Math.ceil(ids.length / per)) * 60 + 4);
  const H = heights.reduce((a, b) => a + b, 0);
  const svg = svgRoot(340, H, "FieldShift board: ten sectors");
  let y = 0;
  board.sectors.forEach((ids, i) => {
    const t = terrain[i];
    const h = heights[i];
    const g = sectorGroup(i, t, names, 0, y, 340, h);
    g.append(s("text", { x: 8, y: y + 24, "font-size": 20, "font-weight": 700, text: String(i) }));
    g.append(s("text", { x: 8, y: y + 42, "font-size": 12, text: t }));
    if (i === 0 || i === 9) g.append(s("text", { x: 8, y: y + 56, "font-size": 10, text: `base ${SIGN[i === 0 ? 0 : 1]}` }));
    // beside the sector number, clear of the chips (a fifth chip's vitality squares sit where
    // a bottom-right icon would)
    g.append(terrainIcon(t, 24, y + 30) || "");
    svg.append(g);
    ids.forEach((id, k) => {
      const op = byId[id];
      if (op) svg.append(chip(op, 70 + (k % per) * 52, y + 8 + Math.floor(k / per) * 60, names, selected));
    });
    y += h;
  });
  return svg;
}

function render(view, ctx) {
  const names = ctx.names || [];
  const board = view.board;
  const byId = Object.fromEntries(board.operators.map((o) => [o.id, o]));
  const turn = board.players[board.turn_player];
  const selected = turn ? turn.selected : null;
  const narrow = typeof window !== "undefined" && window.matchMedia && window.matchMedia("(max-width: 600px)").matches;
  return (narrow ? renderColumn : renderStrip)(board, names, byId, selected, board.terrain);
}

function playerBlock(view, p, names) {
  const board = view.board;
  const pl = board.players[p];
  const ops = board.operators.filter((o) => o.player === p);
  const reserve = ops.filter((o) => o.status === "reserve");
  const dead = ops.filter((o) => o.status === "dead");
  const facs = FACILITIES.map((name, f) =>
    el("li", { "data-key": `fac:${p}:${f}`, class: "fac" }, `${name}: `, el("b", {}, String(pl.facilities[f])), " crate" + (pl.facilities[f] === 1 ? "" : "s")));
  const marks = [];
  if (pl.artillery_ready) marks.push(el("li", {}, "Artillery ready: 9s shells sector s"));
  if (pl.under_cyberwarfare) marks.push(el("li", {}, "Under cyberwarfare (no SKL, SPT or deploying)"));
  return el("section", { class: `player-block side-${p}`, "aria-label": `${sideName(names, p)}'s block` },
    el("h3", {}, el("span", { class: `side side-${p}` }, `${SIGN_WORD[p]} ${SIDE_GLYPH[p]} ${sideName(names, p)}`), toMoveTag(view, p)),
    el("ul", { class: "facts" },
      el("li", {}, "Supply crates: ", el("b", {}, String(pl.crates))),
      ...facs,
      el("li", {}, `Skill cooldown ${pl.skill_cooldown}, support cooldown ${pl.support_cooldown}`),
      pl.selected ? el("li", {}, "Selected: ", el("b", {}, pl.selected)) : "",
      ...marks),
    el("div", { class: "reserve" }, el("span", { class: "label" }, "Reserve: "),
      reserve.length ? reserve.map((o) => el("span", { class: `op-chip side-${p}`, "data-key": `op:${o.id}`, title: opWords(o, names) }, `${o.id} ${o.class}`)) : "none"),
    dead.length ? el("div", { class: "fallen" }, el("span", { class: "label" }, "Fallen: "), dead.map((o) => `${o.id} ${o.class}`).join(", ")) : "");
}
const SIGN_WORD = ["+", "−"];

/** " to move" for the player whose turn it is; " to answer" for one who must answer a request
 * first (the envelope's `to_move` is who decides now, the board's `turn_player` whose turn). */
function toMoveTag(view, p) {
  if (view.result) return "";
  if (view.board.pending && view.to_move.includes(p)) return el("span", { class: "to-move-tag" }, " to answer");
  return view.board.turn_player === p ? el("span", { class: "to-move-tag" }, " to move") : "";
}

function panel(view, ctx) {
  const names = ctx.names || [];
  const board = view.board;
  // The turn number is in the server's status line (the game's own count); not repeated here.
  const info = [`Ruleset ${board.ruleset.toUpperCase()}`, `violations: ${board.violations === "dispute" ? "carried out, may be disputed" : "refused"} (FS-19)`];
  const out = el("div", { class: "fs-panel" }, el("p", { class: "game-facts" }, info.join(" · ")),
    el("p", { class: "hint" }, "Chips: ● circle = + side, ■ square = − side; the five squares are vitality; X n = bleeding out, n turns left; W = on overwatch; S = skill armed; dashed frame = the selected operator."));
  if (board.pending) {
    const who = sideName(names, board.pending.requester);
    out.append(el("p", { class: "pending" }, `Pending request from ${who}: ${board.pending.kind}` + (board.pending.ruleset ? ` (to ${board.pending.ruleset.toUpperCase()})` : "") + " — answer with Confirm (01) or Deny (00)."));
  }
  for (const d of board.disputable || []) {
    out.append(el("p", { class: "pending" }, `${sideName(names, d.player)} may dispute: ${d.reasons.join("; ")} (06)`));
  }
  out.append(el("div", { class: "blocks" }, playerBlock(view, 0, names), playerBlock(view, 1, names)));
  return out;
}

// An operator as the log names it ("+0", "-3") becomes "Ann's Blade +0": its owner and class
// from the view, so the log never shows a bare "+0/-0". Crate counts ("(+1 crate)") stay.
const OP_IN_LINE = /(^|[\s(])([+\-−])(\d)(?![\d.]| crate)/g;
function eventText(line, view, ctx) {
  const ops = (view && view.board && view.board.operators) || [];
  const byId = Object.fromEntries(ops.map((o) => [o.id, o]));
  return line.replace(OP_IN_LINE, (all, pre, sign, n) => {
    const op = byId[`${sign === "−" ? "-" : sign}${n}`];
    if (!op) return all;
    return `${pre}${sideName(ctx.names || [], op.player)}'s ${op.class} ${opLabel(op)}`;
  });
}

export default { render, panel, eventText, commandHint: "Type a command: two digits under LSTD (24 = move to sector 4), three under STDEX (325 = operator 2 hits 5); 01 confirm, 00 deny, 08 draw, 09 concede." };
