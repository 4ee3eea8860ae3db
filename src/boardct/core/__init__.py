"""The core: the game API, seeded chance, records and errors. It knows no game."""

from boardct.core.errors import (
    BoardctError,
    DataError,
    IllegalAction,
    OptionError,
    ParseError,
    RecordError,
)
from boardct.core.game import (
    MESSAGE,
    RESUME,
    SUSPEND,
    Action,
    Event,
    Game,
    Option,
    Outcome,
    Setup,
    State,
)
from boardct.core.rng import Rng

__all__ = [
    "MESSAGE",
    "RESUME",
    "SUSPEND",
    "Action",
    "BoardctError",
    "DataError",
    "Event",
    "Game",
    "IllegalAction",
    "Option",
    "OptionError",
    "Outcome",
    "ParseError",
    "RecordError",
    "Rng",
    "Setup",
    "State",
]
