"""`boardct play fff` and `boardct play shift` through the generic terminal."""


from cli_helpers import run


def test_fff_script_plays_turns_and_prints_the_board_and_prompt(tmp_path):
    path = tmp_path / "fff.txt"
    path.write_text("d1 NE m +y\n# White passes\npass\n")
    code, out = run("play", "fff", "--names", "A", "B", "--script", str(path))
    assert code == 0
    assert " 2  .       .       .       .       B2NE:y  .       .       .       2" in out
    assert "Turns without a capture: 2 of 200" in out
    assert out.rstrip().endswith("Player 1 (Black):")


def test_fff_trace_explains_a_rejected_turn_in_one_line(tmp_path):
    path = tmp_path / "fff.txt"
    path.write_text("d1 m m m\n")
    code, out = run("play", "fff", "--names", "A", "B", "--script", str(path), "--trace")
    rejected = [ln for ln in out.splitlines() if ln.startswith("Rejected: ")]
    assert code == 0 and len(rejected) == 1 and "FFF-5" in rejected[0]


def test_fff_help_is_the_notation_reference(tmp_path):
    path = tmp_path / "fff.txt"
    path.write_text("help\n")
    code, out = run("play", "fff", "--names", "A", "B", "--script", str(path), "--trace")
    assert "xD/E" in out and "purple conversion" in out


def test_shift_cards_option_and_help(tmp_path):
    path = tmp_path / "shift.txt"
    path.write_text("help\n")
    code, out = run("play", "shift", "--cards", "ember-duelist", "tide-warden", "--seed", "1",
                    "--script", str(path), "--trace")
    assert code == 0 and "guard active G" in out


def test_the_cards_shortcut_is_refused_for_a_game_without_cards(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("24\n")
    code, out = run("play", "fieldshift", "--cards", "a", "b", "--script", str(path))
    # the games that have the flag are named (Shift, and any other installed game with one)
    assert code == 2 and "--cards is a flag of" in out and "shift" in out.split(";")[0]
    assert "fieldshift has no option" in out
