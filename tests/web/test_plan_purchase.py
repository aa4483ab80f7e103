"""One phone each: a player plans their purchase during another's turn (``plan=<seat>`` on the
Buy sheet): the costs after their own bonuses, what their tokens would pay, nothing to save."""

from __future__ import annotations

import re

from helpers import import_log, load_fixture

from tracker.rules import catalog
from tracker.rules import duel
from tracker.rules.events import parse_event
from tracker.rules.tokens import suggest_payment

HX = {"HX-Request": "true"}


def _position(count: int):
    log = load_fixture("duel-1012.json")
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:count],
            "result": None}
    state = duel.replay({"players": log["players"], "first_player": log["first_player"]},
                        [parse_event(e, 2) for e in part["events"]])
    return part, state


def _planner_at_30(client):
    """The game of ``duel-1012.json`` at its 30th entry, stored: its id, the seat not to act (the
    planner), that player and the cards out of the pyramid."""
    part, state = _position(30)
    gid = import_log(client, part)["id"]
    planner = 1 - state.current_player
    return gid, planner, state.players[planner], state.taken_cards(), state


def test_the_plan_shows_the_planner_s_costs_and_payment_and_nothing_to_save(client):
    gid, planner, me, taken, state = _planner_at_30(client)
    cards = [c for lv in (1, 2, 3) for c in catalog.jewels().values() if c.level == lv and c.id not in taken]
    payable = [c for c in cards if suggest_payment(duel.cost_after_bonuses(me, c), me.tokens)[1]]
    other = state.players[state.current_player]
    unpayable_for_other = [c for c in payable if not suggest_payment(duel.cost_after_bonuses(other, c), other.tokens)[1]]
    card = (unpayable_for_other or payable)[0]
    payment = suggest_payment(duel.cost_after_bonuses(me, card), me.tokens)[0]
    body = client.get(f"/games/{gid}/sheet/buy?plan={planner}&src={card.level}&card={card.id}", headers=HX).get_data(as_text=True)
    assert f'data-plan="{planner}"' in body
    assert f"{me.name} plans a purchase: costs after {me.name}" in body
    assert f"{me.name} could pay for it now" in body
    shown = re.search(r'<div class="pay-row">(.*?)</div>', body, re.S).group(1)
    for kind, count in payment.to_dict(skip_zero=True).items():
        assert f'aria-label="{kind} {count}"' in shown, (kind, count, shown)
    assert 'class="entry-form' not in body and 'name="entry_id"' not in body
    # the links inside the plan stay in it; the action tabs do not
    assert re.search(r'data-tab="2"[^>]*|href="[^"]*src=2[^"]*plan=' + str(planner), body)
    tabs = re.search(r'<nav class="actions.*?</nav>', body, re.S).group(0)
    assert "plan=" not in tabs and " on\"" not in tabs  # (no tab is the plan's)
    if unpayable_for_other:  # the player to act sees their own costs: this card not payable
        own = client.get(f"/games/{gid}/sheet/buy?src={card.level}&card={card.id}", headers=HX).get_data(as_text=True)
        assert 'data-plan="' not in own and 'class="entry-form' in own and "plans a purchase" not in own


def test_a_plan_for_the_player_to_act_or_a_bad_seat_is_the_ordinary_buy_sheet(client):
    part, state = _position(30)
    gid = import_log(client, part)["id"]
    for value in (str(state.current_player), "7", "-1", "x", "١", ""):
        body = client.get(f"/games/{gid}/sheet/buy?plan={value}", headers=HX)
        assert body.status_code == 200, value
        assert 'data-plan="' not in body.get_data(as_text=True), value


def test_a_plan_stays_open_while_the_other_player_answers_a_prompt(client):
    """A tester: Ben's plan closed, unsaid, while Ana chose the royal card her purchase had made
    due, and came back only after. It is drawn meanwhile (nothing under it to save, no Fix of the
    prompt's under it); the prompt's own player gets the prompt, never a plan."""
    part, state = _position(45)  # the 3rd crown: a royal card is due
    gid = import_log(client, part)["id"]
    assert state.pending is not None and state.pending.player == state.current_player
    planner = 1 - state.current_player
    body = client.get(f"/games/{gid}?sheet=buy&plan={planner}").get_data(as_text=True)
    assert f'data-plan="{planner}"' in body and 'data-sheet="royal"' not in body
    assert 'id="fix-during-prompt"' not in body and 'class="entry-form' not in body
    sheet = client.get(f"/games/{gid}/sheet/buy?plan={planner}&src=2", headers=HX).get_data(as_text=True)
    assert f'data-plan="{planner}"' in sheet and "nav class=\"actions" not in sheet
    # the player the prompt waits for: the prompt, whatever the address asks
    body = client.get(f"/games/{gid}?sheet=buy&plan={state.current_player}").get_data(as_text=True)
    assert "data-plan=" not in body and 'data-sheet="royal"' in body
    # without a plan the prompt as before, with its Fix
    body = client.get(f"/games/{gid}?sheet=buy").get_data(as_text=True)
    assert 'data-sheet="royal"' in body and 'id="fix-during-prompt"' in body


def test_the_waiting_line_offers_each_other_seat_its_plan_link(client):
    part, state = _position(30)
    gid = import_log(client, part)["id"]
    body = client.get(f"/games/{gid}").get_data(as_text=True)
    other = 1 - state.current_player
    assert f'data-plan-link="{other}"' in body and f'data-plan-link="{state.current_player}"' not in body
    assert f"/games/{gid}/sheet/buy?plan={other}" in body
    planning = client.get(f"/games/{gid}/sheet/buy?plan={other}", headers=HX).get_data(as_text=True)
    assert 'id="close-plan"' in planning and "data-plan-link" not in planning


def test_classic_splendor_each_waiting_player_plans_with_their_own_tokens(client):
    """Three phones: while seat 0 plays, seats 1 and 2 each plan with their own tokens."""
    resp = client.post("/api/games", json={"game": "splendor", "players": ["Mom", "Dad", "Kid"], "first_player": 0,
                                           "nobles": ["N-01", "N-02", "N-03", "N-04"]})
    gid = resp.get_json()["id"]
    for seat, tokens in ((0, {"red": 1, "blue": 1, "green": 1}), (1, {"white": 1, "blue": 1, "black": 1}),
                         (2, {"red": 2})):
        assert client.post(f"/api/games/{gid}/events", json={"type": "take_tokens", "player": seat, "tokens": tokens}).status_code == 200
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'data-plan-link="1"' in page and 'data-plan-link="2"' in page and 'data-plan-link="0"' not in page
    for seat, name in ((1, "Dad"), (2, "Kid")):
        body = client.get(f"/games/{gid}/sheet/buy?plan={seat}&src=reserve", headers=HX).get_data(as_text=True)
        assert f"{name} plans a purchase" in body and f'data-plan="{seat}"' in body
        assert "Mom's reserve" not in body  # the planner's own reserve tab


def test_a_card_the_planner_cannot_pay_for_says_how_many_tokens_short_gold_counted(client):
    gid, planner, me, taken, _state = _planner_at_30(client)
    card = next(c for c in catalog.jewels().values() if c.id not in taken and c.level == 3
                and not suggest_payment(duel.cost_after_bonuses(me, c), me.tokens)[1])
    owed = duel.cost_after_bonuses(me, card)
    missing = {k: max(0, owed.get(k) - me.tokens.get(k)) for k in ("white", "blue", "green", "red", "black", "pearl")}
    short = sum(missing.values()) - me.tokens.gold
    body = client.get(f"/games/{gid}/sheet/buy?plan={planner}&src=3&card={card.id}", headers=HX).get_data(as_text=True)
    verdict = re.search(r'id="plan-verdict">(.*?)</p>', body, re.S).group(1)
    assert f"{me.name} cannot pay for it yet: {short} token{'s' if short != 1 else ''} short, gold counted." in verdict
    for kind, count in missing.items():
        assert (f'aria-label="{kind} {count}"' in verdict) == (count > 0), (kind, count)


def test_the_plan_link_is_offered_while_the_player_to_act_answers_a_prompt(client):
    """A tester: a plan closed while the other player owed a royal card could not be reopened
    until they had chosen (no "Plan my purchase" while a prompt was owed)."""
    part, state = _position(45)  # the 3rd crown: a royal card is due
    gid = import_log(client, part)["id"]
    planner = 1 - state.pending.player
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'data-sheet="royal"' in page
    assert f'data-plan-link="{planner}"' in page and f'data-plan-link="{state.pending.player}"' not in page
    # the waiting line says what is chosen (a steal royal card may take a token of the planner's: a tester)
    assert f"{part['players'][state.pending.player]} chooses a royal card on their phone." in page


def test_a_stale_tap_in_a_plan_keeps_the_plan_open_over_the_prompt_just_raised(client):
    """A tester: Ben tapped a card in his plan a moment after Ana's purchase had raised her royal
    card; the tap did nothing ("tap again") and the plan closed under the prompt. The new screen
    keeps the plan, at the level it showed, the card tapped not picked."""
    log = load_fixture("duel-1012.json")
    part, before = _position(44)
    gid = import_log(client, part)["id"]
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    assert client.post(f"/api/games/{gid}/events", json=log["events"][44]).status_code == 200
    planner = 1 - before.current_player
    resp = client.get(f"/games/{gid}/sheet/buy?plan={planner}&src=2&card=J-01&v={version}&n=44", headers=HX)
    body = resp.get_data(as_text=True)
    assert resp.status_code == 200 and resp.headers["HX-Retarget"] == "#game"
    assert f'data-plan="{planner}"' in body and 'data-sheet="royal"' not in body
    assert "tap again on what it shows now" in body
    assert re.search(r'class="tab on"[^>]*data-tab="2"', body)  # the level it showed
    assert 'id="plan-verdict"' not in body  # (no card picked)
    # a stale tap on the player to act's own sheet: the prompt, as before
    resp = client.get(f"/games/{gid}/sheet/buy?src=2&v={version}&n=44", headers=HX)
    assert 'data-sheet="royal"' in resp.get_data(as_text=True)


def test_a_phone_whose_player_owes_the_prompt_gets_the_prompt_not_another_seat_s_plan(client):
    """``?sheet=buy&plan=<other seat>`` on the phone of the player a prompt waits for showed the
    other seat's plan: the prompt is theirs to answer."""
    part, state = _position(45)
    gid = import_log(client, part)["id"]
    owes = state.pending.player
    other = 1 - owes
    client.get(f"/settings?mine={part['players'][owes]}&next=/")
    body = client.get(f"/games/{gid}?sheet=buy&plan={other}").get_data(as_text=True)
    assert 'data-sheet="royal"' in body and "data-plan=" not in body
    client.get(f"/settings?mine={part['players'][other]}&next=/")
    body = client.get(f"/games/{gid}?sheet=buy&plan={other}").get_data(as_text=True)
    assert f'data-plan="{other}"' in body


def test_the_waiting_line_says_how_many_tokens_the_other_player_returns(client):
    part, state = _position(22)  # a discard of 1 owed (the API tester's position)
    assert state.pending is not None and state.pending.kind == "discard"
    gid = import_log(client, part)["id"]
    name = part["players"][state.pending.player]
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    count = state.pending.count
    assert f"{name} returns {count} token{'s' if count != 1 else ''} on their phone, to keep 10." in page


def test_a_reserved_joker_with_no_bonus_to_join_shows_no_payment_and_says_it_waits(client):
    """A tester: Ana, with no card yet, reserved the joker D1-27; her Buy sheet on it showed a
    whole payment beside the refusal, which ended "it can still be reserved" (it was)."""
    from helpers import new_game, play

    game = new_game(client, ("Ana", "Ben"))
    play(client, game["id"], [{"type": "reserve", "player": 0, "card": "D1-27"},
                              {"type": "take_tokens", "player": 1, "tokens": {"red": 1}},
                              {"type": "take_tokens", "player": 0, "tokens": {"black": 1, "pearl": 1}},
                              {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}},
                              {"type": "take_tokens", "player": 0, "tokens": {"black": 1}},
                              {"type": "take_tokens", "player": 1, "tokens": {"green": 1}}])
    body = client.get(f"/games/{game['id']}/sheet/buy?src=reserve&card=D1-27", headers=HX).get_data(as_text=True)
    assert 'class="selected-card"' in body and 'class="pay-row"' not in body
    assert "it waits in the reserve until then." in body and "it can still be reserved" not in body
    refused = client.post(f"/api/games/{game['id']}/events", json={
        "type": "purchase", "player": 0, "card": "D1-27", "from_reserve": True,
        "payment": {"black": 2, "gold": 1, "pearl": 1}, "wild_color": "black"})
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "joker_needs_bonus"


def test_a_refused_save_is_described_by_its_reason(client):
    """An accessibility tester: Tab back to a refused save heard only "unavailable"."""
    from helpers import new_game, play

    game = new_game(client, ("Ana", "Ben"))
    play(client, game["id"], [{"type": "reserve", "player": 0, "card": "D1-27"},
                              {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}])
    body = client.get(f"/games/{game['id']}/sheet/buy?src=reserve&card=D1-27", headers=HX).get_data(as_text=True)
    button = re.search(r'<button class="primary save"[^>]*>', body).group(0)
    described = re.search(r'aria-describedby="([^"]+)"', button).group(1)
    reason = re.search(rf'<p class="preview preview-error" id="{described}">([^<]+)', body).group(1)
    assert 'aria-disabled="true"' in button and reason.startswith("A joker needs a card with a bonus")


def test_a_plan_s_card_that_someone_took_meanwhile_is_no_longer_shown(client):
    """A plan keeps the card it looks at across the others' entries (app.js); one bought or
    reserved meanwhile is left out, not planned as if still there."""
    gid, planner, me, taken, state = _planner_at_30(client)
    gone = next(iter(taken - {r.card for r in me.reserved}))
    body = client.get(f"/games/{gid}/sheet/buy?plan={planner}&src=1&card={gone}", headers=HX).get_data(as_text=True)
    assert f'data-plan="{planner}"' in body and 'class="selected-card"' not in body
    free = next(c for c in catalog.jewels().values() if c.id not in taken and c.level == 1)
    body = client.get(f"/games/{gid}/sheet/buy?plan={planner}&src=1&card={free.id}", headers=HX).get_data(as_text=True)
    assert 'class="selected-card"' in body


def test_a_plan_carried_into_the_real_buy_sheet_keeps_its_card_unless_someone_took_it(client):
    """Once the planner's turn comes, app.js asks the real Buy sheet with the plan's address
    (``plan=<seat>`` and its card): the card is chosen there (a tester had to find it again), or,
    taken by the other player meanwhile, left out, with no refusal to read."""
    gid, planner, me, taken, state = _planner_at_30(client)
    free = [c for c in catalog.jewels().values() if c.id not in taken and c.level == 1]
    looked, bought = free[0], free[1]
    # the player to act reserves ``bought`` (out of the pyramid: taken), and the turn passes
    actor = state.current_player
    resp = client.post(f"/api/games/{gid}/events", json={"type": "reserve", "player": actor, "card": bought.id})
    assert resp.status_code == 200, resp.get_json()
    now = client.get(f"/api/games/{gid}").get_json()
    assert now["current_player"] == planner, now["pending"]
    body = client.get(f"/games/{gid}/sheet/buy?plan={planner}&src=1&card={looked.id}", headers=HX).get_data(as_text=True)
    assert 'data-plan=' not in body and f'{me.name} buys' in body  # the real sheet
    assert re.search(rf'class="selected-card">\s*<div class="card[^"]*"[^>]*data-card="{looked.id}"', body)
    body = client.get(f"/games/{gid}/sheet/buy?plan={planner}&src=1&card={bought.id}", headers=HX).get_data(as_text=True)
    assert 'class="selected-card"' not in body
    # chosen afresh (no plan), a taken card is still shown, with its refusal
    direct = client.get(f"/games/{gid}/sheet/buy?src=1&card={bought.id}", headers=HX).get_data(as_text=True)
    assert 'class="selected-card"' in direct


def test_a_planned_card_the_player_to_act_reserves_or_buys_is_said_gone(client):
    """A tester: Ben's plan looked at a card Ana then reserved, and on her entry it went from
    the plan without a word. The plan, kept across the entry with its card, says what became of it."""
    from helpers import post

    gid, planner, me, taken, state = _planner_at_30(client)
    actor = state.players[state.current_player]
    card = next(c for c in catalog.jewels().values() if c.id not in taken and c.level == 2)
    address = f"/games/{gid}/sheet/buy?plan={planner}&src=2&card={card.id}"
    before = client.get(address, headers=HX).get_data(as_text=True)
    assert 'id="card-gone"' not in before and 'class="selected-card"' in before
    resp = post(client, gid, {"type": "reserve", "player": state.current_player, "card": card.id})
    assert resp.status_code == 200, resp.get_json()
    after = client.get(address, headers=HX).get_data(as_text=True)
    gone = re.search(r'<p class="hint card-gone" id="card-gone">(.*?)</p>', after).group(1)
    assert gone.startswith(f"{actor.name} reserved the card being planned: a level-2 ")
    # (the turn is the planner's now: their own Buy sheet, the card no longer offered)
    assert 'class="selected-card"' not in after and f"{me.name} buys" in after


def test_card_gone_sentence_names_who_bought_it():
    from tracker.rules import splendor
    from tracker.screen import card_gone_sentence

    class P:
        def __init__(self, name, cards=(), reserved=()):
            self.name, self.cards, self.reserved = name, list(cards), list(reserved)

    class S:
        players = [P("Ana"), P("Ben", cards=["S1-01"])]

    from tracker import create_app

    with create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"}).test_request_context():
        assert card_gone_sentence(splendor, S, "S1-01").startswith("Ben bought the card being planned: a level-1 ")
        assert card_gone_sentence(splendor, S, "S1-02").startswith("The card being planned is gone: a level-1 ")
