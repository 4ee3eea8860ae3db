// Tiny SVG builder for the board renderers (no library, no build step).
export const NS = "http://www.w3.org/2000/svg";

/** s("rect", {x: 1, y: 2}, child...) -> an SVG element; `title` becomes a <title> child. */
export function s(tag, attrs, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "title") node.append(s("title", { text: v }));
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** The root <svg> with a viewBox, scaled by CSS to its container. */
export function svgRoot(width, height, label) {
  return s("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "board-svg",
    // a group, not an image: its parts are named (titles) and the playable ones are buttons
    role: "group",
    "aria-label": label,
    preserveAspectRatio: "xMidYMid meet",
  });
}

/** Side colours (Okabe-Ito, colour-blind safe) and shapes: sides never differ by colour only. */
export const SIDE_FILL = ["#0072B2", "#E69F00", "#009E73", "#CC79A7"];
export const SIDE_TEXT = ["#ffffff", "#000000", "#000000", "#000000"]; // WCAG AA on each fill

/** A side marker shape centred at (x, y) with radius r: circle, square, triangle, diamond. */
export function sideShape(side, x, y, r, attrs = {}) {
  const fill = SIDE_FILL[side % 4];
  const base = Object.assign({ fill, stroke: "#111", "stroke-width": 1.5 }, attrs);
  switch (side % 4) {
    case 0:
      return s("circle", Object.assign({ cx: x, cy: y, r }, base));
    case 1:
      return s("rect", Object.assign({ x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 3 }, base));
    case 2:
      return s("polygon", Object.assign({ points: `${x},${y - r} ${x + r},${y + r} ${x - r},${y + r}` }, base));
    default:
      return s("polygon", Object.assign({ points: `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}` }, base));
  }
}
