"""D-8 card abilities after a purchase: extra turn, take a token, take a privilege, steal."""

import pytest

from builders import ANA, BEN, alerts, buy, discard, play, position, refused, take, tokens_of
from tracker.rules import duel

# D1-02: white, extra turn; costs 2 blue, 2 green, 1 pearl.
EXTRA = ("D1-02", {"blue": 2, "green": 2, "pearl": 1})
# D1-03: white, take a token; costs 2 red, 2 black.
TAKE = ("D1-03", {"red": 2, "black": 2})
# D2-02: white, steal a token, 1 point; costs 4 blue, 3 red: 1 blue for a player with 3+3 bonuses.
STEAL_BONUSES = ["D1-06", "D1-07", "D1-08", "D1-16", "D1-17", "D1-18"]


def test_extra_turn_lets_the_same_player_play_again():
    state = position(ana=dict(tokens=EXTRA[1]))
    after = play(state, buy(ANA, *EXTRA))
    assert after.current_player == ANA
    assert after.turn == 2, "an extra turn is a turn of its own"
    assert ("extra_turn", ANA) in alerts(after)
    after = play(after, take(ANA, red=1))
    assert after.current_player == BEN
    assert after.turn == 3


def test_extra_turn_comes_after_the_discard():
    tokens = dict(EXTRA[1], white=4, red=4, black=4)  # 17 tokens, 12 after paying
    state = position(ana=dict(tokens=tokens))
    after = play(state, buy(ANA, *EXTRA))
    assert after.pending == duel.Pending("discard", ANA, 2)
    assert after.extra_turn
    assert duel.to_json(after)["players"][ANA]["extra_turn"] is True
    after = play(after, discard(ANA, white=2))
    assert after.current_player == ANA
    assert after.turn == 2
    assert after.players[ANA].tokens.total == 10


@pytest.mark.parametrize("whites_on_board, gained", [(4, 1), (1, 1), (0, 0)])
def test_take_token_takes_one_token_of_the_cards_colour_if_the_board_has_one(whites_on_board, gained):
    state = position(ana=dict(tokens=TAKE[1]), ben=dict(tokens={"white": 4 - whites_on_board}))
    after = play(state, buy(ANA, *TAKE))
    assert tokens_of(after, ANA) == ({"white": 1} if gained else {})
    assert after.board.white == whites_on_board - gained
    assert after.current_player == BEN


def test_a_token_from_an_ability_never_gives_the_opponent_a_privilege():
    state = position(ana=dict(tokens=TAKE[1]), ben=dict(privileges=0))
    after = play(state, buy(ANA, *TAKE))
    assert after.players[BEN].privileges == 0


def test_a_token_from_an_ability_can_force_a_discard():
    state = position(ana=dict(tokens=dict(TAKE[1], blue=4, green=4, pearl=2)))  # 14, 10 after paying, 11
    after = play(state, buy(ANA, *TAKE))
    assert tokens_of(after, ANA)["white"] == 1
    assert after.pending == duel.Pending("discard", ANA, 1)


@pytest.mark.parametrize(
    "ana_before, ben_before, ana_after, ben_after, alert",
    [
        (0, 0, 1, 0, "privilege_gained"),
        (0, 1, 1, 1, "privilege_gained"),
        (1, 2, 2, 1, "privilege_taken"),
        (0, 3, 1, 2, "privilege_taken"),
        (3, 0, 3, 0, None),
    ],
)
def test_take_privilege_gains_a_privilege(ana_before, ben_before, ana_after, ben_after, alert):
    # D2-03: white, take a privilege, 2 points; costs 4 white, 2 black, 1 pearl.
    cost = {"white": 4, "black": 2, "pearl": 1}
    state = position(ana=dict(privileges=ana_before, tokens=cost), ben=dict(privileges=ben_before))
    after = play(state, buy(ANA, "D2-03", cost))
    assert [p.privileges for p in after.players] == [ana_after, ben_after]
    assert after.privileges_supply == 3 - ana_after - ben_after
    assert [k for k, _ in alerts(after)] == ([alert] if alert else [])


def _stealer(ben_tokens: dict) -> duel.DuelState:
    return position(ana=dict(cards=STEAL_BONUSES, tokens={"blue": 1}), ben=dict(tokens=ben_tokens))


@pytest.mark.parametrize("kind", ["red", "pearl"])
def test_steal_token_takes_the_named_gem_or_pearl_from_the_opponent(kind):
    state = _stealer({kind: 2, "gold": 1})
    after = play(state, buy(ANA, "D2-02", {"blue": 1}, steal=kind))
    assert tokens_of(after, ANA) == {kind: 1}
    assert tokens_of(after, BEN) == {kind: 1, "gold": 1}
    assert after.players[ANA].prestige == 1


def test_steal_must_be_named_when_the_opponent_holds_a_gem_or_pearl():
    error = refused(_stealer({"red": 1}), buy(ANA, "D2-02", {"blue": 1}))
    assert error.code == "steal_required"
    assert error.rule == "D-8"


def test_steal_may_not_name_a_token_the_opponent_lacks():
    error = refused(_stealer({"red": 1}), buy(ANA, "D2-02", {"blue": 1}, steal="black"))
    assert error.code == "steal_target"


@pytest.mark.parametrize("ben_tokens", [{"red": 1, "gold": 1}, {"gold": 2}])
def test_gold_is_never_stolen(ben_tokens):
    error = refused(_stealer(ben_tokens), buy(ANA, "D2-02", {"blue": 1}, steal="gold"))
    assert error.code == "gold_not_allowed"


@pytest.mark.parametrize("ben_tokens", [{}, {"gold": 2}], ids=["nothing", "only gold"])
def test_with_nothing_to_steal_the_purchase_names_no_token(ben_tokens):
    state = _stealer(ben_tokens)
    after = play(state, buy(ANA, "D2-02", {"blue": 1}))
    assert tokens_of(after, ANA) == {}
    assert tokens_of(after, BEN) == ben_tokens
    assert "D2-02" in [o.card for o in after.players[ANA].cards]
    assert refused(state, buy(ANA, "D2-02", {"blue": 1}, steal="red")).code == "steal_target"


def test_a_card_without_the_steal_ability_names_no_steal():
    state = position(ana=dict(tokens={"blue": 3}), ben=dict(tokens={"red": 1}))
    assert refused(state, buy(ANA, "D1-04", {"blue": 3}, steal="red")).code == "bad_event"


def test_d3_12_is_placed_as_a_joker_then_gives_an_extra_turn():
    # D3-12: joker, 3 points, extra turn; costs 8 red, 7 with one red bonus.
    state = position(ana=dict(cards=["D1-16"], tokens={"red": 4, "gold": 3}))
    after = play(state, buy(ANA, "D3-12", {"red": 4, "gold": 3}, wild="red"))
    me = after.players[ANA]
    assert me.bonuses["red"] == 2
    assert me.color_points["red"] == 3
    assert me.prestige == 3
    assert after.current_player == ANA
    assert after.turn == 2
    assert ("extra_turn", ANA) in alerts(after)
