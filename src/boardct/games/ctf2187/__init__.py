"""CTF 2187, the computer-moderated robot battle, as a turn processor.

Rulebook: seeds/003_823d16db726a4b79.txt; rulings CTF-1..CTF-41: rules/ctf2187.md; data
tables (TOML) beside the code; docs/ctf2187.md for referees and players. The game is offered
to boardct through the `boardct.games` entry point as `GAME`.
"""

from boardct.games.ctf2187.state import CtfGame, CtfState

GAME = CtfGame()
CtfState.game = GAME

__all__ = ["GAME", "CtfGame", "CtfState"]
