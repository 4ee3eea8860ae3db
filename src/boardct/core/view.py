"""The JSON Schema of a game's views: the envelope every game shares (`State.view`) around
the game's own `board` (its `board.schema.json`).

Pages, bots and clients switch on the envelope's keys (`viewer`, `players`, `to_move`, `turn`,
`result` with its `kind`, `version`) for every game alike; only `board` differs by game. The
schema is published (`boardct schema GAME`, the server's `/api/v1/schema/GAME`) and tested
against real views of every game.
"""

from __future__ import annotations

from typing import Any

from boardct.core.game import VIEW_VERSION, Game, Json
from boardct.core.outcome import Termination

DIALECT = "https://json-schema.org/draft/2020-12/schema"

RESULT_SCHEMA: Json = {
    "type": "object",
    "description": "How the game ended; null while it goes on.",
    "required": ["kind", "winners", "returns", "reason", "text"],
    "additionalProperties": False,
    "properties": {
        "kind": {"enum": [t.value for t in Termination],
                 "description": "The kind of ending, the same words for every game."},
        "winners": {"type": "array", "items": {"type": "integer", "minimum": 0},
                    "description": "The winning seats; empty for a draw."},
        "returns": {"type": "array", "items": {"type": "number"},
                    "description": "Each seat's score: 1 win, 0 loss, 0.5 draw (team shares)."},
        "reason": {"type": "string", "description": "The game's own words for the ending."},
        "text": {"type": "string", "description": "The result line, naming the players."},
    },
}


def envelope_schema(board: Json | None = None) -> Json:
    """The schema of the shared envelope, with `board` (a game's board schema) inside it."""
    return {
        "type": "object",
        "required": ["game", "version", "viewer", "players", "to_move", "turn", "result",
                     "board"],
        "additionalProperties": False,
        "properties": {
            "game": {"type": "string", "description": "The game's id."},
            "version": {"const": VIEW_VERSION,
                        "description": "The envelope's version; a client checks it."},
            "viewer": {"type": ["integer", "null"], "minimum": 0,
                       "description": "The seat this view is for; null: a spectator."},
            "players": {
                "type": "array",
                "items": {"type": "object", "required": ["seat", "name"],
                          "additionalProperties": False,
                          "properties": {"seat": {"type": "integer", "minimum": 0},
                                         "name": {"type": "string"}}},
            },
            "to_move": {"type": "array", "items": {"type": "integer", "minimum": 0},
                        "description": "The seats still to decide, as the viewer may know "
                                       "them; empty when the game is over."},
            "turn": {"type": "integer", "minimum": 0,
                     "description": "The game's own count of turns."},
            "result": {"oneOf": [{"type": "null"}, RESULT_SCHEMA]},
            "board": board if board is not None else {"type": "object"},
        },
    }


def view_schema(game: Game) -> Json:
    """The whole schema of `game`'s views (the board part as loose as an object when the
    game publishes no board schema)."""
    out: dict[str, Any] = {
        "$schema": DIALECT,
        "$id": f"urn:boardct:view:{game.id}:{VIEW_VERSION}",
        "title": f"{game.title}: a player's view",
    }
    out.update(envelope_schema(game.board_schema()))
    return out
