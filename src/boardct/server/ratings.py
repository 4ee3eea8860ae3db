"""Ratings between accounts: rated games, each account's rating per game, the leaderboard and
a player's profile (docs/server.md, "Ratings").

A game is rated when its creator asks for it (`"rated": true`) and every seat is a person
with an account: agent seats are refused at creation, guests may not take a rated game's seat.
The ratings are OpenSkill's (the Plackett-Luce model of Weng and Lin, `openskill`), which
rates any number of sides and teams: CTF 2187's teams (`State.teammates`) and its three- and
four-sided games as well as the two-player games. A two-player game also moves the players'
Glicko-2 rating (`glicko2`, Glickman's algorithm, each game its own rating period), the
familiar figure of two-player games, shown beside OpenSkill's.

A game's end is counted exactly once: `count_end` runs inside the transaction that commits
the game's last log entry (GameService.on_end), and marks the game counted (`rated_games`)
there too, so a crash either loses both the end and the rating change or keeps both, and a
game replayed after a restart (which commits nothing) changes nothing. A game that turned out
not to be between distinct accounts (a creation token handed to a guest, a seat replaced by an
agent) is marked counted with the reason and moves no rating.

The outcome is read through the core API only: each side's place comes from the returns of
its players (`Outcome.returns`; a higher return places better, equal returns tie), the sides
from `State.teammates` (alone by default: every seat its own side).
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import Connection, insert, select, update
from sqlalchemy.orm import Session

from boardct.core import registry
from boardct.core.errors import BoardctError
from boardct.core.game import State
from boardct.server.live import Live, ServiceError, iso, token_hash, utcnow
from boardct.server.models import (
    AccountRow,
    GameRow,
    RatedGameRow,
    RatingHistoryRow,
    RatingRow,
    SeatRow,
)

log = logging.getLogger("boardct.server.ratings")

PROVISIONAL_GAMES = 10  # rated games before a rating is established (listed as such)
MAX_LIST = 200  # players on one leaderboard answer, entries of one history
GLICKO_START = (1500.0, 350.0, 0.06)  # Glickman's defaults: rating, deviation, volatility
RATED_FIELD = "rated"  # live.extra key

router = APIRouter(prefix="/api/v1", tags=["ratings"])


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The figure a leaderboard sorts on: mu - 3 sigma, a skill the player is 99.7% likely to
    have at least (OpenSkill's `ordinal`), so a new player starts at 0 and rises as the
    uncertainty shrinks."""
    return mu - 3.0 * sigma


# -- the sides and places of an ended game -------------------------------------------------------
def sides(state: State, seats: int) -> list[list[int]]:
    """The seats grouped by side: the classes of `State.teammates` (joined where they
    overlap), in seat order. A game with no teams: each seat alone."""
    side_of = list(range(seats))

    def find(p: int) -> int:
        while side_of[p] != p:
            side_of[p] = side_of[side_of[p]]
            p = side_of[p]
        return p

    for p in range(seats):
        for q in state.teammates(p):
            if 0 <= q < seats:
                a, b = find(p), find(q)
                if a != b:
                    side_of[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for p in range(seats):
        groups.setdefault(find(p), []).append(p)
    return list(groups.values())


def places(returns: tuple[float, ...], teams: list[list[int]]) -> tuple[list[float], list[int]]:
    """Each side's score (the best return among its players: a team shares its result) and
    its place, 1 first; equal scores share a place."""
    scores = [max(returns[p] if p < len(returns) else 0.0 for p in team) for team in teams]
    ranks = [1 + sum(1 for other in scores if other > s) for s in scores]
    return scores, ranks


# -- creating a rated game ---------------------------------------------------------------------
def check_rated_request(seats: Any, account: int | None) -> None:
    """Refuse `"rated": true` unless a signed-in creator asks for it and every seat is a
    person's (an agent or a guest makes a game unrated)."""
    if account is None:
        raise ServiceError("forbidden", "a rated game is created by a signed-in player: sign "
                                        "in first (guests play unrated games)")
    if isinstance(seats, list) and any(isinstance(s, dict) and s.get("kind", "human") != "human"
                                       for s in seats):
        raise ServiceError("bad_request", "rated: a rated game is played by accounts only; "
                                          "a seat played by the computer makes it unrated")


def mark_rated(session: Session, game_id: str) -> None:
    """The rated game's row, in the transaction that creates the game."""
    session.add(RatedGameRow(game=game_id))


def rated_extra_data() -> dict[str, Any]:
    """A new rated game's mark in memory (`Live.extra`: its state messages say so), given to
    `GameService.create` so its first state message says it too."""
    return {RATED_FIELD: True}


async def is_rated(service: Any, game_id: str) -> bool:
    live = service.cached(game_id)
    if live is not None and RATED_FIELD in live.extra:
        return bool(live.extra[RATED_FIELD])
    return bool(await service.db(lambda s: s.get(RatedGameRow, game_id) is not None))


async def refuse_guest(service: Any, game_id: str | None = None,
                       invite: str | None = None) -> None:
    """A guest (no account) may not take a seat of a rated game, by the lobby or by invite."""
    if invite is not None:
        if not isinstance(invite, str) or not 1 <= len(invite) <= 200:
            return  # the claim answers not_found itself
        h = token_hash(invite)
        game_id = await service.db(lambda s: s.scalar(
            select(SeatRow.game).where(SeatRow.invite_hash == h)))
    if game_id and await is_rated(service, game_id):
        raise ServiceError("forbidden", "this game is rated: its seats are for signed-in "
                                        "players; sign in (or sign up), then join")


# -- the end of a rated game, in its transaction ------------------------------------------------
def unrated_reason(seats: list[Any]) -> str | None:
    """Why the ended game moves no rating (None: it does), from its seats (`kind`,
    `account`)."""
    accounts = [s.account for s in seats]
    if any(s.kind != "human" for s in seats):
        return "unrated: a seat was played by the computer"
    if any(a is None for a in accounts):
        return "unrated: a seat was played by a guest"
    if len(set(accounts)) != len(accounts):
        return "unrated: one account played several seats"
    return None


def count_end(conn: Connection, live: Live, state: State) -> None:
    """GameService.on_end: move the ratings of a rated game that just ended, in the
    transaction of its last entry; nothing for an unrated game or one already counted."""
    row = conn.execute(select(RatedGameRow.counted).where(RatedGameRow.game == live.id)).first()
    if row is None or row.counted is not None:
        return
    now = utcnow()
    outcome = state.outcome
    # the seats as committed (another server process may have changed them)
    seats = list(conn.execute(select(SeatRow.seat, SeatRow.kind, SeatRow.account)
                              .where(SeatRow.game == live.id).order_by(SeatRow.seat)))
    note = unrated_reason(seats) if outcome is not None else "unrated: no result"
    teams: list[list[int]] = []
    ranks: list[int] = []
    scores: list[float] = []
    if note is None and outcome is not None:
        teams = sides(state, len(live.seats))
        scores, ranks = places(outcome.returns, teams)
        if len(teams) < 2:
            note = "unrated: a single side"
    done = conn.execute(update(RatedGameRow).where(RatedGameRow.game == live.id,
                                                   RatedGameRow.counted.is_(None))
                        .values(counted=now, note=note))
    if getattr(done, "rowcount", 1) != 1 or note is not None:
        return
    _move_ratings(conn, live.id, live.game.id, {s.seat: s.account for s in seats}, teams,
                  scores, ranks, now)


def _insert_missing(conn: Connection, game: str, accounts: list[int], now: dt.datetime) -> None:
    """A starting rating for each account new to this game; one that another transaction
    adds at the same moment is left as it is (INSERT ... ON CONFLICT DO NOTHING)."""
    model = _model()
    values = [{"account": a, "game": game, "mu": model.mu, "sigma": model.sigma, "games": 0,
               "glicko_games": 0, "updated": now} for a in accounts]
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        conn.execute(pg_insert(RatingRow).values(values).on_conflict_do_nothing())
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        conn.execute(sqlite_insert(RatingRow).values(values).on_conflict_do_nothing())


def _move_ratings(conn: Connection, game_id: str, game: str, account_of: dict[int, Any],
                  teams: list[list[int]], scores: list[float], ranks: list[int],
                  now: dt.datetime) -> None:
    accounts = sorted(a for a in account_of.values() if a is not None)
    _insert_missing(conn, game, accounts, now)
    # locked in account order (two games ending at once wait, never deadlock); SQLite holds
    # the database's one write lock already
    rows = {r.account: r for r in conn.execute(
        select(RatingRow).where(RatingRow.game == game, RatingRow.account.in_(accounts))
        .order_by(RatingRow.account).with_for_update())}
    try:
        model = _model()
        before = [[model.rating(mu=rows[account_of[p]].mu, sigma=rows[account_of[p]].sigma)
                   for p in team] for team in teams]
        after = model.rate(before, ranks=[float(r) for r in ranks])
        glicko: dict[int, tuple[float, float, float]] = {}
        if len(teams) == 2 and all(len(t) == 1 for t in teams):
            glicko = _glicko_pair(rows[account_of[teams[0][0]]], rows[account_of[teams[1][0]]],
                                  account_of[teams[0][0]], account_of[teams[1][0]],
                                  scores[0], scores[1])
    except Exception:  # a rating library's failure never stops the game's end
        log.exception("rating game %s failed: counted unrated", game_id)
        conn.execute(update(RatedGameRow).where(RatedGameRow.game == game_id)
                     .values(note="unrated: the rating failed (see the server's log)"))
        return
    for t, team in enumerate(teams):
        for i, seat in enumerate(team):
            acc = account_of[seat]
            assert acc is not None
            old, new = rows[acc], after[t][i]
            values: dict[str, Any] = {"mu": float(new.mu), "sigma": float(new.sigma),
                                      "games": old.games + 1, "updated": now}
            g_after = None
            if acc in glicko:
                g_after, rd, vol = glicko[acc]
                values |= {"glicko": g_after, "glicko_rd": rd, "glicko_vol": vol,
                           "glicko_games": old.glicko_games + 1}
            conn.execute(update(RatingRow).where(RatingRow.account == acc,
                                                 RatingRow.game == game).values(**values))
            conn.execute(insert(RatingHistoryRow).values(
                account=acc, game=game, game_id=game_id, seat=seat, rank=ranks[t],
                score=float(scores[t]), mu_before=old.mu, sigma_before=old.sigma,
                mu_after=float(new.mu), sigma_after=float(new.sigma),
                glicko_before=(old.glicko if old.glicko is not None else GLICKO_START[0])
                if acc in glicko else None,
                glicko_after=g_after, at=now))


def _glicko_pair(a: Any, b: Any, acc_a: int, acc_b: int, score_a: float, score_b: float
                 ) -> dict[int, tuple[float, float, float]]:
    """Both players' Glicko-2 after one game between them (one rating period)."""
    from glicko2 import Player

    def player(row: Any) -> Any:
        if row.glicko is None:
            return Player(*GLICKO_START)
        return Player(row.glicko, row.glicko_rd, row.glicko_vol)

    pa, pb = player(a), player(b)
    ra, rda, rb, rdb = pa.getRating(), pa.getRd(), pb.getRating(), pb.getRd()
    result_a = 1.0 if score_a > score_b else 0.0 if score_a < score_b else 0.5
    pa.update_player([rb], [rdb], [result_a])
    pb.update_player([ra], [rda], [1.0 - result_a])
    return {acc_a: (float(pa.getRating()), float(pa.getRd()), float(pa.vol)),
            acc_b: (float(pb.getRating()), float(pb.getRd()), float(pb.vol))}


# -- wiring ------------------------------------------------------------------------------------
def install(service: Any) -> None:
    """Hook the ratings into the game service: the end of a game, loading a game (whether it
    is rated), the state messages (`rated`)."""
    service.on_end.append(count_end)

    async def load(live: Live) -> None:
        live.extra[RATED_FIELD] = await service.db(
            lambda s: s.get(RatedGameRow, live.id) is not None)

    service.on_load.append(load)
    service.state_extras.append(rated_extra)
    service.rematch_carry.append(rated_rematch)


def rated_rematch(live: Live) -> tuple[Any, dict[str, Any]] | None:
    """A rematch of a rated game is rated too: the same accounts, rotated (a guest may not
    take its seats, as in any rated game)."""
    if not live.extra.get(RATED_FIELD):
        return None
    return mark_rated, rated_extra_data()


def rated_extra(live: Live, _seat: int | None) -> dict[str, Any]:
    return {"rated": True} if live.extra.get(RATED_FIELD) else {}


# -- reading -----------------------------------------------------------------------------------
def rating_json(row: RatingRow, title: str | None = None) -> dict[str, Any]:
    out = {"game": row.game, "rating": round(ordinal(row.mu, row.sigma), 2),
           "mu": round(row.mu, 3), "sigma": round(row.sigma, 3), "games": row.games,
           "provisional": row.games < PROVISIONAL_GAMES,
           "glicko": None if row.glicko is None else {
               "rating": round(row.glicko, 1), "rd": round(row.glicko_rd or 0.0, 1),
               "games": row.glicko_games}}
    if title is not None:
        out["title"] = title
    return out


def _game_title(game_id: str) -> str:
    try:
        return registry.get(game_id).title
    except BoardctError:
        return game_id


def leaderboard(session: Session, game: str, limit: int = 100) -> dict[str, Any]:
    rows = session.execute(
        select(RatingRow, AccountRow.username).join(AccountRow, AccountRow.id == RatingRow.account)
        .where(RatingRow.game == game, AccountRow.disabled.is_(False), RatingRow.games > 0)
        .order_by((RatingRow.mu - 3.0 * RatingRow.sigma).desc(), AccountRow.username_key)
        .limit(MAX_LIST * 5)).all()
    ranked: list[dict[str, Any]] = []
    provisional: list[dict[str, Any]] = []
    for rating, username in rows:
        entry = {"username": username} | rating_json(rating)
        if entry["provisional"]:
            provisional.append(entry)
        else:
            ranked.append(entry | {"rank": len(ranked) + 1})
    return {"game": game, "title": _game_title(game), "provisional_games": PROVISIONAL_GAMES,
            "players": ranked[:limit], "provisional": provisional[:limit]}


def profile(session: Session, username: str) -> dict[str, Any] | None:
    account = session.scalars(select(AccountRow).where(
        AccountRow.username_key == username.casefold(), AccountRow.disabled.is_(False))).first()
    if account is None:
        return None
    ratings = session.scalars(select(RatingRow).where(RatingRow.account == account.id,
                                                      RatingRow.games > 0)
                              .order_by(RatingRow.games.desc(), RatingRow.game)).all()
    history = session.scalars(select(RatingHistoryRow).where(
        RatingHistoryRow.account == account.id)
        .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.id.desc()).limit(MAX_LIST)).all()
    ids = list({h.game_id for h in history})
    results: dict[str, Any] = dict(session.execute(select(GameRow.id, GameRow.result)
                                   .where(GameRow.id.in_(ids))).all()) if ids else {}
    others: dict[str, list[dict[str, Any]]] = {}
    if ids:
        for h, name in session.execute(
                select(RatingHistoryRow, AccountRow.username)
                .join(AccountRow, AccountRow.id == RatingHistoryRow.account)
                .where(RatingHistoryRow.game_id.in_(ids)).order_by(RatingHistoryRow.seat)):
            others.setdefault(h.game_id, []).append({"seat": h.seat, "username": name,
                                                     "rank": h.rank})
    games = []
    for h in history:
        result = results.get(h.game_id) or {}
        games.append({
            "game_id": h.game_id, "game": h.game, "title": _game_title(h.game), "at": iso(h.at),
            "seat": h.seat, "rank": h.rank, "score": h.score,
            "result": result.get("text") if isinstance(result, dict) else None,
            "players": others.get(h.game_id, []),
            "rating_before": round(ordinal(h.mu_before, h.sigma_before), 2),
            "rating_after": round(ordinal(h.mu_after, h.sigma_after), 2),
            "glicko_before": None if h.glicko_before is None else round(h.glicko_before, 1),
            "glicko_after": None if h.glicko_after is None else round(h.glicko_after, 1)})
    return {"username": account.username, "created": iso(account.created),
            "provisional_games": PROVISIONAL_GAMES,
            "ratings": [rating_json(r, _game_title(r.game)) for r in ratings],
            "games": games}


@router.get("/leaderboard/{game}")
async def get_leaderboard(game: str, request: Request) -> dict:
    """The rated players of `game`, best first: {"game", "title", "players": [{"rank",
    "username", "rating", "mu", "sigma", "games", "glicko"}], "provisional": [...]} (those
    with fewer than `provisional_games` rated games, listed apart)."""
    try:
        found = registry.get(game)
    except BoardctError:
        raise ServiceError("not_found", "no such game") from None
    limit = request.query_params.get("limit", "")
    n = int(limit) if limit.isdigit() and 0 < int(limit) <= MAX_LIST else 100
    service = request.app.state.service
    return await service.db(lambda s: leaderboard(s, found.id, n))


@router.get("/players/{username}")
async def get_profile(username: str, request: Request) -> dict:
    """A player's profile: {"username", "created", "ratings": [per game], "games": [the
    rated games, newest first, with the rating before and after]}."""
    if not 1 <= len(username) <= 32:
        raise ServiceError("not_found", "no such player")
    service = request.app.state.service
    found = await service.db(lambda s: profile(s, username))
    if found is None:
        raise ServiceError("not_found", "no such player")
    return found
