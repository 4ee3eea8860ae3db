"""FieldShift as a core `Game`: options and the factory of states."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardct.core.errors import RecordError
from boardct.core.frontends import FrontEnds
from boardct.core.game import Game, Option, PlayFlag, Setup
from boardct.core.info import LENGTH_CAP
from boardct.core.inputs import MAX_FILE_BYTES, InputError, read_bytes
from boardct.games.fieldshift import encoding as enc
from boardct.games.fieldshift import savefile
from boardct.games.fieldshift.help import HELP
from boardct.games.fieldshift.notation import TWO
from boardct.games.fieldshift.state import (
    ARTREADY,
    BITS,
    CRATES,
    FAC,
    MEDCTR,
    PV_SIZE,
    SEL,
    SKCD,
    SPCD,
    WATCH,
    FieldShiftState,
)
from boardct.games.fieldshift.tables import (
    ARTILLERY,
    BASE,
    BLADE,
    DAMAGE,
    IN_RANGE,
    LONGWATCH,
    LSTD,
    MEDBAY,
    MEDIC,
    RULESETS,
    SPECIALIST,
    TECHNICIAN,
    VIOLATION_MODES,
    VITALITY,
)

# Player turns before a draw, at most: over thirty times the default (FS-22), and a game that
# runs to it stays well inside what a record holds (core.records.MAX_ACTIONS).
MAX_TURN_LIMIT = 10_000


def _pair_table(reach) -> tuple:
    """Per operator class and sector, what an enemy in each sector adds to the evaluation:
    0.75 in reach, 0.25 within four sectors (closing in), else 0. All multiples of a quarter,
    so sums are exact in any order."""
    return tuple(tuple(tuple(0.75 if there in reach[cls][here]
                             else 0.25 if -4 <= there - here <= 4 else 0.0
                             for there in range(10))
                       for here in range(10))
                 for cls in range(5))


_PAIR = tuple(_pair_table(reach) for reach in IN_RANGE)


# Per side and 10-bit mask of that side's operators: their indices (p*10 + n); their count.
_SIDE = (BITS, tuple(tuple(10 + n for n in bits) for bits in BITS))
_COUNT = tuple(len(bits) for bits in BITS)


def _operators(vit: list[int], act: int, res: int) -> tuple[float, float]:
    """Each side's operator terms of the evaluation: vitality plus 3 on the field, plus 1 in
    reserve. Summed as integers (exact), as `evaluate_all`'s float sum of them is."""
    get = vit.__getitem__
    a0, a1, r0, r1 = act & 1023, act >> 10, res & 1023, res >> 10
    return (float(sum(map(get, _SIDE[0][a0 | r0])) + 3 * _COUNT[a0] + _COUNT[r0]),
            float(sum(map(get, _SIDE[1][a1 | r1])) + 3 * _COUNT[a1] + _COUNT[r1]))


def _passive_heal(vit: list[int], reserve: tuple[int, ...], due: int, medbay: int) -> int:
    """What the medbay's passive heal at the end of a turn adds to its side's material (FS-34,
    as `FieldShiftState.apply` does it): `due` is the side's counter after the turn,
    `medbay` the crates in its medbay then, `reserve` its living reserve operators then."""
    if due < (4 - medbay if medbay < 3 else 1):
        return 0
    amount = 1 + max(0, medbay - 3)
    return sum([min(VITALITY, vit[i] + amount) - vit[i] for i in reserve if vit[i] < VITALITY])


# LSTD's two-digit commands by token (TWO + 10 * instruction + digit): the instruction and
# the digit, or (-1, -1) for a token that is not one.
_LSTD_SPLIT = tuple(divmod(a - TWO, 10) if a >= TWO else (-1, -1) for a in range(TWO + 100))
_MOV, _RGP, _SPT, _OVW, _SKL, _HIT, _SWC, _RNF, _WDR = 2, 6, 9, 7, 8, 3, 1, 4, 5
# Skills whose LSTD arming ends the turn (FS-7): Longwatch, Technician.
_SKILL_ENDS = (True, False, True, False, False)


def _all_pairs(act: int, loc: list[int], pair) -> tuple[float, float]:
    """The whole pair terms of the evaluation, per side, as `evaluate_all` sums them."""
    p0 = p1 = 0.0
    second = [(pair[n % 5], loc[10 + n]) for n in BITS[act >> 10]]
    for n in BITS[act & 1023]:
        here = loc[n]
        row = pair[n % 5][here]
        for rows, there in second:
            p0 += row[there]
            p1 += rows[there][here]
    return p0, p1


def _pairs(act: int, loc: list[int], pair, touching) -> tuple[float, float]:
    """The pair terms (an enemy in reach: 0.75, close: 0.25) of every pair of a deployed
    operator of each side in which one of `touching` (operator indices) takes part, per side.
    With every operator touching: the whole pair terms of the evaluation."""
    p0 = p1 = 0.0
    first = list(BITS[act & 1023])
    second = [10 + n for n in BITS[(act >> 10) & 1023]]
    done: set[int] = set()
    for k in touching:
        if not act >> k & 1:
            continue
        here = loc[k]
        mine = pair[k % 5][here]
        for j in (second if k < 10 else first):
            if j in done:
                continue
            there = loc[j]
            if k < 10:
                p0 += mine[there]
                p1 += pair[j % 5][there][here]
            else:
                p1 += mine[there]
                p0 += pair[j % 5][there][here]
        done.add(k)
    return p0, p1


class FieldShift(Game):
    id = "fieldshift"
    title = "FieldShift"
    featured = True  # the flagship: what the lobby offers a first visit
    frontends = FrontEnds(cli="boardct.games.fieldshift.cli", web="web")
    small_options = {"turn_limit": 20}
    help_text = HELP
    classic_screen = True  # the earlier BoardCT tool's screen, FS-23
    confirm_words = ("01", "00")  # a request at the table is answered as FS-20's are
    play_flags = (
        PlayFlag("--ruleset", ("ruleset",), "The command ruleset at the start: lstd, stdex or "
                 "type-a (FS-5).", "RULESET"),
        PlayFlag("--violations", ("violations",), "dispute (carried out, disputable) or "
                 "reject (FS-19).", "MODE"),
    )
    options = (
        Option("ruleset", "lstd", "command ruleset at the start (FS-5)", RULESETS),
        Option("violations", "dispute",
               "dispute: violations are carried out and may be disputed (the manual's); "
               "reject: they are refused (FS-19)", VIOLATION_MODES),
        Option("turn_limit", 300, "player turns before a draw; 0 for none (FS-22)", None, int, 0,
               MAX_TURN_LIMIT),
    )

    def initial_state(self, setup: Setup) -> FieldShiftState:
        return FieldShiftState.initial(setup)

    # -- facts for learners (encoding.py; docs/fieldshift.md "For learners") -----------------
    def action_count(self, options: dict, players: int) -> int:
        """1100: every command token has an id, in every ruleset (see `encoding`)."""
        return enc.NUM_ACTIONS

    def observation_shape(self, options: dict, players: int) -> tuple[int, ...]:
        return (enc.SIZE,)

    def write_observations(self, out: Any, states: Sequence[Any], players: Sequence[int]
                           ) -> bool:
        """A batch's tensors in a few numpy calls (`batch`: numpy, from `boardct[rl]`)."""
        from boardct.games.fieldshift.batch import write_observations

        write_observations(out, states, players)
        return True

    def write_masks(self, out: Any, states: Sequence[Any], players: Sequence[int]) -> bool:
        """A batch's masks from the legal commands, in a few numpy calls (`batch`)."""
        from boardct.games.fieldshift.batch import write_masks

        write_masks(out, states, players)
        return True

    def max_game_length(self, options: dict, players: int) -> int:
        """No bound from the rules, even with a turn limit: a ruleset or draw request may be
        asked and refused again and again (FS-20, FS-37), and SWC and WDR keep the turn (FS-7),
        so a turn has no longest length. `LENGTH_CAP` (docs/fieldshift.md, "For learners")."""
        return LENGTH_CAP

    def evaluate(self, state: FieldShiftState, player: int) -> float:  # type: ignore[override]
        """Material share in [-1, 1]: per operator on the field its vitality plus 3 (the win
        goes by operators on the field), plus 0.75 per enemy in its reach and 0.25 per enemy
        close to it (within four sectors); per operator in reserve its vitality plus 1; half a
        point per crate. As a share it never saturates: a hit counts even far ahead."""
        return self.evaluate_all(state)[player]

    def evaluate_all(self, state: FieldShiftState) -> list[float]:  # type: ignore[override]
        """`evaluate` for both players in one pass: the share is zero-sum, so the second
        player's value is the first's negative (search asks this at every leaf)."""
        score = [0.0, 0.0]
        vit, loc, act, res, pv = state.vit, state.loc, state.act, state.res, state.pv
        pair = _PAIR[state.ruleset]
        for side in (0, 1):
            b = side * 10
            q = 10 - b
            foes = [loc[q + n] for n in BITS[(act >> q) & 1023]]
            total = 0.5 * max(0, pv[side * PV_SIZE + CRATES])
            for n in BITS[(act >> b) & 1023]:
                total += vit[b + n] + 3.0
                row = pair[n % 5][loc[b + n]]
                for there in foes:
                    total += row[there]
            for n in BITS[(res >> b) & 1023]:
                total += vit[b + n] + 1.0
            score[side] = total
        first = (score[0] - score[1]) / (score[0] + score[1] + 1.0)
        return [first, -first]

    def score_moves(self, state: FieldShiftState, player: int,  # type: ignore[override]
                    moves) -> list[float]:
        """`Game.score_moves` with the same values, the evaluation updated instead of redone.

        Under LSTD (the search's usual case) nearly every command is read from the command
        itself, without playing it: SWC, MOV when no enemy watch or Longwatch can fire at the
        mover, HIT (no revive, no assassination), RGP, OVW, SKL, RNF and WDR when they break
        no rule, the artillery readied or fired, the medbay's support. What each changes in
        the evaluation's terms is a few numbers (who stands where, a hit's damage, a crate, a
        side's material), plus what the end of the turn adds (the medbay's passive heal, a
        draw at the turn limit: FS-34, FS-39) and what a departure ends (the last operator
        on the field: FS-21). The rest (the command center, violations, STDEX's commands,
        a mover under fire) are played on a clone, and the evaluation's terms are taken from
        the position's and redone only where the move changed them: the material of a side
        whose operators' vitality or deployment changed, and the pair terms (an enemy in reach
        or close) of the operators that moved, arrived or left, against all the others. Every
        term is a multiple of a quarter, so the sums are exact in any order and the value is
        the very float `evaluate_all` gives (tested over many random positions and every
        situation above: tests/fieldshift/test_fieldshift_score_moves.py)."""
        pair = _PAIR[state.ruleset]
        vit, loc, act, res = state.vit, state.loc, state.act, state.res
        mat0, mat1 = _operators(vit, act, res)
        pair0, pair1 = _all_pairs(act, loc, pair)
        deployed = [i for i in range(20) if act >> i & 1]
        sides = ([i for i in deployed if i < 10], [i for i in deployed if i >= 10])
        # One deployed operator k moving from sector a to b changes only its pairs: with the
        # enemies where they stand, k's own terms (by its class and sector) and theirs against
        # it (by its sector alone), both sums over the enemies, kept per call by k * 10 + a.
        memo: dict[int, tuple[float, float]] = {}

        def terms(k: int, sector: int) -> tuple[float, float]:
            row = pair[k % 5][sector]
            foes = sides[1] if k < 10 else sides[0]
            t = memo[k * 10 + sector] = (sum([row[loc[j]] for j in foes], 0.0),
                                         sum([pair[j % 5][loc[j]][sector] for j in foes], 0.0))
            return t

        get = memo.get
        pv = state.pv
        c0, c1 = pv[CRATES], pv[PV_SIZE + CRATES]

        def share(m0: float, m1: float, p0: float, p1: float, k0: int, k1: int) -> float:
            """The evaluation's value for `player` from its terms (as `evaluate_all`)."""
            s0 = 0.5 * (k0 if k0 > 0 else 0) + m0 + p0
            s1 = 0.5 * (k1 if k1 > 0 else 0) + m1 + p1
            first = (s0 - s1) / (s0 + s1 + 1.0)
            return 0.5 * ((first if player == 0 else -first) + 1.0)

        quick = state.ruleset == LSTD and state.pending is None and player == state.cur
        if quick:
            p = player
            b, o, qb = 10 * p, p * PV_SIZE, 10 - 10 * p
            skl = state.skl
            crates = pv[o + CRATES]
            cyber = skl[qb + TECHNICIAN] or skl[qb + 5 + TECHNICIAN]
            skill_free = not pv[o + SKCD] and not cyber
            sel = pv[o + SEL]
            # the selected operator's MOV, when no enemy Longwatch or watch can fire at it
            plain_mov = (sel >= 0 and act >> sel & 1 and not skl[qb + LONGWATCH]
                         and not skl[qb + 5 + LONGWATCH] and pv[(1 - p) * PV_SIZE + WATCH] < 0)
            draw = state.limit and state.turn + 1 >= state.limit  # FS-39, at the turn's end
            due = pv[o + MEDCTR] + 1
            medbay = pv[o + FAC + MEDBAY]
            own = _SIDE[p]
            heal = _passive_heal(vit, own[(res >> b) & 1023], due, medbay)

            def after(dm: int, de: int, mine: float, them: float, dc: int) -> float:
                """The value once `player`'s material, pair terms and crates changed by `dm`,
                `mine` and `dc`, and the enemy's material and pair terms by `de` and `them`."""
                if p == 0:
                    return share(mat0 + dm, mat1 + de, pair0 + mine, pair1 + them, c0 + dc, c1)
                return share(mat0 + de, mat1 + dm, pair0 + them, pair1 + mine, c0, c1 + dc)

            stay = share(mat0, mat1, pair0, pair1, c0, c1)  # nothing changes, the turn goes on
            foes = sides[1 - p]
            # the selected operator's HIT: a plain one (no Medic armed to revive, no Blade
            # armed to assassinate); Quick draw keeps the turn going (FS-16)
            hit_ok = (sel >= 0 and act >> sel & 1 and not skl[b + MEDIC] and not skl[b + 5 + MEDIC]
                      and not (sel % 5 == BLADE and skl[sel]))
            if hit_ok:
                reach = IN_RANGE[LSTD][sel % 5][loc[sel]]
                damage = DAMAGE[LSTD][loc[sel]]
                quick_draw = sel % 5 == SPECIALIST and skl[sel]
            shot = 1 + pv[o + FAC + ARTILLERY]
            ended = 0.5 if draw else after(heal, 0, 0.0, 0.0, 0)  # only the turn's end changes
        out: list[float] = []
        append = out.append
        clone = state.clone
        for action in moves:
            if quick:
                ins, t = _LSTD_SPLIT[action] if 0 <= action < TWO + 100 else (-1, -1)
                k = b + t
                if ins == _MOV:
                    if plain_mov:
                        if draw:
                            append(0.5)
                        elif loc[sel] == t:
                            append(ended)
                        else:
                            was = get(sel * 10 + loc[sel]) or terms(sel, loc[sel])
                            now = get(sel * 10 + t) or terms(sel, t)
                            append(after(heal, 0, now[0] - was[0], now[1] - was[1], 0))
                        continue
                elif ins == _RGP:
                    bit = 1 << k
                    if act & bit:
                        # a retreat, always legal (FS-14); one that leaves a side with nobody
                        # on the field ends the game (FS-21) and is played below
                        if (act ^ bit) >> b & 1023 and act >> qb & 1023:
                            if draw:
                                append(0.5)
                            else:
                                was = get(k * 10 + loc[k]) or terms(k, loc[k])
                                dm = _passive_heal(vit, own[((res | bit) >> b) & 1023], due,
                                                   medbay)
                                append(after(dm - 2, 0, -was[0], -was[1], 1))
                            continue
                    if res & bit and crates > 0 and not cyber:  # deploy, breaking no rule
                        if draw:
                            append(0.5)
                        else:
                            now = get(k * 10 + BASE[p]) or terms(k, BASE[p])
                            dm = _passive_heal(vit, own[((res ^ bit) >> b) & 1023], due, medbay)
                            append(after(dm + 2, 0, now[0], now[1], -1))
                        continue
                elif ins == _OVW:
                    if act >> k & 1:
                        append(ended)
                        continue
                elif ins == _SKL:
                    if skill_free and act >> k & 1:
                        append(ended if _SKILL_ENDS[t % 5] else stay)
                        continue
                elif ins == _SWC:
                    if act >> k & 1:
                        append(stay)
                        continue
                elif ins == _HIT:
                    j = qb + t
                    if hit_ok and act >> j & 1 and loc[j] in reach:
                        dmg = damage[loc[j]]
                        ends = not quick_draw
                        if vit[j] > dmg:
                            append(0.5 if draw and ends else
                                   after(heal if ends else 0, -dmg, 0.0, 0.0, 0))
                        elif not (act ^ 1 << j) >> qb & 1023:
                            append(1.0)  # the enemy's last operator on the field (FS-21)
                        elif draw and ends:
                            append(0.5)
                        else:  # brought to 0: bleeding out, off the board's terms (FS-12)
                            was = get(j * 10 + loc[j]) or terms(j, loc[j])
                            append(after(heal if ends else 0, -vit[j] - 3, -was[1], -was[0], 1))
                        continue
                elif ins == _SPT:
                    if pv[o + ARTREADY]:
                        if not cyber:  # the shot: every enemy on sector t (FS-17, FS-33)
                            de = dc = gone = 0
                            mine = them = 0.0
                            for j in foes:
                                if loc[j] == t:
                                    if vit[j] > shot:
                                        de -= shot
                                    else:
                                        was = get(j * 10 + t) or terms(j, t)
                                        de -= vit[j] + 3
                                        mine -= was[1]
                                        them -= was[0]
                                        dc += 1
                                        gone |= 1 << j
                            if gone and not (act ^ gone) >> qb & 1023:
                                append(1.0)
                            elif draw:
                                append(0.5)
                            else:
                                append(after(heal, de, mine, them, dc))
                            continue
                    elif not pv[o + SPCD] and not cyber:
                        if t == 0:  # readying the artillery ends the turn (FS-17)
                            append(ended)
                            continue
                        if t == MEDBAY:  # +2 to every injured deployed operator
                            if draw:
                                append(0.5)
                            else:
                                dm = sum([min(VITALITY, vit[i] + 2) - vit[i]
                                          for i in own[(act >> b) & 1023] if vit[i] < VITALITY])
                                append(after(dm + heal, 0, 0.0, 0.0, 0))
                            continue
                elif ins == _RNF:
                    if crates > 0 and t <= 2:
                        if draw:
                            append(0.5)
                        else:
                            dm = heal if t != MEDBAY else _passive_heal(
                                vit, own[(res >> b) & 1023], due, medbay + 1)
                            append(after(dm, 0, 0.0, 0.0, -1))
                        continue
                elif ins == _WDR:
                    if t <= 2 and pv[o + FAC + t] > 0:
                        append(after(0, 0, 0.0, 0.0, 1))
                        continue
            child = clone()
            child.apply(action, player)
            result = child._outcome
            if result is not None:
                append(result.returns[player])
                continue
            cact, cloc, cres, cvit = child.act, child.loc, child.res, child.vit
            if cact == act and cres == res:
                # the same operators deployed and in reserve: the material unless a vitality
                # changed (a hit, the medbay's healing), the pairs of those that moved
                m0, m1 = (mat0, mat1) if cvit == vit else _operators(cvit, cact, cres)
                if cloc == loc:
                    p0, p1 = pair0, pair1
                    changed = None
                else:
                    changed = [i for i in deployed if loc[i] != cloc[i]]
            else:
                m0, m1 = _operators(cvit, cact, cres)
                flips = act ^ cact
                either = act | cact
                changed = [i for i in _SIDE[0][either & 1023] + _SIDE[1][either >> 10]
                           if flips >> i & 1 or loc[i] != cloc[i]]
            if not changed:
                if changed is not None:  # only operators off the field moved
                    p0, p1 = pair0, pair1
            elif changed[0] // 10 == changed[-1] // 10:
                # the operators of one side changed (one moved; one left, one arrived): each
                # one's pairs against the enemies, who stand as they stood
                mine = them = 0.0
                for k in changed:
                    bit = 1 << k
                    was_on, now_on = act & bit, cact & bit
                    if was_on and now_on and loc[k] == cloc[k]:
                        continue
                    if was_on:
                        t = get(k * 10 + loc[k]) or terms(k, loc[k])
                        mine -= t[0]
                        them -= t[1]
                    if now_on:
                        t = get(k * 10 + cloc[k]) or terms(k, cloc[k])
                        mine += t[0]
                        them += t[1]
                if changed[0] < 10:
                    p0, p1 = pair0 + mine, pair1 + them
                else:
                    p0, p1 = pair0 + them, pair1 + mine
            else:
                old0, old1 = _pairs(act, loc, pair, changed)
                new0, new1 = _pairs(cact, cloc, pair, changed)
                p0 = pair0 - old0 + new0
                p1 = pair1 - old1 + new1
            cpv = child.pv
            append(share(m0, m1, p0, p1, cpv[CRATES], cpv[PV_SIZE + CRATES]))
        return out

    def load_file(self, path: str) -> FieldShiftState | None:
        """An earlier-tool save file (FS-24), or None when `path` is not one. Only a regular
        file is opened, and read bounded (never a folder, /dev/zero or a pipe)."""
        try:
            data = read_bytes(path, MAX_FILE_BYTES, "save file")
        except InputError:
            return None
        if not savefile.looks_like_save(data[:64].decode("utf-8", "replace")):
            return None
        if len(data) > savefile.MAX_SAVE_BYTES:
            raise RecordError("file", f"an earlier-tool save file is at most "
                                      f"{savefile.MAX_SAVE_BYTES:,} bytes", str(path))
        return savefile.load(self, path)
