"""The tables, as SQLAlchemy 2 typed ORM classes. The migrations in `migrations/` create them;
these classes only describe them for queries (change both together, with a new migration)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """A game's setup and where it stands. `version` counts the entries of its action log and
    is the compare-and-set guard of every move."""

    __tablename__ = "games"
    # the deadline keeper's looks: playing games by deadline (migration 0005_clocks)
    __table_args__ = (Index("ix_games_status_deadline", "status", "deadline_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(24))  # 64-bit: text, for every database
    names: Mapped[list[str]] = mapped_column(JSON)
    public: Mapped[bool] = mapped_column(default=False)
    status: Mapped[str] = mapped_column(String(16), default="open")  # open, playing, over
    version: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # deadlines (used by the deadline scheduler)
    deadline_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                            nullable=True)
    move_time: Mapped[float | None] = mapped_column(Float, nullable=True)
    on_timeout: Mapped[str | None] = mapped_column(String(16), nullable=True)
    turn_deadline: Mapped[float | None] = mapped_column(Float, nullable=True)


class SeatRow(Base):
    """One seat: a person (token and invite stored as SHA-256 hashes only) or an agent."""

    __tablename__ = "seats"

    game: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human, agent
    agent: Mapped[str | None] = mapped_column(String(200), nullable=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    claimed: Mapped[bool] = mapped_column(default=False)
    # the account the seat belongs to (None: a guest's seat, held by its token only)
    account: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True,
                                                index=True)
    # the creator offers this seat to anyone in the lobby (a listed game's other seats go by
    # invite only)
    open: Mapped[bool] = mapped_column(default=False)


class ActionRow(Base):
    """One entry of a game's log, in the record's text (an action, or "resign N", "undo N")."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game", "seq"), UniqueConstraint("game", "move_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)  # 1.., the game's version after this entry
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    move_id: Mapped[str | None] = mapped_column(String(100), nullable=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A player's account: the username (shown as typed; `username_key`, its case-folded
    form, is unique), the Argon2 hash of the password (never the password), an optional
    e-mail address."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(32))
    username_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    # `boardct admin` (server/admin.py): an administrator; a disabled account signs in no
    # more, and its sessions and API tokens are refused
    is_admin: Mapped[bool] = mapped_column(default=False)
    disabled: Mapped[bool] = mapped_column(default=False)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie (never the cookie itself)."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ApiTokenRow(Base):
    """A personal API token of an account, for scripts and bots: named, stored as its SHA-256
    only, revocable (`revoked` set: refused from then on)."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    revoked: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RatedGameRow(Base):
    """A game created rated (server/ratings.py). `counted` is set in the transaction of the
    game's last entry, once: the ratings moved then (`note` None) or the game turned out
    unrated (`note` says why: a guest's or an agent's seat)."""

    __tablename__ = "rated_games"

    game: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    counted: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    note: Mapped[str | None] = mapped_column(String(200), nullable=True)


class RatingRow(Base):
    """An account's rating at one game: OpenSkill's `mu` and `sigma` (every game), and the
    Glicko-2 rating, deviation and volatility of its two-player rated games."""

    __tablename__ = "ratings"

    account: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    glicko: Mapped[float | None] = mapped_column(Float, nullable=True)
    glicko_rd: Mapped[float | None] = mapped_column(Float, nullable=True)
    glicko_vol: Mapped[float | None] = mapped_column(Float, nullable=True)
    glicko_games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RatingHistoryRow(Base):
    """One rated game's change of one account's rating: before and after, the place."""

    __tablename__ = "rating_history"
    __table_args__ = (UniqueConstraint("game_id", "account"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    game: Mapped[str] = mapped_column(String(32))  # the game's kind (its registry id)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)  # 1: first place (shared by a team, a tie)
    score: Mapped[float] = mapped_column(Float)  # the seat's return
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    glicko_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    glicko_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
