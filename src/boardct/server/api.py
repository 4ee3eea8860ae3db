"""The REST API, prefix /api/v1 (docs/server.md; OpenAPI at /docs).

Every request acts for the seat its `Authorization: Bearer <token>` holds, for the seat of the
signed-in account (session cookie or personal API token: server/auth.py), or for a spectator.
Bodies are read bounded and parsed by core.inputs.parse_json; every refusal is the JSON error
of `ServiceError`, never a 500 or an HTML page.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from boardct.core import moves, registry, table
from boardct.core.errors import BoardctError
from boardct.core.inputs import InputError, parse_json
from boardct.core.view import view_schema
from boardct.server import messages, ratings
from boardct.server.quotas import Quotas, client_address
from boardct.server.service import END_KINDS, GameService, Live, ServiceError, seen_lines

router = APIRouter(prefix="/api/v1")
MAX_TOKENS = 200  # tokens in one `mine` request


def body_doc(properties: dict, example: dict, required: tuple[str, ...] = ()) -> dict:
    """The OpenAPI description of a JSON body that a route reads itself (bounded, with the
    server's own error messages) rather than through a model."""
    schema = {"type": "object", "properties": properties, "required": list(required)}
    return {"requestBody": {"required": bool(required), "content": {
        "application/json": {"schema": schema, "example": example}}}}


STR, INT, BOOL, NUM = ({"type": "string"}, {"type": "integer"}, {"type": "boolean"},
                       {"type": "number"})


def service_of(request: Request) -> GameService:
    return request.app.state.service


def quotas_of(request: Request) -> Quotas:
    return request.app.state.quotas


async def read_json(request: Request) -> Any:
    """The request's JSON body, read no further than the configured bound (`too_large`);
    an empty body is {}."""
    limit = request.app.state.config.max_body
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise ServiceError("too_large", f"a request body is at most {limit:,} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise ServiceError("too_large", f"a request body is at most {limit:,} bytes")
    if not data.strip():
        return {}
    try:
        text = bytes(data).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ServiceError("bad_request", f"the body is not UTF-8 (byte {exc.start})") from None
    try:
        return parse_json(text, "body")
    except InputError as exc:
        raise ServiceError("bad_request", str(exc)) from None


async def read_object(request: Request) -> dict:
    body = await read_json(request)
    if not isinstance(body, dict):
        raise ServiceError("bad_request", "the body is a JSON object")
    return body


def bearer(request: Request) -> str | None:
    """The seat token of `Authorization: Bearer <token>`; None: none (a spectator)."""
    value = request.headers.get("authorization")
    if value is None:
        return None
    scheme, _, token = value.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServiceError("unauthorized", "Authorization: Bearer <seat token>")
    return token.strip()


async def caller(request: Request, game_id: str) -> tuple[Live, int | None]:
    """The game and the seat the request acts for (None: a spectator): server/auth.py."""
    from boardct.server.auth import seat_caller

    return await seat_caller(request, game_id)


async def account_id(request: Request) -> int | None:
    """The id of the account the request acts for (None: a guest)."""
    from boardct.server.auth import identify

    who = await identify(request)
    return who.account.id if who.account is not None else None


def field(body: dict, name: str, kind: type | tuple[type, ...], default: Any = None,
          required: bool = False) -> Any:
    """`body[name]`, checked to be of `kind` (bool is not a number here)."""
    if name not in body or body[name] is None:
        if required:
            raise ServiceError("bad_request", f"{name}: required")
        return default
    value = body[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise ServiceError("bad_request", f"{name}: not a {kinds[0].__name__}")
    if not isinstance(value, kinds):
        raise ServiceError("bad_request", f"{name}: not a {kinds[0].__name__}")
    return value


# -- catalog, creating, lobby ------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def game_offers(game_id: str) -> tuple[str, ...]:
    """The table offers (draw, undo) a game accepts, asked of the core on a new game with the
    default options (core.table.offers_allowed): the pages show only these buttons."""
    game = registry.get(game_id)
    try:
        return table.offers_allowed(game.new(seed=0, names=[""] * game.min_players))
    except BoardctError:
        return ()


def catalog() -> list[dict]:
    """Every game with the options a remote client may set: an option that can name a file on
    the server is left out, or offered with only its built-in values."""
    out = []
    for game in registry.all_games():
        options = []
        for opt in game.options:
            choices = opt.choices
            if opt.local_file:
                choices = opt.remote_choices()
                if not choices:
                    continue
            kind = {int: "int", bool: "bool"}.get(opt.type, "str")
            options.append({"name": opt.name, "default": opt.default, "help": opt.help,
                            "type": kind, "choices": list(choices) if choices else None,
                            "minimum": opt.minimum, "maximum": opt.maximum})
        out.append({"id": game.id, "title": game.title, "min_players": game.min_players,
                    "max_players": game.max_players,
                    "perfect_information": game.perfect_information,
                    "has_chance": game.has_chance, "simultaneous": game.simultaneous,
                    "featured": game.featured,
                    "offers_allowed": list(game_offers(game.id)), "options": options})
    return out


@router.get("/catalog")
async def get_catalog() -> list[dict]:
    """The games, their player counts and the options a game may be created with."""
    return catalog()


@router.post("/games", status_code=201, openapi_extra=body_doc(
    {"game": STR, "options": {"type": "object"}, "seats": {"type": "array", "items": {
        "type": "object", "properties": {"kind": {"enum": ["human", "agent"]}, "name": STR,
                                         "agent": STR}}},
     "public": BOOL, "creator_seat": {"type": ["integer", "null"]}, "move_time": NUM,
     "on_timeout": {"enum": ["loss", "default"]}, "turn_deadline": NUM, "rated": BOOL,
     "reminders": {"type": "array", "items": NUM}, "miss_limit": INT,
     "miss_action": {"enum": ["agent", "loss"]}, "miss_agent": STR},
    {"game": "<a game id from GET /catalog>", "options": {}, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}],
     "public": True}, ("game",)))
async def create_game(request: Request) -> dict:
    """Create a game: body {"game", "options", "seats": [{"kind": "human", "name", "open"} |
    {"kind": "agent", "agent": "mcts:time=1"}], "public", "creator_seat", "move_time",
    "on_timeout", "turn_deadline"}. Answers each human seat's token and invite code (only
    now). The game is private unless `public`; the lobby then offers only the seats marked
    `open`. `creator_seat` (default: the first person's seat; null: none) is the creator's
    from now on, and the signed-in creator's account's. `rated` (signed in, every seat a
    person's): the result moves the players' ratings (server/ratings.py)."""
    quotas = quotas_of(request)
    account = await account_id(request)
    # an account's games count against the account wherever it plays from; a guest's
    # against the address it comes from
    who = f"account:{account}" if account is not None else client_address(request)
    quotas.hit("create", who)
    quotas.open_games.check(who)
    body = await read_object(request)
    game = field(body, "game", str, required=True)
    options = field(body, "options", dict, {})
    seats = field(body, "seats", list, None)
    if seats is None:
        try:
            n = registry.get(game).min_players
        except Exception:
            n = 2
        seats = [{"kind": "human"} for _ in range(n)]
    public = field(body, "public", bool, False)
    if "creator_seat" in body:
        creator_seat = body["creator_seat"]
        if creator_seat is not None and (not isinstance(creator_seat, int)
                                         or isinstance(creator_seat, bool)):
            raise ServiceError("bad_request", "creator_seat: a seat number or null")
    else:
        creator_seat = next((i for i, s in enumerate(seats) if isinstance(s, dict)
                             and s.get("kind", "human") == "human"), None)
    move_time = field(body, "move_time", (int, float), None)
    turn_deadline = field(body, "turn_deadline", (int, float), None)
    on_timeout = field(body, "on_timeout", str, None)
    for name, value in (("move_time", move_time), ("turn_deadline", turn_deadline)):
        if value is not None and not 1 <= value <= 30 * 24 * 3600:
            raise ServiceError("bad_request", f"{name}: seconds, 1 to 30 days")
    if on_timeout is not None and on_timeout not in ("loss", "default"):
        raise ServiceError("bad_request", "on_timeout: \"loss\" or \"default\"")
    rated = field(body, "rated", bool, False)
    if rated:
        ratings.check_rated_request(seats, account)
    from boardct.server import clocks  # reminders, missed deadlines, the moderator

    clock = clocks.parse_settings(body)
    made = await service_of(request).create(
        game, options, seats, public=public,
        move_time=float(move_time) if move_time is not None else None,
        on_timeout=on_timeout,
        turn_deadline=float(turn_deadline) if turn_deadline is not None else None,
        creator_seat=creator_seat, account=account,
        rows=ratings.mark_rated if rated else None,
        extra=ratings.rated_extra_data() if rated else None)
    made["moderator_token"] = await clocks.save_settings(service_of(request), made["game_id"],
                                                         clock, creator_seat, account)
    quotas.open_games.add(who, made["game_id"])
    made["spectate"] = f"/play/{made['game_id']}"
    return made


@router.get("/schema/{game}")
async def get_schema(game: str) -> dict:
    """The JSON Schema of the game's views (the `view` of its state messages): the envelope
    every game shares around the game's own `board`."""
    try:
        found = registry.get(game)
    except BoardctError as exc:
        raise ServiceError("not_found", str(exc)) from None
    return view_schema(found)


@router.get("/lobby")
async def lobby(request: Request) -> dict:
    """Public games with a seat their creator opened to anyone still free."""
    return {"open": [messages.summary(g) for g in await service_of(request).lobby()]}


@router.post("/mine", openapi_extra=body_doc(
    {"tokens": {"type": "array", "items": STR}}, {"tokens": ["<seat token>"]}, ("tokens",)))
async def mine(request: Request) -> dict:
    """The games the seat tokens in the body {"tokens": [...]} hold a seat in."""
    body = await read_object(request)
    tokens = field(body, "tokens", list, [])
    if len(tokens) > MAX_TOKENS:
        raise ServiceError("bad_request", f"tokens: at most {MAX_TOKENS}")
    found = await service_of(request).mine([t for t in tokens if isinstance(t, str)])
    return {"games": [messages.summary(live, seat) | {"seat": seat} for live, seat in found]}


@router.post("/invites/{code}", openapi_extra=body_doc({"name": STR}, {"name": "Ann"}))
async def claim(code: str, request: Request) -> dict:
    """Take the seat of an invite (once): {"game_id", "seat", "token"}."""
    body = await read_object(request)
    name = field(body, "name", str, None)
    account = await account_id(request)
    if account is None:
        await ratings.refuse_guest(service_of(request), invite=code)
    return await service_of(request).claim(code, name, account)


@router.post("/games/{game_id}/seats/{seat}/take",
             openapi_extra=body_doc({"name": STR}, {"name": "Ann"}))
async def take_seat(game_id: str, seat: str, request: Request) -> dict:
    """Take a free seat its creator opened, of a public game, from the lobby (no invite
    needed): {"game_id", "seat", "token"}. The seat's invite and creation token are void
    after; signed in, the seat is the account's. The other players are told."""
    body = await read_object(request)
    name = field(body, "name", str, None)
    if not seat.isdigit() or len(seat) > 6:
        raise ServiceError("bad_request", "seat: a seat number, 0 for the first")
    account = await account_id(request)
    if account is None:
        await ratings.refuse_guest(service_of(request), game_id=game_id)
    return await service_of(request).take_seat(game_id, int(seat), name, account)


# -- one game ----------------------------------------------------------------------------------
@router.get("/games/{game_id}")
async def game_state(game_id: str, request: Request) -> dict:
    """The state message for the caller's seat (or a spectator)."""
    live, seat = await caller(request, game_id)
    return service_of(request).state_message(live, seat)


@router.get("/games/{game_id}/legal")
async def legal(game_id: str, request: Request) -> dict:
    """The caller's legal actions, with words and groups (empty unless the seat is to act)."""
    live, seat = await caller(request, game_id)
    return messages.legal_message(live, seat)


@router.post("/games/{game_id}/moves", openapi_extra=body_doc(
    {"text": STR, "move_id": STR, "version": INT},
    {"text": "24", "move_id": "3f2c9a", "version": 7}, ("text",)))
async def move(game_id: str, request: Request) -> dict:
    """Play an action in the game's notation: body {"text", "move_id"?, "version"?}."""
    body = await read_object(request)
    live, seat = await caller(request, game_id)
    if seat is not None:
        quotas_of(request).hit("move", f"{live.id}:{seat}")
    text = field(body, "text", str, required=True)
    move_id = field(body, "move_id", str, None)
    version = field(body, "version", int, None)
    return await service_of(request).submit(live.id, seat, text, move_id=move_id,
                                            version=version)


@router.post("/games/{game_id}/resign", openapi_extra=body_doc({"move_id": STR}, {}))
async def resign(game_id: str, request: Request) -> dict:
    """The caller's seat resigns (the game's own concession command where it has one)."""
    body = await read_object(request)
    live, seat = await caller(request, game_id)
    if seat is None:
        raise ServiceError("forbidden", "a spectator cannot resign: send a seat token")
    quotas_of(request).hit("move", f"{live.id}:{seat}")
    return await service_of(request).end(live.id, END_KINDS[0], seat,
                                         move_id=field(body, "move_id", str, None))


@router.get("/games/{game_id}/record")
async def record(game_id: str, request: Request) -> JSONResponse:
    """The boardct record (seed and every action), only after the end."""
    live, _seat = await caller(request, game_id)
    if not live.over:
        raise ServiceError("forbidden", "the record is shown after the end of the game")
    return JSONResponse(service_of(request).record(live).to_dict())


def action_targets(state: Any, text: str, seat: int | None) -> list[str]:
    """The board elements a replayed entry's action involves (`State.action_targets` of the
    entry parsed on the state it was played in); none for a table entry (undo, resign, draw).
    A game's hook failing marks nothing: it never stops the replay."""
    if seat is None or moves.is_table_entry(text):
        return []
    try:
        return [str(t) for t in state.action_targets(state.parse(text, seat), seat)]
    except Exception:  # noqa: BLE001 - a game's hook; the replay goes on unmarked
        return []


def seen_targets(acted: list[str], after: Any, events: list[Any]) -> list[str]:
    """The replay's last-move mark: after the end the whole game is revealed, so the action's
    own elements and what its events show (`State.event_targets`, for the spectator, who sees
    every public event), at most 16."""
    out = list(acted)
    with contextlib.suppress(Exception):  # a game's hook failing: the replay goes on
        out += [str(t) for t in after.event_targets(after.events_for(events, None), None)]
    return list(dict.fromkeys(out))[:16]


@router.get("/games/{game_id}/replay")
async def replay(game_id: str, request: Request) -> dict:
    """After the end: every position, with each seat's and the spectator's view."""
    live, _seat = await caller(request, game_id)
    if not live.over:
        raise ServiceError("forbidden", "the replay is shown after the end of the game")
    state = live.game.initial_state(live.setup)
    players = list(range(len(live.seats)))

    def views(st) -> dict:
        return {str(p): st.view(p) for p in players}

    frames: list[dict[str, Any]] = [{"ply": 0, "seat": None, "text": None, "events": [],
                                     "views": views(state), "spectator": state.view(None)}]
    for k, e in enumerate(live.entries, start=1):
        acted = action_targets(state, e.text, e.seat)  # on the state it was legal in
        done = moves.apply_entry(state, e.text)
        state = done.state
        lines = seen_lines(state, done.events, [None])
        frames.append({"ply": k, "seat": e.seat, "text": e.text, "events": list(lines[None]),
                       "views": views(state), "spectator": state.view(None),
                       "targets": seen_targets(acted, state, done.events)})
    return {"game_id": live.id, "game": live.game.id, "frames": frames}


@router.post("/games/{game_id}/rematch")
async def rematch(game_id: str, request: Request) -> dict:
    """The same game again, seats rotated: {"game_id", "seat", "token"} of the caller's
    seat in it."""
    live, seat = await caller(request, game_id)
    service = service_of(request)
    made = await service.rematch(live.id, seat)
    # the other players' pages of the finished game are told there is a rematch to join
    await service.push_state(live.id)
    return made
