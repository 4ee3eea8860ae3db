"""How a Shift position reads: events in words, the view, the screen and the prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardct.core.game import Event, State
from boardct.games.shift.actions import (
    P_CRIT,
    P_DEFEND,
    P_END,
    P_OVER,
    P_SHIFT,
    P_START,
    P_TOSS,
    PHASE_NAMES,
    TOKENS,
    gears_in,
    player_label,
)
from boardct.games.shift.cardformat import LEVELS, RING

if TYPE_CHECKING:  # pragma: no cover
    from rich.text import Text

    from boardct.games.shift.cards import Card, Mod

    _Base = State[int]  # type checkers see the state this mixin is part of
else:
    _Base = object


class ShiftText(_Base):
    """Mixin of `ShiftState`: describe, view, render, render_rich, prompt."""

    __slots__ = ()
    # What the mixin reads of `ShiftState` (its slots and methods), declared for type checkers.
    cards: tuple[Card, Card]
    limit: int
    phase: int
    mover: int
    first: int
    toss_winner: int
    turn: int
    gear: list[int]
    lit: list[int]
    burnt: list[int]
    tp: list[int]
    tg: list[int]
    skip_shift: list[bool]
    skip_turn: list[bool]

    if TYPE_CHECKING:  # pragma: no cover
        def flip_log(self) -> list[tuple[int, str, str]]: ...
        def damage(self, p: int) -> int: ...
        def power(self, p: int) -> int: ...
        def guard(self, p: int) -> int: ...
        def attack_mod(self) -> Mod | None: ...

    def _phase_title(self) -> str:
        return {P_TOSS: "the toss", P_START: "the start phase", P_SHIFT: "the shift phase",
                P_DEFEND: "the defence declaration", P_CRIT: "the critical subphase",
                P_END: "the end phase", P_OVER: "the end of the game"}[self.phase]

    def _name(self, p: int) -> str:
        name = self.setup.names[p] if p < len(self.setup.names) and self.setup.names[p] else ""
        label = f"{player_label(p)} ({name})" if name else player_label(p)
        return f"{label} [{self.cards[p].name}]"

    def describe(self, event: Event) -> str:
        kind = event[0]
        if kind == "flip":
            who = "Toss" if event[1] < 0 else f"{player_label(event[1])} flips"
            return f"{who}: {'heads' if event[2] == 'H' else 'tails'} ({event[3]})"
        p = event[1] if len(event) > 1 and isinstance(event[1], int) else -1
        w = player_label(p) if p >= 0 else ""
        if kind == "first":
            return f"{player_label(event[2])} won the toss; {player_label(event[1])} goes first"
        if kind == "turn":
            return f"Turn {event[2]}: {w} to play"
        if kind == "skipped":
            return f"Turn {event[2]}: {w}'s turn is skipped (duo critical)"
        if kind == "cleanup":
            return f"{w}'s temporary changes end (power {event[2]:+d}, guard {event[3]:+d})"
        if kind == "spirit_shift":
            return f"{w} burns 1 spirit and spirit shifts from {RING[event[2]]} to {RING[event[3]]}"
        if kind == "shift":
            return f"{w} shifts from {RING[event[2]]} to {RING[event[3]]}"
        if kind == "crit_shift":
            return f"{w} shifts for free from {RING[event[2]]} to {RING[event[3]]} (critical)"
        if kind == "pass":
            return f"{w} passes"
        if kind == "declare":
            return f"{w} attacks with {event[3]}"
        if kind == "guard":
            active, mask, added = event[2], event[3], event[4]
            if active < 0 and not mask:
                return f"{w} does not guard"
            parts = []
            if active >= 0:
                parts.append(f"active guard with gear {RING[active]}")
            if mask:
                gs = ", ".join(RING[g] for g in gears_in(mask))
                parts.append(f"spirit guard with {gs} (burns {mask.bit_count()})")
            return f"{w} declares {' and '.join(parts)}: guard +{added}"
        if kind == "pay":
            return f"{w} burns {event[2]} spirit to activate"
        if kind == "activation":
            if not event[2]:
                return f"{w}'s mod fails to activate"
            crit = f", critical ({event[4]})" if event[3] else ""
            return f"{w}'s mod activates{crit}"
        if kind == "stat":
            return f"{w}'s {event[2]} {event[3]:+d}"
        if kind == "compare":
            verdict = "hit" if event[4] else "miss"
            return f"Power {event[2]} against guard {event[3]}: {verdict}"
        if kind == "damage":
            return f"{w} takes 1 damage ({event[3]}); damage zone {event[2]}/{TOKENS}"
        if kind == "heal":
            return f"{w} heals {event[2]}"
        if kind == "refresh":
            return f"{w} refreshes {event[2]} spirit"
        if kind == "burn":
            return f"{w} loses {event[2]} spirit (burnt)"
        if kind == "ignore_guard":
            what = "guarding" if event[2] == "guarding" else "every guard bonus"
            return f"{w}'s attack ignores {what}"
        if kind == "skip_shift_phase":
            return f"{w} will skip their next shift phase"
        if kind == "downshift":
            return f"{w} downshifts from {RING[event[2]]} to 1"
        if kind == "critical":
            if event[2] == "damage" and not event[3]:
                return f"{w}'s damage critical: no extra damage, the attack missed"
            return f"{w}'s {event[2]} critical"
        if kind == "trigger":
            return f"{w}'s {event[2]} triggers ({event[3].replace('_', ' ')})"
        if kind == "win":
            return f"{w} wins: the opponent took damage with a full damage zone ({event[2]})"
        if kind == "draw":
            return f"Draw: {event[1]}"
        return State.describe(self, event)

    # -- showing -------------------------------------------------------------------------------
    def turn_number(self) -> int:
        return self.turn

    def board_view(self, player: int | None) -> dict:
        """Everything on the table (Shift hides nothing but the coins to come): both cards as
        played, the phase, the attack under way, the last coins, the legal commands."""
        mod = self.attack_mod()
        return {
            "turn_limit": self.limit,
            "phase": PHASE_NAMES[self.phase],
            "mover": self.mover,
            "first": self.first,
            "toss_winner": self.toss_winner,
            "attack": None if mod is None else {"type": mod.type, "mod": mod.summary},
            "players": [{
                "name": self.setup.names[p] if p < len(self.setup.names) else "",
                "card": self.cards[p].name,
                "gear": RING[self.gear[p]],
                "level": LEVELS[self.gear[p]],
                "power": self.power(p),
                "guard": self.guard(p),
                "temp_power": self.tp[p],
                "temp_guard": self.tg[p],
                "stack": TOKENS - self.lit[p] - self.burnt[p],
                "lit": self.lit[p],
                "burnt": self.burnt[p],
                "skip_shift_phase": self.skip_shift[p],
                "skip_next_turn": self.skip_turn[p],
                # the card's printed gears (cards are public data, SH-1): what a learner
                # needs to tell one card from another
                "gears": [{"level": g.level, "power": g.power, "guard": g.guard,
                           "attacks": [None if m is None else
                                       {"pattern": m.pattern, "cost": m.cost}
                                       for m in g.attacks]}
                          for g in self.cards[p].gears],
            } for p in (0, 1)],
            "flips": [list(f) for f in self.flip_log()[-12:]],
            "legal": [self.notation(a) for a in self.legal_actions()],
        }

    def _temporary(self, p: int) -> str:
        """' (temporary power +1, guard -2)': this round's changes, or nothing."""
        temp = []
        if self.tp[p]:
            temp.append(f"power {self.tp[p]:+d}")
        if self.tg[p]:
            temp.append(f"guard {self.tg[p]:+d}")
        return f" (temporary {', '.join(temp)})" if temp else ""

    def _segments(self) -> list[tuple[str, str]]:
        """The board as (text, style) pieces; `render` and `render_rich` share it."""
        segs: list[tuple[str, str]] = []

        def put(text: str, style: str = "") -> None:
            segs.append((text, style))

        turn = f"turn {self.turn} of {self.limit}" if self.turn else "before the first turn"
        put(f"Shift: {turn}", "bold")
        put(f" ({player_label(self.first)} went first)\n" if self.first >= 0 else "\n")
        for p in (0, 1):
            card = self.cards[p]
            role = " (to decide)" if p in self.current_players() else ""
            put(f"{self._name(p)}{role}\n", "bold cyan" if role else "bold")
            put(f"  Ability: {card.ability}\n", "italic")
            for i, g in enumerate(card.gears):
                here = i == self.gear[p]
                style = "bold yellow" if here else ""
                mark = ">" if here else " "
                put(f"  {mark} gear {RING[i]:<2} (level {g.level})  power {g.power}  guard "
                    f"{g.guard}\n", style)
                for mod in g.mods:
                    put(f"        {mod.summary}\n", "yellow" if here else "dim")
            stack = TOKENS - self.lit[p] - self.burnt[p]
            put(f"    now: power {self.power(p)}, guard {self.guard(p)}", "bold")
            put(self._temporary(p))
            put("\n    tokens: stack ")
            put("o" * stack or "-", "white")
            put("  lit ")
            put("L" * self.lit[p] or "-", "bold green")
            put("  burnt ")
            put("x" * self.burnt[p] or "-", "red")
            put(f"   (damage {self.damage(p)}/{TOKENS}, spirit {self.lit[p]})")
            flags = []
            if self.skip_shift[p]:
                flags.append("skips next shift phase")
            if self.skip_turn[p]:
                flags.append("skips next turn")
            if flags:
                put("  [" + "; ".join(flags) + "]", "magenta")
            put("\n")
        flips = self.flip_log()[-8:]
        if flips:
            shown = " ".join(f"{'toss' if p < 0 else 'P' + str(p + 1)}:{f}" for p, f, _ in flips)
            put(f"Last coins: {shown}\n", "dim")
        out = self.outcome
        if out is not None:
            put(f"Result: {out.describe()}\n", "bold green")
        else:
            put(self._decision_line() + "\n", "bold cyan")
        return segs

    def _decision_line(self) -> str:
        who = self.current_players()[0]
        ph = self.phase
        m = self.mover
        if ph == P_TOSS:
            what = "won the toss: go first or second?"
        elif ph == P_START:
            what = "start phase: spirit shift (burn 1 spirit) or pass?"
        elif ph == P_SHIFT:
            if self.turn == 1:
                what = "shift phase (first turn, no attack): shift or pass?"
            elif self.skip_shift[m]:
                what = "shift phase (shift barred by a card effect): attack or pass?"
            else:
                what = "shift phase: attack (choose a mod) or shift?"
        elif ph == P_DEFEND:
            mod = self.attack_mod()
            assert mod is not None
            what = (f"defend against {player_label(m)}'s {mod.type} ({mod.activation}); "
                    f"their power {self.power(m)} before the mod, your guard "
                    f"{self.guard(who)} before guarding: declare your guarding")
        elif ph == P_CRIT:
            what = "shift critical: shift for free or stay?"
        else:
            what = "end phase: spirit shift (burn 1 spirit) or pass?"
        opts = ", ".join(self.notation(a) for a in self.legal_actions())
        return f"{player_label(who)} [{self.cards[who].name}], {what}  Options: {opts}"

    def _compact_lines(self) -> list[tuple[str, str]]:
        """The board for an 80x24 terminal as (line, style): each card's gears on one line
        with only the current gear's mods spelled out, power, guard and tokens on one line."""
        lines: list[tuple[str, str]] = []
        turn = f"turn {self.turn} of {self.limit}" if self.turn else "before the first turn"
        first = f" ({player_label(self.first)} went first)" if self.first >= 0 else ""
        lines.append((f"Shift: {turn}{first}", "bold"))
        for p in (0, 1):
            card = self.cards[p]
            role = " (to decide)" if p in self.current_players() else ""
            lines.append((f"{self._name(p)}{role}", "bold cyan" if role else "bold"))
            lines.append((f"  Ability: {card.ability}", "italic"))
            ring = []
            for i, g in enumerate(card.gears):
                mark = ">" if i == self.gear[p] else ""
                ring.append(f"{mark}{RING[i]} L{g.level} {g.power}/{g.guard}")
            lines.append(("  gears: " + " | ".join(ring) + "  (level, power/guard)", ""))
            for mod in card.gears[self.gear[p]].mods:
                lines.append((f"    {mod.summary}", "yellow"))
            stack = TOKENS - self.lit[p] - self.burnt[p]
            now = f"  now: power {self.power(p)}, guard {self.guard(p)}"
            now += self._temporary(p)
            now += (f"  tokens {'o' * stack or '-'} lit {'L' * self.lit[p] or '-'} burnt "
                    f"{'x' * self.burnt[p] or '-'} (damage {self.damage(p)}/{TOKENS}, "
                    f"spirit {self.lit[p]})")
            if self.skip_shift[p]:
                now += "  [skips next shift phase]"
            if self.skip_turn[p]:
                now += "  [skips next turn]"
            lines.append((now, "bold"))
        flips = self.flip_log()[-8:]
        if flips:
            shown = " ".join(f"{'toss' if p < 0 else 'P' + str(p + 1)}:{f}" for p, f, _ in flips)
            lines.append((f"Last coins: {shown}", "dim"))
        out = self.outcome
        if out is not None:
            lines.append((f"Result: {out.describe()}", "bold green"))
        else:
            lines.append((self._decision_line(), "bold cyan"))
        return lines

    def render_compact(self, player: int | None = None) -> Text:
        from rich.text import Text

        from boardct.core.compact import wrapped

        text = Text()
        for line, style in self._compact_lines():
            indent = " " * (len(line) - len(line.lstrip()) + 2)
            for part in wrapped(line, 80, indent):
                if text:
                    text.append("\n")
                text.append(part, style=style or None)
        return text

    def render(self, player: int | None = None) -> str:
        return "".join(t for t, _ in self._segments()).rstrip("\n")

    def render_rich(self, player: int | None = None) -> Text:
        from rich.text import Text

        text = Text()
        for t, style in self._segments():
            text.append(t, style=style or None)
        text.rstrip()
        return text

    def prompt(self) -> str:
        players = self.current_players()
        if not players:
            return ""
        who = players[0]
        what = {P_TOSS: "first or second", P_START: "start phase, spirit shift or pass",
                P_SHIFT: "shift phase", P_DEFEND: "defend", P_CRIT: "critical shift or stay",
                P_END: "end phase, spirit shift or pass"}[self.phase]
        return f"{player_label(who)} [{self.cards[who].name}] ({what}): "
