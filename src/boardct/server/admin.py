"""What `boardct admin` does to a server's database (docs/server.md, "Administration"):
administrators, listing accounts, disabling and enabling one, purging abandoned guest games.

These run on the machine that holds the database, beside the server or with it stopped: they
are plain transactions on the database, and a running server sees their effect at the next
request (a disabled account's next request is refused; a purged game is gone).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Engine,
    MetaData,
    delete,
    exists,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from boardct.server.accounts import check_email, check_password, check_username
from boardct.server.live import STATUS_OVER, ServiceError, iso, utcnow
from boardct.server.models import (
    AccountRow,
    ActionRow,
    ApiTokenRow,
    GameRow,
    SeatRow,
    SessionRow,
)


class AdminError(Exception):
    """A request `boardct admin` refuses, in words for the operator; nothing was changed."""


def _hasher() -> Any:
    """The password hash a server's accounts use (server/accounts.py), at its defaults."""
    from boardct.server.accounts import Accounts
    from boardct.server.config import ServerConfig

    return Accounts(None, ServerConfig()).hasher


def _checked(fn: Any, value: Any) -> Any:
    try:
        return fn(value)
    except ServiceError as exc:
        raise AdminError(exc.message) from None


def create_admin(engine: Engine, username: str, password: str | None,
                 email: str | None = None) -> str:
    """Make `username` an administrator: a new account with `password`, or, where the
    account exists, that account (its password unchanged; `password` may be None then).
    Returns what was done, in words."""
    name = _checked(check_username, username)
    with Session(engine) as session:
        row = session.scalars(select(AccountRow).where(
            AccountRow.username_key == name.casefold())).first()
        if row is not None:
            if row.is_admin:
                return f"{row.username} is an administrator already"
            row.is_admin = True
            session.commit()
            return f"{row.username} is an administrator now"
    if password is None:
        raise AdminError(f"there is no account {name}: give a password to make one")
    secret = _checked(check_password, password)
    mail = _checked(check_email, email)
    hashed = _hasher().hash(secret)
    with Session(engine) as session:
        session.add(AccountRow(username=name, username_key=name.casefold(),
                               password_hash=hashed, email=mail, created=utcnow(),
                               is_admin=True, disabled=False))
        try:
            session.commit()
        except IntegrityError:
            raise AdminError(f"the username {name} was taken a moment ago") from None
    return f"made the administrator {name}"


@dataclass(frozen=True)
class AccountLine:
    id: int
    username: str
    email: str | None
    created: str | None
    admin: bool
    disabled: bool
    seats: int  # seats the account holds, in every game

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "username": self.username, "email": self.email,
                "created": self.created, "admin": self.admin, "disabled": self.disabled,
                "seats": self.seats}


def list_accounts(engine: Engine, match: str | None = None) -> list[AccountLine]:
    """Every account (those whose username holds `match`, whatever its case), oldest
    first."""
    seats = (select(func.count()).where(SeatRow.account == AccountRow.id)
             .correlate(AccountRow).scalar_subquery())
    q = select(AccountRow, seats).order_by(AccountRow.id)
    if match:
        q = q.where(AccountRow.username_key.contains(match.casefold(), autoescape=True))
    with Session(engine) as session:
        return [AccountLine(a.id, a.username, a.email, iso(a.created), bool(a.is_admin),
                            bool(a.disabled), int(n or 0)) for a, n in session.execute(q)]


def set_disabled(engine: Engine, username: str, disabled: bool) -> str:
    """Disable (or enable again) an account. Disabling also ends its browser sessions and
    revokes its API tokens: whoever held them signs in again once it is enabled, and makes
    new tokens. Returns what was done, in words."""
    key = username.casefold()
    with Session(engine) as session:
        row = session.scalars(select(AccountRow).where(AccountRow.username_key == key)).first()
        if row is None:
            raise AdminError(f"there is no account {username}")
        if bool(row.disabled) == disabled:
            return f"{row.username} is {'disabled' if disabled else 'enabled'} already"
        row.disabled = disabled
        ended = revoked = 0
        if disabled:
            ended = session.execute(delete(SessionRow).where(
                SessionRow.account == row.id)).rowcount  # type: ignore[attr-defined]
            revoked = session.execute(update(ApiTokenRow).where(
                ApiTokenRow.account == row.id, ApiTokenRow.revoked.is_(None))
                .values(revoked=utcnow())).rowcount  # type: ignore[attr-defined]
        session.commit()
        if not disabled:
            return f"enabled {row.username}"
        return (f"disabled {row.username}: {ended} session(s) ended, {revoked} API token(s) "
                "revoked")


# -- abandoned guest games ---------------------------------------------------------------------
@dataclass(frozen=True)
class GameLine:
    id: str
    game: str
    status: str
    created: str | None
    last: str | None  # the last entry of its log (None: not one move)


def abandoned_guest_games(session: Session, days: float, now: dt.datetime | None = None
                          ) -> list[GameLine]:
    """The unfinished games no account holds a seat of, with no entry (or creation) for
    more than `days` days."""
    cutoff = (now or utcnow()) - dt.timedelta(days=days)
    last = (select(func.max(ActionRow.at)).where(ActionRow.game == GameRow.id)
            .correlate(GameRow).scalar_subquery())
    accounted = exists().where(SeatRow.game == GameRow.id, SeatRow.account.is_not(None))
    q = (select(GameRow.id, GameRow.game, GameRow.status, GameRow.created, last)
         .where(GameRow.status != STATUS_OVER, ~accounted, GameRow.created < cutoff,
                or_(last.is_(None), last < cutoff))
         .order_by(GameRow.created))
    return [GameLine(g, kind, status, iso(created), iso(at))
            for g, kind, status, created, at in session.execute(q)]


def purge_guest_games(engine: Engine, days: float, dry_run: bool = False,
                      now: dt.datetime | None = None) -> list[GameLine]:
    """Delete the abandoned guest games (`abandoned_guest_games`) with every row that refers
    to them, whatever module's table it is in (found through the database's own foreign
    keys, so tables added later go too). `dry_run`: only list them. Returns the games."""
    if days < 0:
        raise AdminError("--days: zero or more")
    with Session(engine) as session:
        games = abandoned_guest_games(session, days, now)
        if dry_run or not games:
            return games
        ids = [g.id for g in games]
        meta = MetaData()
        meta.reflect(bind=session.connection())
        games_table = meta.tables["games"]
        # children first: every table whose foreign key reaches `games`, deepest first
        for table in reversed(meta.sorted_tables):
            if table is games_table:
                continue
            for fk in table.foreign_keys:
                if fk.column.table is games_table and fk.column.name == "id":
                    for chunk in _chunks(ids):
                        session.execute(delete(table).where(fk.parent.in_(chunk)))
                    break
        for chunk in _chunks(ids):
            session.execute(delete(games_table).where(games_table.c.id.in_(chunk)))
        session.commit()
    return games


def _chunks(ids: list[str], size: int = 500) -> list[list[str]]:
    return [ids[i:i + size] for i in range(0, len(ids), size)]
