"""The board elements each legal action involves (`action_targets`), as the page draws them:
the acting squad first (`squad:0I`), then the hex a move or an attack goes into (`hex:q,r`,
BSH-19 directions) and the enemy squad attacked there. The page makes exactly these clickable
(a squad, then a hex) and never reads BSH-38's text."""

import random

from hills_helpers import HILLS, position

from boardct.games.hills.board import DIR_DELTAS, DIR_NAMES


def drawn_keys(view: dict) -> set[str]:
    """Every `data-key` the renderer draws: each hex of the map, each squad still standing."""
    board = view["board"]
    keys = {f"hex:{h['q']},{h['r']}" for h in board["hexes"]}
    keys |= {f"squad:{s['player']}{s['kind']}" for s in board["squads"] if s["units"]}
    return keys


def random_positions(games: int, seed: int):
    rng = random.Random(seed)
    for g in range(games):
        s = HILLS.new(seed=seed * 10 + g)
        for _ in range(rng.randrange(5, 120)):
            if s.is_over:
                break
            yield s
            legal = s.legal_actions()
            rich = [a for a in legal if a] or legal  # end the turn now and then only
            s.apply(rng.choice(rich) if rng.random() < 0.8 else rng.choice(legal))


def test_every_target_is_drawn_and_follows_the_actions_direction():
    kinds_seen = set()
    for s in random_positions(10, seed=4):
        p = s.current_players()[0]
        view = s.view(p)
        drawn = drawn_keys(view)
        squads = {f"squad:{q['player']}{q['kind']}": q for q in view["board"]["squads"]
                  if q["units"]}
        for a in s.legal_actions(p):
            text = s.notation(a)
            words = text.split()
            targets = s.action_targets(a, p)
            assert set(targets) <= drawn, (text, targets)
            if text == "end":
                assert targets == ()
                continue
            if words[0] == "play" and words[1] == "artillery":  # BSH-15: an enemy squad
                assert targets == (f"squad:{1 - p}{words[2]}",)
                kinds_seen.add("artillery")
                continue
            kind = words[2] if words[0] == "play" else words[0]
            assert targets[0] == f"squad:{p}{kind}", (text, targets)
            me = squads[targets[0]]
            if "move" in words or "attack" in words or words[:2] == ["play", "ammo"]:
                direction = words[-2] if "attack" in words or "ammo" in words else words[-1]
                dq, dr = DIR_DELTAS[DIR_NAMES.index(direction)]
                assert targets[1] == f"hex:{me['q'] + dq},{me['r'] + dr}", (text, targets)
                kinds_seen.add(words[1] if words[0] != "play" else "ammo")
            if "attack" in words or "ammo" in words:  # BSH-10: the enemy squad on that hex
                enemy = squads[targets[2]]
                assert targets[2] == f"squad:{1 - p}{words[-1]}"
                assert f"hex:{enemy['q']},{enemy['r']}" == targets[1], (text, targets)
            if words[-1] in ("wait", "deimpede") or words[1] == "boost":
                assert targets == (f"squad:{p}{kind}",)
    assert {"move", "attack"} <= kinds_seen, kinds_seen


def test_a_squad_s_attack_names_the_hex_and_the_enemy_squad_there():
    s = position(squads={"0M": (0, 0, 4), "1I": (1, 0, 2)})
    attack = s.parse("M attack E I")
    assert s.action_targets(attack, 0) == ("squad:0M", "hex:1,0", "squad:1I")
    assert s.action_targets(s.parse("M move NW"), 0) == ("squad:0M", "hex:0,-1")
    assert s.action_targets(s.parse("end"), 0) == ()


def test_cards_name_the_squad_they_act_with_or_strike():
    s = position(squads={"0I": (0, 0, 6), "1R": (1, 0, 6)}, hands=((0, 1, 1, 1), (0, 0, 0, 0)))
    legal = {s.notation(a): s.action_targets(a, 0) for a in s.legal_actions(0)}
    assert legal["play artillery R"] == ("squad:1R",)  # BSH-15: any enemy squad
    assert legal["play boost I"] == ("squad:0I",)  # BSH-15: the squad boosted
    assert legal["play ammo I E R"] == ("squad:0I", "hex:1,0", "squad:1R")
