"""The preview ("Saving will record: …") says what the entry then asks of the table (a royal card
to choose, D-9; tokens to return, D-10 / S-3.1; a noble to choose, S-3.2) and, in a Duel, the win
that only waits for that answer (D-11 is checked after D-9 and D-10)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "rules"))

from builders import ANA, position  # noqa: E402

from tracker import screen  # noqa: E402
from tracker.models import Game  # noqa: E402
from tracker.service import GameView  # noqa: E402

#: 19 prestige (D3-13 6, D2-24 5, D1-30 3, D2-04 2, D2-16 2, D1-10 1) and 2 crowns.
CARDS = ["D3-13", "D2-24", "D1-30", "D2-04", "D2-16", "D1-06", "D1-10"]


def _view(state) -> GameView:
    return GameView(row=Game(id="x" * 32, game="duel", version=0), events=(), state=state)


def test_a_buy_that_reaches_twenty_prestige_and_a_royal_card_says_both(app):
    """D3-01 (3 prestige, 2 crowns): 22 prestige and 4 crowns. The royal card is chosen first,
    then the turn ends with the win by prestige: the preview says both, in that order."""
    state = position(ana=dict(cards=CARDS, tokens={"blue": 1, "red": 4, "black": 3, "pearl": 1}))
    assert (state.players[ANA].prestige, state.players[ANA].crowns) == (19, 2)
    buy = {"type": "purchase", "player": ANA, "card": "D3-01", "payment": {"blue": 1, "red": 4, "black": 3, "pearl": 1}}
    with app.test_request_context("/"):
        preview = screen.preview(_view(state), buy)
    assert preview.ok, preview.error
    royal = preview.text.index("Then Ana chooses a royal card.")
    assert preview.text.count("crowns 2 → 4") == 1
    assert "reaches" not in preview.text  # the crowns are said once
    win = preview.text.index("Ana then wins by reaching 20 prestige, once this turn ends.")
    assert preview.text.startswith("Ana bought a level-3 white card (3 prestige, 2 crowns)") and royal < win


def test_a_take_over_ten_tokens_says_how_many_to_return_and_no_win(app):
    state = position(ana=dict(tokens={"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2}))
    take = {"type": "take_tokens", "player": ANA, "tokens": {"white": 1, "blue": 1, "green": 1}}
    with app.test_request_context("/"):
        preview = screen.preview(_view(state), take)
    assert preview.ok, preview.error
    assert preview.text.endswith("Then Ana returns 3 tokens, down to 10.") and "wins" not in preview.text


def test_the_log_still_leaves_the_prompt_to_the_next_entry(app, client):
    """The sentence kept in the log is unchanged: the prompt is answered by the next entry."""
    from tracker import narrate
    from tracker.rules import duel
    from tracker.rules.events import parse_event

    state = position(ana=dict(tokens={"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2}))
    event = parse_event({"type": "take_tokens", "player": ANA, "tokens": {"white": 1, "blue": 1, "green": 1}}, 2)
    with app.test_request_context("/"):
        assert narrate.describe(event, state, duel.apply(state, event)) == "Ana took 1 white, 1 blue, 1 green."


def test_the_last_turn_of_splendor_s_final_round_says_the_game_ends_even_with_a_choice_owed(app):
    """S-4: Cleo plays last in the final round; her take leaves a discard owed, after which the
    game ends: the preview says so (the victory itself comes with the discard)."""
    from dataclasses import replace

    from splendor_builders import CLEO, cards_worth
    from splendor_builders import position as splendor_position

    state = splendor_position(3, to_act=CLEO, seats={
        0: dict(cards=cards_worth(15)), CLEO: dict(tokens={"white": 3, "blue": 3, "green": 3})})
    state = replace(state, final_round=True)
    assert state.last_seat == CLEO
    take = {"type": "take_tokens", "player": CLEO, "tokens": {"red": 1, "black": 1, "white": 1}}
    with app.test_request_context("/"):
        view = GameView(row=Game(id="x" * 32, game="splendor", version=0), events=(), state=state)
        preview = screen.preview(view, take)
        assert preview.ok, preview.error
        assert "returns 2 tokens" in preview.text and preview.text.endswith("The game ends with this turn.")
        earlier = replace(state, current_player=1)  # Ben is not the last seat: no such line
        ben = {"type": "take_tokens", "player": 1, "tokens": {"red": 1, "black": 1, "white": 1}}
        view = GameView(row=Game(id="x" * 32, game="splendor", version=0), events=(), state=earlier)
        assert "game ends" not in screen.preview(view, ben).text


def test_one_token_to_return_is_said_in_the_singular(app):
    state = position(ana=dict(tokens={"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2}))
    take = {"type": "take_tokens", "player": ANA, "tokens": {"white": 1}}
    with app.test_request_context("/"):
        preview = screen.preview(_view(state), take)
    assert preview.text.endswith("Then Ana returns 1 token, down to 10."), preview.text


def test_a_correction_that_settles_the_tokens_owed_back_says_the_turn_is_over(app):
    """A correction of the tokens that leaves the player at 10 settles the discard (D-10): the
    turn waiting for it ends, and the correction's sentence (log, toast, preview) says who plays."""
    from tracker import narrate
    from tracker.rules import duel
    from tracker.rules.events import parse_event
    from tracker.rules.tokens import Tokens

    state = position(ana=dict(tokens={"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2}))
    state = duel.apply(state, parse_event({"type": "take_tokens", "player": ANA, "tokens": {"white": 1}}, 2))
    assert state.pending == duel.Pending("discard", ANA, 1)
    held = state.players[ANA].tokens
    fix = parse_event({"type": "correction", "player": ANA,
                       "set": {"tokens": (held - Tokens(white=1)).to_dict(), "bag": (state.bag + Tokens(white=1)).to_dict()}}, 2)
    after = duel.apply(state, fix)
    assert after.pending is None and after.current_player == 1 and after.turn == state.turn + 1
    with app.test_request_context("/"):
        text = narrate.describe(fix, state, after)
        assert text.endswith("That settles the tokens to return: Ana's turn is over, Ben plays.")
        # a correction that settles nothing says nothing of the turn
        other = parse_event({"type": "correction", "player": 1, "set": {"privileges": 0}}, 2)
        assert "turn" not in narrate.describe(other, state, duel.apply(state, other))


def test_a_reserve_naming_neither_card_nor_level_is_told_what_it_needs(client):
    from helpers import new_game, post

    game = new_game(client)
    resp = post(client, game["id"], {"type": "reserve", "player": 0})
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "bad_event"
    assert resp.get_json()["error"]["message"] == ("A reserve names the card reserved, or the level of a secret card "
                                                  "from a deck.")


def test_an_entry_owing_a_privilege_to_a_player_holding_all_three_says_none_is_gained(app):
    """D-3.2: nobody holds more than 3 privileges; the entry that would give one says so (the
    rules raise no alert then, and the table wondered whether the app forgot)."""
    from tracker import narrate
    from tracker.rules import duel
    from tracker.rules.events import parse_event

    held = position(ben=dict(privileges=3), bag={"red": 1})
    replenish = parse_event({"type": "replenish", "player": ANA}, 2)
    take = parse_event({"type": "take_tokens", "player": ANA, "tokens": {"red": 3}}, 2)
    with app.test_request_context("/"):
        for event in (replenish, take):
            after = duel.apply(held, event)
            assert after.players[1].privileges == 3 and after.alerts == ()
            assert narrate.describe(event, held, after).endswith(
                "Ben already holds all 3 privileges: no privilege to gain."), event
        # holding fewer, the privilege comes and its alert says it instead
        fewer = position(ben=dict(privileges=1), bag={"red": 1})
        after = duel.apply(fewer, replenish)
        text = narrate.describe(replenish, fewer, after)
        assert "no privilege to gain" not in text and "Ben gains a privilege from Ana's move." in text
        # the undo notice names the entry only
        assert narrate.describe(replenish, held, duel.apply(held, replenish), consequences=False) == (
            "Ana replenished the board from the bag: 1 red.")  # (what came back: a first-time tester)
    assert duel.privilege_owed(replenish) == 1 and duel.privilege_owed(take) == 1
    assert duel.privilege_owed(parse_event({"type": "take_tokens", "player": ANA, "tokens": {"red": 2}}, 2)) is None
    buy = parse_event({"type": "purchase", "player": ANA, "card": "D2-03", "payment": {}}, 2)
    royal = parse_event({"type": "take_royal", "player": 1, "royal": "DR-3"}, 2)
    assert duel.privilege_owed(buy) == ANA and duel.privilege_owed(royal) == 1


def test_the_refill_preview_says_privileges_are_over_for_the_turn(app):
    """D-2: privileges are used before the board is replenished; the preview of a refill by a
    player holding some says so (a player found out only when the Privilege sheet refused)."""
    from tracker import narrate
    from tracker.rules import duel
    from tracker.rules.events import parse_event

    refill = parse_event({"type": "replenish", "player": ANA}, 2)
    holding = position(ana=dict(privileges=1), bag={"red": 1})
    none = position(bag={"red": 1})
    with app.test_request_context("/"):
        assert narrate.preview_sentence(refill, holding, duel.apply(holding, refill)).endswith(
            "Ana can use no privilege after that this turn.")
        assert "privilege after" not in narrate.preview_sentence(refill, none, duel.apply(none, refill))
        assert "privilege after" not in narrate.describe(refill, holding, duel.apply(holding, refill))  # not in the log


def test_token_chips_say_how_many_are_left_to_take_or_held_to_return(client):
    """A screen reader hears 'add red (4 left)' on the take sheet and 'return red (3 held)' on
    the discard sheet (it heard 'add red' on both, and no count)."""
    import re

    from helpers import new_game, post

    game = new_game(client)
    take = client.get(f"/games/{game['id']}/sheet/take", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'aria-label="add red (4 left)"' in take and 'aria-label="add pearl (2 left)"' in take
    fix = {"type": "correction", "player": 0, "set": {
        "tokens": {"white": 3, "blue": 3, "green": 3, "red": 1},
        "board": {"white": 1, "blue": 1, "green": 1, "red": 3, "black": 4, "pearl": 2, "gold": 3}}}
    assert post(client, game["id"], fix).status_code == 200
    assert post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 2}}).status_code == 200
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert 'data-sheet="discard"' in page
    labels = re.findall(r'aria-label="(return [^"]+)"', page)
    assert labels == ["return white (3 held)", "return blue (3 held)", "return green (3 held)", "return red (3 held)"]


def test_a_splendor_reserve_over_ten_tokens_says_the_noble_that_visits_after_the_return(app):
    """S-3.1 then S-3.2: Ana's bonuses already call noble N-06 (4 white, 4 blue) when her reserve
    takes her to 11 tokens: the preview says she returns 1, then the noble visits (a tester's
    noble came after the return with no word of it); two nobles called are a choice."""
    from splendor_builders import bonus_cards
    from splendor_builders import position as splendor_position

    from tracker.rules.splendor import SplendorState

    ten = {"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2}
    reserve = {"type": "reserve", "player": ANA, "level": 2}
    with app.test_request_context("/"):
        for cards, said in ((bonus_cards(white=4, blue=4), "Then noble W4 U4 visits Ana."),
                            (bonus_cards(white=4, blue=4, black=4),
                             "Then Ana chooses the noble who visits: W4 U4, W4 K4.")):
            state: SplendorState = splendor_position(nobles=("N-06", "N-07", "N-08"),
                                                     seats={ANA: dict(cards=cards, tokens=ten)})
            view = GameView(row=Game(id="x" * 32, game="splendor", version=0), events=(), state=state)
            preview = screen.preview(view, reserve)
            assert preview.ok, preview.error
            assert preview.text.endswith("Then Ana returns 1 token, down to 10. " + said), preview.text
        # no noble called: nothing more said
        state = splendor_position(nobles=("N-06", "N-07", "N-08"), seats={ANA: dict(tokens=ten)})
        view = GameView(row=Game(id="x" * 32, game="splendor", version=0), events=(), state=state)
        assert screen.preview(view, reserve).text.endswith("Then Ana returns 1 token, down to 10.")


def test_a_splendor_preview_says_when_the_noble_after_the_return_ends_the_game(app):
    """S-3.2 then S-4: Ben, last in the round, holds 12 prestige and 10 tokens, and his bonuses
    call noble N-06 (3 prestige): his reserve's preview said the return and the visit, not that
    the game then ends (a tester); for Ana, first in the round, the final round begins."""
    from splendor_builders import BEN, bonus_cards, cards_worth
    from splendor_builders import position as splendor_position

    ten = {"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2}
    cards = bonus_cards(white=4, blue=4) + cards_worth(12, colors=("red", "green"))
    with app.test_request_context("/"):
        for seat, name, said in ((BEN, "Ben", "Ben has 15 prestige and plays last in the round: the game ends now."),
                                 (ANA, "Ana", "Ana has 15 prestige: the round is played to its end.")):
            state = splendor_position(nobles=("N-06", "N-09", "N-10"), to_act=seat,
                                      seats={seat: dict(cards=cards, tokens=ten)})
            assert state.players[seat].prestige == 12 and state.last_seat == BEN
            view = GameView(row=Game(id="x" * 32, game="splendor", version=0), events=(), state=state)
            preview = screen.preview(view, {"type": "reserve", "player": seat, "level": 2})
            assert preview.ok, preview.error
            assert preview.text.endswith(f"Then {name} returns 1 token, down to 10. Then noble W4 U4 visits {name}. "
                                         + said), preview.text
        # 11 prestige: the noble brings 14, nothing more is said
        state = splendor_position(nobles=("N-06", "N-09", "N-10"), to_act=BEN, seats={BEN: dict(
            cards=bonus_cards(white=4, blue=4) + cards_worth(11, colors=("red", "green")), tokens=ten)})
        view = GameView(row=Game(id="x" * 32, game="splendor", version=0), events=(), state=state)
        assert screen.preview(view, {"type": "reserve", "player": BEN, "level": 2}).text.endswith("visits Ben.")
