"""The account routes, prefix /api/v1/account (docs/server.md, "Accounts and tokens").

Sign-up and sign-in answer the account and set the session cookie; both take the guest's seat
tokens (`tokens`, those this browser holds) and move those seats into the account. Sign-in and
sign-up are rate limited (server/quotas.py: "signin" by client address and by username,
"signup" by client address): over the limit, `429` with `Retry-After`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from boardct.server import messages
from boardct.server.accounts import Account
from boardct.server.api import STR, body_doc, field, read_object, service_of
from boardct.server.auth import (
    SESSION_COOKIE,
    accounts_of,
    clear_session_cookie,
    identify,
    set_session_cookie,
    signed_in,
)
from boardct.server.live import ServiceError

router = APIRouter(prefix="/api/v1/account", tags=["account"])
TOKENS = {"type": "array", "items": STR}


def client_address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


async def _signed_in_answer(request: Request, account: Account, tokens: Any,
                            status: int) -> JSONResponse:
    """The account, its moved seats, and a fresh session cookie (any older session of this
    browser ended: a session is never carried over a sign-in)."""
    accounts = accounts_of(request)
    moved = await accounts.move_seats(account, tokens if tokens is not None else [])
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        await accounts.end_session(old)
    value = await accounts.new_session(account)
    resp = JSONResponse({"account": account.to_json(),
                         "moved": [{"game_id": g, "seat": s} for g, s in moved]},
                        status_code=status)
    set_session_cookie(resp, request, value)
    return resp


@router.post("/signup", status_code=201, openapi_extra=body_doc(
    {"username": STR, "password": STR, "email": STR, "tokens": TOKENS},
    {"username": "ann", "password": "correct horse battery", "email": None, "tokens": []},
    ("username", "password")))
async def sign_up(request: Request) -> JSONResponse:
    """A new account, signed in: body {"username", "password", "email"?, "tokens"?} (the
    guest's seat tokens to move into it)."""
    request.app.state.quotas.hit("signup", client_address(request))
    body = await read_object(request)
    account = await accounts_of(request).sign_up(body.get("username"), body.get("password"),
                                                 body.get("email"))
    return await _signed_in_answer(request, account, field(body, "tokens", list, None), 201)


@router.post("/signin", openapi_extra=body_doc(
    {"username": STR, "password": STR, "tokens": TOKENS},
    {"username": "ann", "password": "correct horse battery", "tokens": []},
    ("username", "password")))
async def sign_in(request: Request) -> JSONResponse:
    """Sign in: body {"username", "password", "tokens"?}; a wrong pair is `unauthorized`
    (the same whether the username exists or not)."""
    body = await read_object(request)
    username = body.get("username")
    quotas = request.app.state.quotas
    quotas.hit("signin", client_address(request))
    if isinstance(username, str):
        quotas.hit("signin", "user:" + username[:64].casefold())
    account = await accounts_of(request).sign_in(username, body.get("password"))
    return await _signed_in_answer(request, account, field(body, "tokens", list, None), 200)


@router.post("/signout")
async def sign_out(request: Request) -> JSONResponse:
    """End this browser's session (its cookie is void everywhere from now on)."""
    value = request.cookies.get(SESSION_COOKIE)
    if value:
        await accounts_of(request).end_session(value)
    resp = JSONResponse({"signed_out": True})
    clear_session_cookie(resp, request)
    return resp


@router.get("")
async def who_am_i(request: Request) -> dict:
    """The signed-in account {"account": {"id", "username", "email"}}, or {"account": null}
    for a guest (the pages ask on every visit: a guest is no error)."""
    found = (await identify(request)).account
    return {"account": found.to_json() if found is not None else None}


@router.post("/seats", openapi_extra=body_doc({"tokens": TOKENS}, {"tokens": ["<seat token>"]},
                                              ("tokens",)))
async def move_seats(request: Request) -> dict:
    """Move the seats these guest seat tokens hold into the account: {"moved": [...]}."""
    account = await signed_in(request)
    body = await read_object(request)
    moved = await accounts_of(request).move_seats(account, field(body, "tokens", list, []))
    return {"moved": [{"game_id": g, "seat": s} for g, s in moved]}


@router.get("/games")
async def my_games(request: Request) -> dict:
    """Every seat of the account, newest game first: the lobby's summary of the game and the
    seat."""
    account = await signed_in(request)
    service = service_of(request)
    out = []
    for gid, seat in await accounts_of(request).seats(account):
        try:
            live = await service.get(gid)
        except ServiceError:
            continue
        out.append(messages.summary(live, seat) | {"seat": seat})
    return {"games": out}


# -- personal API tokens -----------------------------------------------------------------------
async def _by_browser(request: Request) -> Account:
    """Tokens are made and revoked from a signed-in browser (a stolen API token cannot make
    itself new ones)."""
    who = await identify(request)
    if who.account is None or not who.by_cookie:
        raise ServiceError("unauthorized", "API tokens are managed from a signed-in browser")
    return who.account


@router.get("/tokens")
async def list_tokens(request: Request) -> dict:
    """The account's live API tokens (names and ids; never the tokens)."""
    return {"tokens": await accounts_of(request).api_tokens(await signed_in(request))}


@router.post("/tokens", status_code=201, openapi_extra=body_doc(
    {"name": STR}, {"name": "my bot"}, ("name",)))
async def new_token(request: Request) -> dict:
    """A new named API token: {"id", "name", "created", "token"}, the token shown only now."""
    account = await _by_browser(request)
    body = await read_object(request)
    return await accounts_of(request).new_api_token(account, body.get("name"))


@router.delete("/tokens/{token_id}")
async def revoke_token(token_id: str, request: Request) -> dict:
    """Revoke a token: refused from now on."""
    account = await _by_browser(request)
    if not token_id.isdigit() or len(token_id) > 12:
        raise ServiceError("not_found", "no such token")
    await accounts_of(request).revoke_api_token(account, int(token_id))
    return {"revoked": int(token_id)}
