"""CTF 2187 for its players (issue 17 item 5): the weapons in the report and the docs, results
that name players and teams, `results --json` numbered as the command line, no AP for a
wreck, one line per problem, and a page that cites only files the project has."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from ctf2187_helpers import game

from boardct.cli.main import cli
from boardct.core.game import Outcome, Setup, State
from boardct.core.outcome import Termination
from boardct.core.registry import get
from boardct.games.ctf2187.report import format_report, turn_report
from boardct.games.ctf2187.sheet import MAX_ERRORS_SHOWN, Roster, SheetError, parse_sheet
from boardct.games.ctf2187.tables import LOCATION_CODES, default_tables
from boardct.games.ctf2187.units import DAMAGED, EJECTED, WRECKED

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ctf2187.md"
HOLD = "P1 0 - 2 - 0; P2 0 - 2 - 0; P3 0 - 2 - 0; P4 0 - 2 - 0; P5 0 - 2 - 0"
SHEET1 = "BOT 1 TURN 1\n" + HOLD.replace("; ", "\n") + "\n"


def run(*args, ok=True, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert result.exit_code == (0 if ok else 2), result.output
    return result


@pytest.fixture
def gamedir(tmp_path):
    """Four named players, two teams (ann and bob team A, cy and dee team B), one turn."""
    d = tmp_path / "game"
    run("ctf2187", "new", d, "--players", "ann,bob,cy,dee", "--seed", 5, "--map-seed", 3,
        "--turns", 1)
    return d


# -- weapons in the turn report ------------------------------------------------------------------

def test_turn_report_lists_each_weapon_with_name_range_damage_ap_and_heat():
    """A Lancer's report gives all it needs to pick a weapon number (CTF-32, CTF-36)."""
    st = game()
    text = format_report(turn_report(st, 1))
    assert "Weapons (range in sectors: optimum/maximum; AP and heat of one shot)" in text
    assert "No. Weapon" in text and "Range  Damage  AP  Heat  State" in text
    rows = [ln.split() for ln in text.splitlines() if re.match(r"\s+[1-4] (SL|PBC|MR|ML) ", ln)]
    assert rows == [["1", "SL", "Small", "Laser", "HD", "1/3", "3", "2", "1", "ok"],
                    ["2", "PBC", "Particle", "Beam", "Cannon", "FT", "6/12", "10", "9", "9", "ok"],
                    ["3", "MR", "Missile", "Rack", "LA", "6/12", "5", "6", "2", "ok"],
                    ["4", "ML", "Medium", "Laser", "RA", "3/6", "5", "4", "3", "ok"]]


def test_turn_report_json_weapons_carry_range_damage_and_the_ap_a_damaged_weapon_costs():
    """CTF-34: a damaged weapon costs 1.5 times its AP, rounded up; the report shows that."""
    st = game()
    st.bots[0].weapons[1] = DAMAGED
    weapons = turn_report(st, 1)["status"]["weapons"]
    pbc = weapons[1]
    assert (pbc["key"], pbc["name"], pbc["damage"], pbc["optimum"], pbc["maximum"]) == \
        ("PBC", "Particle Beam Cannon", 10, 6, 12)
    assert (pbc["ap"], pbc["heat"], pbc["state"]) == (14, 9, "damaged")  # 9 x 1.5 = 13.5 -> 14
    assert weapons[0]["ap"] == 2 and weapons[0]["state"] == "ok"
    assert "FT   6/12       10  14     9  damaged" in format_report(turn_report(st, 1))


def test_docs_weapon_table_is_the_shipped_weapons():
    """docs/ctf2187.md lists every shipped weapon with its real numbers (weapons.toml)."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 9 and cells[0].isupper() and cells[0] != "---":
            rows[cells[0]] = cells[1:]
    shipped = default_tables().weapons
    assert set(rows) == set(shipped)
    for key, w in shipped.items():
        assert rows[key] == [w.name, str(w.damage), str(w.optimum), str(w.maximum), str(w.ap),
                             str(w.heat), f"{w.tons100 / 100:g}",
                             "yes" if w.energy else "no"], key


def test_docs_design_table_numbers_weapons_as_sheets_do():
    text = DOC.read_text(encoding="utf-8")
    for d in default_tables().designs:
        weapons = ", ".join(f"{i + 1} {w.key} ({LOCATION_CODES[loc]})"
                            for i, (loc, w) in enumerate(d.weapons))
        assert f"| {d.name} | {d.tons} | {d.wclass} | {d.engines} | {weapons} |" in text


# -- results that name players and teams ---------------------------------------------------------

def four(**options):
    """ann and bob (team A) against cy and dee (team B), one Bot each."""
    return game(names=("ann", "bob", "cy", "dee"), **options)


def test_result_names_the_winning_players_and_the_losers_with_their_teams():
    st = four()
    st.bots[0].vp = 11  # ann's Bot, team A
    st.end("turn limit", Termination.TURN_LIMIT)
    assert st.outcome.winners == (0, 1)
    line = st.describe_outcome()
    assert line.startswith("ann and bob (team A) win against cy and dee (team B) (turn limit; "
                           "ratings A ")
    assert "Player" not in line


def test_result_of_one_player_team_says_wins():
    st = game()
    st.bots[1].vp = 3
    st.end("elimination", Termination.ELIMINATION)
    assert st.describe_outcome() == ("bob (team B) wins against ann (team A) (elimination; "
                                     "ratings A 0.00, B 0.05)")


def test_result_draw_names_every_player_and_team():
    st = four()
    st.end("turn limit", Termination.TURN_LIMIT)
    assert st.describe_outcome() == ("draw between ann and bob (team A) and cy and dee (team B) "
                                     "(turn limit; ratings A 0.00, B 0.00)")


def test_tied_best_teams_share_the_win_against_the_rest():
    st = game(names=("ann", "bob", "cy"), teams=3)
    st.bots[0].vp = 5
    st.bots[2].vp = 5
    st.end("turn limit", Termination.TURN_LIMIT)
    assert st.describe_outcome().startswith(
        "ann (team A) and cy (team C) share the win against bob (team B) (turn limit; ")


def test_unnamed_players_are_called_player_n_from_1():
    st = get("ctf2187").new(seed=1, names=["", ""], designs="Lancer", bots_per_team=1)
    st.bots[0].vp = 2
    st.end("turn limit", Termination.TURN_LIMIT)
    assert st.describe_outcome().startswith("Player 1 (team A) wins against Player 2 (team B)")


def test_board_footer_and_report_give_the_named_result():
    st = four()
    st.bots[2].vp = 4
    st.end("turn limit", Termination.TURN_LIMIT)
    line = st.describe_outcome()
    assert line.startswith("cy and dee (team B) win against ann and bob (team A)")
    assert f"Result: {line}" in st.render(None).splitlines()
    assert f"Result: {line}" in st.render(2).splitlines()
    assert f"GAME OVER: {line}" in format_report(turn_report(st, 1))
    assert turn_report(st, 3)["result"] == line
    for who in (None, 0, 3):  # the views a web page draws from carry it too
        assert st.view(who)["result"]["text"] == line


def test_core_outcome_uses_names_when_given_and_player_n_otherwise():
    """The core hook every game gets: a named player is called by name."""
    out = Outcome((1.0, 0.0), "elimination", (0,))
    assert out.describe() == "Player 1 wins (elimination)"  # unchanged without names
    assert out.describe(("ann", "bob")) == "ann wins (elimination)"
    assert out.describe(("", "bob")) == "Player 1 wins (elimination)"

    class Ended(State):
        __slots__ = ()

        @property
        def outcome(self):
            return Outcome((0.0, 1.0), "concession", (1,))

    st = Ended()
    st.setup = Setup(1, {}, ("ann", "bob"))
    assert st.describe_outcome() == "bob wins (concession)"


def test_process_and_status_name_players_and_teams_at_the_end(gamedir):
    out = run("ctf2187", "process", gamedir, "--deadline").output
    end = [ln for ln in out.splitlines() if ln.startswith("Game over: ")]
    assert len(end) == 1
    assert "ann and bob (team A)" in end[0] and "cy and dee (team B)" in end[0]
    assert "Player" not in end[0]
    status = run("ctf2187", "status", gamedir).output
    assert end[0].removeprefix("Game over: ") in status
    refused = run("ctf2187", "submit", gamedir, "ann", "-", input=SHEET1, ok=False).output
    assert "the game is over: " in refused and "(team A)" in refused


def test_play_in_the_terminal_ends_with_the_named_result(tmp_path):
    """The generic front end prints the outcome's own line: names and teams, no "Player 1"."""
    script = tmp_path / "moves.txt"
    script.write_text("default\ndefault\n", encoding="utf-8")
    out = run("play", "ctf2187", "--names", "ann", "bob", "--seed", 1, "-o", "turn_limit=1",
              "-o", "bots_per_team=1", "--script", script, "--color", "never").output
    last = out.strip().splitlines()[-1]
    assert last.startswith("Result: ") and "(team A)" in last and "(team B)" in last
    assert "ann" in last and "bob" in last and "Player" not in last


# -- results --json numbers players as the command line -------------------------------------------

def test_results_json_numbers_the_player_as_the_command_line_takes_it(gamedir):
    for number, name in enumerate(("ann", "bob", "cy", "dee"), start=1):
        by_number = json.loads(run("ctf2187", "results", gamedir, number, "--json").output)
        by_name = json.loads(run("ctf2187", "results", gamedir, name, "--json").output)
        assert by_number == by_name
        (rep,) = by_number
        assert rep["player"] == number and rep["status"]["player"] == number
        assert rep["pilot"] == name


def test_results_json_winners_are_numbered_as_the_command_line(gamedir):
    run("ctf2187", "process", gamedir, "--deadline")
    (rep,) = json.loads(run("ctf2187", "results", gamedir, "cy", "--json").output)
    outcome = rep["outcome"]
    assert outcome["text"] == rep["result"]
    for w in outcome["winners"]:  # results DIR <number> reaches the winner it names
        (theirs,) = json.loads(run("ctf2187", "results", gamedir, w["player"], "--json").output)
        assert theirs["pilot"] == w["name"] and theirs["team"] == w["team"]
    assert outcome["draw"] == (outcome["winners"] == [])


def test_view_keeps_numbering_players_from_0_like_the_core_api():
    st = game()
    assert [b["player"] for b in st.view(1)["board"]["bots"]] == [1]


# -- a wreck shows no action points ----------------------------------------------------------------

def ejected() -> object:
    """ann's Lancer ejects in phase 1 (order 19, option 9: nine engines or fewer work)."""
    st = game()
    st.bots[0].engines = [1] * 9 + [0] * 5
    st.apply(st.parse("BOT 1 TURN 1; P1 19 9 0 - -; " + HOLD.split("; ", 1)[1], 0), 0)
    st.apply(st.parse("BOT 2 TURN 1; " + HOLD, 1), 1)
    b = st.bots[0]
    assert b.status == WRECKED and b.pilot == EJECTED and st.outcome is None
    return st


def test_wreck_report_shows_no_action_points():
    st = ejected()
    rep = turn_report(st, 1)
    assert rep["status"]["ap_start"] is None and rep["status"]["ap_left"] is None
    text = format_report(rep)
    assert "No AP (Wreckage)" in text and "AP at turn start" not in text
    alive = format_report(turn_report(st, 2))
    assert "AP at turn start" in alive and "No AP" not in alive


def test_wreck_in_view_and_on_the_board_has_no_action_points():
    st = ejected()
    (mine,) = st.view(0)["board"]["bots"]
    assert mine["state"] == "wreckage" and mine["ap_start"] is None and mine["ap_left"] is None
    line = next(ln for ln in st.render(0).splitlines() if ln.startswith("Bot 1 "))
    assert "wreckage" in line and "AP" not in line


# -- one line per problem --------------------------------------------------------------------------

ROSTER = Roster(teams=(0, 1), weapons=(4, 4))


def test_sheet_with_several_problems_gives_one_line_per_problem():
    with pytest.raises(SheetError) as info:
        parse_sheet("BOT 1 TURN 1\nP1 66 - 2 - 0\nP2 6 - 9 - 0\n", ROSTER, 1)
    lines = str(info.value).splitlines()
    assert lines == ["order sheet rejected (CTF-37): 3 problems",
                     "  line 2, field 2 (move order): 66 is not a move order (0-23)",
                     "  line 3, field 4 (attack order): 9 is not an attack order (0-6)",
                     "  line 3: missing phase line(s) P3, P4, P5: a sheet has exactly five"]


def test_sheet_with_one_problem_stays_on_one_line():
    with pytest.raises(SheetError) as info:
        parse_sheet(SHEET1.replace("P3 0", "P3 66"), ROSTER, 1)
    assert str(info.value) == ("order sheet rejected (CTF-37): line 4, field 2 (move order): "
                               "66 is not a move order (0-23)")


def test_sheet_of_many_problems_lists_the_first_then_how_many_more():
    text = "BOT 1 TURN 1\n" + "P1 99 - 9 - 0\n" * 30
    with pytest.raises(SheetError) as info:
        parse_sheet(text, ROSTER, 1)
    lines = str(info.value).splitlines()
    assert lines[0].endswith(f"{len(info.value.errors)} problems")
    assert len(lines) == 1 + MAX_ERRORS_SHOWN + 1
    assert all(ln.startswith("  line ") for ln in lines[1:-1])
    assert lines[-1] == f"  and {len(info.value.errors) - MAX_ERRORS_SHOWN} more errors"


def test_submit_of_a_sheet_with_several_problems_prints_one_line_each(tmp_path, gamedir):
    f = tmp_path / "orders.txt"
    f.write_text("BOT 1 TURN 1\nP1 66 - 2 - 0\nP2 6 - 9 - 0\n", encoding="utf-8")
    lines = run("ctf2187", "submit", gamedir, "ann", f, ok=False).output.splitlines()
    assert lines[0].startswith("error: ") and "orders.txt" in lines[0]
    assert lines[0].endswith("order sheet rejected (CTF-37): 3 problems")
    assert [ln.split(",")[0] for ln in lines[1:]] == ["  line 2", "  line 3",
                                                      "  line 3: missing phase line(s) P3"]
    assert not (gamedir / "sheets").exists() or not any((gamedir / "sheets").rglob("*.txt"))


def test_process_with_several_sheets_missing_lists_one_bot_a_line(gamedir):
    run("ctf2187", "submit", gamedir, "ann", "-", input=SHEET1)
    lines = run("ctf2187", "process", gamedir, ok=False).output.splitlines()
    assert lines == ["error: sheets missing for 3 Bots (wait, or process with --deadline to "
                     "use their standing orders):",
                     "  Bot 2 (bob)", "  Bot 3 (cy)", "  Bot 4 (dee)"]


def test_process_of_a_stored_sheet_with_several_problems_names_the_file_then_each(gamedir):
    folder = gamedir / "sheets" / "turn-001"
    folder.mkdir(parents=True)
    (folder / "bot-1.txt").write_text("BOT 1 TURN 1\nP1 66 - 2 - 0\nP2 6 - 9 - 0\n",
                                      encoding="utf-8")
    lines = run("ctf2187", "process", gamedir, "--deadline", ok=False).output.splitlines()
    assert "bot-1.txt" in lines[0] and lines[0].endswith("3 problems")
    assert lines[1:4] == ["  line 2, field 2 (move order): 66 is not a move order (0-23)",
                          "  line 3, field 4 (attack order): 9 is not an attack order (0-6)",
                          "  line 3: missing phase line(s) P3, P4, P5: a sheet has exactly five"]
    assert lines[4] == "  (correct or remove the file, then process again)"


# -- the page cites only what the project has ------------------------------------------------------

# Files the page names that the user (or boardct, in the user's game directory) creates; the
# page says so where it names them. Placeholders NNN, K, DIR and FILE stand for numbers and
# names the user chooses.
USER_FILES = {"game.json", "map.txt", "arena.map", "orders.txt", "sheets/turn-NNN/",
              "results/turn-NNN/bot-K.txt|.json", "bot-K.standing.txt"}
FILE_LIKE = re.compile(r"^[\w./|-]+\.(txt|md|toml|json|py|map)$|^[\w.-]*/[\w./|-]*$")
FILE_WORD = re.compile(r"[\w./|-]+\.(?:txt|md|toml|json|py|map)\b")


def cited_files(text: str) -> set[str]:
    """Every `code` span of the page that is a file or folder path, and every file name in
    the prose (`hidden.py`)."""
    out = set(FILE_WORD.findall(text))
    for span in set(re.findall(r"`([^`\n]+)`", text)):
        head = span.split(":")[0].split()[0] if span.split() else ""
        if FILE_LIKE.match(head):
            out.add(head)
    return out


def test_docs_cite_only_files_in_the_project_or_made_by_the_user():
    text = DOC.read_text(encoding="utf-8")
    cited = cited_files(text)
    assert {"weapons.toml", "rules.toml", "game.json", "hidden.py"} <= cited  # the scan works
    tracked = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
               if ".git" not in p.parts and "__pycache__" not in p.parts]
    missing = []
    for path in sorted(cited - USER_FILES):
        if path.startswith("/dev/"):
            continue  # a device the page names as something refused
        found = path.rstrip("/") in tracked or any(t.endswith("/" + path) for t in tracked)
        if not found:
            missing.append(path)
    assert not missing, f"docs/ctf2187.md cites files the project does not have: {missing}"
    for name in USER_FILES & cited:  # each is introduced as something the user's folder holds
        assert name in text


def test_docs_name_no_rulebook_or_rulings_file_outside_the_project():
    text = DOC.read_text(encoding="utf-8")
    assert "seeds/" not in text and "rules/ctf2187.md" not in text
    for order in range(24):  # the orders are on the page itself, not "as the rulebook says"
        assert re.search(rf"^\| {order} \| ", text, re.M), order
