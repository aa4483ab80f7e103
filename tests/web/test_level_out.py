"""D-6 / D-7: once every card of a level is bought or reserved, the buy and reserve sheets show
no pyramid card of that level (and say why), while a secret reserve can still be named."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "rules"))

from builders import ANA, BEN, position  # noqa: E402

from tracker import screen  # noqa: E402
from tracker.models import Game  # noqa: E402
from tracker.rules import catalog  # noqa: E402
from tracker.service import GameView  # noqa: E402

LEVEL_3 = sorted(c.id for c in catalog.jewels_of_level(3))


def _view(to_act: int) -> GameView:
    """Ben bought 10 level-3 cards (jokers on white) and holds 3 secret level-3 reserves."""
    bought = [c + (":white" if catalog.jewel(c).is_joker else "") for c in LEVEL_3[:10]]
    state = position(to_act=to_act, ben=dict(cards=bought, reserved_cards=[3, 3, 3]))
    assert state.cards_on_table(3) == 0
    return GameView(row=Game(id="x" * 32, game="duel", version=0), events=(), state=state)


def test_the_sheets_show_no_card_of_a_level_that_is_all_out(app):
    with app.test_request_context("/"):
        view = _view(ANA)
        buy = screen.buy_sheet(view, {"src": "3"})
        assert buy["grid"] == [] and buy["level_out"] is True
        reserve = screen.reserve_sheet(view, {"src": "3"})
        assert reserve["grid"] == [] and reserve["level_out"] is True
        level_2 = screen.buy_sheet(view, {"src": "2"})
        assert len(level_2["grid"]) == 24 and level_2["level_out"] is False


def test_a_secret_reserve_of_that_level_is_still_named_among_its_last_cards(app):
    with app.test_request_context("/"):
        sheet = screen.buy_sheet(_view(BEN), {"src": "reserve", "reveal": "3"})
        assert sorted(c["id"] for c in sheet["reveal_grid"]) == LEVEL_3[10:]


def test_the_sheets_open_on_the_first_level_with_a_card_left(app):
    """A tester late in a game: level 1 was all out, and every Buy and Reserve opened on its empty
    tab (one tap more each time). Asked without a level, a sheet opens on the first level with a
    card still on the table; a level asked is shown as asked."""
    level_1 = sorted(c.id for c in catalog.jewels_of_level(1))
    owned = [c + (":white" if catalog.jewel(c).is_joker else "") for c in level_1]
    state = position(to_act=ANA, ana=dict(cards=owned[:15]), ben=dict(cards=owned[15:]))
    assert state.cards_on_table(1) == 0 and state.cards_on_table(2) == 24
    view = GameView(row=Game(id="x" * 32, game="duel", version=0), events=(), state=state)
    with app.test_request_context("/"):
        buy, reserve = screen.buy_sheet(view, {}), screen.reserve_sheet(view, {})
        assert (buy["src"], buy["level_out"], len(buy["grid"])) == ("2", False, 24)
        assert (reserve["src"], reserve["level_out"], len(reserve["grid"])) == ("2", False, 24)
        asked = screen.buy_sheet(view, {"src": "1"})
        assert (asked["src"], asked["level_out"]) == ("1", True)
        fresh = _view(ANA)  # level 1 untouched: the sheets open on it, as before
        assert screen.buy_sheet(fresh, {})["src"] == "1" and screen.reserve_sheet(fresh, {})["src"] == "1"
