"""Offers (draw, undo) and the per-game chat, stored with the game.

Offers. A seat offers a draw or to take back its last move; every other *human* seat answers.
All accept: a draw ends the game drawn (every player the same return), an undo appends the
record entry `undo N` to the game's log (so a replay shows it, core/table.py), where the
core's `undo_problem` allows it (not after the end, not a move that revealed something). One
refusal closes the offer. An offer lapses when the game moves on (its version changes), so
nobody accepts an undo of a different move than the one offered. The version is the one every
seat knows (`Live.public_version`): in a simultaneous turn another seat's sealed order does
not make an offer lapse, which would tell that it was handed in (CTF-41). Agent seats never agree to
anything (they have nobody to ask): with an agent opponent an offer is refused at once, with
the reason. A game's own requests in its notation (a command asking for a draw or a ruleset
change) go through moves like any other action; nothing here.

Chat. A message goes to everyone (`to: "all"`) or to the sender's team (`to: "team"`,
`State.teammates`: the seats on the sender's side; a one-player side's team chat reaches the
sender only).
Spectators read the public chat only and cannot write. Text is bounded (`MAX_CHAT_CHARS`
characters), control characters are removed, and it is stored and sent as written (`<` arrives
as `<`): escaping belongs to the renderer, which knows its output (the pages insert chat with
textContent, so a `<script>` line shows as text; a terminal or a script shows it as typed).
"""

from __future__ import annotations

import datetime as dt
import secrets
import unicodedata
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from boardct.core.errors import BoardctError
from boardct.server.models import Base

MAX_CHAT_CHARS = 500
CHAT_HISTORY = 200  # messages a state message or GET /chat carries, newest last
OFFER_KINDS = ("draw", "undo")


class OfferRow(Base):
    """A draw or undo offer: who made it, at which version, the answers so far."""

    __tablename__ = "offers"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    by_seat: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)  # the game's version when offered
    count: Mapped[int] = mapped_column(Integer, default=0)  # undo: how many actions back
    answers: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # "seat": bool
    status: Mapped[str] = mapped_column(String(16), default="open")
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One chat message; `team` lists the seats a team message reaches (None: everyone)."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200), default="")
    to: Mapped[str] = mapped_column(String(8))  # all, team
    team: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class SocialError(Exception):
    """A refused chat message or offer: `code` is the protocol's error code (bad_request,
    forbidden, not_found, conflict, game_over, too_large), the message one line."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


# -- chat ------------------------------------------------------------------------------------------
def clean_text(text: Any) -> str:
    """The chat text to store: a string, control characters (other than none) removed,
    surrounding blanks stripped, not empty, at most `MAX_CHAT_CHARS` characters."""
    if not isinstance(text, str):
        raise SocialError("bad_request", "chat text must be a string")
    if len(text) > 4 * MAX_CHAT_CHARS:
        raise SocialError("too_large", f"a chat message is at most {MAX_CHAT_CHARS} characters")
    cleaned = "".join(" " if ch in "\t\r\n" else ch for ch in text
                      if ch in "\t\r\n" or unicodedata.category(ch)[0] != "C").strip()
    if not cleaned:
        raise SocialError("bad_request", "a chat message needs some text")
    if len(cleaned) > MAX_CHAT_CHARS:
        raise SocialError("too_large", f"a chat message is at most {MAX_CHAT_CHARS} characters "
                          f"(this one has {len(cleaned)})")
    return cleaned


def chat_json(row: ChatRow) -> dict:
    """A message as sent to a client: the text as written (bounded and without control
    characters by `clean_text`); a client escapes it for whatever it renders into."""
    return {"type": "chat", "id": row.id, "seat": row.seat, "name": row.name,
            "to": row.to, "text": row.text,
            "at": row.at.astimezone(dt.UTC).isoformat(timespec="seconds")
            if row.at.tzinfo else row.at.isoformat(timespec="seconds") + "+00:00"}


def may_read(row: ChatRow | dict, seat: int | None) -> bool:
    """Whether `seat` (None: a spectator) may read the message: public ones everyone, a team
    message only the team it was sent to."""
    to = row["to"] if isinstance(row, dict) else row.to
    team = row.get("team") if isinstance(row, dict) else row.team
    if to == "all":
        return True
    return seat is not None and team is not None and seat in team


def post_chat(session: Session, game_id: str, seat: int | None, name: str, state: Any,
              text: Any, to: Any = "all") -> ChatRow:
    """Store a message from `seat` (the caller commits). Spectators cannot write."""
    if seat is None:
        raise SocialError("forbidden", "spectators read the public chat; a seat token is needed "
                          "to write")
    if to not in ("all", "team"):
        raise SocialError("bad_request", f"'to' is 'all' or 'team', not {str(to)[:20]!r}")
    cleaned = clean_text(text)
    team = sorted(int(p) for p in state.teammates(seat)) if to == "team" else None
    row = ChatRow(game=game_id, seat=seat, name=str(name)[:200], to=to, team=team,
                  text=cleaned, at=_now())
    session.add(row)
    session.flush()
    return row


def chat_for(session: Session, game_id: str, seat: int | None,
             limit: int = CHAT_HISTORY) -> list[dict]:
    """The last `limit` messages `seat` may read, oldest first."""
    rows = session.scalars(select(ChatRow).where(ChatRow.game == game_id)
                           .order_by(ChatRow.id.desc()).limit(4 * limit)).all()
    seen = [chat_json(r) for r in rows if may_read(r, seat)][:limit]
    return seen[::-1]


# -- offers ----------------------------------------------------------------------------------------
def offer_json(row: OfferRow) -> dict:
    return {"id": row.id, "kind": row.kind, "by": row.by_seat, "open": row.status == "open",
            "status": row.status, "count": row.count,
            "answers": {k: bool(v) for k, v in (row.answers or {}).items()}}


def lapse_offers(session: Session, game_id: str, version: int) -> None:
    """Close the open offers made at another version (the game moved on)."""
    for row in session.scalars(select(OfferRow).where(OfferRow.game == game_id,
                                                      OfferRow.status == "open")).all():
        if row.version != version:
            row.status = "lapsed"


def make_offer(session: Session, game_id: str, seat: int | None, kind: Any, state: Any,
               version: int, human_seats: list[int]) -> OfferRow:
    """Record an offer by `seat` (the caller commits). Refused: spectators, a game over, an
    unknown kind, an undo the core does not allow, an opponent that is an agent, a second
    open offer of the same kind."""
    from boardct.core import table

    if seat is None:
        raise SocialError("forbidden", "a spectator cannot make an offer")
    if kind not in OFFER_KINDS:
        raise SocialError("bad_request", f"an offer is one of {', '.join(OFFER_KINDS)}, not "
                          f"{str(kind)[:20]!r}")
    if state.is_over:
        raise SocialError("game_over", f"the game is over: {state.describe_outcome()}")
    others = [p for p in range(len(state.setup.names)) if p != seat]
    agents = [p for p in others if p not in human_seats]
    if agents:
        raise SocialError("forbidden", f"seat {agents[0]} is an agent, which accepts no offers")
    lapse_offers(session, game_id, version)
    for row in session.scalars(select(OfferRow).where(OfferRow.game == game_id,
                                                      OfferRow.status == "open")).all():
        if row.kind == kind:
            raise SocialError("conflict", f"a {kind} offer (id {row.id}) is already open")
    count = 0
    if kind == "undo" and "undo" not in table.offers_allowed(state):
        raise SocialError("forbidden", f"{state.game.title} takes no undo offers: its turns "
                          "are simultaneous (a sealed order taken back would tell the others)")
    if kind == "draw":
        try:  # a game may draw only through its own command, or have no drawn result
            state.clone().agree_draw()
        except BoardctError as exc:
            raise SocialError("forbidden", getattr(exc, "reason", str(exc))) from None
    if kind == "undo":
        # the offering seat's own last action and everything after it (the others' replies)
        count = table.undo_count(state, seat, frozenset(others))
        if count == 0:
            raise SocialError("forbidden", "you have made no move to take back")
        problem = table.undo_problem(state, count)
        if problem is not None:
            raise SocialError("forbidden", f"cannot undo: {problem}")
    row = OfferRow(id=secrets.token_urlsafe(9), game=game_id, kind=kind, by_seat=seat,
                   version=version, count=count, answers={}, status="open", created=_now())
    session.add(row)
    session.flush()
    return row


def answer_offer(session: Session, game_id: str, offer_id: Any, seat: int | None,
                 accept: Any, state: Any, version: int) -> OfferRow:
    """Record `seat`'s answer (the caller commits). The row's status becomes "accepted" once
    every other seat has accepted (the caller then carries the offer out), "declined" at the
    first refusal. An answer to a lapsed, closed or unknown offer is refused."""
    if seat is None:
        raise SocialError("forbidden", "a spectator cannot answer an offer")
    if not isinstance(accept, bool):
        raise SocialError("bad_request", "'accept' is true or false")
    if not isinstance(offer_id, str) or len(offer_id) > 64:
        raise SocialError("bad_request", "an offer id is a short string")
    row = session.get(OfferRow, offer_id)
    if row is None or row.game != game_id:
        raise SocialError("not_found", "no such offer in this game")
    if row.status == "open" and row.version != version:
        row.status = "lapsed"
    if row.status != "open":
        raise SocialError("conflict", f"the offer is {row.status}, no longer open")
    if row.by_seat == seat:
        raise SocialError("forbidden", "the seat that made an offer does not answer it")
    if state.is_over:
        row.status = "lapsed"
        raise SocialError("game_over", f"the game is over: {state.describe_outcome()}")
    answers = dict(row.answers or {})
    answers[str(seat)] = accept
    row.answers = answers
    others = [p for p in range(len(state.setup.names)) if p != row.by_seat]
    if not accept:
        row.status = "declined"
    elif all(answers.get(str(p)) for p in others):
        row.status = "accepted"
    return row
