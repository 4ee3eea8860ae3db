"""Cutting lines to the terminal's width between words (`boardct.cli.wrap`): what every prose
line of the terminal goes through before it reaches a terminal."""

from __future__ import annotations

from rich.cells import cell_len

from boardct.cli.wrap import reflow, wrap_line

SENTENCE = ("Player 1's Mech could not enter (-1,0): it is a mountain. The Mech stays, its "
            "action spent, and the turn goes on with the Infantry and the Rocketeer.")


def words_of(lines: list[str]) -> list[str]:
    return " ".join(lines).split()


def test_a_line_is_cut_between_words_and_every_piece_fits():
    for width in (20, 33, 40, 80):
        pieces = wrap_line(SENTENCE, width)
        assert all(cell_len(p) <= width for p in pieces)
        assert words_of(pieces) == SENTENCE.split()  # no word cut, none lost


def test_a_help_line_continues_under_its_description():
    line = ("  preview CMD      what CMD would do, without doing it (also ?CMD); with chance "
            "or hidden information: the outcomes and their odds")
    first, *rest = wrap_line(line, 60)
    assert first.startswith("  preview CMD      what CMD")
    assert rest and all(p.startswith(" " * 19) and p[19] != " " for p in rest)


def test_wide_characters_count_as_two_cells():
    line = "名前 " * 30
    assert all(cell_len(p) <= 30 for p in wrap_line(line, 30))


def test_only_a_word_wider_than_the_line_is_cut():
    pieces = wrap_line("see " + "x" * 50 + " end", 20)
    assert all(cell_len(p) <= 20 for p in pieces) and pieces[-1].endswith("end")


def test_a_pipe_or_a_file_gets_the_line_whole():
    assert wrap_line(SENTENCE, None) == [SENTENCE]


def test_a_block_laid_out_for_a_wide_terminal_is_reflowed_not_made_ragged():
    block = ["  undo             take back your last move and the reply; the other must agree y/n",
             "                   (right after a move, the one who made it may ask)",
             "  status           where the game stands"]
    out = reflow(block, 60)
    assert all(cell_len(p) <= 60 for p in out)
    assert out[-1] == "  status           where the game stands"  # an item of its own
    assert words_of(out) == words_of(block)
    assert all(p.startswith(" " * 19) for p in out[1:-1])  # under the description column
    assert reflow(block, 100) == block  # it fits: left as laid out
