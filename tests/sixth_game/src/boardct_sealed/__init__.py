"""Sealed Bids, boardct's sixth game in its test suite: a package of its own that boardct finds
through the `boardct.games` entry point (see this folder's pyproject.toml)."""

from boardct_sealed.game import GAME, SealedGame, SealedState

__all__ = ["GAME", "SealedGame", "SealedState"]
