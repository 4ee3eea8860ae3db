"""render(): the 8x8 board with owner, size, facing and fields, the pool, and whose turn."""

from fff_helpers import GAME, play

START = """\
    a       b       c       d       e       f       g       h
 8  W3S     W2S     W1S     W2S     W1S     W2S     W1S     W3S     8
 7  .       .       .       .       .       .       .       .       7
 6  .       .       .       .       .       .       .       .       6
 5  .       .       .       .       .       .       .       .       5
 4  .       .       .       .       .       .       .       .       4
 3  .       .       .       .       .       .       .       .       3
 2  .       .       .       .       .       .       .       .       2
 1  B3N     B2N     B1N     B2N     B1N     B2N     B1N     B3N     1
    a       b       c       d       e       f       g       h
B/W owner, 1-3 size, facing N NE E SE S SW W NW U, :fields inner to outer, ~ out of phase
fields: r red  g green  b blue  y yellow  p purple  o orange  c clear
Pool (2-pip/3-pip):  r 3/3  g 3/3  b 3/3  y 3/3  p 3/3  o 3/3  c 3/3
Black  pieces: 1-pip 3, 2-pip 3, 3-pip 2   lost counts (1/2/3): 0/0/0
White  pieces: 1-pip 3, 2-pip 3, 3-pip 2   lost counts (1/2/3): 0/0/0
Turns without a capture: 0 of 200
Black to move (Player 1)"""


def test_render_start_screen():
    assert GAME.new(seed=0).render() == START


def test_render_after_a_turn_shows_facing_fields_pool_and_turn():
    s = GAME.new(seed=0)
    play(s, "d1 NE m +y")
    lines = s.render().split("\n")
    assert lines[7] == " 2  .       .       .       .       B2NE:y  .       .       .       2"
    assert lines[8] == " 1  B3N     B2N     B1N     .       B1N     B2N     B1N     B3N     1"
    assert "y 3/2" in lines[12] and lines[12].startswith("Pool")
    assert lines[-1] == "White to move (Player 2)"
    assert lines[-2] == "Turns without a capture: 1 of 200"


def test_render_shared_square_gets_a_second_line_for_the_out_of_phase_piece():
    s = GAME.new(seed=0, position="B1c1N:gr,W2d4S:c,B2d4NE,W1e5U:bb,B3a1N,W3h8S,W1a8S:c,W2b7S "
                                  "W - 010/100 17")
    lines = s.render().split("\n")
    assert lines[1] == " 8  ~W1S:c  .       .       .       .       .       .       W3S     8"
    assert lines[5] == " 4  .       .       .       B2NE    .       .       .       .       4"
    assert lines[6] == "                            ~W2S:c"
    assert "Black  pieces: 1-pip 1, 2-pip 1, 3-pip 1   lost counts (1/2/3): 0/1/0" in lines
    assert "Turns without a capture: 17 of 200" in lines


def test_render_game_over_and_no_limit():
    s = GAME.new(seed=0, position="B1a1N,B2b1N,B3c1N,W2g8S,W3h8S B - 000/300 4", turn_limit=0)
    lines = s.render().split("\n")
    assert lines[-1] == "Game over: Player 1 wins (elimination)"
    assert lines[-2] == "Turns without a capture: 4 (no limit)"


def test_render_rich_has_the_same_text_with_field_colours():
    s = GAME.new(seed=0, position="B1c1N:gr,W2d4S:c,B3a1N,B2b1N,W1a8S,W3h8S B - 000/000 0")
    rich = s.render_rich()
    assert rich.plain == s.render()
    styles = {str(span.style) for span in rich.spans}
    assert {"bold green", "bold red", "bold bright_cyan", "bold reverse"} <= styles


def test_prompt_names_player_and_side():
    s = GAME.new(seed=0)
    assert s.prompt() == "Player 1 (Black): "
    play(s, "pass")
    assert s.prompt() == "Player 2 (White): "


def test_describe_events_of_a_turn():
    s = GAME.new(seed=0, position="B2d4N,W1d5S:g,W1h5S,B1a1N,B3c1N,W2g8S,W3h8S B - 000/000 0")
    lines = [s.describe(e) for e in s.apply(s.parse("d4 +r"))]
    assert lines == ["Black selects Black 2-pip (B2N) on d4", "d4: adds a red field"]
    lines = [s.describe(e) for e in s.apply(s.parse("h5 W"))]
    assert lines == ["White selects White 1-pip (W1S) on h5", "h5: turns W"]
    lines = [s.describe(e) for e in s.apply(s.parse("d4 xN"))]
    assert lines[-1] == "d4: captures White 1-pip (W1S:g) on d5, moves in facing N"


def test_view_is_json_ready_and_complete():
    import json

    s = GAME.new(seed=0, position="B1c1N:gr,W2d4S:c,B2d4NE,B3a1N,W1a8S,W3h8S B - 000/000 3")
    v = s.view(None)
    assert json.loads(json.dumps(v)) == v
    assert v["board"]["position"] == s.position() and v["to_move"] == [0]
    assert {"square": "d4", "owner": 1, "size": 2, "facing": "S", "fields": ["c"],
            "out_of_phase": True} in v["board"]["pieces"]
    assert v["board"]["pool"]["r"] == [3, 2] and v["board"]["no_capture_turns"] == 3
    assert s.view(0)["board"] == s.view(1)["board"] == v["board"]  # perfect information
