"""The board element each listed order sheet involves (`action_targets`): the Bot it is for,
as the page draws it (`bot:<n>`). A seat's sheets name only its own Bots, so the targets tell
nobody anything their own view does not (CTF-21, CTF-41)."""

import random

from ctf2187_helpers import game

from boardct.core import registry


def test_each_sheet_names_the_players_own_bot_that_owes_it():
    rng = random.Random(5)
    st = registry.get("ctf2187").new(seed=3, names=["ann", "bob", "cy", "dee"], teams=2)
    checked = 0
    for _ in range(3):
        if st.is_over:
            break
        for p in st.current_players():
            view = st.view(p)["board"]
            mine = {f"bot:{b['bot']}" for b in view["bots"]}
            owed = {f"bot:{n}" for n in view["owed"]}
            for a in st.legal_actions(p):
                targets = st.action_targets(a, p)
                assert targets == (f"bot:{a[1]}",), targets
                assert targets[0] in mine and targets[0] in owed
                assert st.notation(a).startswith(f"BOT {a[1]} ")  # CTF-37: the sheet's Bot
                checked += 1
        for p in st.current_players():
            while p in st.current_players():
                st.apply(rng.choice(st.legal_actions(p)), p)
    assert checked > 10


def test_a_duel_bot_is_the_target_of_its_default_sheet():
    st = game()
    bot = st.view(0)["board"]["bots"][0]["bot"]
    default = st.legal_actions(0)[0]
    assert st.describe_action(default, 0).startswith(f"Bot {bot} follows its standing orders")
    assert st.action_targets(default, 0) == (f"bot:{bot}",)
