// The leaderboard of one game (/leaderboard/<game id>): the established players ranked by
// rating, then the provisional ones. Everything comes from GET /leaderboard/<game>.
import { call, el } from "./app.js";
import { glickoText, playerLink } from "./ratings.js";

const $ = (id) => document.getElementById(id);

function notice(text) {
  $("notice").textContent = text;
  $("notice").className = "notice error";
  $("notice").hidden = !text;
}

/** The game named in the address (/leaderboard/<id>), else null. */
function gameInPath() {
  const m = location.pathname.match(/^\/leaderboard\/([A-Za-z0-9_.-]{1,32})$/);
  return m ? m[1] : null;
}

function row(p, ranked) {
  return el("tr", { "data-player": p.username },
    ranked ? el("td", {}, String(p.rank)) : null,
    el("td", {}, playerLink(p.username)),
    el("td", { title: `μ ${p.mu}, σ ${p.sigma}` }, p.rating.toFixed(1)),
    el("td", {}, String(p.games)),
    el("td", {}, glickoText(p.glicko)));
}

async function show(game) {
  notice("");
  try {
    const res = await call("GET", `/leaderboard/${encodeURIComponent(game)}`);
    document.title = `boardct — ${res.title} leaderboard`;
    const none = (n, text) => el("tr", {}, el("td", { colspan: n }, text));
    $("ranked").tBodies[0].replaceChildren(...(res.players.length ? res.players.map((p) => row(p, true))
      : [none(5, `No established player yet: a rating counts here after ${res.provisional_games} rated games.`)]));
    $("provisional").tBodies[0].replaceChildren(...(res.provisional.length ? res.provisional.map((p) => row(p, false))
      : [none(4, "None.")]));
    $("provisional-help").textContent = `Fewer than ${res.provisional_games} rated games: the rating is still settling.`;
  } catch (e) {
    notice(`Could not load the leaderboard: ${e.message}`);
  }
}

async function main() {
  let catalog = [];
  try {
    catalog = await call("GET", "/catalog");
  } catch (e) {
    notice(`Could not load the games: ${e.message}`);
    return;
  }
  $("game").replaceChildren(...catalog.map((g) => el("option", { value: g.id }, g.title)));
  const wanted = gameInPath();
  const first = catalog.find((g) => g.id === wanted) || catalog.find((g) => g.featured) || catalog[0];
  if (!first) return;
  $("game").value = first.id;
  $("game").addEventListener("change", () => {
    history.replaceState(null, "", `/leaderboard/${encodeURIComponent($("game").value)}`);
    show($("game").value);
  });
  await show(first.id);
}

main();
