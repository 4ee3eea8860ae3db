"""FieldShift as a core `Game`: options and the factory of states."""

from __future__ import annotations

from boardct.core.errors import RecordError
from boardct.core.game import Game, Option, Setup
from boardct.core.inputs import MAX_FILE_BYTES, InputError, read_bytes
from boardct.games.fieldshift import savefile
from boardct.games.fieldshift.help import HELP
from boardct.games.fieldshift.state import BITS, CRATES, PV_SIZE, FieldShiftState
from boardct.games.fieldshift.tables import IN_RANGE, RULESETS, VIOLATION_MODES

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
    help_text = HELP
    classic_screen = True  # the earlier BoardCT tool's screen, FS-23
    confirm_words = ("01", "00")  # a request at the table is answered as FS-20's are
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

    def evaluate(self, state: FieldShiftState, player: int) -> float:
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
        """`Game.score_moves` with the same values, the evaluation updated instead of redone:
        each move is still played on a clone (FieldShift's rules do too much to read a
        command's effect from it), but the evaluation's terms are taken from the position's
        and redone only where the move changed them: the material of a side whose operators'
        vitality or deployment changed, and the pair terms (an enemy in reach or close) of
        the operators that moved, arrived or left, against all the others. Every term is a
        multiple of a quarter, so the sums are exact in any order and the value is the very
        float `evaluate_all` gives (tested over many random positions:
        tests/fieldshift/test_fieldshift_score_moves.py)."""
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
        out: list[float] = []
        append = out.append
        clone = state.clone
        for action in moves:
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
                    was, now = act & bit, cact & bit
                    if was and now and loc[k] == cloc[k]:
                        continue
                    if was:
                        t = get(k * 10 + loc[k]) or terms(k, loc[k])
                        mine -= t[0]
                        them -= t[1]
                    if now:
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
            c0, c1 = cpv[CRATES], cpv[PV_SIZE + CRATES]
            s0 = 0.5 * (c0 if c0 > 0 else 0) + m0 + p0
            s1 = 0.5 * (c1 if c1 > 0 else 0) + m1 + p1
            first = (s0 - s1) / (s0 + s1 + 1.0)
            append(0.5 * ((first if player == 0 else -first) + 1.0))
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
