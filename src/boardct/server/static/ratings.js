// What the leaderboard and the profile pages show alike: a player's name as a link to their
// profile, and a Glicko-2 figure.
import { el } from "./app.js";

export function playerLink(username) {
  return el("a", { class: "player", href: `/players/${encodeURIComponent(username)}` }, username);
}

export function glickoText(g) {
  return g ? `${Math.round(g.rating)} ±${Math.round(g.rd)}` : "—";
}
