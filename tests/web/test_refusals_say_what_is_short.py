"""Refusals a rule-lawyer tester met at the table: each says what is short, once, and the
rulebook section it follows, on the sheet, after a refused save with or without JavaScript,
and in the API (GAME-LOG.md codes unchanged)."""

from __future__ import annotations

import json

import flask_babel
from helpers import load_fixture, new_game, post

HX = {"HX-Request": "true"}


def _error(resp):  # type: ignore[no-untyped-def]
    body = resp.get_json()["error"]
    return body["code"], body["message"], body["rule"]


def test_a_take_the_board_cannot_cover_names_only_what_is_short(client):
    """D-5: two pearls on the board, three asked: one pearl short (it said "does not hold 3 pearls")."""
    gid = new_game(client)["id"]
    assert _error(post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"pearl": 3}})) == (
        "not_enough_tokens", "The board is 1 pearl short of 3 pearls.", "D-5")


def test_a_take_of_what_the_board_has_none_of_says_none_is_left(client):
    """D-5, D-3.1: a take of a colour the board has none of said "The board is 1 white short of
    1 white." (a tester importing a log); it says none is left."""
    gid = new_game(client)["id"]
    assert post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"pearl": 2}}).status_code == 200
    assert _error(post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"pearl": 1}})) == (
        "not_enough_tokens", "The board has no pearl left.", "D-5")
    assert _error(post(client, gid, {"type": "use_privileges", "player": 1, "tokens": {"pearl": 1}})) == (
        "not_enough_tokens", "The board has no pearl left.", "D-3.1")
    # named beside a colour there is some of, or with another gone too: what is gone, by name
    for tokens, said in (({"pearl": 1, "red": 1}, "The board has no pearl left."),
                         ({"red": 2, "pearl": 1}, "The board has no pearl left.")):
        assert _error(post(client, gid, {"type": "take_tokens", "player": 1, "tokens": tokens}))[1] == said
    fix = {"type": "correction", "player": 1, "set": {"tokens": {"red": 4, "pearl": 0}, "board": {
        **client.get(f"/api/games/{gid}").get_json()["board"], "red": 0}}}
    assert post(client, gid, fix).status_code == 200
    assert _error(post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"pearl": 1, "red": 1}}))[1] == \
        "The board has no red and no pearl left."
    # one colour gone, another short: both said at once (a tester met a second refusal)
    fix = {"type": "correction", "player": 0, "set": {"tokens": {"pearl": 1}, "board": {
        **client.get(f"/api/games/{gid}").get_json()["board"], "pearl": 1}}}
    assert post(client, gid, fix).status_code == 200
    assert _error(post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"pearl": 2, "red": 1}}))[1] == \
        "The board has no red left and is 1 pearl short of 2 pearls."
    client.set_cookie("lang", "ko")
    flask_babel.refresh()
    code, message, _rule = _error(post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"pearl": 2, "red": 1}}))
    assert code == "not_enough_tokens" and "진주" in message and "빨" in message and "pearl" not in message


def test_a_classic_take_the_supply_cannot_cover_names_the_missing_colour(client):
    """S-2.1: with no green left, taking blue, green and red says the green is short, not all three."""
    from tracker.rules import catalog

    nobles = sorted(catalog.nobles())[:3]
    gid = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                          "nobles": nobles}).get_json()["id"]
    takes = [(0, {"green": 2}), (1, {"green": 1, "blue": 1, "white": 1}), (0, {"green": 1, "red": 1, "black": 1})]
    for player, tokens in takes:  # 2 players: 4 greens, all taken
        assert post(client, gid, {"type": "take_tokens", "player": player, "tokens": tokens}).status_code == 200
    code, message, rule = _error(post(client, gid, {"type": "take_tokens", "player": 1,
                                                    "tokens": {"blue": 1, "green": 1, "red": 1}}))
    assert (code, rule) == ("not_enough_tokens", "S-2.1")
    assert message == "The supply has no green left."  # (it said "1 green short of 1 blue, 1 green, 1 red")
    assert _error(post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"green": 1}}))[:2] == (
        "not_enough_tokens", "The supply has no green left.")


def test_a_payment_of_tokens_not_held_says_the_list_once(client):
    """D-7: an exact payment of tokens Ana holds none of: "Ana holds none of …", not the same
    list twice ("does not hold X: X short")."""
    gid = new_game(client)["id"]
    payment = {"blue": 1, "green": 1, "red": 1, "black": 1}
    assert _error(post(client, gid, {"type": "purchase", "player": 0, "card": "D1-01", "payment": payment})) == (
        "not_enough_tokens", "Ana holds none of 1 blue, 1 green, 1 red, 1 black.", "D-7")


def test_a_payment_with_gold_not_held_says_what_cannot_be_paid_and_what_is_short(client):
    """S-2.4, a tester: Cid (1 white, 1 blue, 1 green, no gold) pays a 3-blue card with 1 blue and 2
    gold. It said "Cid is 2 gold short of 1 blue, 2 gold."; it says he cannot pay it, 2 gold short."""
    from tracker.rules import catalog

    nobles = sorted(catalog.nobles())[:3]
    gid = client.post("/api/games", json={"game": "splendor", "players": ["Cid", "Dee"], "first_player": 0,
                                          "nobles": nobles}).get_json()["id"]
    assert post(client, gid, {"type": "take_tokens", "player": 0,
                              "tokens": {"white": 1, "blue": 1, "green": 1}}).status_code == 200
    assert post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"red": 2}}).status_code == 200
    assert _error(post(client, gid, {"type": "purchase", "player": 0, "card": "S1-01",
                                     "payment": {"blue": 1, "gold": 2}})) == (
        "not_enough_tokens", "Cid cannot pay 1 blue, 2 gold: 2 gold short.", "S-2.4")
    assert client.get(f"/api/games/{gid}").get_json()["version"] == 2  # nothing stored


def test_a_card_nobody_could_pay_says_so_before_the_payment(client):
    """D-7: a purchase Ana cannot afford, whatever she pays: the API keeps GAME-LOG.md's code
    (the payment is not the cost) and says why it cannot be: what she is short of."""
    gid = new_game(client)["id"]
    code, message, rule = _error(post(client, gid, {"type": "purchase", "player": 0, "card": "D1-01", "payment": {}}))
    assert (code, rule) == ("wrong_payment", "D-7")
    assert message.startswith("Ana cannot pay for this card: it costs 1 blue, 1 green, 1 red, 1 black after bonuses")


def test_a_refused_save_without_javascript_says_why_and_the_section(client):
    """The no-JS form post of a purchase Ana cannot pay: the screen says she cannot pay and in
    which section ("After bonuses … not nothing" before, with no section)."""
    gid = new_game(client)["id"]
    event = {"type": "purchase", "player": 0, "card": "D1-01", "payment": {"gold": 0}}
    resp = client.post(f"/games/{gid}/events", data={"event": json.dumps(event)})
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert '<p class="error-message" role="alert">Ana cannot pay for this card:' in page
    assert '<span class="rule" data-rule="D-7">(buying a card)</span></p>' in page


def test_the_sheets_that_refuse_before_a_tap_name_their_section(client):
    """The Reserve sheet with three cards reserved, the Privilege sheet after a replenish: the
    sentence ends with its section, as a refused tap does (reserving D-6, a turn's order D-2)."""
    gid = new_game(client)["id"]
    events = [{"type": "reserve", "player": 0, "card": "D1-04"}, {"type": "take_tokens", "player": 1, "tokens": {"red": 1}},
              {"type": "reserve", "player": 0, "card": "D1-05"}, {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}},
              {"type": "reserve", "player": 0, "card": "D1-06"}, {"type": "take_tokens", "player": 1, "tokens": {"green": 1}}]
    for ev in events:
        assert post(client, gid, ev).status_code == 200, ev
    sheet = client.get(f"/games/{gid}/sheet/reserve", headers=HX).get_data(as_text=True)
    assert 'id="reserve-full"' in sheet and '<span class="rule" data-rule="D-6">(reserving a card)</span></p>' in sheet
    game = new_game(client)
    gid = game["id"]
    board = dict(game["board"], red=game["board"]["red"] - 1)  # a red in the bag (a Fix), to replenish
    fix = {"type": "correction", "player": 0, "set": {"board": board, "bag": dict(game["bag"], red=1)}}
    assert post(client, gid, fix).status_code == 200
    assert post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"blue": 1}}).status_code == 200
    assert post(client, gid, {"type": "replenish", "player": 1}).status_code == 200  # Ben holds a privilege
    flask_babel.refresh()
    sheet = client.get(f"/games/{gid}/sheet/privileges", headers={**HX, "Accept-Language": "ko"}).get_data(as_text=True)
    assert '<span class="rule" data-rule="D-3.1">(규칙: 특권)</span></p>' in sheet


def test_a_discard_of_one_kind_not_held_names_the_kind(client):
    """D-10 through the API: a discard of gold a player never held read "Player B holds none of
    1 gold." (a tester); one kind reads "Player B holds no gold.", in Korean too."""
    log = {k: v for k, v in load_fixture("duel-1012.json").items() if k not in ("expected", "checkpoints", "source")}
    game = client.post("/api/games/import", json={**log, "events": log["events"][:22], "result": None}).get_json()
    assert game["pending"] == {"kind": "discard", "player": 1, "count": 1} and game["players"][1]["tokens"]["gold"] == 0
    discard = {"type": "discard", "player": 1, "tokens": {"gold": 1}}
    assert _error(post(client, game["id"], discard)) == ("not_enough_tokens", "Player B holds no gold.", "D-10")
    flask_babel.refresh()
    resp = client.post(f"/api/games/{game['id']}/events", json=discard, headers={"Accept-Language": "ko"})
    assert resp.get_json()["error"]["message"] == "Player B 님에게는 골드 토큰이 없습니다."
