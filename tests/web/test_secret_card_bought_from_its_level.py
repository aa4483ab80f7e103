"""A secret reserved card bought from its level's tab: the sheet asks whether it is the secret
card (a tester's purchase of it there left the secret card in the reserve, counting towards 3)."""

from __future__ import annotations

import re

from helpers import new_game, play

HX = {"HX-Request": "true"}


def test_a_card_of_a_secret_cards_level_offers_to_be_bought_as_that_card(client):
    game = new_game(client)
    gid = game["id"]
    play(client, gid, [{"type": "reserve", "player": 0, "level": 1},
                       {"type": "take_tokens", "player": 1, "tokens": {"red": 1}},
                       {"type": "take_tokens", "player": 0, "tokens": {"blue": 2}},
                       {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}])
    sheet = client.get(f"/games/{gid}/sheet/buy?src=1&card=D1-04", headers=HX).get_data(as_text=True)
    said = re.sub(r"\s+", " ", re.search(r'id="secret-match">(.*?)<a', sheet, re.S)[1]).strip()
    assert said == "Ana holds a secret level 1 card. If this is it, tap “It is the secret card”: it is bought from the reserve, and leaves it."
    link = re.search(r'<a class="small-btn" id="buy-as-secret" href="([^"]+)"', sheet)[1].replace("&amp;", "&")
    assert link == f"/games/{gid}/sheet/buy?src=reserve&card=D1-04&v=4"  # (v: the version the sheet was drawn at)
    as_secret = client.get(link, headers=HX).get_data(as_text=True)
    assert 'id="secret-match"' not in as_secret and '"from_reserve": true' in as_secret.replace("&#34;", '"')
    # a level with no secret card: nothing asked
    assert 'id="secret-match"' not in client.get(f"/games/{gid}/sheet/buy?src=2&card=D2-01", headers=HX).get_data(as_text=True)
    state = play(client, gid, [{"type": "purchase", "player": 0, "card": "D1-04", "from_reserve": True,
                                "payment": {"blue": 2, "gold": 1}}])
    assert state["players"][0]["reserved"] == [] and state["players"][0]["cards"] == ["D1-04"]


def test_the_secret_card_button_keeps_the_payment_chosen_and_counts_two_secret_cards(client):
    """A tester: "It is the secret card" after "gold for blue" paid blue again; with two secret
    level 1 cards the note said "a secret level 1 card"."""
    game = new_game(client)
    gid = game["id"]
    play(client, gid, [{"type": "reserve", "player": 0, "level": 1},
                       {"type": "take_tokens", "player": 1, "tokens": {"red": 1}},
                       {"type": "reserve", "player": 0, "level": 1},
                       {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}])
    sheet = client.get(f"/games/{gid}/sheet/buy?src=1&card=D1-09&gold_for=green", headers=HX).get_data(as_text=True)
    assert "Ana holds 2 secret level 1 cards. If this is one of them, tap “It is the secret card”: it is bought from the reserve" in re.sub(r"\s+", " ", sheet)
    link = re.search(r'id="buy-as-secret" href="([^"]+)"', sheet)[1].replace("&amp;", "&")
    assert "gold_for=green" in link
