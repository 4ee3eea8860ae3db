"""`boardct admin`: the server's administration from the machine that holds its database
(docs/server.md, "Administration"). Needs the `server` extra; the work is server/admin.py's."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from boardct.cli.ext import BoardctGroup
from boardct.core.errors import BoardctError


def _engine(ctx: click.Context) -> Any:
    """The database of `--db` (else $BOARDCT_DB, else the one `boardct serve` uses), brought
    to the current schema."""
    try:
        from boardct.server.config import ENV_DB
        from boardct.server.db import make_engine, migrate
    except ImportError as exc:
        raise BoardctError(f"boardct admin needs the server's extra: pip install "
                           f"\"boardct[server]\" ({exc.name} is missing)") from None
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from boardct.cli.cmd_serve import default_database, safe_url

    url = ctx.obj.get("db") or os.environ.get(ENV_DB) or default_database()
    try:
        engine = make_engine(url)
        migrate(engine)
    except ArgumentError:
        raise BoardctError(f"--db: {url[:80]!r} is not a database URL (e.g. "
                           "sqlite:///boardct.db or postgresql+psycopg://user@host/db)") from None
    except SQLAlchemyError as exc:
        raise BoardctError(f"the database {safe_url(url)} cannot be used: "
                           f"{str(exc).splitlines()[0][:200]}") from None
    ctx.call_on_close(engine.dispose)
    return engine


def _admin_error(exc: Exception) -> BoardctError:
    return BoardctError(str(exc))


@click.group("admin", cls=BoardctGroup)
@click.option("--db", "db_url", default=None, metavar="URL",
              help="The server's database: sqlite:///FILE or postgresql+psycopg://... "
                   "Default: $BOARDCT_DB, else the one `boardct serve` uses.")
@click.pass_context
def group(ctx: click.Context, db_url: str | None) -> None:
    """Administer a server: administrators, accounts, abandoned guest games. Runs on the
    server's database, beside a running server or with it stopped."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db_url


@group.command("create-admin")
@click.argument("username")
@click.option("--email", default=None, help="The new account's e-mail address.")
@click.option("--password-stdin", is_flag=True,
              help="Read the password from the first line of standard input (scripts); "
                   "else it is asked for, twice, unseen.")
@click.pass_context
def create_admin_cmd(ctx: click.Context, username: str, email: str | None,
                     password_stdin: bool) -> None:
    """Make USERNAME an administrator: a new account, or the existing account of that name
    (its password unchanged)."""
    from boardct.server.accounts import check_username
    from boardct.server.admin import AdminError, create_admin, list_accounts
    from boardct.server.live import ServiceError

    try:
        check_username(username)  # before asking for a password
    except ServiceError as exc:
        raise BoardctError(exc.message) from None
    engine = _engine(ctx)
    exists = any(a.username.casefold() == username.casefold()
                 for a in list_accounts(engine, username))
    password = None
    if not exists:
        if password_stdin:
            password = sys.stdin.readline().rstrip("\r\n")
        else:
            password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        click.echo(create_admin(engine, username, password, email))
    except AdminError as exc:
        raise _admin_error(exc) from None


@group.command("list")
@click.option("--match", default=None, help="Only usernames holding this text.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per account.")
@click.pass_context
def list_cmd(ctx: click.Context, match: str | None, as_json: bool) -> None:
    """List the accounts, oldest first: id, username, e-mail, created, role, seats held."""
    from boardct.server.admin import list_accounts

    found = list_accounts(_engine(ctx), match)
    if as_json:
        for a in found:
            click.echo(json.dumps(a.to_json()))
        return
    if not found:
        click.echo("no accounts")
        return
    click.echo(f"{'id':>5}  {'username':<32} {'role':<9} {'seats':>5}  {'created':<25} e-mail")
    for a in found:
        role = "disabled" if a.disabled else "admin" if a.admin else "player"
        if a.disabled and a.admin:
            role = "admin,off"
        click.echo(f"{a.id:>5}  {a.username:<32} {role:<9} {a.seats:>5}  "
                   f"{a.created or '':<25} {a.email or ''}")


@group.command("disable")
@click.argument("username")
@click.pass_context
def disable_cmd(ctx: click.Context, username: str) -> None:
    """Disable USERNAME's account: it can no longer sign in; its browser sessions end and its
    API tokens are revoked at once. Its seats' own tokens (given per game) still play."""
    from boardct.server.admin import AdminError, set_disabled

    try:
        click.echo(set_disabled(_engine(ctx), username, True))
    except AdminError as exc:
        raise _admin_error(exc) from None


@group.command("enable")
@click.argument("username")
@click.pass_context
def enable_cmd(ctx: click.Context, username: str) -> None:
    """Enable USERNAME's account again (its owner signs in again; old tokens stay revoked)."""
    from boardct.server.admin import AdminError, set_disabled

    try:
        click.echo(set_disabled(_engine(ctx), username, False))
    except AdminError as exc:
        raise _admin_error(exc) from None


@group.command("purge-guest-games")
@click.option("--days", type=click.FloatRange(0), default=30.0, show_default=True,
              help="Idle for more than this many days: no move, and created before then.")
@click.option("--dry-run", is_flag=True, help="Only list the games that would go.")
@click.pass_context
def purge_cmd(ctx: click.Context, days: float, dry_run: bool) -> None:
    """Delete abandoned guest games: unfinished, no seat held by an account, idle for more
    than --days days; with their log, seats, offers, chat and every other row of theirs.
    Finished games and games with an account's seat are kept."""
    from boardct.server.admin import AdminError, purge_guest_games

    try:
        games = purge_guest_games(_engine(ctx), days, dry_run=dry_run)
    except AdminError as exc:
        raise _admin_error(exc) from None
    for g in games:
        click.echo(f"{g.id}  {g.game:<12} {g.status:<8} created {g.created}  "
                   f"last move {g.last or 'none'}")
    verb = "would delete" if dry_run else "deleted"
    click.echo(f"{verb} {len(games)} abandoned guest game(s) idle for more than {days:g} days")


command = group
