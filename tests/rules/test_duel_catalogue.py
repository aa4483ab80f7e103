"""D-1.2 and S-1: the card catalogues the engine ships."""

from collections import Counter

import pytest

from tracker.rules import catalog
from tracker.rules.tokens import GEM_COLORS


def test_there_are_67_jewel_cards():
    assert len(catalog.jewels()) == 67


@pytest.mark.parametrize("level, count", [(1, 30), (2, 24), (3, 13)])
def test_jewel_cards_by_level_are_30_24_13(level, count):
    assert len(catalog.jewels_of_level(level)) == count


def test_nine_jokers_have_the_wild_colour():
    jokers = [c for c in catalog.jewels().values() if c.color == catalog.WILD]
    assert len(jokers) == 9
    assert all(c.is_joker for c in jokers)
    assert all(c.bonus == 1 for c in jokers)


def test_three_points_only_cards_have_no_colour_and_no_bonus():
    points_only = [c for c in catalog.jewels().values() if c.color == catalog.NO_COLOR]
    assert sorted(c.id for c in points_only) == ["D1-30", "D2-24", "D3-13"]
    assert [c.bonus for c in points_only] == [0, 0, 0]
    assert [c.points for c in sorted(points_only, key=lambda c: c.id)] == [3, 5, 6]


def test_every_other_jewel_card_has_a_gem_colour():
    colors = Counter(c.color for c in catalog.jewels().values())
    assert set(colors) == set(GEM_COLORS) | {catalog.WILD, catalog.NO_COLOR}
    assert sum(colors[c] for c in GEM_COLORS) == 67 - 9 - 3


def test_the_jewel_cards_carry_28_crowns():
    assert sum(c.crowns for c in catalog.jewels().values()) == 28


def test_no_jewel_card_has_more_than_three_crowns():
    assert max(c.crowns for c in catalog.jewels().values()) == 3


def test_five_cards_give_two_bonuses_one_of_each_colour():
    doubles = [c for c in catalog.jewels().values() if c.bonus == 2]
    assert len(doubles) == 5
    assert sorted(c.color for c in doubles) == sorted(GEM_COLORS)


def test_jewel_costs_hold_gems_and_pearls_never_gold():
    assert all(c.cost.gold == 0 for c in catalog.jewels().values())
    assert all(c.cost.total > 0 for c in catalog.jewels().values())


def test_d3_12_is_a_joker_costing_8_red_with_an_extra_turn():
    card = catalog.jewel("D3-12")
    assert card.is_joker
    assert card.cost.to_dict(skip_zero=True) == {"red": 8}
    assert card.ability == catalog.EXTRA_TURN
    assert card.points == 3


def test_abilities_are_the_four_known_ones_or_none():
    abilities = Counter(c.ability for c in catalog.jewels().values())
    assert set(abilities) == {"none", catalog.EXTRA_TURN, catalog.TAKE_TOKEN, catalog.TAKE_PRIVILEGE, catalog.STEAL_TOKEN}


def test_four_royal_cards_with_their_prestige_and_ability():
    royals = catalog.royals()
    assert {r.id: (r.points, r.ability) for r in royals.values()} == {
        "DR-1": (3, "none"),
        "DR-2": (2, catalog.EXTRA_TURN),
        "DR-3": (2, catalog.TAKE_PRIVILEGE),
        "DR-4": (2, catalog.STEAL_TOKEN),
    }


def test_splendor_has_90_development_cards_40_30_20():
    cards = catalog.development_cards().values()
    assert len(cards) == 90
    assert Counter(c.level for c in cards) == {1: 40, 2: 30, 3: 20}
    assert {c.color for c in cards} == set(GEM_COLORS)


def test_splendor_has_10_nobles_worth_3():
    nobles = catalog.nobles()
    assert len(nobles) == 10
    assert {n.points for n in nobles.values()} == {3}


@pytest.mark.parametrize("bad", ["D9-99", "DR-1", "", None, 7])
def test_an_unknown_jewel_id_is_unknown_card(bad):
    from tracker.rules.errors import RuleError

    with pytest.raises(RuleError) as info:
        catalog.jewel(bad)
    assert info.value.code == "unknown_card"


@pytest.mark.parametrize("bad", ["DR-5", "D1-01", None])
def test_an_unknown_royal_id_is_unknown_card(bad):
    from tracker.rules.errors import RuleError

    with pytest.raises(RuleError) as info:
        catalog.royal(bad)
    assert info.value.code == "unknown_card"
