"""A refusal names a card as the table sees it (never its catalogue id), says who holds a card
already taken, and what a payment lacks (testers: "Card D3-13 is already bought or reserved"
for a card in the buyer's own reserve; "Ana does not hold 1 blue, 1 green, 1 red, 1 black"
when only the black was missing)."""

from __future__ import annotations

import re

import flask_babel
from helpers import new_game, post
from test_api import give

from tracker.rules import catalog

CATALOGUE_ID = re.compile(r"\b(?:D[123R]|S[123])-\d+\b")


def refusal(resp) -> tuple[str, str, str]:
    assert resp.status_code == 422, resp.get_json()
    err = resp.get_json()["error"]
    return err["code"], err["message"], err["rule"]


def level_one(color: str) -> str:
    """A level-1 jewel card of ``color``."""
    return next(c.id for c in catalog.jewels().values() if c.level == 1 and c.color == color)


def test_a_card_in_the_buyers_own_reserve_or_bought_by_the_other_is_named_with_its_holder(client):
    gid = new_game(client)["id"]
    card = level_one("blue")
    assert post(client, gid, {"type": "reserve", "player": 0, "card": card}).status_code == 200
    post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"white": 1}})
    code, message, rule = refusal(post(client, gid, {"type": "purchase", "player": 0, "card": card, "payment": {}}))
    assert code == "card_unavailable" and rule == "D-7"
    assert message.startswith("This card is in Ana's own reserve: buy it from the reserve: a level-1 blue card") and not CATALOGUE_ID.search(message)
    code, message, rule = refusal(post(client, gid, {"type": "reserve", "player": 0, "card": card}))
    assert code == "card_unavailable" and rule == "D-6" and "in Ana's reserve" in message
    # Korean: the same sentence, the card in Korean words
    flask_babel.refresh()
    resp = client.post(f"/api/games/{gid}/events", json={"type": "reserve", "player": 0, "card": card},
                       headers={"Accept-Language": "ko"})
    message = resp.get_json()["error"]["message"]
    assert message.startswith("Ana 님이 예약한 카드입니다: 1레벨 파란") and "보석 카드" in message
    assert not CATALOGUE_ID.search(message)


def test_a_payment_the_player_cannot_make_says_what_is_short(client):
    gid = new_game(client)["id"]
    card = next(c for c in catalog.jewels().values()
                if c.level == 1 and len(c.cost.kinds()) >= 2 and not c.cost.pearl)
    kinds = card.cost.kinds()
    held = {k: card.cost.get(k) for k in kinds[:-1]}  # every colour but the last
    give(client, gid, 0, held)
    code, message, rule = refusal(post(client, gid, {"type": "purchase", "player": 0, "card": card.id,
                                                     "payment": {k: n for k, n in card.cost.items() if n}}))
    last = kinds[-1]
    assert code == "not_enough_tokens" and rule == "D-7"
    assert message.startswith("Ana cannot pay ") and message.endswith(f": {card.cost.get(last)} {last} short."), message
    assert not CATALOGUE_ID.search(message)


def test_an_unknown_card_id_is_quoted_as_sent(client):
    gid = new_game(client)["id"]
    code, message, _rule = refusal(post(client, gid, {"type": "reserve", "player": 0, "card": "S1-01"}))
    assert code == "unknown_card" and message == "There is no jewel card S1-01."


def test_a_buy_sheet_naming_a_card_another_player_holds_says_whose_it_is(client):
    """The Buy sheet's address can name any card (a shared link, the back button): a card in the
    other player's reserve is refused with its holder, not with "cannot pay" (a tester)."""
    gid = new_game(client)["id"]
    card = level_one("red")
    assert post(client, gid, {"type": "reserve", "player": 0, "card": card}).status_code == 200
    sheet = client.get(f"/games/{gid}/sheet/buy?src=1&card={card}", headers={"HX-Request": "true"})
    assert sheet.status_code == 200
    html = sheet.get_data(as_text=True)
    assert "This card is in Ana&#39;s reserve: a level-1 red card" in html
    assert "cannot pay" not in html


def test_two_cards_that_read_the_same_are_told_apart_by_their_cost_in_the_log(client):
    """A Korean tester reserved D1-28 and then D1-27: both read "a level-1 joker card (1 prestige)"
    in the log. A card whose words another card shares adds its printed cost; one alone does not."""
    gid = new_game(client)["id"]
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"white": 1}})
    for card in ("D1-28", "D1-27"):
        assert post(client, gid, {"type": "reserve", "player": 1, "card": card}).status_code == 200
        post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"blue": 1}})
    log = client.get(f"/games/{gid}/log").get_data(as_text=True)
    assert "a level-1 joker card (1 prestige, costs 2 white, 2 green, 1 black, 1 pearl)" in log
    assert "a level-1 joker card (1 prestige, costs 4 black, 1 pearl)" in log
    flask_babel.refresh()
    log = client.get(f"/games/{gid}/log", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert "(1점, 비용 검은색 4개, 진주 1개)" in log
    flask_babel.refresh()
    # a card no other reads the same as keeps its words alone
    post(client, gid, {"type": "reserve", "player": 1, "card": "D3-01"})
    log = client.get(f"/games/{gid}/log").get_data(as_text=True)
    assert "a level-3 white card (3 prestige, 2 crowns)" in log and "costs" not in log.split("a level-3 white card")[1][:40]
