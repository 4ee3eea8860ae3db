"""Agents: players that choose actions through the core API only.

`make("random")` or `make("random:seed=3")` builds an agent by name with parameters; agents
register themselves with `register`. An agent is told of every action that follows (its own
and the others') through `observe`, so agents that keep a search tree can reuse it.
"""

from __future__ import annotations

from boardct.agents.base import Agent, make, names, register
from boardct.agents.greedy import GreedyAgent
from boardct.agents.levels import LevelAgent
from boardct.agents.mcts import MCTSAgent
from boardct.agents.random_agent import RandomAgent
from boardct.agents.search import SearchAgent

__all__ = ["Agent", "GreedyAgent", "LevelAgent", "MCTSAgent", "RandomAgent", "SearchAgent",
           "make", "names", "register"]
