"""CTF 2187 maps: a rectangular grid of sectors, each a terrain type and a ground elevation.

A map is generated from a seed (coherent features: hills, ridges, woods, buildings, lakes,
craters, gullies) or read from the documented text format (docs/ctf2187.md):

    MAP <width> <height>
    <height rows, top row (Y = height) first, each <width> tokens like  .1  w1  R3  ~0>

A token is the terrain's map character (terrain.toml `char`) followed by the ground elevation
digit. `#` starts a comment; blank lines are ignored. Maps are immutable and shared by clones.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardct.core.errors import DataError
from boardct.core.inputs import ascii_int, strip_bom
from boardct.core.rng import Rng
from boardct.games.ctf2187.tables import Tables

MIN_SIDE = 20
MAX_SIDE = 99  # the map file format's limit (two-digit coordinates), and a generated map's
# A 99x99 map is about 30 kB; comments may add some. Larger is not a map of this game.
MAX_MAP_BYTES = 1024 * 1024


@dataclass(frozen=True, slots=True)
class GameMap:
    width: int
    height: int
    terrain: tuple[int, ...]  # terrain index per sector, index (y-1)*width + (x-1)
    ground: tuple[int, ...]

    def index(self, x: int, y: int) -> int:
        return (y - 1) * self.width + (x - 1)

    def on_map(self, x: int, y: int) -> bool:
        return 1 <= x <= self.width and 1 <= y <= self.height

    def with_open(self, sectors: list[tuple[int, int]], open_index: int) -> GameMap:
        """A copy with `sectors` forced to Open, ground 1 (start sectors, CTF-35)."""
        terrain = list(self.terrain)
        ground = list(self.ground)
        for x, y in sectors:
            i = self.index(x, y)
            terrain[i] = open_index
            ground[i] = 1
        return GameMap(self.width, self.height, tuple(terrain), tuple(ground))

    def to_text(self, tables: Tables) -> str:
        lines = [f"MAP {self.width} {self.height}"]
        for y in range(self.height, 0, -1):
            row = []
            for x in range(1, self.width + 1):
                i = self.index(x, y)
                row.append(f"{tables.terrain[self.terrain[i]].char}{self.ground[i]}")
            lines.append(" ".join(row))
        return "\n".join(lines) + "\n"


def map_side(bots: int) -> int:
    """Default square map side (CTF-35): the larger of 20 and 4 + 2 x bots."""
    return max(MIN_SIDE, 4 + 2 * bots)


def parse_map(text: str, tables: Tables, source: str = "map") -> GameMap:
    """A map from its text; errors name the line (and column) of the problem."""
    rows: list[tuple[int, list[str]]] = []
    header: tuple[int, int] | None = None
    if len(text) > MAX_MAP_BYTES:
        raise DataError(source, "", f"a map is at most {MAX_MAP_BYTES:,} characters, this one "
                        f"has {len(text):,}")
    for lineno, raw in enumerate(strip_bom(text).splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if header is None:
            parts = line.split()
            if len(parts) != 3 or parts[0].upper() != "MAP":
                raise DataError(source, f"line {lineno}", "the first line must be "
                                "'MAP <width> <height>'")
            # ASCII digits only: int() refuses `²` (a crash) and reads `٢٠` as 20
            w, h = ascii_int(parts[1], 3), ascii_int(parts[2], 3)
            if w is None or h is None:
                raise DataError(source, f"line {lineno}", "width and height must be whole "
                                f"numbers {MIN_SIDE}-{MAX_SIDE} (ASCII digits), not "
                                f"{parts[1][:20]!r} and {parts[2][:20]!r}")
            if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE):
                raise DataError(source, f"line {lineno}", f"a map is {MIN_SIDE}-{MAX_SIDE} "
                                f"sectors on each side (CTF-1), not {w}x{h}")
            header = (w, h)
            continue
        if len(rows) == header[1]:  # stop at once: a file of a million rows is not read on
            raise DataError(source, f"line {lineno}", f"more than the {header[1]} rows of "
                            "sectors the header announces")
        rows.append((lineno, line.split()))
    if header is None:
        raise DataError(source, "line 1", "empty map: expected 'MAP <width> <height>'")
    w, h = header
    if len(rows) != h:
        raise DataError(source, "rows", f"expected {h} rows of sectors, found {len(rows)}")
    terrain = [0] * (w * h)
    ground = [0] * (w * h)
    for r, (lineno, tokens) in enumerate(rows):
        y = h - r
        if len(tokens) != w:
            raise DataError(source, f"line {lineno}", f"row Y={y} has {len(tokens)} sectors, "
                            f"expected {w}")
        for c, tok in enumerate(tokens):
            x = c + 1
            where = f"line {lineno}, sector {x}-{y}"
            if len(tok) != 2 or tok[1] not in "0123456789":  # ASCII: isdigit() takes `²`
                raise DataError(source, where, f"{tok[:20]!r} is not a terrain character and a "
                                "ground digit (e.g. .1, w1, R3)")
            t = tables.terrain_by_char.get(tok[0])
            if t is None:
                known = " ".join(tt.char for tt in tables.terrain)
                raise DataError(source, where, f"{tok[0]!r} is not a terrain character "
                                f"(known: {known})")
            g = int(tok[1])
            if not t.ground[0] <= g <= t.ground[1]:
                raise DataError(source, where, f"{t.name} has ground elevation "
                                f"{t.ground[0]}-{t.ground[1]}, not {g} (CTF-2)")
            i = (y - 1) * w + c
            terrain[i] = t.index
            ground[i] = g
    return GameMap(w, h, tuple(terrain), tuple(ground))


def generate_map(seed: int, width: int, height: int, tables: Tables) -> GameMap:
    """A coherent random map from `seed`: features placed on open ground, never overlapping.

    Every new game generates its map, so this is written for speed: the draws are bound
    methods and `put` takes each terrain's (index, lowest, highest ground) looked up once
    (the same draws, in the same order, and the same map as the plain reading)."""
    rng = Rng(seed)
    below, randint = rng.below, rng.randint
    tk = tables.terrain_by_key
    open_t = tk["open"]
    terrain = [open_t.index] * (width * height)
    ground = [open_t.ground[0]] * (width * height)
    free = [True] * (width * height)
    area = width * height
    info = {k: (t.index, t.ground[0], t.ground[1]) for k, t in tk.items()}

    def put(x: int, y: int, kind: tuple[int, int, int] | None, g: int | None = None) -> None:
        if kind is None or not (1 <= x <= width and 1 <= y <= height):
            return
        i = (y - 1) * width + (x - 1)
        if not free[i]:
            return
        free[i] = False
        terrain[i], lo, hi = kind
        if g is None or g > hi:  # max(lo, min(hi, lo if g is None else g))
            g = lo if g is None else hi
        ground[i] = lo if g < lo else g

    def spot() -> tuple[int, int]:
        return randint(1, width), randint(1, height)

    steps = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
    # the 5x5 block around a centre, row by row: (dx, dy, Chebyshev distance)
    block = [(dx, dy, max(abs(dx), abs(dy))) for dy in range(-2, 3) for dx in range(-2, 3)]
    hill = info.get("hill")
    for _ in range(max(1, area // 200)):  # hills: a peak falling off to the lowest level
        cx, cy = spot()
        top = tk["hill"].ground[1] if "hill" in tk else 2
        for dx, dy, d in block:
            if d == 2 and below(3) == 0:
                continue
            put(cx + dx, cy + dy, hill, top - d)
    ridge = info.get("ridge")
    for _ in range(max(1, area // 250)):  # ridges: a wandering line at one height
        x, y = spot()
        lo, hi = tk["ridge"].ground if "ridge" in tk else (2, 2)
        g = randint(lo, hi)
        d = below(8)
        for _ in range(randint(5, 9)):
            put(x, y, ridge, g)
            if below(3) == 0:
                d = (d + (-1, 1)[below(2)]) % 8  # rng.choice((-1, 1))
            x, y = x + steps[d][0], y + steps[d][1]
    heavy, light = info.get("heavy_woods"), info.get("light_woods")
    for _ in range(max(2, area // 80)):  # woods: heavy core, light fringe
        cx, cy = spot()
        for dx, dy, d in block:
            roll = below(10)
            if d <= 1 and roll < 5:
                put(cx + dx, cy + dy, heavy)
            elif roll < 7 - d * 2:
                put(cx + dx, cy + dy, light)
    heavy, light = info.get("heavy_buildings"), info.get("light_buildings")
    for _ in range(max(1, area // 160)):  # buildings: a block of heavy and light buildings
        cx, cy = spot()
        for dy in range(randint(1, 2)):
            for dx in range(randint(2, 3)):
                put(cx + dx, cy + dy, heavy if below(3) == 0 else light)
    lake = info.get("lake")
    for _ in range(max(1, area // 300)):  # lakes
        cx, cy = spot()
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                if abs(dx) + abs(dy) < 2 or below(2):
                    put(cx + dx, cy + dy, lake)
    crater = info.get("crater")
    for _ in range(max(1, area // 120)):  # craters
        put(*spot(), crater)
    gully = info.get("gully")
    for _ in range(max(1, area // 300)):  # gullies
        x, y = spot()
        d = below(8)
        for _ in range(randint(4, 7)):
            put(x, y, gully)
            if below(2) == 0:
                d = (d + (-1, 1)[below(2)]) % 8  # rng.choice((-1, 1))
            x, y = x + steps[d][0], y + steps[d][1]
    return GameMap(width, height, tuple(terrain), tuple(ground))
