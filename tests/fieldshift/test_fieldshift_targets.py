"""The board elements each legal command involves (`action_targets`), as the page renderer
draws them: `sector:<0-9>`, `op:<+|-><0-9>`, `fac:<player>:<0-2>`. The page makes exactly
these clickable and never reads the notation, so they must name real, drawn elements, the one
acting first, and tell a revive from a hit (FS-30) without any words to go on."""

import random

import pytest
from fs_helpers import GAME, Pos, op, play

from boardct.games.fieldshift import notation as nt
from boardct.games.fieldshift.state import PV_SIZE, SKCD, SPCD

RULESETS = ("lstd", "stdex", "type-a")


def drawn_keys(view: dict) -> set[str]:
    """Every `data-key` the renderer draws for this view: the ten sectors, each operator that
    is on the field or in reserve (the fallen are listed as text only), both players'
    facilities."""
    board = view["board"]
    keys = {f"sector:{s}" for s in range(10)}
    keys |= {f"op:{o['id']}" for o in board["operators"] if o["status"] != "dead"}
    keys |= {f"fac:{p}:{f}" for p in range(2) for f in range(3)}
    return keys


def random_positions(ruleset: str, games: int, seed: int):
    """Positions along random games with skills and support ready often, so armed skills,
    revives and artillery shots come up."""
    rng = random.Random(seed)
    for g in range(games):
        s = GAME.new(seed=seed * 100 + g, ruleset=ruleset, violations=rng.choice(
            ["dispute", "reject"]))
        for _ in range(rng.randrange(10, 80)):
            if s.is_over:
                break
            if rng.random() < 0.2:
                for p in range(2):
                    s.pv[p * PV_SIZE + SKCD] = 0
                    s.pv[p * PV_SIZE + SPCD] = 0
            yield s
            legal = s.legal_actions()
            skills = [a for a in legal if s.notation(a)[0] in "89"]
            s.apply(rng.choice(skills) if skills and rng.random() < 0.3 else rng.choice(legal))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_target_is_an_element_the_page_draws_and_says_what_the_command_does(ruleset):
    seen = set()
    for s in random_positions(ruleset, 12, seed=RULESETS.index(ruleset) + 1):
        p = s.current_players()[0]
        view = s.view(p)
        drawn = drawn_keys(view)
        ops = {o["id"]: o for o in view["board"]["operators"]}
        mine, theirs = "+-"[p], "-+"[p]
        for a in s.legal_actions(p):
            targets = s.action_targets(a, p)
            text = s.notation(a)
            ins = int(text[0])
            assert set(targets) <= drawn, (text, targets)
            assert len(set(targets)) == len(targets), (text, targets)
            if ins == nt.AUX:
                assert targets == (), text
                continue
            assert targets, text
            seen.add(ins)
            if ins in (nt.RNF, nt.WDR):  # FS-13: the player's own facility
                assert targets == (f"fac:{p}:{text[-1]}",)
            if ins == nt.MOV:  # FS-6, FS-9: the mover, then the sector it moves to
                assert targets[-1] == f"sector:{text[-1]}"
                mover = ops[targets[0][3:]]
                assert mover["player"] == p and mover["status"] == "deployed"
            if ins == nt.HIT:
                actor, target = (ops[k[3:]] for k in targets)
                if target["player"] == p:  # FS-30: the armed Medic's revive
                    assert actor["class"] == "Medic" and actor["skill"], (text, targets)
                    assert target["status"] == "bleeding", (text, targets)
                else:  # FS-11: a deployed enemy, hit by my deployed operator
                    assert targets[1].startswith(f"op:{theirs}")
                    assert actor["player"] == p and actor["status"] == "deployed"
                    assert target["status"] == "deployed"
            if ins in (nt.RGP, nt.OVW):  # FS-14, FS-15: my own operator, named by the digit
                assert targets == (f"op:{mine}{text[-1]}",)
            if ins == nt.SPT:
                if view["board"]["players"][p]["artillery_ready"]:  # FS-17: the shot
                    assert targets == (f"fac:{p}:0", f"sector:{text[-1]}")
                else:
                    assert targets == (f"fac:{p}:{text[-1]}",)
    assert {nt.MOV, nt.HIT, nt.RNF, nt.RGP, nt.OVW} <= seen, seen


def test_lstd_moves_name_the_selected_operator_then_the_sector():
    s = GAME.new(seed=0)
    assert s.action_targets(s.parse("24"), 0) == ("op:+0", "sector:4")
    assert s.action_targets(s.parse("13"), 0) == ("op:+3",)  # SWC selects +3 (FS-6)
    play(s, "13")
    assert s.action_targets(s.parse("24"), 0) == ("op:+3", "sector:4")


def test_stdex_names_the_operator_the_middle_digit_names():
    s = Pos(ruleset="stdex").only(("+2", 3), ("+4", 5), ("-1", 6)).s
    assert s.action_targets(s.parse("227"), 0) == ("op:+2", "sector:7")
    assert s.action_targets(s.parse("441"), 0) == ("fac:0:1",)  # RNF 4 crates to the Medbay
    assert s.action_targets(s.parse("141"), 0) == ("op:+4", "op:+1")  # SWP (FS-10)


def test_fs30_the_hit_of_an_armed_medic_targets_the_friend_it_revives():
    """The page used to guess a revive from the words of the move; the engine knows it: while
    Extend is armed the HIT names the Medic and the bleeding friendly operator, not an
    enemy with the same number."""
    p = Pos().only(("+3", 3), ("+0", 3), ("-0", 9)).ready()
    s = p.down("+0", 3).s
    assert s.action_targets(s.parse("30"), 0) == ("op:+3", "op:-0")  # not armed: a hit
    play(s, "83")
    assert s.action_targets(s.parse("30"), 0) == ("op:+3", "op:+0")


def test_fs30_an_armed_medic_takes_the_hit_even_from_a_selected_armed_blade():
    p = Pos().only(("+1", 3), ("+3", 3), ("+0", 3), ("-0", 9), ("-3", 5)).ready()
    s = p.down("+0").s
    s.skl[op("+1")] = 1
    s.skl[op("+3")] = 1
    play(s, "11")
    assert s.action_targets(s.parse("30"), 0) == ("op:+3", "op:+0")


def test_fs25_stdex_skills_of_the_blade_and_the_medic_name_their_target():
    p = Pos(ruleset="stdex").only(("+1", 3), ("+3", 3), ("+0", 3), ("+4", 3), ("-2", 9))
    s = p.ready().down("+0", 2).s
    s._resync()
    legal = {s.notation(a) for a in s.legal_actions(0)}
    assert {"812", "830", "804"} <= legal
    assert s.action_targets(s.parse("812"), 0) == ("op:+1", "op:-2")  # Assassinate -2
    assert s.action_targets(s.parse("830"), 0) == ("op:+3", "op:+0")  # Extend revives +0
    assert s.action_targets(s.parse("804"), 0) == ("op:+4",)  # Quick draw: no target


def test_fs17_once_the_artillery_is_ready_spt_shells_a_sector():
    p = Pos().only(("+0", 3), ("-0", 6)).ready()
    s = p.s
    assert s.action_targets(s.parse("90"), 0) == ("fac:0:0",)  # support: ready the Artillery
    p.gun(0)
    assert s.action_targets(s.parse("96"), 0) == ("fac:0:0", "sector:6")


def test_answers_and_requests_involve_no_board_element():
    s = GAME.new(seed=0)
    play(s, "05")  # a request waits for Player 2's answer (FS-20)
    answers = s.legal_actions(1)
    assert answers and all(s.action_targets(a, 1) == () for a in answers)
    assert s.action_targets(s.parse("09"), 0) == ()
