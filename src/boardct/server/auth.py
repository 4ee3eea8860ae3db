"""Who a request acts for, and the guard against cross-site writes.

A request to the API carries at most one of:
- `Authorization: Bearer <seat token>`: that seat of that game (a guest, or a bot given it);
- `Authorization: Bearer bct_...`: a personal API token, the account it belongs to;
- the `boardct_session` cookie a browser got at sign-in: that account.
The bearer header wins over the cookie. An account acts in a game for the seat it holds there
(of several: the `seat` query parameter, or the websocket hello's `seat`); holding none, it
watches as a spectator.

Cross-site request forgery: the session cookie is `SameSite=Lax` and `HttpOnly`, and every
write (POST, PUT, PATCH, DELETE) must come from the server's own pages, checked on the
headers browsers set and pages cannot: `Sec-Fetch-Site` must be `same-origin` or `none`
(typed by the user); a browser too old to send it must send an `Origin` whose host is the
request's `Host`. A request with neither is not from a browser (a script with a token) and
carries no ambient credential a forger could borrow. This is the check of OWASP's "Verifying
origin with standard headers" and "Fetch Metadata" defences, as Go's net/http
CrossOriginProtection does it. The websocket's handshake is not a write a browser guards: the
session cookie counts there only when the `Origin` is the server's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request, WebSocket
from fastapi.responses import JSONResponse, Response

from boardct.server.accounts import Account, Accounts, is_api_token
from boardct.server.live import Live, ServiceError

SESSION_COOKIE = "boardct_session"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


@dataclass(frozen=True)
class Caller:
    """The credential of a request: a seat token, or an account (by cookie or API token)."""

    token: str | None = None
    account: Account | None = None
    by_cookie: bool = False


def accounts_of(request: Request | WebSocket) -> Accounts:
    return request.app.state.accounts


def bearer_value(request: Request | WebSocket) -> str | None:
    """The token of `Authorization: Bearer <token>`; None: no such header."""
    value = request.headers.get("authorization")
    if value is None:
        return None
    scheme, _, token = value.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServiceError("unauthorized", "Authorization: Bearer <seat token or API token>")
    return token.strip()


async def identify(request: Request) -> Caller:
    """The request's credential (see the module docstring). An unknown or revoked API token,
    or a session cookie that is no longer valid sent with no other credential, is simply no
    account: the request is a guest's."""
    token = bearer_value(request)
    accounts = accounts_of(request)
    if token is not None:
        if is_api_token(token):
            account = await accounts.by_api_token(token)
            if account is None:
                raise ServiceError("unauthorized", "this API token is unknown or revoked")
            return Caller(account=account)
        return Caller(token=token)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        account = await accounts.by_session(cookie)
        if account is not None:
            return Caller(account=account, by_cookie=True)
    return Caller()


async def signed_in(request: Request) -> Account:
    """The account the request acts for; `unauthorized` when none."""
    found = (await identify(request)).account
    if found is None:
        raise ServiceError("unauthorized", "sign in first (or send a personal API token)")
    return found


def seat_choice(value: Any) -> int | None:
    """The `seat` an account picks among its seats of one game (None: not given)."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 100:
        return value
    if isinstance(value, str) and value.isdigit() and len(value) <= 2:
        return int(value)
    raise ServiceError("bad_request", "seat: a seat number, 0 for the first")


async def seat_caller(request: Request, game_id: str) -> tuple[Live, int | None]:
    """The game and the seat the request acts for (None: a spectator)."""
    who = await identify(request)
    service = request.app.state.service
    account = who.account.id if who.account is not None else None
    return await service.authorize(game_id, who.token, account,
                                   seat_choice(request.query_params.get("seat")))


# -- cross-site writes -------------------------------------------------------------------------
def _origin_key(origin: str) -> str:
    parts = urlsplit(origin.strip().lower())
    return f"{parts.scheme}://{parts.netloc}"


def same_origin(headers: Any, trusted: tuple[str, ...] = ()) -> bool:
    """Whether a browser request comes from the server's own pages (or a trusted origin), by
    `Sec-Fetch-Site`, else `Origin` against `Host`. Neither header: not a browser: True."""
    site = headers.get("sec-fetch-site")
    origin = headers.get("origin")
    if origin is not None and trusted and _origin_key(origin) in {_origin_key(t)
                                                                   for t in trusted}:
        return True
    if site is not None:
        return site.lower() in ("same-origin", "none")
    if origin is None:
        return True
    host = (headers.get("host") or "").lower()
    return origin.lower() != "null" and urlsplit(origin.lower()).netloc == host


class CrossOriginGuard:
    """ASGI middleware: a write (POST, PUT, PATCH, DELETE) from another site's page is
    answered 403 before any route sees it (module docstring)."""

    def __init__(self, app: Any, trusted: tuple[str, ...] = ()):
        self.app = app
        self.trusted = tuple(trusted)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("method", "GET") not in SAFE_METHODS:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                       for k, v in scope.get("headers", ())}
            if not same_origin(headers, self.trusted):
                resp = JSONResponse({"error": {
                    "code": "forbidden", "rule": None,
                    "message": "a cross-site request is refused: write from this server's "
                               "own pages, or from a script with a token"}}, status_code=403)
                await resp(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def socket_account(ws: WebSocket) -> Account | None:
    """The account of a websocket's session cookie, only where the handshake came from the
    server's own pages (another site's page cannot open a socket as the visitor)."""
    cookie = ws.cookies.get(SESSION_COOKIE)
    if not cookie:
        return None
    trusted = tuple(getattr(ws.app.state.config, "trusted_origins", ()) or ())
    if ws.headers.get("origin") is None or not same_origin(
            {"origin": ws.headers.get("origin"), "host": ws.headers.get("host")}, trusted):
        return None
    return await accounts_of(ws).by_session(cookie)


# -- the cookie --------------------------------------------------------------------------------
def set_session_cookie(response: Response, request: Request, value: str) -> None:
    config = request.app.state.config
    secure = config.secure_cookies
    if secure is None:
        secure = request.url.scheme == "https"
    response.set_cookie(SESSION_COOKIE, value, max_age=config.session_days * 24 * 3600,
                        path="/", secure=bool(secure), httponly=True, samesite="lax")


def clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
