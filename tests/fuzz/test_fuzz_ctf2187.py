"""Fuzzing CTF 2187 (issue 15): order sheets through parse/apply (on one line, as the terminal
and records write them, and as files), options, map files, the TOML tables, and the
moderator's folder commands (`boardct ctf2187 submit | status | process | results`) with
damaged files. Only `BoardctError` may escape (a clean exit status on the command line); a
refusal changes nothing."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import fuzz_kit
from fuzz_kit import (
    INT_TEXTS,
    Snapshot,
    assert_ascii_numbers,
    attempt,
    cli_run,
    command_sequence,
    fuzz,
    mutate,
    mutate_bytes,
    mutate_lines,
    mutate_toml,
    new_game,
    play_randomly,
    pool,
    random_text,
    sandbox,
    scratch_dir,
    scratch_file,
)
from hypothesis import strategies as st

from boardct.core import registry
from boardct.games.ctf2187 import state as ctf_state
from boardct.games.ctf2187.maps import parse_map
from boardct.games.ctf2187.sheet import MISSING, STANDING
from boardct.games.ctf2187.tables import DATA_DIR, build_tables, default_tables

GAME = registry.get("ctf2187")
TABLES = {k: (DATA_DIR / f"{k}.toml").read_text(encoding="utf-8")
          for k in ("terrain", "weapons", "designs", "rules")}
SHEET_WORDS = ["BOT", "TURN", "STANDING", "MISSING", "P1", "P2", "P3", "P4", "P5", "P0", "P6",
               "-", "0", "1", "5", "6", "11", "12", "19", "23", "24", "#", ";", "default"]


@fuzz("ctf2187", ci_examples=100)
def test_ctf2187_sheets_refused_cleanly_and_change_nothing(draw):
    """Random, mutated and misplaced one-line sheets (and stale sheets of other turns and
    players) at positions of random games."""
    command_sequence(draw, "ctf2187", max_steps=4)


def sheet_file(draw, state) -> str:
    """A sheet as a player writes it to a file: one line per phase, comments, odd spacing."""
    text = draw(pool("ctf2187").any_token)
    if draw(st.booleans()):  # the current turn and one of the player's own bots
        owed = state.owed()
        if owed:
            text = re.sub(r"BOT \d+ TURN \d+", f"BOT {draw(st.sampled_from(owed))} TURN "
                          f"{state.turn}", text)
    lines = text.split("; ")
    if draw(st.booleans()):
        lines.insert(0, "# orders " + draw(random_text(10)))
    return mutate_lines(draw, "\n".join(lines) + "\n", SHEET_WORDS)


@fuzz("ctf2187", ci_examples=80)
def test_ctf2187_sheet_files_refused_cleanly_and_change_nothing(draw):
    """Multi-line sheets edited line by line, through `parse` for each player and `apply`."""
    state = draw(pool("ctf2187").any_position).clone()
    text = sheet_file(draw, state)
    player = draw(st.sampled_from([None, *state.iter_players()]))
    before = Snapshot(state)
    ok, action = attempt(state.parse, text, player)
    if ok:
        assert_ascii_numbers(text, "a sheet")
        ok, _ = attempt(state.apply, action, player)
    if not ok:
        before.check(state, f"sheet {text[:200]!r} for player {player}")


def bots_per_team(draw) -> object:
    if fuzz_kit.HAZARDS:
        return draw(st.sampled_from([10**7, 2**31, "9" * 30]))
    return draw(st.one_of(st.integers(-3, 12), st.sampled_from(INT_TEXTS[:16])))


def designs_text(draw) -> str:
    words = ["Lancer", "Warden", "Bastion", "Striker", "lancer", "LANCER", " Warden ", "x", ""]
    return mutate(draw, ",".join(draw(st.lists(st.sampled_from(words), max_size=5))), words,
                  [ctf_state.DEFAULT_DESIGNS])


@fuzz("ctf2187", ci_examples=40)
def test_ctf2187_options_refused_cleanly(draw):
    """Random options (teams, bots per team, designs, map seed, map text, tables folder)
    and 0-5 names; a game that starts is played for a turn or two."""
    state = new_game(draw, "ctf2187", safe={"bots_per_team": bots_per_team,
                                            "designs": designs_text})
    if state is not None:
        Snapshot(state)
        play_randomly(state, draw(st.integers(0, 8)), draw(st.integers(0, 99)))


def map_data(draw) -> bytes | str:
    state = draw(pool("ctf2187").any_position)
    text = state.map.to_text(state.tables)
    kind = draw(st.sampled_from(["lines", "lines", "token", "header", "bytes", "random"]))
    if kind == "lines":
        return mutate_lines(draw, text, [".1", "w1", "R3", "MAP", "20", "99", "#"])
    if kind == "token":  # one sector edited
        lines = text.splitlines()
        i = draw(st.integers(1, len(lines) - 1))
        cells = lines[i].split(" ")
        j = draw(st.integers(0, len(cells) - 1))
        cells[j] = mutate(draw, cells[j], [".1", "w1", "R3", "^9", "#"], cells)
        lines[i] = " ".join(cells)
        return "\n".join(lines) + "\n"
    if kind == "header":
        head, _, rest = text.partition("\n")
        return mutate(draw, head, ["MAP", "20", "24", "99", "100"], []) + "\n" + rest
    if kind == "bytes":
        return mutate_bytes(draw, text.encode())
    return draw(st.one_of(st.binary(max_size=300), random_text().map(lambda t: "MAP " + t)))


@fuzz("ctf2187", ci_examples=80)
def test_ctf2187_map_files_refused_cleanly(draw):
    """Map files through the parser and the `map` option (as text and as a path); a map that
    is accepted is played on for a turn."""
    data = map_data(draw)
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    if attempt(parse_map, text, default_tables(), "map")[0]:
        assert_ascii_numbers(text, "parse_map")
    if "\n" in text:
        ok, state = attempt(GAME.new, seed=1, names=["a", "b"], map=text)
        if ok:
            play_randomly(state, draw(st.integers(0, 4)), draw(st.integers(0, 99)))
    with scratch_file(data, ".map") as path:
        attempt(GAME.new, seed=1, names=["a", "b"], map=str(path))


def table_texts(draw) -> dict[str, bytes | str]:
    texts: dict[str, bytes | str] = dict(TABLES)
    key = draw(st.sampled_from(sorted(TABLES)))
    kind = draw(st.sampled_from(["toml", "toml", "toml", "toml", "bytes", "random"]))
    if kind == "toml":
        texts[key] = mutate_toml(draw, TABLES[key])
    elif kind == "bytes":
        texts[key] = mutate_bytes(draw, TABLES[key].encode())
    else:
        texts[key] = draw(st.one_of(st.binary(max_size=200), random_text()))
    return texts


@fuzz("ctf2187", ci_examples=80)
def test_ctf2187_tables_refused_cleanly(draw):
    """The four TOML tables, one of them edited (odd values: inf, nan, huge, deep; keys
    renamed or doubled; bytes damaged), through `build_tables` and as a referee's `tables`
    folder; tables that are accepted are played with for a turn or two."""
    texts = table_texts(draw)
    as_text = {k: v if isinstance(v, str) else v.decode("utf-8", "replace")
               for k, v in texts.items()}
    attempt(build_tables, as_text)
    if draw(st.integers(0, 2)) == 0:
        with scratch_dir() as folder:
            for k, v in texts.items():
                (folder / f"{k}.toml").write_bytes(fuzz_kit.to_bytes(v))
            try:
                ok, state = attempt(GAME.new, seed=1, names=["a", "b"], tables=str(folder))
                if ok:
                    play_randomly(state, draw(st.integers(2, 8)), draw(st.integers(0, 99)))
            finally:
                ctf_state._TABLE_CACHE.pop(str(folder), None)  # one folder per input


@fuzz("ctf2187", ci_examples=6)
def test_ctf2187_files_with_a_byte_order_mark_load_as_without(draw):
    """Issue 15 item 3: a map file and a sheet saved with Notepad's byte-order mark are
    accepted as without it."""
    state = draw(pool("ctf2187").any_position)
    text = state.map.to_text(state.tables)
    with scratch_file("\ufeff" + text, ".map") as path:
        ok, got = attempt(GAME.new, seed=1, names=["a", "b"], map=str(path))
        assert ok, f"a map file with a byte-order mark was refused: {got}"
    fresh = GAME.new(seed=1, names=["a", "b"])
    sheet = fresh.notation(fresh.legal_actions(0)[0]).replace("; ", "\n")
    ok, got = attempt(fresh.parse, "\ufeff" + sheet, 0)
    assert ok, f"a sheet with a byte-order mark was refused: {got}"


# -- the moderator's folder -------------------------------------------------------------------
_TEMPLATE: list[Path] = []


def template() -> Path:
    """A game folder after `ctf2187 new` (4 players, 2 teams), made once per process."""
    if not _TEMPLATE:
        folder = sandbox() / "ctf-template"
        cli_run(["ctf2187", "new", str(folder), "--players", "ann,bob", "--players", "cy,dee",
                 "--seed", "42", "--map-seed", "7"])
        assert (folder / "game.json").is_file()
        _TEMPLATE.append(folder)
    return _TEMPLATE[0]


def damage(draw, folder: Path) -> None:
    """Break one file of the folder: game.json edited or cut, a results file cut or removed,
    a folder where a sheet should be, a sheet of random bytes."""
    what = draw(st.sampled_from(["game", "game", "results", "sheet_dir", "sheet", "none"]))
    game = folder / "game.json"
    if what == "game":
        data = game.read_bytes()
        if draw(st.booleans()):
            game.write_bytes(mutate_bytes(draw, data))
        else:
            game.write_text(mutate_lines(draw, data.decode(), ['"', ":", "{", "}", "[", "]"]),
                            encoding="utf-8", errors="surrogatepass")
    elif what == "results":
        files = sorted((folder / "results").rglob("*.*"))
        path = draw(st.sampled_from(files))
        if draw(st.booleans()):
            path.write_bytes(path.read_bytes()[:draw(st.integers(0, 40))])
        else:
            path.unlink()
    elif what in ("sheet_dir", "sheet"):
        bot = draw(st.integers(1, 4))
        sheets = folder / "sheets" / "turn-001"
        sheets.mkdir(parents=True, exist_ok=True)
        name = draw(st.sampled_from([f"bot-{bot}.txt", f"bot-{bot}.standing.txt"]))
        if what == "sheet_dir":
            (sheets / name).unlink(missing_ok=True)  # submit may have written it
            (sheets / name).mkdir()
        else:
            (sheets / name).write_bytes(draw(st.binary(max_size=100)))


@fuzz("ctf2187", ci_examples=25)
def test_ctf2187_folder_commands_refused_cleanly(draw):
    """`submit` of a random, edited or valid sheet file (bytes that are not UTF-8 too), then
    `status`, `process` and `results` on a folder with one damaged file: a clean message and
    exit status, never a traceback; a refused `submit` leaves game.json as it was."""
    with scratch_dir() as base:
        folder = base / "game"
        shutil.copytree(template(), folder)
        state = GAME.new(seed=1, names=["a", "b", "c", "d"], teams=2)
        kind = draw(st.sampled_from(["valid", "edited", "random"]))
        text: bytes | str
        if kind == "random":
            text = draw(st.one_of(st.binary(max_size=200), random_text()))
        else:
            text = sheet_file(draw, state) if kind == "edited" else \
                state.notation(draw(st.sampled_from(state.legal_actions(0)))).replace("; ", "\n")
        player = draw(st.sampled_from(["ann", "1", "4", "5", "0", "²", "٣", "ANN", "zed", ""]))
        game_before = (folder / "game.json").read_bytes()
        with scratch_file(text, ".txt") as sheet:
            result = cli_run(["ctf2187", "submit", str(folder), player, str(sheet)])
        if result.exit_code != 0:
            assert (folder / "game.json").read_bytes() == game_before, \
                "a refused submit changed game.json"
        damage(draw, folder)
        command = draw(st.sampled_from([["status"], ["process", "--deadline"], ["process"],
                                        ["results", "ann"], ["results", "cy", "--json"],
                                        ["results", "2", "--turn", "0"]]))
        cli_run(["ctf2187", command[0], str(folder), *command[1:]])


@fuzz("ctf2187", ci_examples=4)
def test_ctf2187_submit_reads_a_sheet_with_a_byte_order_mark(draw):
    """Issue 15 item 3, on the command line: Notepad's sheet file is accepted."""
    with scratch_dir() as base:
        folder = base / "game"
        shutil.copytree(template(), folder)
        state = GAME.new(seed=1, names=["a", "b", "c", "d"], teams=2)
        action = draw(st.sampled_from([a for a in state.legal_actions(0)
                                       if a[0] not in (MISSING, STANDING)]))
        text = "\ufeff" + state.notation(action).replace("; ", "\n") + "\n"
        with scratch_file(text, ".txt") as sheet:
            result = cli_run(["ctf2187", "submit", str(folder), "ann", str(sheet)])
        assert result.exit_code == 0, result.output
