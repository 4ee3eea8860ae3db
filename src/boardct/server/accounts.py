"""Player accounts: sign-up and sign-in, browser sessions, personal API tokens, and the seats
an account holds.

Accounts are optional: a guest plays with the seat token of each seat as before. An account
is a username (unique whatever its case) and a password kept only as its Argon2 hash (pwdlib),
with an optional e-mail address. A signed-in browser holds a session cookie; scripts and bots
use personal API tokens (`bct_...`). The database keeps only the SHA-256 of a session or API
token (they are 256-bit random strings: a fast hash is enough, as for the seat tokens), so a
copy of the database signs no one in.

A disabled account (`boardct admin disable`, server/admin.py) signs in no more; its sessions
and API tokens are refused.

A seat belongs to an account (`seats.account`) when it was created, claimed or taken by a
signed-in player, or when a guest signs up or in with the seat tokens their browser holds
(`move_seats`): from then on the account plays it from any device, and "my games" lists it.
The seat's token keeps working for whoever holds it (a guest's other tab, a bot).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import secrets
from dataclasses import dataclass
from typing import Any, cast

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import CursorResult, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from boardct.server.live import ServiceError, token_hash, utcnow
from boardct.server.models import AccountRow, ApiTokenRow, SeatRow, SessionRow

USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,31}")
MIN_PASSWORD, MAX_PASSWORD = 8, 256
MAX_EMAIL = 254
EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s]+\.[^@\s]+")
MAX_TOKEN_NAME = 60
MAX_API_TOKENS = 50  # live tokens of one account
API_TOKEN_PREFIX = "bct_"  # a seat token is 32 characters; an API token 4 + 43
API_TOKEN_LENGTH = len(API_TOKEN_PREFIX) + 43
MAX_MOVED = 200  # seat tokens moved into an account in one request


@dataclass(frozen=True)
class Account:
    """The account a request acts for."""

    id: int
    username: str
    email: str | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "username": self.username, "email": self.email}


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.username, row.email)


def new_api_token() -> str:
    return API_TOKEN_PREFIX + secrets.token_urlsafe(32)


def is_api_token(token: str) -> bool:
    """Whether a bearer token is a personal API token (else: a seat token)."""
    return len(token) == API_TOKEN_LENGTH and token.startswith(API_TOKEN_PREFIX)


def check_username(username: Any) -> str:
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise ServiceError("bad_request", "username: 3-32 letters, digits, '_', '.' or '-', "
                                          "starting with a letter or digit")
    return username


def check_password(password: Any) -> str:
    if (not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD
            or "\x00" in password):
        raise ServiceError("bad_request", f"password: {MIN_PASSWORD}-{MAX_PASSWORD} "
                                          "characters")
    return password


def check_email(email: Any) -> str | None:
    if email is None or email == "":
        return None
    if (not isinstance(email, str) or len(email) > MAX_EMAIL or not email.isprintable()
            or not EMAIL.fullmatch(email)):
        raise ServiceError("bad_request", "email: an e-mail address such as ann@example.org, "
                                          "or nothing")
    return email


def check_token_name(name: Any) -> str:
    if (not isinstance(name, str) or not name.strip() or len(name) > MAX_TOKEN_NAME
            or not name.isprintable()):
        raise ServiceError("bad_request", f"name: printable text of 1-{MAX_TOKEN_NAME} "
                                          "characters, to tell your tokens apart")
    return name.strip()


class Accounts:
    """The accounts of one server, over the game service's database calls (`service.db`).

    Password hashing runs in worker threads (argon2 releases the GIL): the event loop keeps
    serving games while a sign-in is checked."""

    def __init__(self, service: Any, config: Any):
        self.service = service
        self.session_days = int(getattr(config, "session_days", 30))
        self.hasher = PasswordHash((Argon2Hasher(
            time_cost=int(getattr(config, "argon2_time_cost", 3)),
            memory_cost=int(getattr(config, "argon2_memory_kib", 65536))),))
        # verified against when the username is unknown, so a sign-in takes as long whether
        # the account exists or not (no telling usernames apart by the time taken)
        self._dummy_hash: str | None = None

    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, password: str, hashed: str) -> bool:
        return await asyncio.to_thread(self.hasher.verify, password, hashed)

    # -- signing up and in ---------------------------------------------------------------------
    async def sign_up(self, username: Any, password: Any, email: Any = None) -> Account:
        """A new account; `conflict` when the username (whatever its case) is taken."""
        name = check_username(username)
        secret = check_password(password)
        mail = check_email(email)
        hashed = await self._hash(secret)

        def insert(session: Session) -> AccountRow | None:
            row = AccountRow(username=name, username_key=name.casefold(), password_hash=hashed,
                             email=mail, created=utcnow())
            session.add(row)
            try:
                session.commit()
            except IntegrityError:
                session.rollback()
                return None
            return row

        row = await self.service.db(insert)
        if row is None:
            raise ServiceError("conflict", "that username is taken")
        return _account(row)

    async def sign_in(self, username: Any, password: Any) -> Account:
        """The account whose username and password these are; else `unauthorized`, the same
        answer (and about the same time) whether the username exists or not."""
        refused = ServiceError("unauthorized", "wrong username or password")
        if not isinstance(username, str) or not isinstance(password, str) \
                or len(username) > 32 or len(password) > MAX_PASSWORD:
            raise refused
        key = username.casefold()
        row = await self.service.db(lambda session: session.scalars(
            select(AccountRow).where(AccountRow.username_key == key)).first())
        if row is None:
            if self._dummy_hash is None:
                self._dummy_hash = await self._hash(secrets.token_urlsafe(16))
            await self._verify(password, self._dummy_hash)
            raise refused
        if not await self._verify(password, row.password_hash):
            raise refused
        if row.disabled:  # told only to whoever knows the password
            raise ServiceError("forbidden", "this account is disabled: ask the server's "
                                            "administrator")
        return _account(row)

    # -- browser sessions ----------------------------------------------------------------------
    async def new_session(self, account: Account) -> str:
        """A session for `account`: the cookie's value (its hash is stored)."""
        value = secrets.token_urlsafe(32)
        now = utcnow()

        def insert(session: Session) -> None:
            # the account's expired sessions go now: the table holds only live ones
            session.execute(delete(SessionRow).where(SessionRow.account == account.id,
                                                     SessionRow.expires <= now))
            session.add(SessionRow(id_hash=token_hash(value), account=account.id, created=now,
                                   expires=now + dt.timedelta(days=self.session_days)))
            session.commit()

        await self.service.db(insert)
        return value

    async def end_session(self, value: str) -> None:
        h = token_hash(value)

        def drop(session: Session) -> None:
            session.execute(delete(SessionRow).where(SessionRow.id_hash == h))
            session.commit()

        await self.service.db(drop)

    async def by_session(self, value: str | None) -> Account | None:
        """The account of a session cookie still valid (None: none, unknown or expired)."""
        if not value or len(value) > 100:
            return None
        h = token_hash(value)
        now = utcnow()

        def read(session: Session) -> AccountRow | None:
            return session.scalars(select(AccountRow).join(
                SessionRow, SessionRow.account == AccountRow.id).where(
                SessionRow.id_hash == h, SessionRow.expires > now,
                AccountRow.disabled.is_(False))).first()

        row = await self.service.db(read)
        return _account(row) if row is not None else None

    # -- personal API tokens -------------------------------------------------------------------
    async def new_api_token(self, account: Account, name: Any) -> dict[str, Any]:
        """A named API token for `account`: {"id", "name", "created", "token"} (the token in
        clear only now)."""
        label = check_token_name(name)
        token = new_api_token()
        now = utcnow()

        def insert(session: Session) -> ApiTokenRow | None:
            live = session.scalars(select(ApiTokenRow.id).where(
                ApiTokenRow.account == account.id, ApiTokenRow.revoked.is_(None))).all()
            if len(live) >= MAX_API_TOKENS:
                return None
            row = ApiTokenRow(account=account.id, name=label, token_hash=token_hash(token),
                              created=now)
            session.add(row)
            session.commit()
            return row

        row = await self.service.db(insert)
        if row is None:
            raise ServiceError("conflict", f"at most {MAX_API_TOKENS} tokens: revoke one first")
        return _token_json(row) | {"token": token}

    async def api_tokens(self, account: Account) -> list[dict[str, Any]]:
        rows = await self.service.db(lambda session: list(session.scalars(
            select(ApiTokenRow).where(ApiTokenRow.account == account.id,
                                      ApiTokenRow.revoked.is_(None)).order_by(ApiTokenRow.id))))
        return [_token_json(r) for r in rows]

    async def revoke_api_token(self, account: Account, token_id: int) -> None:
        """Revoke one of `account`'s tokens (another account's: `not_found`, as if none)."""
        now = utcnow()

        def revoke(session: Session) -> int:
            done = cast("CursorResult[Any]", session.execute(
                update(ApiTokenRow).where(ApiTokenRow.id == token_id,
                                          ApiTokenRow.account == account.id,
                                          ApiTokenRow.revoked.is_(None)).values(revoked=now)))
            session.commit()
            return done.rowcount

        if await self.service.db(revoke) != 1:
            raise ServiceError("not_found", "no such token")

    async def by_api_token(self, token: str) -> Account | None:
        """The account of a live API token (None: unknown or revoked)."""
        h = token_hash(token)

        def read(session: Session) -> AccountRow | None:
            return session.scalars(select(AccountRow).join(
                ApiTokenRow, ApiTokenRow.account == AccountRow.id).where(
                ApiTokenRow.token_hash == h, ApiTokenRow.revoked.is_(None),
                AccountRow.disabled.is_(False))).first()

        row = await self.service.db(read)
        return _account(row) if row is not None else None

    # -- seats ---------------------------------------------------------------------------------
    async def move_seats(self, account: Account, tokens: Any) -> list[tuple[str, int]]:
        """Put the seats these guest seat tokens hold into `account` (a seat already in an
        account stays where it is). Returns the (game, seat) moved."""
        if not isinstance(tokens, list) or len(tokens) > MAX_MOVED:
            raise ServiceError("bad_request", f"tokens: a list of at most {MAX_MOVED} seat "
                                              "tokens")
        hashes = [token_hash(t) for t in tokens if isinstance(t, str) and 0 < len(t) <= 200]
        if not hashes:
            return []

        def bind(session: Session) -> list[tuple[str, int]]:
            rows = session.execute(select(SeatRow.game, SeatRow.seat).where(
                SeatRow.token_hash.in_(hashes), SeatRow.account.is_(None),
                SeatRow.kind == "human")).all()
            session.execute(update(SeatRow).where(
                SeatRow.token_hash.in_(hashes), SeatRow.account.is_(None),
                SeatRow.kind == "human").values(account=account.id))
            session.commit()
            return [(g, s) for g, s in rows]

        moved = await self.service.db(bind)
        for gid, seat in moved:
            live = self.service.cached(gid)
            if live is not None and seat < len(live.seats):
                live.seats[seat].account = account.id
        return moved

    async def seats(self, account: Account) -> list[tuple[str, int]]:
        """Every (game, seat) of the account, newest game first."""
        from boardct.server.models import GameRow

        return await self.service.db(lambda session: [(g, s) for g, s in session.execute(
            select(SeatRow.game, SeatRow.seat).join(GameRow, GameRow.id == SeatRow.game)
            .where(SeatRow.account == account.id)
            .order_by(GameRow.created.desc(), SeatRow.seat).limit(500))])


def _token_json(row: ApiTokenRow) -> dict[str, Any]:
    from boardct.server.live import iso

    return {"id": row.id, "name": row.name, "created": iso(row.created)}
