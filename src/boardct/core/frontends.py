"""Where a game keeps the parts that only front ends use.

A game package holds two kinds of module. Its engine (rules, notation, views, tensors)
imports only the core, so it runs headless without click or FastAPI. Its front-end parts (the
game's own `boardct` subcommands, its server routes, its page renderer, its own agents)
import the small extension points the front ends publish (`boardct.cli.ext`,
`boardct.server.ext`, `boardct.agents.base.register`), and the front ends load them when
they start. The engine never imports them: it names them here, by
module name and file name, so declaring them costs nothing and needs none of their libraries.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FrontEnds:
    """A game's front-end parts. Every field is optional: a game without them is still
    played, served and drawn (as text) everywhere.

    - `cli`: a module with `COMMANDS`, a sequence of click commands `boardct` adds beside its
      own (CTF 2187's moderator workflow `boardct ctf2187 ...`, Shift's `boardct cards ...`).
    - `server`: a module with `install(ext)`, called once with the server's extension point
      (`boardct.server.ext.ServerExtension`): the game's REST routes and the parts it adds to
      each seat's state message.
    - `web`: a folder of the game's package holding `renderer.js`, the ES module that draws the
      game's board in the browser from its view, and whatever files that module imports. The
      server serves the folder at `/static/games/<game id>/`.
    - `agents`: a module that registers agents of the game's own with
      `boardct.agents.base.register` (CTF 2187's `sparring`, a level of its strength ladder),
      imported by the agents' registry when it is asked for a name it does not know.
    """

    cli: str | None = None
    server: str | None = None
    web: str | None = None
    agents: str | None = None
