"""CTF 2187's own part of the game server: order sheets handed in (CTF-37) and turn reports
(CTF-38), through the server's extension point (`boardct.server.ext`) only.

- `POST /api/v1/games/{id}/sheets`: an order sheet, checked by the game's own sheet parser
  as `boardct ctf2187 submit` checks it, then handed in through the server's one path of
  every move; sealed until the turn is processed.
- `GET /api/v1/games/{id}/report?turn=N`: the caller's turn reports (one per Bot it
  commands) of turn N (default: the last processed one); never another seat's.
- The state message's `parts.reports`: the seat's reports of the last processed turn, the
  same as `GET /report` answers, built once per version and seat (a spectator: null).

A turn report holds only what the seat's own Bots saw (`report.turn_report`: the log as the
Bot saw it, CTF-15; its scanner contacts), so it keeps the server's rule for a seat's parts.
"""

from __future__ import annotations

from typing import Any

from boardct.core import moves
from boardct.core.errors import BoardctError
from boardct.games.ctf2187.report import format_report, turn_report
from boardct.games.ctf2187.sheet import MISSING
from boardct.server.ext import (
    Live,
    Request,
    ServerExtension,
    ServiceError,
    body_doc,
    deadline,
    field,
    read_object,
)

MAX_SHEET = 16 * 1024  # characters of one order sheet (the CLI's bound is far larger than any)
REPORTS = "reports"  # the state message part: parts.reports
CACHE = "ctf2187.reports"  # Live.extra key: {(version, seat, deadline): the part}

SHEET_BODY = body_doc({"text": {"type": "string"}, "move_id": {"type": "string"}},
                      {"text": "BOT 1 TURN 1\nP1 6 - 2 - 0\nP2 13 - 2 - 0\nP3 6 - 2 - 0\n"
                               "P4 13 - 2 - 0\nP5 13 - 2 - 0"}, ("text",))


def install(ext: ServerExtension) -> None:
    """The server calls this once when the app is built."""

    @ext.router.post("/games/{game_id}/sheets", openapi_extra=SHEET_BODY)
    async def post_sheet(game_id: str, request: Request) -> dict:
        """Hand in an order sheet (CTF-37 format, as `boardct ctf2187 submit` takes it),
        sealed until the turn is processed: body {"text", "move_id"?}."""
        live, seat = await ext.seat(request, game_id, "order sheets")
        if seat is None:
            raise ServiceError("forbidden", "a spectator cannot hand in a sheet")
        body = await read_object(request)
        text = field(body, "text", str, None)
        if text is None or not text.strip():
            raise ServiceError("bad_request", "text: the order sheet")
        if len(text) > MAX_SHEET:
            raise ServiceError("too_large", f"an order sheet is at most {MAX_SHEET:,} characters")
        return await submit_sheet(ext, live, seat, text, field(body, "move_id", str, None))

    @ext.router.get("/games/{game_id}/report")
    async def get_report(game_id: str, request: Request, turn: int | None = None) -> dict:
        """This seat's turn report (one per Bot it commands) of turn `turn` (default: the
        last processed one); never another seat's."""
        live, seat = await ext.seat(request, game_id, "turn reports")
        if seat is None:
            raise ServiceError("forbidden", "a turn report is for its player's seat token")
        return await ext.locked(live, turn_reports, live, seat, turn, deadline(live))

    ext.state_part(reports_part)


async def submit_sheet(ext: ServerExtension, live: Live, seat: int, text: str,
                       move_id: str | None) -> dict:
    """Check the sheet as `boardct ctf2187 submit` does (the game's own parser; `MISSING` is
    the server's to write at the deadline, not a player's), then hand it in through the
    server's one path. The answer says in words what was accepted."""
    state = live.state
    try:
        action = state.parse(text, seat)
    except BoardctError as exc:
        raise ServiceError("rejected", str(exc)[:2000], "CTF-37") from None
    if action[0] == MISSING:
        raise ServiceError("rejected", "'default' (MISSING) is written by the server at the "
                                       "deadline, not handed in", "CTF-37")
    accepted = state.describe_action(action, seat)  # of the turn it was written for
    ack = await ext.submit(live, seat, text, move_id)
    return ack | {"accepted": accepted}


def turn_reports(live: Live, seat: int, turn: int | None, deadline_at: str | None = None
                 ) -> dict:
    """The reports of `seat`'s Bots for `turn` (None: the last processed one): from the live
    state for the last processed turn, from a replay of the log (the core's `apply_entry`, the
    path every log entry takes) up to the end of `turn` for an earlier one. `deadline_at`: the
    next deadline, shown in the last turn's reports."""
    state: Any = live.state
    last = state.log_turn
    if turn is None:
        turn = last
    if isinstance(turn, bool) or not 0 <= turn <= last:
        raise ServiceError("not_found", f"turn {turn} has no report yet (processed turns: "
                                        f"0-{last})")
    if turn != last:
        state = live.game.initial_state(live.setup)
        for e in live.entries:
            if state.log_turn == turn:
                break
            state = moves.apply_entry(state, e.text).state
        deadline_at = None
    reports = [turn_report(state, b.num, deadline_at) for b in state.bots_of(seat)]
    return {"turn": turn, "seat": seat,
            "reports": [rep | {"text": format_report(rep)} for rep in reports]}


def reports_part(live: Live, seat: int | None) -> dict:
    """`parts.reports`: the seat's reports of the last processed turn, as `GET /report`
    answers them (a spectator: null, a report is its player's). Kept per version, seat and
    deadline, so the messages of one version build each seat's reports once."""
    if seat is None:
        return {REPORTS: None}
    when = deadline(live)
    key = (live.version, seat, when)
    cache: dict = live.extra.setdefault(CACHE, {})
    got = cache.get(key)
    if got is None:
        if any(k[0] != live.version or k[2] != when for k in cache):
            cache.clear()  # another version's or an old deadline's
        got = cache[key] = turn_reports(live, seat, None, when)
    return {REPORTS: got}
