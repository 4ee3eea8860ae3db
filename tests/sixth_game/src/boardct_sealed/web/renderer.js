// Sealed Bids in the browser: the prize on the table, each seat's hand as cards (the viewer's
// own first), the scores and the rounds shown. Drawn only from the view envelope
// (`view.board`): the viewer's own sealed bid is the only bid shown before the reveal. Each
// card is `card:<seat>:<value>`: the engine names a bid's card as its target.
import { s, svgRoot, sideShape, SIDE_FILL } from "/static/svg.js";
import { el, sideName } from "/static/app.js";

const W = 46;
const H = 64;

function card(value, x, y, attrs) {
  const g = s("g", attrs);
  g.append(s("rect", { class: "hit", x, y, width: W, height: H, rx: 6, fill: "#fffdf5", stroke: "#333", "stroke-width": 1.5 }));
  g.append(s("text", { x: x + W / 2, y: y + H / 2 + 8, "text-anchor": "middle", "font-size": 24, "font-weight": 700, text: String(value) }));
  return g;
}

function render(view, ctx) {
  const board = view.board;
  const seats = view.players.map((p) => p.seat);
  const me = view.viewer;
  const order = me === null || me === undefined ? seats : [me, ...seats.filter((p) => p !== me)];
  const width = Math.max(6, board.cards + 2) * (W + 8) + 120;
  const height = 110 + order.length * (H + 30);
  const svg = svgRoot(width, height, "Sealed Bids: the prize and every hand");
  svg.append(s("text", { x: 10, y: 24, "font-size": 16, "font-weight": 700, text: board.prize ? `Prize on the table` : "Every prize is taken" }));
  if (board.prize) svg.append(card(board.prize, 10, 34, { class: "prize", "data-key": "prize", title: `The prize of this round: ${board.prize}` }));
  svg.append(s("text", { x: 70, y: 60, "font-size": 13, text: `still to come: ${board.prizes_left.join(", ") || "none"}` }));
  order.forEach((seat, row) => {
    const y = 110 + row * (H + 30);
    const name = sideName(ctx.names || [], seat);
    svg.append(sideShape(seat, 18, y + 8, 8));
    svg.append(s("text", { x: 32, y: y + 13, "font-size": 14, "font-weight": 700, fill: "#111", text: `${name}: ${board.scores[seat]} points${seat === me && board.my_bid ? ` · your sealed bid: ${board.my_bid}` : ""}` }));
    board.hands[seat].forEach((value, k) => {
      const words = `${seat === me ? "Your" : name + "'s"} card ${value}`;
      const g = card(value, 10 + k * (W + 8), y + 20, { class: `card side-${seat}`, "data-key": `card:${seat}:${value}`, title: words });
      g.firstChild.setAttribute("stroke", SIDE_FILL[seat % SIDE_FILL.length]);
      svg.append(g);
    });
  });
  return svg;
}

function panel(view, ctx) {
  const rounds = view.board.rounds;
  const out = el("div", { class: "sealed-panel" }, el("p", { class: "hint" }, "Pick a card of your hand to bid it: bids stay sealed until every bid is in; the highest bid wins the prize, equal highest bids win nothing."));
  if (rounds.length) {
    out.append(el("ol", { class: "rounds" }, rounds.map((r) => el("li", {},
      `prize ${r.prize}: ` + r.bids.map((b, p) => `${sideName(ctx.names || [], p)} ${b}`).join(", ") +
      ` — ${r.winner === null ? "nobody (a tie)" : sideName(ctx.names || [], r.winner)}`))));
  }
  return out;
}

export default { render, panel, commandHint: "Type a bid, e.g. `bid 3`, or click a card of your hand." };
