"""Bradley-Terry ratings (draws count half) on the Elo scale, with bootstrap intervals."""

from __future__ import annotations

import math

from boardct.core.rng import Rng

Pairing = tuple[int, int, float]  # (player a, player b, a's score: 1, 0.5 or 0)


def bradley_terry(n: int, games: list[Pairing], iterations: int = 200) -> list[float]:
    """Strengths by the MM algorithm (Hunter 2004); one virtual draw of each player against
    the average keeps unbeaten and winless players finite."""
    wins = [0.5] * n
    count: list[dict[int, float]] = [dict() for _ in range(n)]
    for a, b, s in games:
        wins[a] += s
        wins[b] += 1.0 - s
        count[a][b] = count[a].get(b, 0.0) + 1.0
        count[b][a] = count[b].get(a, 0.0) + 1.0
    p = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            denom = 1.0 / (p[i] + 1.0)  # the virtual opponent of strength 1
            for j, c in count[i].items():
                denom += c / (p[i] + p[j])
            new.append(wins[i] / denom)
        g = math.exp(sum(math.log(x) for x in new) / n)
        p = [x / g for x in new]
    return p


def elo(strengths: list[float]) -> list[float]:
    """Elo-scale ratings, average 1500."""
    r = [400.0 * math.log10(s) for s in strengths]
    mean = sum(r) / len(r)
    return [1500.0 + x - mean for x in r]


def ratings_with_ci(n: int, games: list[Pairing], samples: int = 200,
                    seed: int = 1) -> list[tuple[float, float, float]]:
    """(rating, low, high) per player: the 95% interval of a bootstrap over games.

    A player who won every game it played has no upper bound (high is +inf), one who lost
    every game no lower bound (low is -inf): every resample repeats the same results, so the
    bootstrap alone would give an interval of zero width around a rating that only the
    virtual draw keeps finite. Results that are almost such a sweep (199 wins and a draw in
    200) can put the whole bootstrap to one side of the rating; the interval is then widened
    to hold the rating, so a rating never lies outside its own interval."""
    point = elo(bradley_terry(n, games))
    if not games:
        return [(r, r, r) for r in point]
    played = [0] * n
    scored = [0.0] * n
    for a, b, s in games:
        played[a] += 1
        played[b] += 1
        scored[a] += s
        scored[b] += 1.0 - s
    rng = Rng(seed)
    draws: list[list[float]] = [[] for _ in range(n)]
    for _ in range(samples):
        sample = [games[rng.below(len(games))] for _ in games]
        for i, r in enumerate(elo(bradley_terry(n, sample, 100))):
            draws[i].append(r)
    out = []
    for i in range(n):
        d = sorted(draws[i])
        low = min(point[i], d[int(0.025 * (len(d) - 1))])
        high = max(point[i], d[int(0.975 * (len(d) - 1))])
        if played[i] and scored[i] == played[i]:
            high = math.inf
        elif played[i] and scored[i] == 0.0:
            low = -math.inf
        out.append((point[i], low, high))
    return out


def elo_difference(score: float) -> float:
    """The rating gap that makes `score` the expected score (+-inf at 100% and 0%)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval for a share of `k` successes in `n` trials: unlike p +- 2
    standard errors it stays inside [0, 1] and is not empty at 0% or 100%. (0, 1) for n = 0."""
    if not n:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def score_interval(scores: list[float], z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a mean score (draws count half). Treating draws as half a
    win and half a loss overstates the spread, so the interval errs on the wide side."""
    return wilson(sum(scores), len(scores), z)
