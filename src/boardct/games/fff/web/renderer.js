// Force Field Factions: the 8x8 board, pyramids by size seen from above with their facing
// (apex toward the facing; upright: apex in the middle), force fields as coloured rings with
// their letter, out-of-phase pieces translucent. Drawn only from the view envelope
// (`view.board`). Each square is `sq:<a-h><1-8>`: a turn's targets (from the engine, with the
// legal list) name the selected piece's square.
import { s, svgRoot, SIDE_FILL, SIDE_TEXT } from "/static/svg.js";
import { el, sideName } from "/static/app.js";

const FILES = "abcdefgh";
const COLOUR = { r: "#d62728", g: "#2ca02c", b: "#1f5fd6", y: "#f2d200", p: "#8e44ad", o: "#ff7f0e", c: "#bfe9f2" };
const COLOUR_NAME = { r: "red", g: "green", b: "blue", y: "yellow", p: "purple", o: "orange", c: "clear" };
const DIRS = { N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1], U: [0, 0] };
const SIDE_WORD = ["Black", "White"];
const Q = 70;
const M = 22;

function pieceWords(p, names) {
  const f = p.fields.map((c) => COLOUR_NAME[c] || c);
  return `${p.square}: ${sideName(names, p.owner)}'s ${p.size}-pip pyramid facing ${p.facing === "U" ? "upright" : p.facing}` +
    (f.length ? `, fields ${f.join(", ")}` : "") + (p.out_of_phase ? ", out of phase" : "");
}

function pyramid(p, x, y, names) {
  const g = s("g", { class: `piece side-${p.owner}`, opacity: p.out_of_phase ? 0.4 : 1 });
  const half = 9 + p.size * 6;
  const cx = x + Q / 2;
  const cy = y + Q / 2;
  p.fields.forEach((c, k) => {
    g.append(s("circle", { cx, cy, r: half + 5 + k * 5, fill: "none", stroke: COLOUR[c] || "#999", "stroke-width": 4 }));
  });
  const [dx, dy] = DIRS[p.facing] || [0, 0];
  const ax = cx + dx * half * 0.75;
  const ay = cy + dy * half * 0.75;
  const corners = [[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half], [cx - half, cy + half]];
  const dash = p.owner === 1 ? "4 2" : null;
  g.append(s("polygon", { points: corners.map((c) => c.join(",")).join(" "), fill: SIDE_FILL[p.owner], stroke: "#111", "stroke-width": 2, "stroke-dasharray": dash }));
  for (const [qx, qy] of corners) g.append(s("line", { x1: qx, y1: qy, x2: ax, y2: ay, stroke: SIDE_TEXT[p.owner] === "#ffffff" ? "#cfe3f3" : "#5a3d00", "stroke-width": 1.5 }));
  g.append(s("circle", { cx: ax, cy: ay, r: 3.5, fill: SIDE_TEXT[p.owner], stroke: "#111" }));
  g.append(s("text", { x: x + 4, y: y + Q - 5, "font-size": 12, "font-weight": 700, fill: "#111", text: `${p.owner === 0 ? "B" : "W"}${p.size}` }));
  if (p.fields.length) g.append(s("text", { x: x + Q - 4, y: y + 13, "text-anchor": "end", "font-size": 11, "font-weight": 700, fill: "#111", text: p.fields.join("") }));
  if (p.out_of_phase) g.append(s("text", { x: x + Q - 4, y: y + Q - 5, "text-anchor": "end", "font-size": 13, "font-weight": 700, text: "~" }));
  return g;
}

function render(view, ctx) {
  const names = ctx.names || [];
  const size = Q * 8 + 2 * M;
  const svg = svgRoot(size, size, "Force Field Factions board, 8 by 8");
  const bySq = {};
  for (const p of view.board.pieces) (bySq[p.square] = bySq[p.square] || []).push(p);
  for (let r = 8; r >= 1; r--) {
    for (let f = 0; f < 8; f++) {
      const sq = `${FILES[f]}${r}`;
      const x = M + f * Q;
      const y = M + (8 - r) * Q;
      const here = bySq[sq] || [];
      const g = s("g", { class: "square", "data-key": `sq:${sq}` });
      g.append(s("rect", { class: "hit", x, y, width: Q, height: Q, fill: (f + r) % 2 ? "#efe6d2" : "#c9b79a", stroke: "#8a7a60", "stroke-width": 0.5 }));
      g.append(s("title", { text: here.length ? here.map((p) => pieceWords(p, names)).join("; ") : `${sq}: empty` }));
      for (const p of here) g.append(pyramid(p, x, y, names));
      svg.append(g);
    }
  }
  for (let f = 0; f < 8; f++) {
    svg.append(s("text", { x: M + f * Q + Q / 2, y: size - 5, "text-anchor": "middle", "font-size": 14, text: FILES[f] }));
    svg.append(s("text", { x: M + f * Q + Q / 2, y: 16, "text-anchor": "middle", "font-size": 14, text: FILES[f] }));
  }
  for (let r = 1; r <= 8; r++) {
    svg.append(s("text", { x: 7, y: M + (8 - r) * Q + Q / 2 + 5, "text-anchor": "middle", "font-size": 14, text: String(r) }));
    svg.append(s("text", { x: size - 8, y: M + (8 - r) * Q + Q / 2 + 5, "text-anchor": "middle", "font-size": 14, text: String(r) }));
  }
  return svg;
}

function panel(view, ctx) {
  const names = ctx.names || [];
  const board = view.board;
  const pool = Object.entries(board.pool || {}).map(([c, n]) => `${COLOUR_NAME[c] || c} (${c}) ${n[0]}/${n[1]}`);
  return el("div", { class: "fff-panel" },
    el("p", { class: "game-facts" }, `${SIDE_WORD[0]} (●B, solid edge) ${sideName(names, 0)} · ${SIDE_WORD[1]} (■W, dashed edge) ${sideName(names, 1)} · turns without a capture: ${board.no_capture_turns} · turn limit ${board.turn_limit}`),
    el("p", {}, el("span", { class: "label" }, "Fields left per side (Black/White): "), pool.join(", ")),
    el("p", {}, el("span", { class: "label" }, "Pieces lost by size 1/2/3: "),
      `${sideName(names, 0)} ${board.lost[0].join("/")}, ${sideName(names, 1)} ${board.lost[1].join("/")}`),
    el("p", { class: "hint" }, "Pyramids seen from above: the dot is the apex, toward the facing (centre: upright). Rings are force fields; translucent pieces are out of phase."));
}

export default { render, panel, commandHint: "Type a turn: a square then tokens, e.g. `d2 m N`, `c1 +r`, or `pass` (FFF-30)." };
