"""The terminal front end: hot-seat play, play against the computer, scripts and replays.

It knows games only through the core API: `render`/`render_rich`, `prompt`, `parse`, `apply`,
`describe`, `outcome` and the game's `help_text`. FieldShift's suspend and resume commands
arrive as the core's SUSPEND and RESUME events; the terminal asks for the file.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from boardct.agents.base import Agent
from boardct.core.errors import BoardctError
from boardct.core.game import RESUME, SUSPEND, State
from boardct.core.records import load_state

Ask = Callable[[str], str]

QUIET_EVENTS = frozenset({"turn"})  # shown by the screen itself


@dataclass
class Step:
    """What one typed line did: `kind` is ok, rejected, help, suspended or resumed."""

    kind: str
    lines: list[str] = field(default_factory=list)
    path: Path | None = None


def wants_color(console: Console, color: str) -> bool:
    """`--color always`, or `auto` on a terminal that shows colour."""
    return color == "always" or (color == "auto" and console.is_terminal
                                 and console.color_system is not None)


def make_console(color: str, file=None) -> Console:
    """Rich console for `--color auto|always|never` (Rich also handles Windows terminals)."""
    if color == "always":
        return Console(file=file, force_terminal=True, highlight=False, soft_wrap=True)
    if color == "never":
        return Console(file=file, no_color=True, color_system=None, highlight=False,
                       soft_wrap=True, force_terminal=False)
    return Console(file=file, highlight=False, soft_wrap=True)


def default_save_name(state: State) -> str:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"boardct-{state.game.id}-{stamp}.json"


class Session:
    """One game at the terminal: the state, who the computer plays, and how to show things."""

    def __init__(self, state: State, console: Console, *, color: bool = False,
                 computer: dict[int, Agent] | None = None, save_path: Path | None = None):
        self.state = state
        self.console = console
        self.color = color
        self.computer = computer or {}
        self.save_path = save_path

    # -- showing -------------------------------------------------------------------------------
    def viewer(self) -> int | None:
        """Whose eyes the board is drawn for: nobody's secrets in perfect-information games."""
        if self.state.game.perfect_information:
            return None
        humans = [p for p in self.state.iter_players() if p not in self.computer]
        if len(humans) == 1:
            return humans[0]
        players = self.state.current_players()
        return players[0] if players else None

    def show_board(self) -> None:
        if self.color:
            self.console.print(self.state.render_rich(self.viewer()))
        else:
            self.console.print(self.state.render(self.viewer()), markup=False)

    def end_line(self) -> str:
        out = self.state.outcome
        return f"Result: {out.describe()}" if out is not None else self.state.prompt()

    def say(self, lines: list[str], style: str | None = None) -> None:
        for text in lines:
            self.console.print(text, markup=False, style=style if self.color else None)

    # -- one line of input ---------------------------------------------------------------------
    def handle(self, text: str, ask: Ask) -> Step:
        """Apply one typed line. Dialogue answers (a file name) are read with `ask`."""
        token = text.strip()
        if token.lower() in ("help", "?"):
            return Step("help", (self.state.game.help_text or "No command reference.").split("\n"))
        players = self.state.current_players()
        if not players:
            return Step("rejected", ["The game is over."])
        player = players[0]
        try:
            action = self.state.parse(token, player)
            before = self.state.clone()
            events = self.state.apply(action, player)
        except BoardctError as exc:
            return Step("rejected", [f"Rejected: {exc}"])
        for ev in events:
            if ev[0] == SUSPEND:
                return self._suspend(ask)
            if ev[0] == RESUME:
                return self._resume(ask)
        return Step("ok", self._played(before, player, action, events))

    def _played(self, before: State, player: int, action, events: list) -> list[str]:
        """After an action: tell the agents, keep the save file, and say what happened."""
        for agent in self.computer.values():
            agent.observe(before, player, action)
        self.autosave()
        return [self.state.describe(ev) for ev in events if ev[0] not in QUIET_EVENTS]

    def _suspend(self, ask: Ask) -> Step:
        name = ask("Save the game to file [" + default_save_name(self.state) + "]: ").strip()
        path = Path(name or default_save_name(self.state))
        try:
            self.state.record().save(path)
        except OSError as exc:
            return Step("rejected", [f"Could not save to {path}: {exc.strerror or exc}; the game "
                                     "goes on."])
        return Step("suspended", [f"Game saved to {path}. Resume with: boardct play "
                                  f"{self.state.game.id} --resume {path}"], path)

    def _resume(self, ask: Ask) -> Step:
        name = ask("Path of the saved game: ").strip()
        if not name:
            return Step("rejected", ["No file named; the game goes on."])
        try:
            state = load_state(name)
        except BoardctError as exc:
            return Step("rejected", [f"Could not resume: {exc}"])
        if state.game.id != self.state.game.id:
            return Step("rejected", [f"Could not resume: {name} is a {state.game.title} game"])
        self.state = state
        self.autosave()
        return Step("resumed", [f"Resumed {name}."], Path(name))

    def computer_moves(self) -> list[str]:
        """Let the computer decide while it is its turn; the lines say what it did."""
        lines = []
        while True:
            players = self.state.current_players()
            if not players or players[0] not in self.computer:
                return lines
            p = players[0]
            agent = self.computer[p]
            action = agent.select(self.state.clone(), p)
            text = self.state.notation(action)
            before = self.state.clone()
            events = self.state.apply(action, p)
            lines.append(f"Player {p + 1} (computer): {text}")
            lines += self._played(before, p, action, events)

    def autosave(self) -> None:
        if self.save_path is not None:
            self.state.record().save(self.save_path)

    # -- script mode ---------------------------------------------------------------------------
    def run_script(self, lines: list[str], trace: bool) -> int:
        """Apply script tokens (commands and dialogue answers); print the final screen, or with
        `trace` every token, its messages and the board after it."""
        tokens = iter(script_tokens(lines))

        def ask(prompt: str) -> str:
            answer = next(tokens, "")
            if trace:
                self.console.print(f"{prompt}{answer}", markup=False)
            return answer

        self._trace_computer(trace)
        for token in tokens:
            if self.state.is_over:
                if trace:
                    self.console.print(f"(game over: {token!r} ignored)", markup=False)
                continue
            if trace:
                self.console.print(f"{self.state.prompt()}{token}", markup=False)
            step = self.handle(token, ask)
            if trace:
                self.say(step.lines, "red" if step.kind == "rejected" else None)
            if step.kind == "suspended":
                if not trace:
                    self.say(step.lines)
                return 0
            self._trace_computer(trace)
            if trace and step.kind != "help":
                self.show_board()
        if not trace:
            self.show_board()
        self.console.print(self.end_line(), markup=False)
        return 0

    def _trace_computer(self, trace: bool) -> None:
        lines = self.computer_moves()
        if trace and lines:
            self.say(lines)
            self.show_board()

    # -- interactive play ----------------------------------------------------------------------
    def run_interactive(self, read: Ask, clear: bool = False) -> int:
        handover = not self.state.game.perfect_information and len(self.computer) == 0
        shown_for: int | None = None
        messages: list[str] = []
        messages += self.computer_moves()
        while True:
            if clear:
                self.console.clear()
            if handover and not self.state.is_over:
                current = self.state.current_players()[0]
                if current != shown_for:
                    self.console.clear()
                    name = self.state.setup.names[current] or f"Player {current + 1}"
                    try:
                        read(f"Pass the keyboard to {name} (Player {current + 1}) and press "
                             "Enter. ")
                    except (EOFError, KeyboardInterrupt):
                        return self._leave_unsaved()
                    shown_for = current
                    if clear:
                        self.console.clear()
            self.say(messages)
            messages = []
            self.show_board()
            if self.state.is_over:
                self.console.print(self.end_line(), markup=False)
                self.autosave()
                return 0
            while True:
                try:
                    text = read(self.state.prompt())
                except (EOFError, KeyboardInterrupt):
                    return self._leave_unsaved()
                step = self.handle(text, read)
                if step.kind == "rejected":
                    self.say(step.lines, "red")
                    continue
                if step.kind == "help":
                    self.say(step.lines)
                    continue
                if step.kind == "suspended":
                    self.say(step.lines)
                    return 0
                messages = step.lines + self.computer_moves()
                break

    def _leave_unsaved(self) -> int:
        """Input ended (Ctrl-D, Ctrl-C, a closed pipe): keep the game rather than lose it."""
        if self.state.is_over or not self.state.history():
            return 0
        path = self.save_path or Path(default_save_name(self.state))
        self.state.record().save(path)
        self.console.print(f"\nInput ended; the game was saved to {path}. Resume with: "
                           f"boardct play {self.state.game.id} --resume {path}", markup=False)
        return 0


def script_tokens(lines: list[str]) -> Iterator[str]:
    """Tokens one per line; blank lines and # comments are skipped."""
    for line in lines:
        text = line.split("#", 1)[0].strip()
        if text:
            yield text


# -- replay ----------------------------------------------------------------------------------
def positions(state: State) -> tuple[list[State], list[str]]:
    """Every position of a finished or saved game from the start, and the actions between."""
    from boardct.core.records import replay

    record = state.record()
    out = [replay(record, upto=0)]
    cur = out[0].clone()
    for text in record.actions:
        cur.apply_entry(text)
        out.append(cur.clone())
    return out, record.actions


def run_replay(state: State, console: Console, color: bool, read: Ask) -> int:
    """Step through a game: Enter or n next, p previous, a number jumps there, e end, q quit."""
    frames, texts = positions(state)
    k = 0
    session = Session(frames[0], console, color=color)
    while True:
        session.state = frames[k]
        last = f"after {k}: {texts[k - 1]}" if k else "start"
        console.print(f"--- move {k} of {len(texts)} ({last}) ---", markup=False)
        session.show_board()
        console.print(session.end_line(), markup=False)
        try:
            cmd = read("[Enter/n next, p previous, NUMBER jump, e end, q quit] ").strip().lower()
        except EOFError:
            return 0
        if cmd in ("", "n"):
            k = min(k + 1, len(texts))
        elif cmd == "p":
            k = max(k - 1, 0)
        elif cmd == "e":
            k = len(texts)
        elif cmd == "q":
            return 0
        elif cmd.isdigit():
            k = max(0, min(int(cmd), len(texts)))
        else:
            console.print(f"Unknown key {cmd!r}.", markup=False)
