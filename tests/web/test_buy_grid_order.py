"""Both games' testers found finding the card to buy the slowest step at the table (a level
lists every card not yet taken, 30 or so): the cards the buyer can pay for come first, since a
purchase is always one of them."""

from __future__ import annotations

import re

from helpers import new_game, post

HX = {"HX-Request": "true"}


def test_the_buy_grid_lists_the_cards_the_buyer_can_pay_for_first(client):
    gid = new_game(client)["id"]
    state = client.get(f"/api/games/{gid}").get_json()
    board = dict(state["board"])
    board["blue"] -= 3
    fix = {"type": "correction", "player": 0, "set": {"tokens": {"blue": 3}, "board": board}}
    assert post(client, gid, fix).status_code == 200
    sheet = client.get(f"/games/{gid}/sheet/buy?src=1", headers=HX).get_data(as_text=True)
    cards = re.findall(r'<a class="card color-\w+( affordable)?" data-card="(D1-\d+)"', sheet)
    payable = [card for mark, card in cards if mark]
    assert "D1-04" in payable and "D1-09" not in payable  # blue 3 pays for D1-04, not for green 3
    assert [card for _mark, card in cards[:len(payable)]] == payable  # all of them first
    assert len(cards) == 30 and "Cards the buyer can pay for come first" in sheet
    rest = [card for mark, card in cards if not mark]
    assert rest == sorted(rest)  # catalogue order kept in each part
    # level 3, none to pay for: no "come first (✓)" over cards without a tick (a first-time tester)
    level3 = client.get(f"/games/{gid}/sheet/buy?src=3", headers=HX).get_data(as_text=True)
    assert "come first" not in level3 and "None of these can be paid for yet." in level3


def test_the_my_reserve_tab_is_marked_while_a_reserved_card_can_be_paid_for(client):
    """A tester's player held an affordable reserved card while Buy opened on level 1: the My
    reserve tab says so (✓, as the grid's payable cards), and only while it is so."""
    gid = new_game(client)["id"]
    reserve = {"type": "reserve", "player": 0, "card": "D1-04", "gold_taken": True}
    assert post(client, gid, reserve).status_code == 200
    take = {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}
    assert post(client, gid, take).status_code == 200

    def tab(src: str = "1") -> str:
        sheet = client.get(f"/games/{gid}/sheet/buy?src={src}", headers=HX).get_data(as_text=True)
        return re.search(r'data-tab="reserve"[^>]*>([^<]+)<', sheet).group(1)

    assert tab() == "My reserve"  # 1 gold: D1-04 costs 3 blue
    state = client.get(f"/api/games/{gid}").get_json()
    board = dict(state["board"])
    board["blue"] -= 2
    fix = {"type": "correction", "player": 0, "set": {"tokens": {"blue": 2, "gold": 1}, "board": board}}
    assert post(client, gid, fix).status_code == 200
    assert tab() == "My reserve\u00a0✓"  # 2 blue and the gold pay for it (the mark never alone on a line)
    assert tab("reserve") == "My reserve\u00a0✓"  # and while that tab is open
    # said in words, not "check mark"
    sheet = client.get(f"/games/{gid}/sheet/buy?src=1", headers=HX).get_data(as_text=True)
    assert 'data-tab="reserve" aria-label="My reserve: a card there can be paid for">' in sheet
