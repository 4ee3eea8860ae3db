// CTF 2187: the map (terrain and elevation where my bots can see, unknown elsewhere), command
// posts, my bots with their facing, the contacts they see, an order-sheet form for the five
// phases (CTF-37; the server checks it with the same code as `ctf2187 submit`), my turn report
// and the deadline. Drawn only from the view envelope (`view.board`): other teams' bots appear
// only as contacts, and whether another seat has handed in is never shown (CTF-41). Keys:
// `sector:<x>-<y>` and `bot:<n>` (the engine names a sheet's Bot as its target).
import { s, svgRoot, sideShape, SIDE_FILL, SIDE_TEXT } from "/static/svg.js";
import { el, newId, sideName, ApiError } from "/static/app.js";

const C = 28;
const TERRAIN_FILL = { Open: "#e8e4c9", Hill: "#c8a97e", Gully: "#9fb7c9", Crater: "#b0a9a0", "Lt.Wds": "#a8d08d", "Hv.Wds": "#5f9a4a", Water: "#7fb3e0", Rough: "#bfb39a", Building: "#999" };
// facing 1..8: N, NE, E, SE, S, SW, W, NW (CTF-17; y grows north)
const DX = [0, 0, 1, 1, 1, 0, -1, -1, -1];
const DY = [0, 1, 1, 0, -1, -1, -1, 0, 1];
const FACING_WORD = ["", "N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const TEAM_INDEX = (team) => Math.max(0, "ABCD".indexOf(team));

// a spectator's view: no seat (view(None)); it owns no bot, every bot it sees is just a bot
const watching = (view) => view.viewer === null || view.viewer === undefined;
const ended = (view) => view.result !== null && view.result !== undefined;

function xy(sector) {
  const m = /^(\d+)-(\d+)$/.exec(sector || "");
  return m ? [Number(m[1]), Number(m[2])] : null;
}

function render(view) {
  const board = view.board;
  const w = board.map.width;
  const h = board.map.height;
  const svg = svgRoot(w * C + 40, h * C + 40, `CTF 2187 map, ${w} by ${h}`);
  const px = (x) => 30 + (x - 1) * C;
  const py = (y) => 10 + (h - y) * C; // y grows north: row h at the top
  const seen = {};
  for (const v of board.visual || []) {
    v.rows.forEach((row, i) => {
      const y = v.y_from - i;
      row.forEach((cell, j) => { seen[`${v.x_from + j}-${y}`] = cell; });
    });
  }
  for (let y = h; y >= 1; y--) {
    for (let x = 1; x <= w; x++) {
      const cell = seen[`${x}-${y}`];
      const g = s("g", { class: "cell", "data-key": `sector:${x}-${y}` });
      if (cell) {
        const [terrain, elev] = cell.split(/-(?=\d+$)/);
        g.append(s("rect", { x: px(x), y: py(y), width: C, height: C, fill: TERRAIN_FILL[terrain] || "#ddd", stroke: "#999", "stroke-width": 0.5 }));
        g.append(s("text", { x: px(x) + C - 3, y: py(y) + C - 3, "text-anchor": "end", "font-size": 9, fill: "#333", text: elev }));
        g.append(s("title", { text: `sector ${x}-${y}: ${terrain}, elevation ${elev}` }));
      } else {
        g.append(s("rect", { x: px(x), y: py(y), width: C, height: C, fill: "#cfd2d6", stroke: "#b8bcc2", "stroke-width": 0.5 }));
        g.append(s("title", { text: `sector ${x}-${y}: not in sight` }));
      }
      svg.append(g);
    }
  }
  for (let x = 1; x <= w; x += 1) if (x % 2 === 1 || w <= 12) svg.append(s("text", { x: px(x) + C / 2, y: h * C + 24, "text-anchor": "middle", "font-size": 10, text: String(x) }));
  for (let y = 1; y <= h; y += 1) if (y % 2 === 1 || h <= 12) svg.append(s("text", { x: 14, y: py(y) + C / 2 + 4, "text-anchor": "middle", "font-size": 10, text: String(y) }));
  for (const cp of board.command_posts || []) {
    const p = xy(cp.sector);
    if (!p) continue;
    const t = TEAM_INDEX(cp.team);
    const g = s("g", { class: "cp" });
    g.append(s("rect", { x: px(p[0]) + 2, y: py(p[1]) + 2, width: C - 4, height: C - 4, fill: "none", stroke: SIDE_FILL[t], "stroke-width": 4, "stroke-dasharray": cp.state === "operational" ? null : "3 3" }));
    g.append(s("text", { x: px(p[0]) + C / 2, y: py(p[1]) + C / 2 + 4, "text-anchor": "middle", "font-size": 10, "font-weight": 700, text: cp.cp }));
    g.append(s("title", { text: `command post ${cp.cp} (team ${cp.team}) at ${cp.sector}: structure ${cp.structure}, ${cp.state}` }));
    svg.append(g);
  }
  const bot = (b, mine) => {
    const p = xy(b.sector);
    if (!p) return;
    const t = TEAM_INDEX(b.team);
    const cx = px(p[0]) + C / 2;
    const cy = py(p[1]) + C / 2;
    const g = s("g", { class: mine ? "bot mine" : "bot contact", "data-key": `bot:${b.bot}` });
    g.append(sideShape(t, cx, cy, 12, { "stroke-width": mine ? 2.5 : 1, opacity: b.state === "functional" ? 1 : 0.45 }));
    const f = b.facing || 0;
    if (f) g.append(s("line", { x1: cx, y1: cy, x2: cx + DX[f] * 15, y2: cy - DY[f] * 15, stroke: "#111", "stroke-width": 3 }));
    g.append(s("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: SIDE_TEXT[t], text: String(b.bot) }));
    const whose = mine ? "your bot" : watching(view) ? "bot" : "enemy bot";
    g.append(s("title", { text: `${whose} ${b.bot} (team ${b.team}, ${b.design}) at ${b.sector}, facing ${FACING_WORD[f] || "?"}, ${b.posture}, ${b.state}` }));
    svg.append(g);
  };
  for (const c of board.contacts || []) bot(c, false);
  for (const b of board.bots || []) bot(b, !watching(view)); // a spectator's (after the end: all)
  return svg;
}

const FIELD_NAMES = ["move", "move option", "attack", "attack option", "weapon"];

function standingFields(view, botNo) {
  const text = (view.board.standing_orders || {})[String(botNo)] || "";
  const rows = [];
  for (const part of text.split(";").slice(1)) {
    const toks = part.trim().split(/\s+/);
    if (/^P[1-5]$/i.test(toks[0])) rows.push(toks.slice(1, 6));
  }
  while (rows.length < 5) rows.push(["-", "-", "-", "-", "-"]);
  return rows;
}

/** Light checks before sending (the server applies CTF-37 in full with `ctf2187 submit`'s code). */
function precheck(rows) {
  const errs = [];
  rows.forEach((r, i) => r.forEach((v, j) => {
    if (!/^(-|\d{1,3})$/.test(v)) errs.push(`line ${i + 2}, ${FIELD_NAMES[j]}: ${JSON.stringify(v.slice(0, 20))} is not a number or -`);
  }));
  return errs;
}

/**
 * Hand in one sheet: POST /sheets (sealed until the turn is processed). A server without that
 * route takes the same sheet, one line, as the seat's move: it is checked by the same code.
 */
async function submitSheet(ctx, text) {
  try {
    try {
      await ctx.api("POST", "/sheets", { text });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404 || /game/i.test(e.message)) throw e;
      await ctx.api("POST", "/moves", { text: text.split("\n").join("; "), move_id: newId() });
    }
    await ctx.refresh();
    ctx.confirm("Order sheet accepted; it stays sealed until the turn is processed.");
    return true;
  } catch (e) {
    ctx.rejected(e, "CTF-37");
    return false;
  }
}

function sheetForm(view, b, ctx) {
  const rows = standingFields(view, b.bot);
  const inputs = rows.map((r, i) => r.map((v, j) => el("input", { value: v, "aria-label": `bot ${b.bot} phase ${i + 1} ${FIELD_NAMES[j]}`, name: `p${i + 1}f${j}`, maxlength: 4, inputmode: "numeric" })));
  const errors = el("div", { class: "sheet-errors", role: "alert" });
  const submitted = (view.board.submitted || []).includes(b.bot);
  const form = el("form", { class: "sheet-form card", "data-bot": String(b.bot) },
    el("h3", {}, `Order sheet: bot ${b.bot} (${b.design}), turn ${view.turn}`, submitted ? el("span", { class: "ok-tag" }, " — sheet in (you may replace it)") : ""),
    el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "phase"), FIELD_NAMES.map((n) => el("th", {}, n)))),
      el("tbody", {}, inputs.map((row, i) => el("tr", {}, el("th", {}, `P${i + 1}`), row.map((inp) => el("td", {}, inp)))))),
    el("p", { class: "hint" }, "Move 0–23 (option: a direction 1–8 for 11, a bot for 5 and 12, engines 1–9 for 19), attack 0–6 (option: an enemy bot for 1; weapon from the list or 0 = best, needed for attacks 1–5); - for an unused field. Prefilled with the standing orders."),
    el("button", { type: "submit", class: "sheet-submit" }, `Submit bot ${b.bot}'s sheet`),
    errors);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const vals = inputs.map((row) => row.map((inp) => inp.value.trim() || "-"));
    const errs = precheck(vals);
    if (errs.length) {
      errors.textContent = "Order sheet rejected (CTF-37):\n" + errs.join("\n");
      return;
    }
    errors.textContent = "";
    const text = [`BOT ${b.bot} TURN ${view.turn}`, ...vals.map((r, i) => `P${i + 1} ${r.join(" ")}`)].join("\n");
    const ok = await submitSheet(ctx, text);
    if (!ok) errors.textContent = "See the message above: fix the named line and field.";
  });
  return form;
}

function panel(view, ctx) {
  const board = view.board;
  const out = el("div", { class: "ctf-panel" });
  const legend = !watching(view)
    ? [ctx.replay ? `coloured squares are what ${sideName(ctx.names || [], ctx.seat)}'s bots saw` : "coloured squares are what your bots see", " (terrain, elevation in the corner); grey is out of sight; ",
      "framed letters are command posts; shapes with a line are bots (the line points where they face), yours outlined thick."]
    : ended(view)
      ? ["framed letters are command posts; shapes with a line are every team's bots as the game ended (the line points where they face); ",
        "the terrain each player saw is on the replay page."]
      : ["you are watching: until the game ends a spectator sees only the command posts (framed letters); ",
        "the bots, their orders and the terrain stay with their players (CTF-21)."];
  out.append(el("p", { class: "legend" }, el("span", { class: "label" }, "Map: "), ...legend));
  // Only this seat's own Bots: which sheets it still owes and which it has handed in. Nothing
  // here says whether any other seat has handed in (CTF-41).
  const owed = board.owed || [];
  const handedIn = watching(view) ? [] : board.submitted || [];
  out.append(el("p", { class: "game-facts" }, `Turn ${view.turn} of ${board.turns}` +
    (owed.length ? ` · your sheets owed for bots ${owed.join(", ")}` : "") +
    (handedIn.length ? ` · your sheets in: ${handedIn.join(", ")}` : "") +
    (board.resigned && board.resigned.length ? ` · resigned: ${board.resigned.map((p) => sideName(ctx.names || [], p)).join(", ")}` : "")));
  for (const b of board.bots || []) {
    out.append(el("details", { class: "bot-status" },
      el("summary", {}, `Bot ${b.bot} ${b.design} at ${b.sector}, facing ${FACING_WORD[b.facing] || b.facing}, ${b.posture}, ${b.state} — AP ${b.ap_left}/${b.ap_start}, heat ${b.heat}, VP ${b.vp}`),
      el("table", { class: "bot-table" },
        el("tr", {}, el("th", {}, "location"), el("th", {}, "armour"), el("th", {}, "internal")),
        (b.locations || []).map((l) => el("tr", {}, el("td", {}, l.location + (l.destroyed ? " (destroyed)" : "")), el("td", {}, `${l.armour}/${l.armour_max}`), el("td", {}, `${l.internal}/${l.internal_max}`)))),
      el("p", {}, "Weapons: " + (b.weapons || []).map((wp) => `${wp.number} ${wp.name} (${wp.location}, ${wp.state}, range ${wp.optimum}/${wp.maximum}, ${wp.ap} AP)`).join("; "))));
  }
  const canSubmit = !ctx.replay && ctx.seat !== null && ctx.seat !== undefined && !ended(view);
  if (canSubmit) {
    for (const b of board.bots || []) {
      if (b.state === "functional" || owed.includes(b.bot)) out.append(sheetForm(view, b, ctx));
    }
  }
  if (!ctx.replay && ctx.seat !== null && ctx.seat !== undefined && board.log && board.log.length) {
    out.append(reportBox(board, ctx));
  }
  return out;
}

// The turn report as this page last showed it: the page redraws the board on every state
// message (another seat's change, a resync), and the report must stay open and filled across
// those redraws; it is dropped when a new turn's report replaces it.
const report = { key: null, open: false, text: "" };

function reportBox(board, ctx) {
  const key = `${ctx.state ? ctx.state.game_id : ""}:${ctx.seat}:${board.log_turn}`;
  if (report.key !== key) Object.assign(report, { key, open: false, text: "" });
  const pre = el("pre", { class: "raw-view", id: "turn-report-text" }, report.text);
  const load = async () => {
    try {
      const rep = await ctx.api("GET", `/report?turn=${board.log_turn}`);
      const reps = rep && Array.isArray(rep.reports) ? rep.reports : [rep];
      report.text = reps.map((r) => (typeof r === "string" ? r : r.text || JSON.stringify(r, null, 1))).join("\n\n");
    } catch (e) {
      report.text = e.message;
    }
    if (report.key === key) {
      for (const node of document.querySelectorAll("#turn-report-text")) node.textContent = report.text;
    }
  };
  const box = el("details", { class: "report", id: "turn-report", open: report.open },
    el("summary", {}, `Turn ${board.log_turn} report (${board.log.length} entries)`),
    el("p", { class: "hint" }, "The full turn report of this seat, as the server keeps it:"),
    el("button", { type: "button", onclick: load }, report.text ? "Load it again" : "Load my turn report"), pre);
  box.addEventListener("toggle", () => {
    report.open = box.open;
    if (box.open && !report.text) load();
  });
  return box;
}

/** The line under the title while this seat does not decide (CTF-41): before the turn is
 *  processed a player knows only whether their own sheets are in, never who else has handed
 *  in. `to_move` lists every player still in the game (the seat itself only while it owes). */
function waiting(st) {
  const view = st.view || {};
  const board = view.board || {};
  const names = (view.to_move || st.to_move || []).map((p) => sideName(st.names, p));
  const mine = st.seat !== null && st.seat !== undefined;
  if (mine && (board.resigned || []).includes(st.seat)) return "You have resigned: your bots follow their standing orders (CTF-40).";
  const due = names.length ? ` Orders are due from ${names.join(", ")}; who has handed in stays sealed.` : "";
  const when = " The turn is processed when every sheet is in, or at the deadline.";
  if (mine) return ((board.bots || []).some((b) => b.state === "functional") ? "Your sheets are in." : "You have no bot left to give orders to.") + due + when;
  return `Turn ${view.turn}.${due}${when}`;
}

/** The colour a seat's badge is drawn in: its team's, as its Bots are drawn (CTF-1), where
 * this seat knows it (its own team, every Bot once the game is over); null elsewhere. */
function seatSide(st, seat) {
  const board = (st.view && st.view.board) || {};
  const bots = [...(board.bots || []), ...(board.contacts || [])];
  const own = bots.find((b) => b.player === seat && b.team);
  if (own) return TEAM_INDEX(own.team);
  const mine = (board.bots || []).find((b) => b.team);
  if (mine && (st.team || []).includes(seat)) return TEAM_INDEX(mine.team);
  return null;
}

export default { render, panel, waiting, seatSide, hideLegal: true, commandHint: "Type a whole order sheet on one line, e.g. `BOT 1 TURN 3; P1 6 - 2 - 0; P2 13 - 2 - 0; P3 6 - 2 - 0; P4 13 - 2 - 0; P5 13 - 2 - 0`, or use the form." };
