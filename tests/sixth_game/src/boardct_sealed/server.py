"""Sealed Bids' own part of the game server, through the server's extension point only:

- `POST /api/v1/games/{id}/bids` {"card": K}: the caller's bid, handed in through the
  server's one path of every move (the same as the move `bid K`);
- `GET /api/v1/games/{id}/rounds`: the rounds shown so far (public, SB-5);
- the state message's `parts.standing`: each seat's place by score, from the seat's own view.
"""

from __future__ import annotations

from typing import Any

from boardct.server.ext import Live, Request, ServerExtension, ServiceError, field, read_object


def install(ext: ServerExtension) -> None:
    """The server calls this once when the app is built."""

    @ext.router.post("/games/{game_id}/bids")
    async def post_bid(game_id: str, request: Request) -> dict:
        """Bid a card of your hand for the prize on the table: body {"card": K}."""
        live, seat = await ext.seat(request, game_id, "bids")
        if seat is None:
            raise ServiceError("forbidden", "a spectator cannot bid")
        body = await read_object(request)
        value = field(body, "card", int, None)
        if value is None:
            raise ServiceError("bad_request", "card: the card to bid, a whole number")
        return await ext.submit(live, seat, f"bid {value}", field(body, "move_id", str, None))

    @ext.router.get("/games/{game_id}/rounds")
    async def get_rounds(game_id: str, request: Request) -> dict:
        """Every round shown so far: its prize, each bid, who won it."""
        live, _seat = await ext.seat(request, game_id, "rounds")
        return {"rounds": await ext.locked(live, lambda: live.state.view(None)["board"]["rounds"])}

    @ext.state_part
    def standing(live: Live, seat: int | None) -> dict[str, Any]:
        """Each seat's place by score (1: the lead), from what this seat may see."""
        scores = live.state.view(seat)["board"]["scores"]
        return {"standing": [1 + sum(1 for o in scores if o > s) for s in scores]}
