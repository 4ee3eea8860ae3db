"""The ONE place that builds what a seat receives.

Everything sent to a seat about a game is built here from `view(seat)`, the seat's own legal
actions, and events filtered by `events_for(events, seat)` (kept per seat in the log when each
entry was made); spectators get `view(None)`. Seeds and records are never part of these
messages: the record and the replay are separate endpoints that answer only after the end.

Who is still to decide is `to_move_seen(seat)`, never the game's own set: in a simultaneous
turn who has already handed in may be secret (a game's `to_move_seen` says what each viewer
may know). For the same reason a seat is told only of the log entries it may know of
(`Entry.known_to`: not another seat's sealed order), numbered for it (`Live.seen_version`),
so neither the log nor the version counts the orders others have handed in.

A game's own server module adds per-seat parts (`boardct.server.ext`, `state_part`): they go
under the message's `parts`, only in messages about a game of that id, and each is built for
the one seat the message is for. The rule every part keeps: it is computed only from what that
seat may know, the seat's `view(seat)` and its events through `events_for(events, seat)` (or
the game's own functions that filter the same way); a spectator's part holds only what
`view(None)` holds.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import orjson

from boardct.core import table
from boardct.core.errors import BoardctError
from boardct.core.inputs import check_shape, parse_json
from boardct.server.live import Entry, Live, iso

PROTOCOL = 1
LOG_TAIL = 100  # log entries in a state message (the newest); the replay has them all
MAX_LEGAL = 20_000  # a bound on a message's legal actions, far above any game's (~800)

StatePart = Callable[[Live, int | None], dict[str, Any]]

log = logging.getLogger("boardct.server")


class Encoded:
    """A part of a message already encoded as JSON (`data`, bytes), which `encode` puts into
    the message's text as it is: a cached legal list (`legal_json`) is kept as one bytes
    object, not as the hundred-odd small lists and dicts its rows are, which every young
    collection of the garbage collector would otherwise walk until the game's next move."""

    __slots__ = ("data",)

    def __init__(self, data: bytes):
        self.data = data


def _fragment(obj: Any) -> Any:
    """orjson's `default`: an `Encoded` part goes in as its bytes."""
    if type(obj) is Encoded:
        return orjson.Fragment(obj.data)
    raise TypeError(type(obj).__name__)


def _decoded(obj: Any) -> Any:
    """The standard library's `default`: an `Encoded` part decoded."""
    if type(obj) is Encoded:
        return orjson.loads(obj.data)
    raise TypeError(f"{type(obj).__name__} is not JSON serializable")


def encode(msg: Any) -> str:
    """A message as the JSON text sent on a websocket: orjson (several times faster than the
    standard library: every update of every move goes through here), the standard library
    for what orjson refuses (an integer beyond 64 bits in some game's view). Keys that are not
    text (a game's dict by seat number) are allowed on a second try only: the option that
    allows them doubles the time of every message. `Encoded` parts go in as they are."""
    try:
        return orjson.dumps(msg, default=_fragment).decode()
    except TypeError:
        pass
    try:
        return orjson.dumps(msg, default=_fragment, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(msg, default=_decoded)


_SCALARS = (str, int, bool, type(None))


def decode(text: str, source: str = "message") -> Any:
    """A client's message, parsed as `core.inputs.parse_json` parses it (the same checks:
    `check_shape`), by orjson: every move comes through here, and the standard library's
    parser with its checks cost several times more. A flat object of short strings and small
    numbers (every message of protocol.md but a long chat line) needs one look at each
    value; what orjson refuses goes to `parse_json`, for its error naming line and column."""
    try:
        doc = orjson.loads(text)
    except orjson.JSONDecodeError:
        return parse_json(text, source)
    if type(doc) is dict and all(
            type(v) in _SCALARS and (len(v) <= 1000 if type(v) is str else
                                     type(v) is not int or -10**18 < v < 10**18)
            and len(k) <= 1000 for k, v in doc.items()):
        return doc  # orjson has refused invalid Unicode already
    return check_shape(doc, source)


def seat_names(live: Live) -> list[str]:
    return [s.name or f"Player {s.seat + 1}" for s in live.seats]


def summary(live: Live, seat: int | None = None) -> dict:
    """A game in the lobby (`seat` None) or a list of mine (`seat` mine): nothing secret in
    it; the version is the one `seat` is shown."""
    return {
        "game_id": live.id,
        "game": live.game.id,
        "title": live.game.title,
        "names": seat_names(live),
        "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "claimed": s.claimed,
                   "open": s.open} for s in live.seats],
        "version": live.seen_version(seat),
        "status": live.status,
        "result_text": live.result["text"] if live.result else None,
        "created": iso(live.created),
    }


def legal_list(live: Live, seat: int | None) -> list[dict]:
    """The seat's legal actions (empty unless the seat is to act): text, words, group, and
    the board elements each involves (`targets`, computed by the engine: pages make those
    clickable and never parse notation)."""
    data = legal_bytes(live, seat)
    return orjson.loads(data) if data is not None else []


def legal_json(live: Live, seat: int | None) -> Encoded:
    """`legal_list` as the JSON an update carries, encoded once per version and seat."""
    data = legal_bytes(live, seat)
    return Encoded(data if data is not None else b"[]")


def legal_bytes(live: Live, seat: int | None) -> bytes | None:
    """The JSON of the seat's legal list, made once per version and seat and kept with the
    game until its next move as bytes (one object the collector does not track, where the
    rows were a hundred-odd lists and dicts that every young collection walked, at every
    game held); None when the seat is not to act."""
    state = live.state
    if seat is None or state.is_over or seat not in state.current_players():
        return None
    key = (live.version, seat)
    cached = live.legal_cache.get(key)
    if cached is not None:
        return cached
    try:
        out = orjson.dumps(legal_rows(state, seat))
    except BoardctError:
        return None
    if any(v != live.version for v, _ in live.legal_cache):
        live.legal_cache.clear()
    live.legal_cache[key] = out
    return out


def status_line(live: Live) -> str:
    """The game's status line (the same for every viewer: `State.status_line` takes none),
    made once for the state in play and kept with the game for the other seats' messages
    (by the state and the version: a reload replays entries into the same state object)."""
    state = live.state
    kept = live.extra.get("status_line")
    if kept is not None and kept[0] is state and kept[1] == live.version:
        return kept[2]
    line = state.status_line()
    live.extra["status_line"] = (state, live.version, line)
    return line


def legal_rows(state: Any, seat: int) -> list[dict]:
    """`core.table.legal_moves` (each legal action once, in the game's notation, with its
    words, group and targets) made straight into the message's rows, at most MAX_LEGAL: the
    list of the seat to act is built at every move, and the intermediate `Move`s cost as
    much as the rows."""
    notation, words = state.notation, state.describe_action
    group, targets = state.action_group, state.action_targets
    # each action once, in the game's order (dict keys: the check is made in C)
    actions = list(dict.fromkeys(state.legal_actions(seat)))[:MAX_LEGAL]
    return [{"text": notation(a), "description": words(a, seat), "group": group(a),
             "targets": list(targets(a, seat))} for a in actions]


def view_for(live: Live, seat: int | None, encoded: bool = False) -> dict:
    """`live.state.view(seat)`. For a message that is only ever sent (`encoded`) in a game
    with perfect information, whose board is the same for every viewer (the game's promise,
    `Game.perfect_information`), the board is built and encoded once a version for every seat
    and spectator (`Live.board_cache`: each move's update goes to both seats, and the board is
    most of a view's cost) and kept as bytes until the next version, which the collector does
    not walk (a board kept as dicts would be, at every game held)."""
    state = live.state
    if not (encoded and live.game.perfect_information):
        return state.view(seat)
    cached = live.board_cache
    if cached is None or cached[0] != live.version:
        board = state.board_view(None)
        try:
            data = orjson.dumps(board)
        except TypeError:  # what orjson refuses (`encode`'s fallbacks)
            data = encode(board).encode()
        cached = live.board_cache = (live.version, Encoded(data))
    return state.view_around(seat, cached[1])


def prompt_for(live: Live, seat: int | None, to_move: list[int]) -> str:
    """The game's prompt for `seat` when it is to decide; `to_move` is `to_move_seen(seat)`.
    `State.prompt` speaks to the first player to decide; another seat deciding at the same
    time (simultaneous orders) gets a plain one naming it. Which of the two a seat gets
    depends only on what it may know: the first of the players it is shown (in CTF 2187 every
    player still in the game), who is then the first of those who really owe orders."""
    if seat is None or seat not in to_move or seat not in live.state.current_players():
        return ""
    if seat == to_move[0]:
        return live.state.prompt()
    return f"Player {seat + 1}: "


def log_entry(live: Live, e: Entry, seat: int | None) -> dict:
    """One log entry as `seat` may know it (one it may know of: `Entry.known_to`), with its
    number for `seat`. Who acted is named only where turns are taken one at a time (in a
    simultaneous turn, who has handed in orders is the game's to say)."""
    who = e.seat if (not live.game.simultaneous or e.seat == seat or live.over) else None
    return {"version": e.numbers[seat], "seat": who, "events": list(e.lines.get(seat, []))}


def known_log(live: Live, seat: int | None, limit: int = LOG_TAIL) -> list[Entry]:
    """The newest `limit` entries `seat` may know of, oldest first."""
    out = []
    for e in reversed(live.entries):
        if e.known_to(seat):
            out.append(e)
            if len(out) >= limit:
                break
    out.reverse()
    return out


def offers_allowed(live: Live, seat: int | None) -> list[str]:
    """The offers (draw, undo) `seat` may make in this game, for the pages' buttons: what
    the game can carry out (core.table.offers_allowed, asked once of the game's initial
    state), none for a spectator or after the end, and none when another seat is an agent
    (an agent accepts no offers, social.py)."""
    kinds = live.extra.get("offers_allowed")
    if kinds is None:
        try:
            kinds = table.offers_allowed(live.game.initial_state(live.setup))
        except BoardctError:
            kinds = ()
        live.extra["offers_allowed"] = kinds
    if seat is None or live.state.is_over:
        return []
    if any(s.kind != "human" for s in live.seats if s.seat != seat):
        return []
    return list(kinds)


def game_parts(live: Live, seat: int | None,
               parts: Mapping[str, Sequence[StatePart]]) -> dict[str, Any]:
    """The `parts` of `seat`'s message: the parts registered for this game's id only, each
    built for `seat`. A part that fails is left out (and logged): the rest of the message is
    still right, and the game still plays."""
    out: dict[str, Any] = {}
    for part in parts.get(live.game.id, ()):
        try:
            out.update(part(live, seat))
        except Exception:  # a game's part never stops its state messages
            log.exception("the state part %s of %s failed", getattr(part, "__name__", part),
                          live.game.id)
    return out


def _changing(live: Live, seat: int | None,
              extras: Iterable[Callable[[Live, int | None], dict[str, Any]]],
              parts: Mapping[str, Sequence[StatePart]], encoded: bool = False) -> dict:
    """The fields of `seat`'s state message that a log entry can change (`UPDATE_FIELDS`
    and what `extras` add), built once: the state message adds the rest, an update carries
    only these. `encoded`: the legal list as its cached JSON (`Encoded`, for a message that
    only goes through `encode`), not as Python rows."""
    state = live.state
    to_move = list(state.to_move_seen(seat))
    over = state.is_over
    msg = {
        "version": live.seen_version(seat),
        "seat": seat,
        "to_move": to_move,
        "my_turn": seat is not None and seat in state.current_players(),
        "view": view_for(live, seat, encoded),
        "legal": legal_json(live, seat) if encoded else legal_list(live, seat),
        "status_line": status_line(live),
        "prompt": prompt_for(live, seat, to_move),
        "offers": [],
        "offers_allowed": offers_allowed(live, seat),
        "deadline": iso(live.deadline),
        "over": over,
        "result": live.result if over else None,
        "rematch": live.rematch,
        "status": live.status,
        "parts": game_parts(live, seat, parts),
    }
    for extra in extras:
        msg.update(extra(live, seat))
    return msg


def state_message(live: Live, seat: int | None,
                  extras: Iterable[Callable[[Live, int | None], dict[str, Any]]] = (),
                  parts: Mapping[str, Sequence[StatePart]] | None = None) -> dict:
    """The state message of protocol.md for `seat` (None: a spectator). `extras` (the
    service's `state_extras`) add fields such as offers and chat, each built for `seat`;
    `parts` (the service's `state_parts`, by game id) the games' own parts, under `parts`."""
    msg = {
        "type": "state",
        "v": PROTOCOL,
        "game_id": live.id,
        "game": live.game.id,
        "title": live.game.title,
        "names": seat_names(live),
        "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "claimed": s.claimed}
                  for s in live.seats],
        "log": [log_entry(live, e, seat) for e in known_log(live, seat)],
        "chat": [],
        # the seats a team chat message from this seat reaches (State.teammates): the pages
        # offer team chat where it is more than the seat itself
        "team": list(live.state.teammates(seat)) if seat is not None else [],
    }
    msg.update(_changing(live, seat, extras, parts or {}))
    return msg


# What an update leaves out of the state message, as the client already has it: the game,
# the seats and names (a claim or a seat taken sends a whole state), the log (the update's
# own entry is added to it), the chat (its messages come on their own).
NOT_IN_UPDATES = ("chat",)


def update_state(live: Live, seat: int | None,
                 extras: Iterable[Callable[[Live, int | None], dict[str, Any]]] = (),
                 parts: Mapping[str, Sequence[StatePart]] | None = None) -> dict:
    """What an update carries of `seat`'s state: the fields a log entry can change (the view,
    whose turn, the seat's legal actions if it is to act, the result...), not those the
    client already has. A client merges it into its state message and appends the update's
    own entry (`version`, `seat`, `events`) to the log. Its legal list is `Encoded`: an
    update is only ever sent (`encode`)."""
    msg = _changing(live, seat, extras, parts or {}, encoded=True)
    for key in NOT_IN_UPDATES:
        msg.pop(key, None)
    return msg


def update_message(live: Live, e: Entry, seat: int | None, state: dict) -> dict:
    """The websocket `update` after log entry `e`, for `seat`, carrying what changed of its
    state (`update_state`: the state now, not at `e`)."""
    entry = log_entry(live, e, seat)
    return {"type": "update", "version": entry["version"], "seat": entry["seat"],
            "events": entry["events"], "state": state}


def legal_message(live: Live, seat: int | None) -> dict:
    return {"version": live.seen_version(seat), "actions": legal_list(live, seat)}
