// A player's profile (/players/<username>): their rating at each game and their rated games,
// newest first, with the rating before and after each. From GET /players/<username>.
import { call, el } from "./app.js";
import { glickoText, playerLink } from "./ratings.js";

const $ = (id) => document.getElementById(id);

function notice(text) {
  $("notice").textContent = text;
  $("notice").className = "notice error";
  $("notice").hidden = !text;
}

function username() {
  const m = location.pathname.match(/^\/players\/([^/]{1,100})$/);
  return m ? decodeURIComponent(m[1]) : "";
}

function change(g) {
  const d = g.rating_after - g.rating_before;
  return `${g.rating_after.toFixed(1)} (${d >= 0 ? "+" : "−"}${Math.abs(d).toFixed(1)})`;
}

function place(g) {
  return g.rank === 1 ? "1st" : g.rank === 2 ? "2nd" : g.rank === 3 ? "3rd" : `${g.rank}th`;
}

async function main() {
  const name = username();
  try {
    const p = await call("GET", `/players/${encodeURIComponent(name)}`);
    $("who").textContent = p.username;
    document.title = `boardct — ${p.username}`;
    $("since").textContent = `Playing since ${(p.created || "").slice(0, 10)}. A rating is provisional for its first ${p.provisional_games} rated games.`;
    $("ratings").tBodies[0].replaceChildren(...(p.ratings.length ? p.ratings.map((r) => el("tr", { "data-game": r.game },
      el("td", {}, el("a", { href: `/leaderboard/${encodeURIComponent(r.game)}` }, r.title)),
      el("td", {}, r.rating.toFixed(1), r.provisional ? " (provisional)" : ""),
      el("td", {}, String(r.games)),
      el("td", {}, glickoText(r.glicko)))) : [el("tr", {}, el("td", { colspan: 4 }, "No rated game yet."))]));
    $("history").tBodies[0].replaceChildren(...p.games.map((g) => el("tr", { "data-game-id": g.game_id },
      el("td", {}, (g.at || "").slice(0, 10)),
      el("td", {}, el("a", { href: `/replay/${encodeURIComponent(g.game_id)}` }, g.title)),
      el("td", { title: g.result || "" }, place(g)),
      el("td", {}, change(g)),
      el("td", {}, ...g.players.filter((o) => o.username !== p.username).flatMap((o, i) => [i ? ", " : "", playerLink(o.username)])))));
  } catch (e) {
    notice(e.status === 404 ? `There is no player ${name}.` : `Could not load the profile: ${e.message}`);
  }
}

main();
