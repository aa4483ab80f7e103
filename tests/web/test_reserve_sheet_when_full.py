"""D-6 / S-2.3: with three reserved cards the Reserve sheet says so at once (a tester chose a
secret card before the refusal appeared), and offers nothing to tap."""

from __future__ import annotations

import pytest
from helpers import post

HX = {"HX-Request": "true"}


@pytest.mark.parametrize("game", ["duel", "splendor"])
def test_a_fourth_reserve_is_refused_before_any_card_is_tapped(client, game):
    setup = {"game": game, "players": ["Ana", "Ben"], "first_player": 0}
    if game == "splendor":
        setup["nobles"] = ["N-01", "N-02", "N-03"]
    gid = client.post("/api/games", json=setup).get_json()["id"]
    sheet = client.get(f"/games/{gid}/sheet/reserve", headers=HX).get_data(as_text=True)
    assert 'id="reserve-full"' not in sheet and 'id="secret-1"' in sheet
    # the count beside each secret card says what it counts (a first-time tester read "(25)" as nothing)
    assert f"<small>({25 if game == 'duel' else 36} in the deck)</small>" in sheet
    for _ in range(3):
        assert post(client, gid, {"type": "reserve", "player": 0, "level": 1}).status_code == 200
        took = post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"white": 1, "blue": 1, "green": 1}})
        assert took.status_code == 200, took.get_json()
    state = client.get(f"/api/games/{gid}").get_json()
    assert state["current_player"] == 0 and len(state["players"][0]["reserved"]) == 3
    sheet = client.get(f"/games/{gid}/sheet/reserve", headers=HX).get_data(as_text=True)
    assert "Ana already holds 3 reserved cards." in sheet and 'id="reserve-full"' in sheet
    assert 'id="secret-1"' not in sheet and 'class="grid"' not in sheet and 'class="tabs"' not in sheet
    # the refusal itself is unchanged (the API, or a card named in the address)
    refused = post(client, gid, {"type": "reserve", "player": 0, "level": 2})
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "reserve_limit"
