// Battle for The Shifting Hills: the hex map (hidden tiles face down), squads with their counts
// and impeded state, star tiles, and my own hand only. Drawn only from the view envelope
// (`view.board`): an unrevealed tile arrives as `tile: null` and the other hand is never in the
// JSON, so it cannot be drawn. Keys: `hex:<q>,<r>` and `squad:<player><I|R|M>`, the elements the
// engine names for each legal action (a squad first, then the hex it moves or attacks into).
import { s, svgRoot, sideShape, SIDE_TEXT } from "/static/svg.js";
import { el, sideName } from "/static/app.js";

const R = 44;
const SQ3 = Math.sqrt(3);
const TILE = {
  P: { fill: "#e9e2b0", name: "plains" },
  M: { fill: "#a58f77", name: "mountain (+1 attack, +1 defence)" },
  F: { fill: "#7fb069", name: "forest (+1 defence)" },
  H: { fill: "#d9d9d9", name: "headquarters" },
};
const KIND = { I: "Infantry", R: "Rocketeer", M: "Mech" };

function centre(q, r) {
  return [R * SQ3 * (q + r / 2), R * 1.5 * r];
}

function hexPoints(cx, cy, rad) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(cx + rad * Math.cos(a)).toFixed(1)},${(cy + rad * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function star(cx, cy, rad, filled) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const rr = i % 2 ? rad * 0.45 : rad;
    pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
  }
  return s("polygon", { points: pts.join(" "), fill: filled ? "#ffd400" : "none", stroke: "#7a5c00", "stroke-width": 1.5 });
}

function render(view, ctx) {
  const names = ctx.names || [];
  const board = view.board;
  const W = R * SQ3 * 7 + 20;
  const H = R * 1.5 * 6 + 2 * R + 20;
  const svg = svgRoot(W, H, "Shifting Hills map");
  const root = s("g", { transform: `translate(${W / 2},${H / 2})` });
  svg.append(s("defs", {}, s("pattern", { id: "facedown", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    s("rect", { width: 8, height: 8, fill: "#6d7787" }), s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#8a94a6", "stroke-width": 3 }))));
  for (const h of board.hexes) {
    const [cx, cy] = centre(h.q, h.r);
    const g = s("g", { class: "hex", "data-key": `hex:${h.q},${h.r}` });
    let words;
    if (h.tile === null || h.tile === undefined) {
      g.append(s("polygon", { class: "hit", points: hexPoints(cx, cy, R - 1), fill: "url(#facedown)", stroke: "#333", "stroke-width": 1 }));
      g.append(s("text", { x: cx, y: cy - 16, "text-anchor": "middle", "font-size": 13, fill: "#fff", "font-weight": 700, text: "?" }));
      words = `hex (${h.q},${h.r}): face down`;
    } else {
      const letter = h.tile[0];
      const t = TILE[letter] || { fill: "#eee", name: h.tile };
      g.append(s("polygon", { class: "hit", points: hexPoints(cx, cy, R - 1), fill: t.fill, stroke: "#333", "stroke-width": 1 }));
      if (letter === "H") {
        const owner = Number(h.tile.slice(1) || 0);
        g.append(s("text", { class: "tile-name", x: cx, y: cy - 28, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#222", text: "HQ" }));
        g.append(sideShape(owner, cx - 20, cy + 27, 7, { opacity: 0.9 }));
        words = `hex (${h.q},${h.r}): ${sideName(names, owner)}'s headquarters`;
      } else {
        g.append(s("text", { class: "tile-name", x: cx, y: cy - 28, "text-anchor": "middle", "font-size": 10, fill: "#222", text: letter === "P" ? "plains" : letter === "M" ? "mount" : "forest" }));
        words = `hex (${h.q},${h.r}): ${t.name}`;
      }
      if (h.star) { g.append(star(cx - 26, cy + 2, 9, true)); words += ", star"; }
      if (h.star_used) { g.append(star(cx - 26, cy + 2, 9, false)); words += ", star used"; }
    }
    g.append(s("title", { text: words }));
    g.append(s("text", { x: cx, y: cy + R - 10, "text-anchor": "middle", "font-size": 8, fill: "#222", text: `${h.q},${h.r}` }));
    root.append(g);
  }
  // Squads sharing a hex stand side by side, so each one stays visible and clickable.
  const byHex = {};
  for (const sq of board.squads) {
    if (!sq.units || sq.q === undefined) continue;
    (byHex[`${sq.q},${sq.r}`] = byHex[`${sq.q},${sq.r}`] || []).push(sq);
  }
  for (const group of Object.values(byHex)) {
    const n = group.length;
    const rad = n > 1 ? 11 : 15;
    group.forEach((sq, i) => {
      const [cx, cy] = centre(sq.q, sq.r);
      const x = cx + (i - (n - 1) / 2) * 25;
      const y = cy + 6;
      const g = s("g", { class: `squad side-${sq.player}`, "data-key": `squad:${sq.player}${sq.kind}` });
      g.append(sideShape(sq.player, x, y, rad, { class: "hit" }));
      g.append(s("text", { x, y: y + (n > 1 ? 4 : 5), "text-anchor": "middle", "font-size": n > 1 ? 11 : 14, "font-weight": 700, fill: SIDE_TEXT[sq.player], text: sq.kind }));
      g.append(s("rect", { x: x - 8, y: y - rad - 15, width: 16, height: 13, rx: 3, fill: "#fff", stroke: "#111" }));
      g.append(s("text", { x, y: y - rad - 5, "text-anchor": "middle", "font-size": 10, "font-weight": 700, text: String(sq.units) }));
      if (sq.impeded) {
        g.append(s("rect", { x: x - 11, y: y + rad + 1, width: 22, height: 11, rx: 3, fill: "#b00020" }));
        g.append(s("text", { x, y: y + rad + 10, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: "#fff", text: "IMP" }));
      }
      g.append(s("title", { text: `${sideName(names, sq.player)}'s ${KIND[sq.kind] || sq.kind}: ${sq.units} units${sq.impeded ? ", impeded" : ""}${sq.status ? ", " + sq.status : ""}` }));
      root.append(g);
    });
  }
  svg.append(root);
  return svg;
}

function panel(view, ctx) {
  const names = ctx.names || [];
  const seat = ctx.seat;
  const board = view.board;
  const mine = seat !== null && seat !== undefined ? (board.hands || {})[String(seat)] || [] : null;
  const out = el("div", { class: "hills-panel" });
  out.append(el("p", { class: "game-facts" },
    `Turns played: ${board.turns_done.map((n, p) => `${sideName(names, p)} ${n}`).join(", ")}` +
    (board.turn_limit ? ` (a draw once each has played ${board.turn_limit})` : " (no turn limit)") +
    ` · stars face down ${board.stars_face_down} of ${board.stars_total} · seized ${sideName(names, 0)} ${board.seize[0]}, ${sideName(names, 1)} ${board.seize[1]}` +
    (board.boosted ? ` · boosted: ${KIND[board.boosted] || board.boosted}` : "") + (board.card_played ? " · a card was played this turn" : "")));
  if (mine !== null) {
    // the replay draws each player's view side by side: there it is that player's hand
    out.append(el("h3", {}, `${ctx.replay ? sideName(names, seat) + "'s" : "Your"} hand (${mine.length})`),
      mine.length ? el("ul", { class: "hand", id: "my-hand" }, mine.map((c) => el("li", {}, c))) : el("p", { id: "my-hand" }, "No cards."));
  }
  out.append(el("p", {}, el("span", { class: "label" }, "Cards in hand: "),
    board.hand_sizes.map((n, p) => `${sideName(names, p)} ${n}`).join(", "),
    el("span", { class: "label" }, " · deck "), String(board.deck_size),
    el("span", { class: "label" }, " · discard "), (board.discard || []).join(", ") || "empty"));
  out.append(el("p", {}, el("span", { class: "label" }, "Face-down tiles: "),
    Object.entries(board.face_down || {}).map(([k, n]) => `${k === "P" ? "plains" : k === "M" ? "mountain" : "forest"} ${n}`).join(", ")));
  return out;
}

export default { render, panel, commandHint: "Type an action (BSH-38): `I move E`, `R attack NW M`, `M wait`, `play boost I`, `end`." };
