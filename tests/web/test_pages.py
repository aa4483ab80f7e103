"""HTML pages and htmx partials: every route with and without ``HX-Request``."""

from __future__ import annotations

import json
import html
import re

import flask_babel
import pytest
from helpers import fixture_log, import_log, load_fixture, new_game, play, post

HX = {"HX-Request": "true"}


def form_post(client, game_id: str, event: dict, version: int, htmx: bool = True, entry_id: str = "f1"):
    return client.post(
        f"/games/{game_id}/events",
        data={"event": json.dumps(event), "expected_version": str(version), "entry_id": entry_id},
        headers=HX if htmx else {},
    )


def test_home_offers_a_new_game_and_lists_games(client):
    game = new_game(client, ("Ana", "Ben"))
    page = client.get("/").get_data(as_text=True)
    assert 'name="player0"' in page and 'name="first"' in page
    assert f"/games/{game['id']}" in page and "Ana · Ben" in page


def test_a_new_game_from_the_form_redirects_to_its_screen(client):
    resp = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "1"})
    assert resp.status_code == 303
    game_id = resp.headers["Location"].rsplit("/", 1)[-1]
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["current_player"] == 1 and state["players"][0]["privileges"] == 1
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Ben's turn" in page and "<html" in page


def test_the_new_game_form_posted_twice_starts_one_game_until_it_is_played(client):
    """A double tap on "Start the game" (or a tap again over slow Wi-Fi) made two games: the form's
    own key (drawn with each home page) makes the second post lead to the first one's game. A form
    changed since, or brought back by Back once the game is played, starts a new game."""
    home = client.get("/").get_data(as_text=True)
    key = re.search(r'name="start_key" value="([^"]+)"', home).group(1)
    assert key != re.search(r'name="start_key" value="([^"]+)"', client.get("/").get_data(as_text=True)).group(1)
    form = {"game": "duel", "player0": "Minji", "player1": "Joon", "first": "random", "start_key": key}
    first, again = client.post("/games", data=form), client.post("/games", data=form)
    assert first.status_code == again.status_code == 303 and first.headers["Location"] == again.headers["Location"]
    assert len(client.get("/api/games").get_json()) == 1
    game_id = first.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "already started" not in page  # the phone lands in its game, as after one tap
    # the form changed: another game (other people: a name at another table right now is asked about)
    changed = client.post("/games", data={**form, "player0": "Hana", "player1": "Seo"})
    assert changed.headers["Location"] != first.headers["Location"]
    post(client, game_id, {"type": "take_tokens", "player": client.get(f"/api/games/{game_id}").get_json()["current_player"],
                           "tokens": {"red": 1}})
    played = client.post("/games", data=form)  # Back to the same form once the game is played: a new one
    assert played.status_code == 303 and played.headers["Location"] not in (first.headers["Location"], changed.headers["Location"])
    assert client.post("/games", data=form).headers["Location"] == played.headers["Location"]  # and its own double tap
    keyless = {k: v for k, v in form.items() if k != "start_key"}  # a page drawn before the key: as before
    assert client.post("/games", data=keyless).headers["Location"] != client.post("/games", data=keyless).headers["Location"]
    assert len(client.get("/api/games").get_json()) == 5


def test_random_first_player_picks_a_seat(client):
    resp = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "random"})
    game_id = resp.headers["Location"].rsplit("/", 1)[-1]
    assert client.get(f"/api/games/{game_id}").get_json()["current_player"] in (0, 1)


def test_an_empty_name_field_never_changes_who_starts(client):
    """Splendor with the third name left empty: the fourth field's player starts when chosen
    (the seats close up), and choosing the empty field is refused with the choice kept."""
    form = {"game": "splendor", "player0": "Ana", "player1": "Ben", "player2": "", "player3": "Dee",
            "noble": ["N-01", "N-02", "N-03", "N-04"]}
    resp = client.post("/games", data={**form, "first": "3"})
    assert resp.status_code == 303
    state = client.get(f"/api/games/{resp.headers['Location'].rsplit('/', 1)[-1]}").get_json()
    assert [p["name"] for p in state["players"]] == ["Ana", "Ben", "Dee"] and state["current_player"] == 2
    refused = client.post("/games", data={**form, "first": "2"})
    body = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "The player chosen to start has no name" in body
    assert 'value="2" checked' in body and 'value="0" checked' not in body
    assert len(client.get("/api/games").get_json()) == 1
    duel = client.post("/games", data={"game": "duel", "player0": "Ana", "player1": "Ben", "first": "3"})
    assert duel.status_code == 422 and "Choose who starts among the players named." in duel.get_data(as_text=True)
    nobody = client.post("/games", data={"game": "splendor", "first": "0"})
    assert nobody.status_code == 422 and "This game is played by 2 to 4 players." in nobody.get_data(as_text=True)
    assert len(client.get("/api/games").get_json()) == 1


def test_a_new_game_without_names_is_refused_with_a_message(client):
    resp = client.post("/games", data={"player0": "Ana", "player1": "  ", "first": "0"})
    assert resp.status_code == 422
    assert "Each player needs a name" in resp.get_data(as_text=True)
    assert client.get("/api/games").get_json() == []


def test_the_game_screen_shows_meters_tokens_and_whose_turn(client):
    game = new_game(client, ("Ana", "Ben"))
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Ben's turn" in page and "turn 2" in page
    assert re.search(r'aria-label="prestige"', page) and "/20" in page and "/10" in page
    assert 'data-field="privileges">2<' in page  # Ben gained a privilege from the 3 reds
    assert "Ana took 3 red. Ben gains a privilege" in page


def test_htmx_gets_the_game_block_alone(client):
    game = new_game(client)
    resp = client.get(f"/games/{game['id']}", headers=HX)
    body = resp.get_data(as_text=True)
    assert resp.status_code == 200 and body.lstrip().startswith('<main id="game"') and "<html" not in body
    assert "HX-Request" in resp.headers.get("Vary", "")


@pytest.mark.parametrize("sheet, shown", [("take", "take"), ("buy", "buy"), ("reserve", "reserve"),
                                          ("privileges", "privileges"), ("correction", "correction"),
                                          ("royal", "take"), ("discard", "take")])
def test_every_sheet_renders_alone_for_htmx_and_in_the_page_otherwise(client, sheet, shown):
    game = new_game(client)
    partial = client.get(f"/games/{game['id']}/sheet/{sheet}", headers=HX)
    assert partial.status_code == 200 and "<html" not in partial.get_data(as_text=True)
    assert f'data-sheet="{shown}"' in partial.get_data(as_text=True)
    full = client.get(f"/games/{game['id']}/sheet/{sheet}")
    assert full.status_code == 200 and "<html" in full.get_data(as_text=True)


def test_a_pending_royal_card_keeps_its_prompt_open(client):
    log = load_fixture("duel-1012.json")
    log = {**{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:45], "result": None}
    state = client.post("/api/games/import", json=log).get_json()
    for url in (f"/games/{state['id']}/sheet/buy", f"/games/{state['id']}?sheet=take"):
        body = client.get(url, headers=HX).get_data(as_text=True)
        assert 'data-sheet="royal"' in body and 'id="action-buy"' not in body
        assert "Take this royal card" in body and ">3 prestige</b>" in body and "♛" not in body.split("royals")[1].split("</div>")[0] and "Take DR-1" not in body
        # each royal card says what taking it records and causes, before the one tap that saves it
        assert "Saving will record: Player A took a royal card (2 prestige, take a privilege). Player A gains a privilege" in body
        # each card's refusal has its own place (every form's was id="entry-error": a tester)
        ids = re.findall(r'(?<![\w-])id="([^"]+)"', body)
        assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
        assert len(re.findall(r'id="entry-form-(\w+-\w+)"', body)) == len(re.findall(r'id="entry-error-(\w+-\w+)"', body)) >= 2


def test_unknown_sheet_and_game_are_404(client):
    game = new_game(client)
    assert client.get(f"/games/{game['id']}/sheet/nope").status_code == 404
    assert client.get("/games/unknown-game").status_code == 404
    assert client.post("/games/unknown-game/events", data={"event": "{}"}).status_code == 404


def test_the_take_sheet_previews_the_privilege_given(client):
    game = new_game(client, ("Ana", "Ben"))
    body = client.get(f"/games/{game['id']}/sheet/take?t=red&t=red&t=red", headers=HX).get_data(as_text=True)
    assert "Ana took 3 red. Ben gains a privilege" in body
    assert "Take 3" in body


def test_a_take_sheet_picked_past_the_board_shows_none_left_not_a_negative_count(client):
    """A tester opened a stale take sheet (3 white picked, 2 on the board): the board's chip read
    "흰 −1". It reads 0 and greyed; the refusal says what is short (D-5)."""
    game = new_game(client, ("Ana", "Ben"))
    assert client.get(f"/api/games/{game['id']}").get_json()["board"]["pearl"] == 2
    body = client.get(f"/games/{game['id']}/sheet/take?t=pearl&t=pearl&t=pearl", headers=HX).get_data(as_text=True)
    chips = re.findall(r'<span class="chip-btn gem-pearl disabled" data-kind="pearl" role="img" aria-label="pearl (-?\d+)">'
                       r'<b>P</b><i>(-?\d+)</i>', body)
    assert chips == [("0", "0")], body
    assert "The board is 1 pearl short of 3 pearls." in body


def test_the_buy_sheet_shows_costs_after_bonuses_and_prefills_the_payment(client):
    log = load_fixture("duel-1012.json")
    log = {k: log[k] for k in ("format", "game", "players", "first_player", "events")}
    log["events"] = log["events"][:66]
    log["result"] = None
    state = client.post("/api/games/import", json=log).get_json()
    body = client.get(f"/games/{state['id']}/sheet/buy?src=2&card=D2-02", headers=HX).get_data(as_text=True)
    assert "Buy this card" in body and 'data-steal="blue"' in body
    # the tokens to steal are named as the royal card's are, in a group named for them (a screen
    # reader heard "black 2", "green 1": an accessibility tester)
    row = body[body.index('<div class="choice-row steal-choices" role="group" aria-label="Token to steal">'):]
    labels = re.findall(r'data-steal="(\w+)"[^>]*aria-label="([^"]*)"', row.split("</div>")[0], re.S)
    other = state["players"][1 - state["current_player"]]["tokens"]
    assert labels and all(label == f"steal {kind} ({other[kind]} held)" for kind, label in labels), labels
    event = json.loads(re.search(r'name="event" value="([^"]*)"', body).group(1).replace("&#34;", '"'))
    assert event["payment"] == {"blue": 1, "red": 1} and event["card"] == "D2-02"


def _ana_pays_for_the_steal_card(client) -> str:
    """A new Duel where Ana (to act) holds 4 blue and 3 red: D2-02 (steal a token, D-8) is hers
    to buy; Ben holds nothing. The game's id."""
    gid = new_game(client, ("Ana", "Ben"))["id"]
    fix = {"type": "correction", "player": 0, "set": {
        "tokens": {"blue": 4, "red": 3},
        "board": {"white": 4, "blue": 0, "green": 4, "red": 1, "black": 4, "pearl": 2, "gold": 3}}}
    assert client.post(f"/api/games/{gid}/events", json=fix).status_code == 200
    return gid


def test_a_token_to_steal_that_is_gone_is_asked_again_not_swapped_for_another(client):
    """A tester picked Ben's black to steal (D-8); the other phone's Fix then set Ben's black to
    0, and the sheet, redrawn, said "stealing 1 white" and saved it: a token nobody picked. The
    sheet now says the black is gone and asks again, even with one kind left (DR-4 the same)."""
    gid = _ana_pays_for_the_steal_card(client)
    state = client.get(f"/api/games/{gid}").get_json()
    bens = {"type": "correction", "player": 1, "set": {
        "tokens": {"white": 2, "black": 1}, "board": dict(state["board"], white=2, black=3)}}
    assert client.post(f"/api/games/{gid}/events", json=bens).status_code == 200
    sheet = client.get(f"/games/{gid}/sheet/buy?src=board&card=D2-02&steal=black", headers=HX).get_data(as_text=True)
    assert "stealing 1 black from Ben" in sheet and 'id="steal-gone"' not in sheet and "&#34;steal&#34;: &#34;black&#34;" in sheet
    state = client.get(f"/api/games/{gid}").get_json()
    gone = {"type": "correction", "player": 1, "set": {
        "tokens": {"white": 2}, "board": dict(state["board"], black=state["board"]["black"] + 1)}}
    assert client.post(f"/api/games/{gid}/events", json=gone).status_code == 200
    sheet = client.get(f"/games/{gid}/sheet/buy?src=board&card=D2-02&steal=black", headers=HX).get_data(as_text=True)
    assert '<p class="hint steal-gone" id="steal-gone" role="status">Ben no longer holds black: name the token ' \
           'to steal again.</p>' in sheet
    assert "stealing 1 white" not in sheet and "&#34;steal&#34;" not in sheet  # nothing chosen for Ana
    assert "Name the token to take from Ben." in sheet
    # opened afresh (no token named), the only kind Ben holds is chosen for Ana, as before
    fresh = client.get(f"/games/{gid}/sheet/buy?src=board&card=D2-02", headers=HX).get_data(as_text=True)
    assert "stealing 1 white from Ben" in fresh and 'id="steal-gone"' not in fresh


def test_an_entry_from_a_form_is_stored_and_announced(client):
    game = new_game(client, ("Ana", "Ben"))
    resp = form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"pearl": 2}}, 0)
    assert resp.status_code == 200
    trigger = json.loads(resp.headers["HX-Trigger"])
    assert [a["kind"] for a in trigger["tracker:alerts"]] == ["privilege_given"]
    assert 'id="game"' in resp.get_data(as_text=True)
    again = form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"pearl": 2}}, 0)
    assert again.status_code == 200  # same entry_id: a double tap is stored once
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1


def test_a_plain_form_post_redirects_after_storing(client):
    game = new_game(client)
    resp = form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}, 0, htmx=False)
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/games/{game['id']}?done=1")


def test_a_rule_error_shows_next_to_the_control_and_stores_nothing(client):
    game = new_game(client)
    resp = form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"gold": 1}}, 0)
    assert resp.status_code == 422
    assert resp.headers["HX-Retarget"] == "#entry-error" and resp.headers["HX-Reswap"] == "innerHTML"
    assert "Gold is only taken by reserving a card." in resp.get_data(as_text=True)
    plain = form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"gold": 1}}, 0, htmx=False,
                      entry_id="f2")
    assert plain.status_code == 422 and "Gold is only taken" in plain.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


@pytest.mark.parametrize("event_field", ["not json", "[1, 2]", '{"type": "take_tokens"}'])
def test_a_malformed_form_entry_is_a_clear_422(client, event_field):
    game = new_game(client)
    resp = client.post(f"/games/{game['id']}/events", data={"event": event_field}, headers=HX)
    assert resp.status_code == 422 and "error-message" in resp.get_data(as_text=True)


def test_a_stale_form_is_refused_with_a_notice_and_the_fresh_screen(client):
    game = new_game(client)
    form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}, 0)
    resp = form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}, 0, entry_id="f9")
    body = resp.get_data(as_text=True)
    assert resp.status_code == 409 and "another phone recorded an entry first: Ana took 1 red." in body


def test_a_form_version_too_long_to_be_any_game_s_is_ahead_of_it_not_malformed(client):
    """A breaker's form said ``expected_version=99999999999``: refused as "not a whole number",
    where the JSON API says the version is ahead of the game's. Any whole number past the game's
    version is answered as 99 is, and the game is untouched."""
    game = new_game(client)
    answers = []
    for version in ("99", "99999999999", "0" * 30 + "7", "9" * 5000):
        resp = client.post(f"/games/{game['id']}/events", headers=HX, data={
            "event": json.dumps({"type": "take_tokens", "player": 0, "tokens": {"red": 1}}),
            "expected_version": version, "entry_id": f"v{len(version)}"})
        answers.append((resp.status_code, re.sub(r'value="[^"]*"', "", resp.get_data(as_text=True))))
    assert answers[0][0] == 409 and answers[1] == answers[0] == answers[3]
    assert "whole number" not in answers[1][1]
    # and no other phone is blamed for it (it said "Another phone recorded an entry first": a breaker)
    assert "this screen showed the game further on than it is now" in answers[0][1]
    assert "Another phone" not in answers[0][1]
    undo = client.post(f"/games/{game['id']}/undo", headers=HX, data={"expected_version": "9" * 5000})
    assert undo.status_code == 409  # (nothing to undo at any version ahead of the game)
    assert "further on than it is now" in undo.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0
    refused = client.post(f"/games/{game['id']}/events", headers=HX, data={
        "event": json.dumps({"type": "take_tokens", "player": 0, "tokens": {"red": 1}}), "expected_version": "1e3"})
    assert refused.status_code == 422 and "expected_version must be a whole number." in refused.get_data(as_text=True)


def test_a_game_the_home_form_does_not_offer_is_refused_not_started_as_a_duel(client):
    resp = client.post("/games", data={"game": "chess", "player0": "Ana", "player1": "Ben", "first": "0"})
    assert resp.status_code == 422 and "Choose the game: Splendor Duel or Splendor." in resp.get_data(as_text=True)
    assert client.get("/api/games").get_json() == []


def test_an_undo_says_the_privileges_it_moves_back(client):
    """D-5, D-3: Ana's take of 3 red gave Ben a privilege; its undo takes it back, and the notice
    says so (after a refill's undo both phones said only "Undone: Ben replenished the board…"
    while Ana's scroll went: a tester). An undo of a privilege used gives it back, said too; a
    take that moved none says none."""
    game = new_game(client)  # Ana first: Ben holds the setup privilege
    notice = re.compile(r'<p class="alert alert-notice">([^<]*)</p>')
    form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}}, 0, entry_id="p1")
    assert client.get(f"/api/games/{game['id']}").get_json()["players"][1]["privileges"] == 2
    resp = client.post(f"/games/{game['id']}/undo", data={"expected_version": "1"}, headers=HX)
    assert html.unescape(notice.search(resp.get_data(as_text=True))[1]) == "Undone: Ana took 3 red. Privileges now: Ana 0, Ben 1."
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert [p["privileges"] for p in state["players"]] == [0, 1] and state["privileges_supply"] == 2
    form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}, 2, entry_id="p2")
    form_post(client, game["id"], {"type": "use_privileges", "player": 1, "tokens": {"blue": 1}}, 3, entry_id="p3")
    resp = client.post(f"/games/{game['id']}/undo", data={"expected_version": "4"}, headers=HX)
    assert html.unescape(notice.search(resp.get_data(as_text=True))[1]) == \
        "Undone: Ben used 1 privilege for 1 blue. Privileges now: Ana 0, Ben 1."
    form_post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}, 5, entry_id="p4")
    resp = client.post(f"/games/{game['id']}/undo", data={"expected_version": "6"}, headers=HX)
    assert html.unescape(notice.search(resp.get_data(as_text=True))[1]) == "Undone: Ben took 1 blue."
    client.set_cookie("lang", "ko")
    flask_babel.refresh()
    form_post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"pearl": 2}}, 7, entry_id="p5")
    resp = client.post(f"/games/{game['id']}/undo", data={"expected_version": "8"}, headers=HX)
    assert html.unescape(notice.search(resp.get_data(as_text=True))[1]).endswith("현재 특권: Ana 0, Ben 1.")


def test_undo_from_the_screen(client):
    game = new_game(client)
    form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}, 0)
    resp = client.post(f"/games/{game['id']}/undo", data={"expected_version": "1"}, headers=HX)
    assert resp.status_code == 200 and "Undone: Ana took 1 red." in resp.get_data(as_text=True)
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["version"] == 2 and state["players"][0]["tokens"]["red"] == 0
    resp = client.post(f"/games/{game['id']}/undo", data={}, headers=HX)
    assert resp.status_code == 422 and "no entry to undo" in resp.get_data(as_text=True)


def test_undoing_the_entry_that_ended_a_game_says_it_reopens_it(client):
    """A finished game opened from the history: its Undo would reopen it and take the win out
    of the figures; the question says so (it only repeated the last entry)."""
    for name, players in (("duel-1069.json", ["Ana", "Ben"]), ("splendor-133.json", ["Ana", "Ben", "Cho"])):
        state = client.post("/api/games/import", json=fixture_log(name, players)).get_json()
        winner = " & ".join(players[s] for s in (state["winner"].get("players") or [state["winner"]["player"]]))
        body = client.get(f"/games/{state['id']}").get_data(as_text=True)
        question = re.search(r'<p id="undo-dialog-text">([^<]*)</p>', body)[1]
        assert question.startswith(f"This game is over. Undo its last entry and play on? {winner}'s win leaves "
                                   "the history and the players' figures until the game ends again. Last entry: ")
        assert "play on?" in re.search(r'hx-confirm="([^"]*)"', body)[1]


def test_an_undo_without_javascript_asks_first_and_undoes_only_once_confirmed(client):
    """UX.md: undo is one tap plus a confirmation. htmx confirms on the phone; a plain form post
    gets the screen asking "Undo the last entry: …" and nothing changes until it is confirmed."""
    game = new_game(client)
    form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}, 0)
    asked = client.post(f"/games/{game['id']}/undo", data={"expected_version": "1"})
    body = asked.get_data(as_text=True)
    assert asked.status_code == 200 and 'id="undo-confirm"' in body
    assert "Undo the last entry: Ana took 1 red." in body and 'name="confirmed" value="1"' in body
    assert 'name="expected_version" value="1"' in body
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["version"] == 1 and state["players"][0]["tokens"]["red"] == 1
    done = client.post(f"/games/{game['id']}/undo", data={"expected_version": "1", "confirmed": "1"})
    assert done.status_code == 303
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["version"] == 2 and state["players"][0]["tokens"]["red"] == 0
    nothing = client.post(f"/games/{game['id']}/undo", data={"expected_version": "2"})
    assert nothing.status_code == 422 and "no entry to undo" in nothing.get_data(as_text=True)


def test_a_correction_from_the_form_is_kept_in_the_log(client):
    game = new_game(client, ("Ana", "Ben"))
    data = {"type": "correction", "player": "0", "expected_version": "0", "entry_id": "c1", "privileges": "0",
            "note": "dropped a red"}
    for k in ("white", "blue", "green", "red", "black", "pearl", "gold"):
        data[f"tokens-{k}"] = "1" if k == "red" else "0"
        data[f"board-{k}"] = {"white": 4, "blue": 4, "green": 4, "red": 3, "black": 4, "pearl": 2, "gold": 3}[k]
        data[f"bag-{k}"] = "0"
    resp = client.post(f"/games/{game['id']}/events", data=data, headers=HX)
    assert resp.status_code == 200
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["players"][0]["tokens"]["red"] == 1 and state["current_player"] == 0
    log = client.get(f"/api/games/{game['id']}/log").get_json()
    assert log["events"][0]["note"] == "dropped a red"
    # The log says what the fix changed, not the whole bags it sets.
    sentence = "Correction for Ana: tokens: red 0 → 1; board: red 4 → 3. “dropped a red”"
    assert sentence in resp.get_data(as_text=True)
    data["tokens-red"] = "x"
    data["entry_id"] = "c2"
    data["expected_version"] = "1"
    assert client.post(f"/games/{game['id']}/events", data=data, headers=HX).status_code == 422


def test_a_correction_of_the_board_and_bag_only_names_no_player(client):
    """A tester fixed the board and the bag on Ben's turn and read "Correction for Ben: board: …"
    as Ben's tokens changed: a fix that changes no player's counts is the table's."""
    game = new_game(client, ("Ana", "Ben"), first_player=1)
    board = {"white": 3, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2, "gold": 3}
    resp = post(client, game["id"], {"type": "correction", "player": 1,
                                     "set": {"board": board, "bag": {"white": 1}}, "note": "one under the bag"})
    assert resp.status_code == 200, resp.get_json()
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Correction of the table: board: white 4 → 3; bag: white 0 → 1. “one under the bag”" in page
    assert "Correction for Ben" not in page
    flask_babel.refresh()
    ko = client.get(f"/games/{game['id']}/review", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert "수정 (판·주머니): 판 " in ko


@pytest.mark.parametrize("fixture, winner", [("duel-1069.json", "Player A wins!"), ("splendor-153.json", "Player B wins!")])
def test_a_finished_game_shows_the_victory_banner_and_no_entry_controls(client, fixture: str, winner: str):
    log = load_fixture(fixture)
    state = client.post("/api/games/import", json=log).get_json()
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert 'id="victory"' in page and winner in page
    assert 'id="sheet"' not in page and 'id="action-take"' not in page
    assert 'id="undo"' in page
    # the banner covers the screen's Undo: a winning entry made by mistake is undone from it too
    # (both games: the Splendor banner had none)
    assert '<button type="submit" form="undo-form" class="button" id="victory-undo">' in page
    assert 'id="undo-form"' in page and 'id="same-players"' in page
    # deleted: said on the banner, no new game from it and no undo
    assert client.post(f"/history/{state['id']}/delete").status_code == 303
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert 'id="victory-deleted"' in page and 'id="victory-undo"' not in page and 'id="same-players"' not in page


@pytest.mark.parametrize("fixture, mark", [("duel-1012.json", "★"), ("duel-1069.json", "♛"), ("duel-1102.json", "★")])
def test_the_duel_victory_banner_marks_a_crowns_win_alone_with_a_crown(client, fixture: str, mark: str):
    """D-11: ♛ over a win by crowns (duel-1069), the winner's ★ of History over prestige (1012) and
    one colour (1102): a crown over a prestige win read as a crowns win."""
    state = client.post("/api/games/import", json=load_fixture(fixture)).get_json()
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert f'<p class="crown" aria-hidden="true">{mark}</p>' in page
    # the route is said as reached, not as the winner's total (a tester read "20 prestige" beside 21)
    route = {"prestige": "20 prestige", "crowns": "10 crowns", "color": "10 prestige in one colour"}
    routes = re.search(r'<ul class="routes" id="victory-routes">(.*?)</ul>', page)[1]
    assert routes == "".join(f"<li>reached {route[r]}</li>" for r in state["winner"]["routes"])


def test_player_names_are_escaped(client):
    game = new_game(client, ("<img src=x onerror=alert(1)>", "Ben"))
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<img src=x" not in client.get("/").get_data(as_text=True)


def test_security_headers_are_set(client):
    resp = client.get("/")
    csp = resp.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    assert resp.headers["Referrer-Policy"]


def test_htmx_answers_leave_out_the_headers_only_a_page_heeds(client):
    """An entry's answer, a sheet and a poll are swapped into a page whose own CSP governs
    them: they carry ``nosniff`` but not the page's CSP, Referrer-Policy or X-Frame-Options
    (about 250 bytes of every answer); the same addresses opened as pages carry all."""
    game = new_game(client)
    gid = game["id"]
    hx = {"HX-Request": "true"}
    entry = client.post(f"/games/{gid}/events", headers=hx, data={
        "event": json.dumps({"type": "take_tokens", "player": 0, "tokens": {"red": 1}}),
        "expected_version": "0", "entry_id": "hx-headers-1"})
    assert entry.status_code == 200 and 'data-version="1"' in entry.get_data(as_text=True)
    answers = {
        "entry": entry,
        "sheet": client.get(f"/games/{gid}/sheet/buy", headers=hx),
        "quiet poll": client.get(f"/games/{gid}/poll?v=1", headers=hx),
        "changed poll": client.get(f"/games/{gid}/poll?v=0", headers=hx),
    }
    assert [answers[k].status_code for k in answers] == [200, 200, 204, 200]
    for name, resp in answers.items():
        assert resp.headers["X-Content-Type-Options"] == "nosniff", name
        for header in ("Content-Security-Policy", "Referrer-Policy", "X-Frame-Options"):
            assert header not in resp.headers, (name, header)
        assert "HX-Request" in resp.headers["Vary"], name  # never mixed up with the page in a cache
    for url, headers in ((f"/games/{gid}", {}), (f"/games/{gid}/sheet/buy", {}), ("/history", {}),
                         (f"/api/games/{gid}", {}), (f"/games/{gid}", {"HX-Request": "false"})):
        resp = client.get(url, headers=headers)  # (htmx sends "true"; anything else is a page)
        assert resp.status_code == 200, url
        assert "frame-ancestors 'none'" in resp.headers["Content-Security-Policy"], url
        assert resp.headers["X-Frame-Options"] == "DENY" and resp.headers["Referrer-Policy"] == "same-origin", url


def test_pages_are_never_taken_from_the_browser_cache(client):
    """Back to a game page (or the history) must show the game as it is now, not as first loaded:
    pages are ``no-store``; htmx answers and static files keep their own caching."""
    game = new_game(client)
    for url in ("/", f"/games/{game['id']}", "/history", "/players", f"/games/{game['id']}/share"):
        resp = client.get(url)
        assert resp.status_code == 200 and resp.headers["Cache-Control"] == "no-store", url
    assert "no-store" not in client.get(f"/games/{game['id']}", headers={"HX-Request": "true"}).headers.get("Cache-Control", "")
    assert client.get("/sw.js").headers["Cache-Control"] == "no-cache"
    assert client.get("/static/app.css").headers["Cache-Control"] != "no-store"


def test_pages_have_no_inline_script_or_style(client):
    game = new_game(client)
    for url in ("/", f"/games/{game['id']}", f"/games/{game['id']}/sheet/buy"):
        page = client.get(url).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)", page), url
        assert " style=" not in page and "<style" not in page and "hx-on" not in page, url


def test_form_posts_need_a_csrf_token(app):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    resp = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0"})
    assert resp.status_code == 400
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    resp = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0", "csrf_token": token})
    assert resp.status_code == 303
    game_id = resp.headers["Location"].rsplit("/", 1)[-1]
    api = client.post(f"/api/games/{game_id}/events", json={"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    assert api.status_code == 200  # the JSON API takes only JSON bodies, no CSRF token


def test_a_correction_form_sends_only_what_the_table_changed(client):
    game = new_game(client, ("Ana", "Ben"))
    data = {"type": "correction", "player": "0", "expected_version": "0", "entry_id": "c1",
            "privileges": "0", "orig-privileges": "0", "note": ""}
    board = {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2, "gold": 3}
    for k, n in board.items():
        data[f"tokens-{k}"] = data[f"orig-tokens-{k}"] = "0"
        data[f"board-{k}"] = data[f"orig-board-{k}"] = str(n)
        data[f"bag-{k}"] = data[f"orig-bag-{k}"] = "0"
    data["tokens-blue"], data["board-blue"] = "2", "2"
    assert client.post(f"/games/{game['id']}/events", data=data, headers=HX).status_code == 200
    event = client.get(f"/api/games/{game['id']}/log").get_json()["events"][0]
    assert set(event["set"]) == {"tokens", "board"} and event["set"]["tokens"]["blue"] == 2
    data.update({"tokens-blue": "0", "board-blue": "4", "entry_id": "c2", "expected_version": "1"})
    unchanged = client.post(f"/games/{game['id']}/events", data=data, headers=HX)
    # a Fix saved with nothing changed says so first (a tester read "A correction sets at least one of …")
    assert unchanged.status_code == 422 and "Nothing to correct: a correction sets at least one" in unchanged.get_data(as_text=True)


def test_the_log_says_which_token_an_ability_took(client):
    log = load_fixture("duel-1012.json")
    state = client.post("/api/games/import", json=log).get_json()
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert re.search(r"bought a level-1 \w+ card \(take a token\)[^<]*(taking 1 \w+ from the board|no \w+ left on the board)", page)


def test_the_victory_banner_offers_a_new_game_with_the_same_players(client):
    state = client.post("/api/games/import", json=load_fixture("duel-1102.json")).get_json()
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    link = re.search(r'id="same-players" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    home = client.get(link).get_data(as_text=True)
    assert 'value="Player A"' in home and 'value="Player B"' in home


@pytest.mark.parametrize("version", ["²", "¹", "-1", "abc", "1e3"])
def test_a_malformed_expected_version_in_a_form_is_a_422(client, version):
    game = new_game(client)
    event = json.dumps({"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    resp = client.post(f"/games/{game['id']}/events", data={"event": event, "expected_version": version}, headers=HX)
    assert resp.status_code == 422
    undo = client.post(f"/games/{game['id']}/undo", data={"expected_version": version}, headers=HX)
    assert undo.status_code == 422
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


def test_deeply_nested_form_json_is_a_422(client):
    game = new_game(client)
    resp = client.post(f"/games/{game['id']}/events", data={"event": "[" * 50000}, headers=HX)
    assert resp.status_code == 422


def test_several_undos_in_one_poll_each_name_their_entry(client):
    """A tester: the other phone undid two entries before this phone's next poll, which then
    said nothing at all (one undo is told; so are several entries). Each entry taken back is
    named, in the order they had been played."""
    game = new_game(client, ("Ana", "Ben"))
    play(client, game["id"], [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}},
                              {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}},
                              {"type": "take_tokens", "player": 0, "tokens": {"green": 1}}])
    for version in (3, 4):
        assert client.post(f"/api/games/{game['id']}/undo", json={"expected_version": version}).status_code == 200
    polled = client.get(f"/games/{game['id']}/poll?v=3&n=3", headers=HX).get_data(as_text=True)
    assert "2 entries undone: Ben took 1 blue. Ana took 1 green." in polled
    assert 'data-kind="done"' not in polled
    # an entry made after them: the undos are no longer the game's last writes; how many of each is said
    # (a tester was told nothing: which entries are new cannot be told from the ones the undos left)
    play(client, game["id"], [{"type": "take_tokens", "player": 1, "tokens": {"white": 1}}])
    polled = client.get(f"/games/{game['id']}/poll?v=3&n=3", headers=HX).get_data(as_text=True)
    assert "Undone:" not in polled and "entries were undone" not in polled
    assert "Since this screen, undone: Ben took 1 blue. Ana took 1 green. Entered: Ben took 1 white." in polled
    assert 'data-kind="done"' not in polled


def test_more_undos_in_one_poll_than_are_named_are_counted(client):
    """Four undos before the other phone's poll were told nothing (only up to three are named)."""
    game = new_game(client, ("Ana", "Ben"))
    play(client, game["id"], [{"type": "take_tokens", "player": p % 2, "tokens": {c: 1}}
                              for p, c in enumerate(("red", "blue", "green", "white", "black"))])
    for version in (5, 6, 7, 8):
        assert client.post(f"/api/games/{game['id']}/undo", json={"expected_version": version}).status_code == 200
    polled = client.get(f"/games/{game['id']}/poll?v=5&n=5", headers=HX).get_data(as_text=True)
    assert "The last 4 entries were undone." in polled and "Undone:" not in polled
    assert "Privileges now" not in polled  # (none moved)
    # four undos that moved privileges: the counts as they now are (a tester: none were said)
    version = client.get(f"/api/games/{game['id']}").get_json()["version"]
    play(client, game["id"], [{"type": "take_tokens", "player": 1, "tokens": {"red": 3}},
                              {"type": "take_tokens", "player": 0, "tokens": {"blue": 1}},
                              {"type": "take_tokens", "player": 1, "tokens": {"pearl": 2}},
                              {"type": "take_tokens", "player": 0, "tokens": {"green": 1}}])
    for expected in range(version + 4, version + 8):
        assert client.post(f"/api/games/{game['id']}/undo", json={"expected_version": expected}).status_code == 200
    polled = client.get(f"/games/{game['id']}/poll?v={version + 4}&n=5", headers=HX).get_data(as_text=True)
    notice = re.search(r'<p class="alert alert-notice">([^<]*)</p>', polled)[1]
    assert notice == "The last 4 entries were undone. Privileges now: Ana 0, Ben 1."


def test_a_short_toast_says_what_was_just_recorded_on_both_phones(client):
    """UX.md: "say what happened after (a short toast, the log)": the entry's answer carries
    its sentence as a toast, the other phone's poll brings the same toast, an undo says so
    instead, and a plain page load shows no toast."""
    game = new_game(client, ("Ana", "Ben"))
    answer = form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1, "blue": 1}}, 0)
    toast = re.findall(r'<p class="alert alert-done" data-kind="done"><span>([^<]*)</span></p>', answer.get_data(as_text=True))
    assert answer.status_code == 200 and toast == ["✓ Ana took 1 blue, 1 red."]
    polled = client.get(f"/games/{game['id']}/poll?v=0", headers=HX).get_data(as_text=True)
    assert re.findall(r'data-kind="done"><span>([^<]*)<', polled) == toast
    assert 'data-kind="done"' not in client.get(f"/games/{game['id']}").get_data(as_text=True)
    undone = client.post(f"/games/{game['id']}/undo", data={"expected_version": "1"}, headers=HX).get_data(as_text=True)
    assert 'data-kind="done"' not in undone and "Undone: Ana took 1 blue, 1 red." in undone
    # An entry that raises an alert: the alert has its toast, the entry's toast does not repeat it.
    answer = form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}}, 2, entry_id="f3")
    body = answer.get_data(as_text=True)
    assert re.findall(r'data-kind="done"><span>([^<]*)<', body) == ["✓ Ana took 3 red."]
    assert re.search(r'data-kind="privilege_given" data-player="1" data-at="\d+\.[0-9a-f]{8}">Ben gains a privilege', body)  # the alert's own toast


def test_a_correction_forms_odd_fields_get_the_right_sentence(client):
    """The correction form: a note over 500 characters or with a control character is refused
    with a sentence saying so (never cut silently), a seat beyond the game's is named with the
    game's own range, and counts are ASCII digits only. Nothing is stored."""
    game = new_game(client)
    base = {"type": "correction", "player": "0", "tokens-red": "1", "tokens-white": "0", "tokens-blue": "0",
            "tokens-green": "0", "tokens-black": "0", "tokens-gold": "0", "tokens-pearl": "0", "expected_version": "0"}

    def refused(**fields: str) -> str:
        resp = client.post(f"/games/{game['id']}/events", data={**base, **fields}, headers=HX)
        assert resp.status_code == 422, fields
        return resp.get_data(as_text=True)

    assert "without control characters" in refused(note="a\x00b")
    assert "at most 500 characters" in refused(note="x" * 501)
    assert "from 0 to 1" in refused(player="7")
    assert "from 0 to 99" in refused(**{"tokens-red": "\u0663"})  # an Arabic-Indic three
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0
    board = client.get(f"/api/games/{game['id']}").get_json()["board"]
    moved = {f"board-{k}": str(n - (k == "red")) for k, n in board.items()}  # a red from the board to Ana
    ok = client.post(f"/games/{game['id']}/events", data={**base, **moved, "note": "x" * 500}, headers=HX)
    assert ok.status_code == 200 and client.get(f"/api/games/{game['id']}").get_json()["players"][0]["tokens"]["red"] == 1


def test_counts_of_one_and_of_many_read_as_english(client):
    """"1 privilege", "2 privileges": the log sentence and the sheet's save button."""
    game = new_game(client, ("Ana", "Ben"), first_player=1)  # Ana holds the privilege of the second seat
    form_post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}, 0)
    answer = form_post(client, game["id"], {"type": "use_privileges", "player": 0, "tokens": {"blue": 1}}, 1,
                       entry_id="f2").get_data(as_text=True)
    assert "Ana used 1 privilege for 1 blue." in answer and "privilege(s)" not in answer


def test_a_phone_whose_write_lost_to_an_undo_is_told_an_undo_came_first(client):
    """Both phones act at once: one undoes, the other's entry (or undo) on the same screen is
    refused, and it is told what really happened, not that an older entry was "recorded first"."""
    game = new_game(client, ("Ana", "Ben"))
    form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}, 0)
    form_post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}, 1, entry_id="f2")
    undone = client.post(f"/games/{game['id']}/undo", data={"expected_version": "2"}, headers=HX)
    assert undone.status_code == 200 and "Undone: Ben took 1 blue." in undone.get_data(as_text=True)
    late = form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"green": 1}}, 2, entry_id="f3")
    body = late.get_data(as_text=True)
    assert late.status_code == 409 and "Another phone undid an entry first, so this was not recorded. Undone: Ben took 1 blue." in body
    assert "recorded an entry first" not in body
    second = client.post(f"/games/{game['id']}/undo", data={"expected_version": "2"}, headers=HX)
    body = second.get_data(as_text=True)
    assert second.status_code == 409 and "That entry was undone already (by a tap whose answer was lost, or on another phone); nothing more was undone." in body
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["version"] == 3 and state["players"][0]["tokens"]["red"] == 1 and state["players"][1]["tokens"]["blue"] == 0
    form_post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"black": 1}}, 3, entry_id="f4")
    stale = form_post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"white": 1}}, 3, entry_id="f5")
    assert stale.status_code == 409 and "another phone recorded an entry first: Ben took 1 black." in stale.get_data(as_text=True)


def test_the_log_says_from_whom_a_token_is_stolen_and_when_nothing_can_be(client):
    """D-8 steal: the sentence names the opponent robbed; with nothing to steal (no gem or pearl
    held, gold never) it says so, as "take a token" does; pearls are counted in the plural."""
    gid = _ana_pays_for_the_steal_card(client)
    buy = {"type": "purchase", "player": 0, "card": "D2-02", "payment": {"blue": 4, "red": 3}}
    sheet = client.get(f"/games/{gid}/sheet/buy?src=board&card=D2-02", headers=HX).get_data(as_text=True)
    assert "(nothing to steal: Ben holds no gem or pearl)" in sheet
    assert client.post(f"/api/games/{gid}/events", json=buy).status_code == 200
    assert client.post(f"/api/games/{gid}/events", json={"type": "take_tokens", "player": 1, "tokens": {"pearl": 2}}).status_code == 200
    log = client.get(f"/games/{gid}/log", headers=HX).get_data(as_text=True)
    assert "(nothing to steal: Ben holds no gem or pearl)" in log and "Ben took 2 pearls." in log
    stolen = client.post("/api/games/import", json=fixture_log("duel-1102.json", players=("Ana", "Ben"))).get_json()
    log = client.get(f"/games/{stolen['id']}/log", headers=HX).get_data(as_text=True)
    assert "stealing 1 white from Ben" in log


def test_a_joker_without_a_bonus_card_is_refused_with_the_reason(client):
    """D-7: the buy sheet of a joker for a player who owns no bonus card says why it cannot be
    bought (joker_needs_bonus), not "choose the colour" with no colour to choose."""
    game = new_game(client, ("Ana", "Ben"))
    sheet = client.get(f"/games/{game['id']}/sheet/buy?src=board&card=D1-26", headers=HX).get_data(as_text=True)
    assert "A joker needs a card with a bonus already owned (a card with points only does not count)" in sheet
    assert "Choose the colour the joker joins." not in sheet
    resp = client.post(f"/api/games/{game['id']}/events",
                       json={"type": "purchase", "player": 0, "card": "D1-26", "payment": {"white": 4, "pearl": 1}})
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "joker_needs_bonus"


def test_an_undo_after_an_earlier_one_is_named_to_the_other_phone(client):
    """An entry undone earlier in the game keeps its place in the stored order: a later undo, seen
    by the other phone's poll, was told as "The last entry was undone." (an accessibility tester
    heard nothing of what went); it names the entry, and so do two undos in one poll."""
    game = new_game(client, ("Ana", "Ben"))
    gid = game["id"]

    def enter(seat: int, kind: str) -> None:
        assert post(client, gid, {"type": "take_tokens", "player": seat, "tokens": {kind: 1}}).status_code == 200

    enter(0, "green")
    enter(1, "red")
    assert client.post(f"/api/games/{gid}/undo", json={}).status_code == 200
    enter(1, "blue")
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    assert client.post(f"/api/games/{gid}/undo", json={}).status_code == 200
    polled = client.get(f"/games/{gid}/poll?v={version}&n=2", headers=HX).get_data(as_text=True)
    assert re.search(r'<p class="alert alert-notice">([^<]*)</p>', polled)[1] == "Undone: Ben took 1 blue."
    assert client.post(f"/api/games/{gid}/undo", json={}).status_code == 200  # and Ana's green: two in one poll
    polled = client.get(f"/games/{gid}/poll?v={version}&n=2", headers=HX).get_data(as_text=True)
    assert re.search(r'<p class="alert alert-notice">([^<]*)</p>', polled)[1] == "2 entries undone: Ana took 1 green. Ben took 1 blue."
    # two undos that moved privileges: the counts as they now are (a tester: none were said)
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    assert post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 3}}).status_code == 200
    assert post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"pearl": 2}}).status_code == 200
    state = client.get(f"/api/games/{gid}").get_json()
    assert [p["privileges"] for p in state["players"]] == [1, 2]
    for _ in range(2):
        assert client.post(f"/api/games/{gid}/undo", json={}).status_code == 200
    polled = client.get(f"/games/{gid}/poll?v={version + 2}&n=2", headers=HX).get_data(as_text=True)
    assert html.unescape(re.search(r'<p class="alert alert-notice">([^<]*)</p>', polled)[1]) == (
        "2 entries undone: Ana took 3 red. Ben took 2 pearls. Privileges now: Ana 0, Ben 1.")


def test_an_undo_names_the_entry_without_what_it_caused_and_a_stale_question_is_not_asked(client):
    """Undoing the winning entry says which entry went, not that somebody wins; a plain undo
    posted from a screen older than the game gets the conflict, not a question about another
    entry; the other phone's poll names the undone entry too (also after an API undo)."""
    state = client.post("/api/games/import", json=fixture_log("duel-1069.json", players=("Ana", "Ben"))).get_json()
    gid, version = state["id"], state["version"]
    undone = client.post(f"/games/{gid}/undo", data={"expected_version": str(version)}, headers=HX).get_data(as_text=True)
    notice = re.search(r'<p class="alert alert-notice">([^<]*)</p>', undone)[1]
    assert notice.startswith("Undone: Ana ") and "wins" not in notice
    import flask_babel

    flask_babel.refresh()
    client.set_cookie("lang", "ko")  # a phone in another language: its screen is drawn for it, not kept
    polled = client.get(f"/games/{gid}/poll?v={version}&n={version}", headers=HX)
    client.delete_cookie("lang")
    flask_babel.refresh()
    # "되돌림 — Ana: …": after app.js's "다른 휴대폰에서:" no third colon in a row (a Korean tester)
    korean = re.search(r'<p class="alert alert-notice">([^<]*)</p>', polled.get_data(as_text=True))[1]
    assert korean.startswith("되돌림 — Ana: "), korean
    stale = client.post(f"/games/{gid}/undo", data={"expected_version": str(version)})
    body = stale.get_data(as_text=True)
    assert stale.status_code == 409 and 'id="undo-confirm"' not in body
    assert client.get(f"/api/games/{gid}").get_json()["version"] == version + 1


def test_without_javascript_the_page_after_an_entry_says_what_was_recorded(client):
    """A plain form post answers with a redirect; the page it leads to shows the entry's toast
    and the alerts it raised (UX.md: say what happened after), and after an undo its notice."""
    game = new_game(client, ("Ana", "Ben"))
    resp = form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}}, 0, htmx=False)
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{game['id']}?done=1"
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert "✓ Ana took 3 red." in page and "Ben gains a privilege from Ana&#39;s move." in page
    assert 'data-kind="done"' not in client.get(f"/games/{game['id']}").get_data(as_text=True)
    undone = client.post(f"/games/{game['id']}/undo", data={"expected_version": "1", "confirmed": "1"})
    assert undone.status_code == 303 and undone.headers["Location"] == f"/games/{game['id']}?undone=2"
    page = client.get(undone.headers["Location"]).get_data(as_text=True)
    assert "Undone: Ana took 3 red." in page and "gains a privilege" not in page.split('id="alerts"')[1].split("</div>")[0]


def test_the_reserve_sheet_says_at_once_when_no_gold_is_left(client):
    """D-6: with the 3 gold reserved away, the reserve sheet says no card can be reserved before
    a card is tapped (and the card's own sheet says it once, in its preview)."""
    game = new_game(client)
    for seat, card in ((0, "D1-01"), (1, "D1-02"), (0, "D1-03")):
        assert post(client, game["id"], {"type": "reserve", "player": seat, "card": card}).status_code == 200
    sheet = client.get(f"/games/{game['id']}/sheet/reserve", headers=HX).get_data(as_text=True)
    assert 'id="no-gold"' in sheet and "There is no gold on the board, so no card can be reserved: take tokens or buy a card instead." in sheet
    # and nothing to tap: no card grid, no secret card, no level tabs (as with three reserved)
    assert 'id="cards"' not in sheet and 'id="secret-1"' not in sheet and 'class="tabs"' not in sheet
    tapped = client.get(f"/games/{game['id']}/sheet/reserve?card=D1-04", headers=HX).get_data(as_text=True)
    assert 'id="no-gold"' not in tapped and tapped.count("There is no gold on the board") == 1
    assert "no gold left" not in tapped  # classic Splendor's reserve without gold is not a Duel's
    fresh = new_game(client)
    assert 'id="no-gold"' not in client.get(f"/games/{fresh['id']}/sheet/reserve", headers=HX).get_data(as_text=True)


def test_the_take_sheet_is_titled_by_each_game_s_rule(client):
    """D-5: a Duel's take sheet says the tokens lie in one straight line, and that the table, not
    the app, checks the line (a tester took it that any three were accepted as legal)."""
    duel = new_game(client)
    sheet = client.get(f"/games/{duel['id']}/sheet/take", headers=HX).get_data(as_text=True)
    assert "Ana takes up to 3 tokens" in sheet
    assert "one unbroken straight line on the board (the table checks the line; the app checks the counts)" in sheet
    splendor = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                               "nobles": ["N-01", "N-02", "N-03"]}).get_json()
    sheet = client.get(f"/games/{splendor['id']}/sheet/take", headers=HX).get_data(as_text=True)
    assert "takes 3 different gems or 2 alike" in sheet and "takes up to 3 tokens" not in sheet
    assert "straight line" not in sheet and "Tap the tokens taken" in sheet


def test_a_fix_count_is_read_as_the_phone_s_number_field_reads_it_and_refused_by_its_label(client):
    """``1e1`` and ``2.0`` are numbers the phone's field accepts: 10 and 2. A count out of range
    or not whole is refused naming the field as the form shows it (never ``tokens-white``)."""
    game = new_game(client)
    base = {"type": "correction", "player": "1", "expected_version": "0"}
    bag = {f"tokens-{k}": "0" for k in ("white", "blue", "green", "red", "black", "pearl", "gold")}
    refused = client.post(f"/games/{game['id']}/events", headers=HX,
                          data={**base, **bag, "tokens-white": "1.5"})
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert "Tokens held, white: type a whole number from 0 to 99." in text and "tokens-white" not in text.split("<form")[0]
    board = client.post(f"/games/{game['id']}/events", headers=HX, data={**base, "board-red": "100", "board-white": "4"})
    assert "Board, red: type a whole number from 0 to 99." in board.get_data(as_text=True)
    # classic Splendor's form names it the supply, and so does its refusal (a tester read "Board")
    splendor = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                               "nobles": ["N-01", "N-02", "N-03"]}).get_json()
    form = client.get(f"/games/{splendor['id']}/sheet/correction", headers=HX).get_data(as_text=True)
    assert 'name="board_label" value="supply"' in form
    supply = client.post(f"/games/{splendor['id']}/events", headers=HX,
                         data={**base, "board-green": "-1", "board_label": "supply"})
    assert "Supply, green: type a whole number from 0 to 99." in supply.get_data(as_text=True)
    priv = client.post(f"/games/{game['id']}/events", headers=HX, data={**base, "privileges": "4", "orig-privileges": "1"})
    assert "Privileges: type a whole number from 0 to 3." in priv.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0
    # Accepted as the phone reads them: Ben's 1 privilege becomes 2; 1e1 white tokens for him
    # is read as 10 and refused by the totals (4 on the board), not by the reading.
    assert client.get(f"/games/{game['id']}/fix-preview", headers=HX, query_string={
        **base, "privileges": "00000000002", "orig-privileges": "1"}).get_data(as_text=True).count("privileges: 1 → 2") == 1
    ok = client.post(f"/games/{game['id']}/events", headers=HX, data={**base, "privileges": "2.0", "orig-privileges": "1"})
    assert ok.status_code == 200
    assert client.get(f"/api/games/{game['id']}").get_json()["players"][1]["privileges"] == 2
    ten = client.post(f"/games/{game['id']}/events", headers=HX, data={**base, **bag, "tokens-white": "1e1", "expected_version": "1"})
    assert ten.status_code == 422 and "white tokens would add up to 14" in ten.get_data(as_text=True)


def test_a_stale_form_after_the_game_ended_is_not_asked_to_try_again(client):
    """The other phone recorded the winning buy: a save from the old screen is told the game is
    over, not to "check and try again"."""
    state = client.post("/api/games/import", json=fixture_log("duel-1069.json")).get_json()
    assert state["status"] == "finished", state
    stale = {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}
    resp = form_post(client, state["id"], stale, state["version"] - 1, entry_id="late")
    text = resp.get_data(as_text=True)
    assert resp.status_code == 409
    assert "The game is over; nothing more is recorded." in text and "try again" not in text


def fix_buttons(resp) -> list[dict[str, int]]:
    """The counts each "Make it add up" button of a Fix preview would type."""
    import html

    return [json.loads(html.unescape(raw)) for raw in re.findall(r'data-fix="([^"]+)"', resp.get_data(as_text=True))]

def test_the_fix_form_says_what_it_would_record_before_it_is_saved(client):
    """UX.md "say what will happen before it happens": the Fix form's preview line, from the
    counts typed so far (nothing is stored); nothing while no count differs; a refusal said."""
    game = new_game(client)
    url = f"/games/{game['id']}/fix-preview"
    sheet = client.get(f"/games/{game['id']}/sheet/correction?p=1", headers=HX).get_data(as_text=True)
    assert f'hx-get="{url}"' in sheet and 'hx-include="closest form"' in sheet
    unchanged = client.get(url, headers=HX, query_string={"type": "correction", "player": "1", "privileges": "1",
                                                          "orig-privileges": "1"})
    assert unchanged.status_code == 200 and unchanged.get_data(as_text=True).strip() == ""
    said = client.get(url, headers=HX, query_string={"type": "correction", "player": "1", "privileges": "2",
                                                     "orig-privileges": "1", "note": "forgot one"})
    # the supply gives the scroll (D-3.3): the preview says so too
    assert ("Saving will record: Correction for Ben: privileges: 1 → 2; privileges in supply: 2 → 1. “forgot one”"
            in said.get_data(as_text=True))
    board = {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2, "gold": 3}
    fields = {**{f"board-{k}": str(n) for k, n in board.items()}, **{f"orig-board-{k}": str(n) for k, n in board.items()}}
    refused = client.get(url, headers=HX, query_string={"type": "correction", "player": "1", **fields, "board-red": "9"})
    assert 'class="preview preview-error"' in refused.get_data(as_text=True) and "red tokens would add up to 9" in refused.get_data(as_text=True)
    # a refusal offers the counts that make the total hold again, one tap each, from the parts
    # not typed: 5 red too many on the board can come off neither the bag's 0 nor Ben's 0
    assert "Make it add up:" not in refused.get_data(as_text=True)
    tokens = {**{f"tokens-{k}": "0" for k in board}, **{f"orig-tokens-{k}": "0" for k in board}}
    took_one = client.get(url, headers=HX, query_string={"type": "correction", "player": "1", **tokens, "tokens-blue": "1"})
    assert fix_buttons(took_one) == [{"board-blue": 3}]  # the bag has no blue to give
    assert "Make it add up:" in took_one.get_data(as_text=True) and "board, blue: 4 → 3" in took_one.get_data(as_text=True)
    gave_back = client.get(url, headers=HX, query_string={"type": "correction", "player": "1", **tokens, **fields,
                                                          "tokens-blue": "1", "board-blue": "3"})
    assert "Saving will record: Correction for Ben: tokens: blue 0 → 1; board: blue 4 → 3." in gave_back.get_data(as_text=True)
    assert "Make it add up:" not in said.get_data(as_text=True)
    # two kinds off that no one part restores both of (blue only from the board, the pearl only
    # from the bag, the board's pearls typed): one button for both (a tester was offered nothing)
    two = client.get(url, headers=HX, query_string={"type": "correction", "player": "1", **tokens, **fields,
                                                    "tokens-blue": "1", "board-pearl": "1"})
    assert fix_buttons(two) == [{"board-blue": 3, "bag-pearl": 1}], two.get_data(as_text=True)
    bad = client.get(url, headers=HX, query_string={"type": "correction", "player": "1", "privileges": "x"})
    assert "Privileges: type a whole number from 0 to 3." in bad.get_data(as_text=True)
    assert client.get(url).status_code == 404  # a page of its own it is not
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0



def test_make_it_add_up_offers_only_what_the_rules_then_accept(client):
    """A tester's fixes: a refusal of the privileges (D-3.3) offered a token count that changed
    nothing; two kinds off offered one count that left the other off. Each offer, posted, is
    accepted; two kinds restored by one part are one offer; nothing is offered otherwise."""
    game = new_game(client)
    url = f"/games/{game['id']}/fix-preview"
    sheet = client.get(f"/games/{game['id']}/sheet/correction?p=0", headers=HX).get_data(as_text=True)
    form = dict(re.findall(r'name="((?:orig-)?(?:tokens|board|bag)-\w+|privileges|orig-privileges|player|type)" value="([^"]*)"', sheet))
    assert form["board-red"] == "4" and form["privileges"] == "0"

    def offers(**typed: str) -> list[dict[str, int]]:
        return fix_buttons(client.get(url, headers=HX, query_string={**form, **typed}))

    assert offers(**{"tokens-red": "1", "privileges": "3"}) == []  # Ben holds the 1 privilege
    # red: Ana's +1 (a part left alone first); blue: the board's, which the fix set for red
    mixed = offers(**{"board-red": "3", "bag-blue": "1"})
    assert mixed == [{"tokens-red": 1, "board-blue": 3}], mixed
    both = offers(**{"tokens-red": "1", "tokens-blue": "2"})  # Ana took 1 red and 2 blue, unsaid
    assert both == [{"board-red": 3, "board-blue": 2}]
    version = 0
    for offer in offers(**{"tokens-red": "1"}) + both + mixed:
        typed = {"board-red": "3", "bag-blue": "1"} if offer in mixed else \
            {"tokens-red": "1", "tokens-blue": "2"} if len(offer) == 2 else {"tokens-red": "1"}
        data = {**form, **typed, **{k: str(v) for k, v in offer.items()}, "expected_version": str(version),
                "entry_id": f"fix-{version}"}
        assert client.post(f"/games/{game['id']}/events", headers=HX, data=data).status_code == 200, offer
        version += 1
        client.post(f"/games/{game['id']}/undo", headers=HX, data={"expected_version": str(version)})
        version += 1

def test_the_winner_s_panel_is_marked_on_the_finished_screen(client):
    log = load_fixture("duel-1102.json")
    state = client.post("/api/games/import", json={k: log[k] for k in ("format", "game", "players", "first_player",
                                                                     "events", "result")}).get_json()
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    winner = log["result"]["winner"]["player"]
    assert re.search(rf'class="panel panel-\w+ is-winner" id="panel-{winner}"', page)
    assert page.count("is-winner") == 1


def test_an_empty_board_says_what_can_be_done_instead_of_taking(client):
    """D-4/D-2: nothing to take on the board: the take sheet points to the refill (or a card)."""
    game = new_game(client, ("Ana", "Ben"))
    empty = {k: 0 for k in ("white", "blue", "green", "red", "black", "pearl")}
    bag = {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2}
    resp = client.post(f"/api/games/{game['id']}/events", json={"type": "correction", "player": 0,
                                                                 "set": {"board": {**empty, "gold": 3}, "bag": bag}})
    assert resp.status_code == 200, resp.get_json()
    body = client.get(f"/games/{game['id']}/sheet/take", headers=HX).get_data(as_text=True)
    assert "Nothing on the board to take: refill it (Privilege · Refill), or buy or reserve a card." in body
    assert "Tap the tokens taken" not in body
    assert re.search(r'<h3 class="sheet-for">([^<]*)</h3>', body)[1] == "Ana cannot take a token: none on the board"
    # the refill a tap away (a first-time player had to guess the tab): its sheet offers the replenish
    refill = re.search(r'<a class="button" id="go-refill" href="([^"]+)" hx-get="([^"]+)"', body)
    assert refill and refill[1] == f"/games/{game['id']}?sheet=privileges"
    sheet = client.get(refill[2].replace("&amp;", "&"), headers=HX).get_data(as_text=True)
    assert 'data-sheet="privileges"' in sheet and '"type": "replenish"' in sheet.replace("&#34;", '"')
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert 'id="go-refill"' in page

    # no gold on the board either: no card can be reserved (D-6), so the hint says buy only (a tester)
    resp = client.post(f"/api/games/{game['id']}/events", json={"type": "correction", "player": 0,
                                                                 "set": {"board": {**empty, "gold": 0}, "bag": {**bag, "gold": 3}}})
    assert resp.status_code == 200, resp.get_json()
    body = client.get(f"/games/{game['id']}/sheet/take", headers=HX).get_data(as_text=True)
    assert "Nothing on the board to take: refill it (Privilege · Refill), or buy a card." in body


def test_an_empty_board_with_three_reserved_says_to_refill_or_buy(client):
    """D-6: with three cards reserved, a fourth is refused: an empty board's take sheet names the
    refill or a purchase only (it said "or reserve a card")."""
    game = new_game(client, ("Ana", "Ben"))
    gems = {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2}
    empty = {k: 0 for k in gems}
    for event in ({"type": "reserve", "player": 0, "card": "D1-01"}, {"type": "reserve", "player": 1, "card": "D1-02"},
                  {"type": "reserve", "player": 0, "card": "D1-03"},
                  # (Ana's two golds back on the board: the third reserve takes one)
                  {"type": "correction", "player": 0, "set": {"tokens": {**empty, "gold": 0}, "board": {**gems, "gold": 2}}},
                  {"type": "reserve", "player": 1, "card": "D1-04"}, {"type": "reserve", "player": 0, "card": "D1-05"},
                  {"type": "take_tokens", "player": 1, "tokens": {"white": 1}},
                  {"type": "correction", "player": 0,
                   "set": {"board": {**empty, "gold": 0}, "bag": {**gems, "white": 3}}}):
        resp = client.post(f"/api/games/{game['id']}/events", json=event)
        assert resp.status_code == 200, (event, resp.get_json())
    state = resp.get_json()
    assert state["current_player"] == 0 and len(state["players"][0]["reserved"]) == 3
    body = client.get(f"/games/{game['id']}/sheet/take", headers=HX).get_data(as_text=True)
    assert "Nothing on the board to take: refill it (Privilege · Refill), or buy a card." in body



def test_the_buy_and_reserve_sheets_say_whose_they_are(client):
    """The other phone sees the same sheets: they name the player to act (costs are after that
    player's bonuses)."""
    game = new_game(client, ("Ana", "Ben"), first_player=1)
    buy = client.get(f"/games/{game['id']}/sheet/buy", headers=HX).get_data(as_text=True)
    assert "<h3 class=\"sheet-for\">Ben buys: costs after Ben's bonuses</h3>" in buy
    reserve = client.get(f"/games/{game['id']}/sheet/reserve", headers=HX).get_data(as_text=True)
    assert '<h3 class="sheet-for">Ben reserves a card</h3>' in reserve


def test_the_home_page_offers_the_other_language_where_a_first_visit_looks(client):
    import flask_babel

    page = client.get("/").get_data(as_text=True)
    assert re.search(r'id="home-lang" lang="ko" href="/settings\?lang=ko&amp;next=/">한국어</a>', page)
    switched = client.get("/settings?lang=ko&next=/")
    assert switched.status_code in (302, 303) and switched.headers["Location"].endswith("/")
    flask_babel.refresh()
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'id="home-lang" lang="en" href="/settings\?lang=en&amp;next=/">English</a>', page)


def test_an_undo_that_lost_to_the_other_phone_s_entry_names_that_entry(client):
    """Phone A asks to undo Ana's take while phone B records Ben's move: A's undo is refused and
    says what B recorded, so A knows the entry now last is Ben's, not the one it meant."""
    game = new_game(client, ("Ana", "Ben"))
    form_post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}, 0)
    form_post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}, 1, entry_id="b1")
    late = client.post(f"/games/{game['id']}/undo", data={"expected_version": "1"}, headers=HX)
    body = late.get_data(as_text=True)
    assert late.status_code == 409
    assert "Another phone recorded an entry first, so nothing was undone: Ben took 1 blue." in body
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 2


def test_a_card_the_player_cannot_pay_for_says_what_is_missing(client):
    """D-7: the refusal names the shortfall (it gave the cost only, and the table counted)."""
    game = new_game(client)
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"blue": 1, "green": 1}})
    post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"white": 1}})
    sheet = client.get(f"/games/{game['id']}/sheet/buy?src=board&card=D1-01", headers=HX).get_data(as_text=True)
    assert ("Ana cannot pay for this card: it costs 1 blue, 1 green, 1 red, 1 black after bonuses; "
            "Ana is short of 1 red, 1 black.") in sheet
    post(client, game["id"], {"type": "reserve", "player": 0, "card": "D1-02"})  # and a gold
    post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"white": 1}})
    sheet = client.get(f"/games/{game['id']}/sheet/buy?src=board&card=D1-01", headers=HX).get_data(as_text=True)
    assert "Ana is short of 1 red, 1 black, with only 1 gold to stand in." in sheet


def test_a_catalogue_card_is_named_for_a_screen_reader(client):
    """A card in the Buy grid was read as "W ♛ D1-04 blue 3": its colour, crowns, ability and
    cost are said in words, and its catalogue id (no printed card has one) is not said."""
    game = new_game(client)
    sheet = client.get(f"/games/{game['id']}/sheet/buy", headers=HX).get_data(as_text=True)
    assert 'aria-label="white card, 1 crown, costs blue 3"' in sheet
    assert 'aria-label="white card, take a token, costs red 2, black 2"' in sheet
    # a card of 2 bonuses, drawn "WW", says so (a tester)
    level2 = client.get(f"/games/{game['id']}/sheet/buy?src=2", headers=HX).get_data(as_text=True)
    assert re.search(r'aria-label="white card, 2 bonuses, 1 prestige, costs [^"]*"', level2), level2[:300]


def test_the_fix_sheet_s_counts_are_named_in_words(client):
    game = new_game(client)
    sheet = client.get(f"/games/{game['id']}/sheet/correction", headers=HX).get_data(as_text=True)
    assert 'name="tokens-blue" value="0" aria-label="Ana: blue"' in sheet
    assert 'name="board-black" value="4" aria-label="board: black"' in sheet


def test_the_gold_swap_links_are_named_in_words(client):
    """A screen reader read the payment's gold links as "★ for U": they say what they do."""
    game = new_game(client)
    board = client.get(f"/api/games/{game['id']}").get_json()["board"]
    fix = {"type": "correction", "player": 0,
           "set": {"tokens": {"blue": 3, "gold": 1}, "board": {**board, "blue": board["blue"] - 3, "gold": board["gold"] - 1}}}
    assert post(client, game["id"], fix).status_code == 200
    sheet = client.get(f"/games/{game['id']}/sheet/buy?src=1&card=D1-04", headers=HX).get_data(as_text=True)
    assert 'data-gold-for="blue"' in sheet and 'aria-label="pay a gold in place of blue"' in sheet
    assert '★ for U</a>' in sheet
    # Korean: "파 대신 골드(금)" (a pay of gold for blue; "금 → 파" read as turning gold into blue;
    # "파 대신 금" named gold otherwise than the rest of the sheet, 골드 with its chip letter)
    import flask_babel
    flask_babel.refresh()
    sheet = client.get(f"/games/{game['id']}/sheet/buy?src=1&card=D1-04",
                       headers={**HX, "Accept-Language": "ko"}).get_data(as_text=True)
    assert '파 대신 골드(금)</a>' in sheet and "골드(금)로 대신 낸 토큰:" not in sheet


def test_a_card_bought_with_bonuses_alone_reads_for_free_in_the_log(client):
    """A card the bonuses pay whole: "… for free" ("· 무료", as the Buy sheet says), not
    "paying nothing" ("지불: 없음", a Korean tester: two words for one thing on one screen)."""
    import flask_babel

    log = fixture_log("duel-1012.json")
    log["events"] = log["events"][:51]
    log["result"] = None
    game = import_log(client, log)
    page = client.get(f"/games/{game['id']}/log").get_data(as_text=True)
    assert re.search(r"bought a level-\d [^<]*for free", page) and "paying nothing" not in page
    flask_babel.refresh()
    page = client.get(f"/games/{game['id']}/log", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert "· 무료" in page and "지불: 없음" not in page


def test_a_save_sent_again_after_its_entry_was_undone_or_followed_says_so(client):
    """A tester re-sent Vic's saved take (as app.js does after a lost answer) once it was undone:
    200 and the toast "✓ Uma took 1 blue, 1 green, 1 red.", another player's move, with nothing
    said of Vic's. Now: said that it was recorded then undone, nothing recorded, no ✓."""
    gid = new_game(client, ("Uma", "Vic"))["id"]
    uma = {"type": "take_tokens", "player": 0, "tokens": {"blue": 1, "green": 1, "red": 1}}
    vic = {"type": "take_tokens", "player": 1, "tokens": {"white": 1}}
    assert form_post(client, gid, uma, 0, entry_id="u1").status_code == 200
    assert form_post(client, gid, vic, 1, entry_id="v1").status_code == 200
    again = form_post(client, gid, vic, 1, entry_id="v1")  # the answer was lost: sent again, still last
    assert again.status_code == 200 and "✓ Vic took 1 white." in again.get_data(as_text=True)
    assert client.post(f"/games/{gid}/undo", data={"expected_version": "2"}, headers=HX).status_code == 200
    again = form_post(client, gid, vic, 1, entry_id="v1")
    body = again.get_data(as_text=True)
    assert again.status_code == 200 and "This entry was already recorded, then undone: nothing was recorded now." in body
    assert "✓ Uma took" not in body and "tracker:alerts" not in again.headers.get("HX-Trigger", "")
    state = client.get(f"/api/games/{gid}").get_json()
    assert state["version"] == 3 and state["players"][1]["tokens"]["white"] == 0
    # an entry others followed: said as such, not the last one's toast
    assert form_post(client, gid, vic, 3, entry_id="v2").status_code == 200
    assert form_post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"black": 1}}, 4, entry_id="u2").status_code == 200
    body = form_post(client, gid, vic, 3, entry_id="v2").get_data(as_text=True)
    assert "This entry was already recorded: nothing was recorded again." in body and "✓ Uma took" not in body
    # and what the other phone entered since, which this one missed while its answer was lost
    assert "The latest entry since: Uma took 1 black." in body
    # without JavaScript: the game page says it once
    resp = form_post(client, gid, vic, 1, htmx=False, entry_id="v1")
    assert resp.status_code == 303 and "done=" not in resp.headers["Location"]
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert "This entry was already recorded, then undone" in page and "✓" not in page.split('id="alerts"')[1][:400]
    assert client.get(f"/api/games/{gid}").get_json()["version"] == 5


def test_a_write_address_opened_as_a_page_leads_to_the_game(client):
    """Without JavaScript a refused save leaves the browser on …/events; reopening the tab was a
    405 "cannot be opened that way" (a tester)."""
    gid = new_game(client)["id"]
    for path in ("events", "undo"):
        resp = client.get(f"/games/{gid}/{path}")
        assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{gid}", path
    assert client.get("/games/no-such-game-0000000000000/events").status_code == 404


def test_an_address_forms_post_to_opened_as_a_page_leads_to_the_page_of_its_form(client):
    """A refused rename, merge or import draws its page at the form's address (``…/rename``):
    reloading or reopening that tab was a 405 "cannot be opened that way" (a tester)."""
    game = new_game(client)
    ana = client.get("/players").get_data(as_text=True)
    ana = int(re.search(r'href="/players/(\d+)">Ana<', ana).group(1))
    for path, page in ((f"/players/{ana}/rename", f"/players/{ana}"), (f"/players/{ana}/forget-name", f"/players/{ana}"),
                       (f"/players/{ana}/merge", f"/players/{ana}"), ("/history/import", "/history#transfer"),
                       (f"/history/{game['id']}/restore", "/history"), ("/join", "/#join"), ("/games", "/")):
        resp = client.get(path)
        assert resp.status_code == 303 and resp.headers["Location"] == page, path
        assert client.head(path).status_code == 303, path
    # another method, or an address of no form, stays a 405 with its Allow
    assert client.put(f"/players/{ana}/rename").status_code == 405
    wrong = client.post("/history")
    assert wrong.status_code == 405 and "GET" in wrong.headers["Allow"]


def test_a_finished_game_opens_no_sheet(client):
    """A sheet's address on a game over offered "Take 3" (refused only at the save)."""
    game = import_log(client, fixture_log("duel-1102.json"))
    gid = game["id"]
    resp = client.get(f"/games/{gid}/sheet/take?t=red&t=blue&t=green", headers=HX)
    body = resp.get_data(as_text=True)
    assert resp.status_code == 200 and resp.headers["HX-Retarget"] == "#game"
    assert 'data-type="take_tokens"' not in body and 'id="show-result"' in body
    plain = client.get(f"/games/{gid}/sheet/take?t=red")
    assert plain.status_code == 303 and plain.headers["Location"] == f"/games/{gid}"


def test_the_royal_cards_left_say_their_points_in_words(client):
    """"남은 로열 카드 3 | 2 한 턴 더": the bare 3 read as three cards left (two testers)."""
    import flask_babel

    gid = new_game(client)["id"]
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    # read out whole ("royal card: 3 prestige."), shown short
    assert re.search(r'data-royal-id="DR-1"[^>]*>\s*<span class="visually-hidden">royal card: 3 prestige.</span>'
                     r'<b aria-hidden="true">3 pts</b>', page)
    assert re.search(r'data-royal-id="DR-2"[^>]*>\s*<span class="visually-hidden">royal card: 2 prestige, extra turn.</span>', page)
    flask_babel.refresh()
    page = client.get(f"/games/{gid}", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert re.search(r'data-royal-id="DR-2"[^>]*>\s*<span class="visually-hidden">[^<]+</span><b aria-hidden="true">2점</b> '
                     r'<small aria-hidden="true">한 턴 더</small>', page)


def test_a_meter_reads_out_its_value_of_its_goal(client):
    """An accessibility tester: the meters said "16" or "80 %" and the best colour lost its colour."""
    gid = new_game(client)["id"]
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert re.search(r'role="meter"[^>]*aria-label="prestige"\s+aria-valuetext="0 of 20"', page)
    assert re.search(r'role="meter"[^>]*aria-valuetext="0 of 10"', page)


def test_a_panel_s_short_labels_are_read_out_whole(client):
    """An accessibility tester: "scrolls 1" and "res 0/3" were read out as written ("res" only a
    tooltip, which a screen reader on a phone never reaches): they read "privileges 1" and
    "reserved 0/3"; the short words stay on screen."""
    gid = new_game(client)["id"]
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert re.search(r'<span aria-hidden="true">scrolls</span><span class="visually-hidden">privileges</span> '
                     r'<b data-field="privileges">0</b>', page)
    assert len(re.findall(r'<span aria-hidden="true">res</span><span class="visually-hidden">reserved</span> '
                          r'<b data-field="reserved">0</b>/3', page)) == 2
    made = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben", "Cid"], "first_player": 0,
                                           "nobles": ["N-01", "N-02", "N-03", "N-04"]})
    assert made.status_code == 201, made.get_json()
    page = client.get(f"/games/{made.get_json()['id']}").get_data(as_text=True)
    assert len(re.findall(r'<span aria-hidden="true">res</span><span class="visually-hidden">reserved</span> '
                          r'<b data-field="reserved">0</b>/3', page)) == 3


def test_a_refusal_on_a_sheet_names_its_rule(client):
    """A pick the rules refuse says why in one sentence and which rule (as a refused save does):
    a joker with no coloured bonus owned (D-7)."""
    game = new_game(client)
    sheet = client.get(f"/games/{game['id']}/sheet/buy?src=1&card=D1-26", headers=HX).get_data(as_text=True)
    assert re.search(r'<p class="preview preview-error"[^>]*>[^<]+ <span class="rule" data-rule="D-7">\(buying a card\)</span></p>',
                     sheet), sheet[-1500:]


def test_a_refusal_names_its_rule_as_the_rulebook_does(client):
    """"(D-5)" meant nothing at the table (only RULES.md has ids): a refusal says the rulebook's
    section, in the reader's language, on a sheet and after a refused save; the id is no longer
    shown ("(카드 구매, D-7)": two first-time testers read it as jargon), only kept in data-rule."""
    import flask_babel

    from tracker import narrate

    game = new_game(client)
    gid = game["id"]
    event = {"type": "take_tokens", "player": game["current_player"], "tokens": {"red": 1, "gold": 1}}
    resp = client.post(f"/games/{gid}/events", data={"event": json.dumps(event)}, headers=HX)
    assert resp.status_code == 422
    assert '<span class="rule" data-rule="D-5">(taking tokens)</span>' in resp.get_data(as_text=True)
    flask_babel.refresh()
    sheet = client.get(f"/games/{gid}/sheet/buy?src=1&card=D1-26", headers={**HX, "Accept-Language": "ko"})
    assert '<span class="rule" data-rule="D-7">(규칙: 카드 구매)</span>' in sheet.get_data(as_text=True)
    with client.application.test_request_context():  # ids without a title of their own use their section's
        flask_babel.refresh()
        assert narrate.rule_label("S-2.2") == "taking 2 gems of one colour"
        assert narrate.rule_label("D-3.1") == "privileges"
        assert narrate.rule_label("X-9") == "" and narrate.rule_label(None) == ""


def test_a_duel_panel_labels_its_token_row(client):
    """Two rows of chips in a Duel panel: "bonus" (cards bought) and "tokens" (held), each
    named as classic Splendor's panels are, in the reader's language (a first table asked
    which row was what they hold)."""
    import flask_babel

    game = new_game(client)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    for seat in (0, 1):
        panel = re.search(rf'<section class="panel[^"]*" id="panel-{seat}".*?</section>', page, re.S)[0]
        assert re.search(r'class="bonuses"[^>]*>bonus', panel)
        assert re.search(r'class="tokens" role="group" aria-label="tokens"><span class="label" aria-hidden="true">tokens</span>', panel)
    flask_babel.refresh()
    korean = client.get(f"/games/{game['id']}", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert korean.count('<span class="label" aria-hidden="true">토큰</span>') == 2


def test_the_privilege_sheet_after_a_replenish_speaks_of_privileges_only_to_a_holder(client):
    """D-2 order: a player holding privileges who replenished is told they come first; one who
    holds none was told the same (a tester): "No privilege to use." is what applies to them."""
    log = {k: v for k, v in load_fixture("duel-1012.json").items() if k not in ("expected", "checkpoints", "source")}
    for upto, holder in ((19, False), (24, True)):  # Player B replenished holding none; Player A holding 2
        game = client.post("/api/games/import", json={**log, "id": None, "events": log["events"][:upto],
                                                       "result": None}).get_json()
        assert (game["players"][game["current_player"]]["privileges"] > 0) is holder
        sheet = client.get(f"/games/{game['id']}/sheet/privileges", headers=HX).get_data(as_text=True)
        assert ("privileges come first" in sheet) is holder
        assert ("No privilege to use." in sheet) is not holder


def test_the_buy_sheet_names_whose_reserve_it_shows_on_the_other_player_s_phone(client):
    """One phone each: Ben's phone during Ana's turn labelled Ana's reserve "My reserve" (a tester)."""
    gid = new_game(client, ("Ana", "Ben"))["id"]
    for mine, label in (("Ben", "Ana's reserve"), ("Ana", "My reserve"), ("", "My reserve")):
        client.get(f"/settings?mine={mine}&next=/games/{gid}")
        sheet = client.get(f"/games/{gid}/sheet/buy", headers=HX).get_data(as_text=True)
        assert re.search(r'data-tab="reserve"[^>]*>' + label, sheet), (mine, label)


def test_the_home_page_s_games_say_which_game_each_is(client):
    """A first-time tester: "지호 · 민준" rows could not be told apart, a Duel from a Splendor game."""
    new_game(client, ("Ana", "Ben"))
    client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                    "nobles": ["N-01", "N-02", "N-03"]})
    home = client.get("/").get_data(as_text=True)
    rows = re.findall(r'<span class="names">(.*?)</span>\s*<span class="when">', home, re.S)
    assert len(rows) == 2
    assert sorted(re.search(r'kind-badge kind-(\w+)">([^<]+)<', r).groups() for r in rows) == [
        ("duel", "Duel"), ("splendor", "Splendor")]


def test_the_home_page_s_games_in_progress_say_whose_turn_and_which(client):
    """A café's tester: four "Ana · Ben … resume" rows looked the same. A game in progress says
    whose turn it is and which turn; a finished one who won."""
    first = new_game(client, ("Ana", "Ben"))
    second = new_game(client, ("Ana", "Ben"))
    play(client, second["id"], [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}},
                                {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}},
                                {"type": "take_tokens", "player": 0, "tokens": {"green": 1}}])
    import_log(client, fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-01T19:00:00Z"))
    home = client.get("/").get_data(as_text=True)
    rows = dict(re.findall(r'href="/games/([^"]+)">.*?<span class="when">(.*?)</span>\s*<span class="status">', home, re.S))
    standing = {gid: re.search(r'data-field="standing">([^<]*)<', text) for gid, text in rows.items()}
    assert standing[first["id"]][1] == "Ana's turn · Turn\u00a01"  # (never "Turn" and 1 on two lines)
    assert standing[second["id"]][1] == "Ben's turn · Turn\u00a04"
    assert sum(1 for found in standing.values() if found is None) == 1  # the finished game: who won instead
    assert "Player A won" not in home and "Ana won" in home


def test_without_javascript_a_refused_entry_comes_back_on_its_sheet_with_its_refusal(client):
    """A plain form post refused (a card the buyer cannot pay for, a reserve, two tokens not in a
    line) drew the game's default sheet: the card or tokens chosen were gone. It is drawn again
    on its own sheet, the same card or tokens chosen, with the refusal."""
    import json

    from tracker.rules import catalog

    game = new_game(client)
    dear = next(c for c in catalog.jewels().values() if c.level == 3)
    refused = client.post(f"/games/{game['id']}/events", data={
        "event": json.dumps({"type": "purchase", "player": 0, "card": dear.id, "from_reserve": False, "payment": {}}),
        "expected_version": "0", "entry_id": "nojs-1"})
    body = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert 'data-sheet="buy"' in body and re.search(rf'class="selected-card">\s*<div class="card[^"]*" data-card="{dear.id}"', body)
    assert 'class="error' in body or "preview-error" in body
    secret = client.post(f"/games/{game['id']}/events", data={
        "event": json.dumps({"type": "reserve", "player": 0, "level": 2}), "expected_version": "7", "entry_id": "nojs-2"})
    assert secret.status_code in (409, 422)
    taken = client.post(f"/games/{game['id']}/events", data={
        "event": json.dumps({"type": "take_tokens", "player": 1, "tokens": {"red": 1, "blue": 1}}),
        "expected_version": "0", "entry_id": "nojs-3"})
    text = taken.get_data(as_text=True)
    assert taken.status_code == 422 and 'data-sheet="take"' in text
    assert len(re.findall(r'class="pick-chosen".*?</div>', text, re.S)) == 1
    chosen = re.search(r'class="pick-chosen".*?</div>', text, re.S).group(0)
    assert 'remove red' in chosen and 'remove blue' in chosen
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0
    # nonsense posted: the default sheet, never a 500
    odd = client.post(f"/games/{game['id']}/events", data={
        "event": json.dumps({"type": "purchase", "player": 0, "card": ["x"], "payment": {}}), "expected_version": "0"})
    assert odd.status_code == 422


def test_an_extra_turn_is_not_announced_when_the_turn_ends_in_a_win(client):
    """A tester: Ana's level-3 card brought 20 prestige and her 3rd crown; the royal card she
    took gives an extra turn (DR-2), and she has tokens to return (D-10). The turn line said
    "plays again after this turn", but the turn ends in her win (D-11): no extra turn is said."""
    log = load_fixture("win-waits-for-discard.json")
    state = import_log(client, log)
    assert state["pending"]["kind"] == "discard" and state["winner"] is None
    html = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert 'data-sheet="discard"' in html
    assert "plays again after this turn" not in html
    # the same prompt after a joker of no points (19 prestige, no route): the extra turn is said
    joker = {"type": "purchase", "player": 0, "card": "D2-22", "from_reserve": False,
             "payment": {"green": 4, "gold": 2, "pearl": 1}, "wild_color": "blue"}
    other = import_log(client, {**log, "events": log["events"][:-2] + [joker, log["events"][-1]]})
    assert other["pending"]["kind"] == "discard"
    assert "plays again after this turn" in client.get(f"/games/{other['id']}").get_data(as_text=True)


def test_the_home_page_leads_back_first_to_the_game_this_phone_was_on(client):
    """The phone's Back from a game (or the browser opened again) lands on the home page: the game
    in progress this phone last opened is offered first, above "New game" (it sat in the list at
    the bottom, among the others'); a finished or deleted one is not, nor is a game seen by poll."""
    game = new_game(client, ("Emma", "Jihun"))
    assert 'id="current-game"' not in client.get("/").get_data(as_text=True)
    resp = client.get(f"/games/{game['id']}")
    assert "last_game=" + game["id"] in resp.headers.get("Set-Cookie", "")
    home = client.get("/").get_data(as_text=True)
    assert f'id="current-game-link" href="/games/{game["id"]}">' in home
    assert home.index('id="current-game"') < home.index("New game")
    other = new_game(client, ("Ola", "Per"))
    assert "Set-Cookie" not in client.get(f"/games/{other['id']}", headers=HX).headers  # an htmx answer sets none
    assert f'href="/games/{game["id"]}">' in client.get("/").get_data(as_text=True).split('id="current-game"')[1][:200]
    assert client.post(f"/history/{game['id']}/delete").status_code == 303
    assert 'id="current-game"' not in client.get("/").get_data(as_text=True)
    finished = client.post("/api/games/import", json=load_fixture("duel-1012.json")).get_json()
    client.get(f"/games/{finished['id']}")
    assert 'id="current-game"' not in client.get("/").get_data(as_text=True)


def test_the_fix_preview_of_a_deleted_game_says_it_was_deleted(client):
    """A tester's Fix form left open while the game was deleted elsewhere previewed "Saving will
    record…", then the save was refused: the preview says what the save will."""
    game = new_game(client)
    assert client.post(f"/history/{game['id']}/delete").status_code in (302, 303)
    said = client.get(f"/games/{game['id']}/fix-preview", headers=HX, query_string={
        "type": "correction", "player": "1", "privileges": "2", "orig-privileges": "1"}).get_data(as_text=True)
    assert "This game was deleted. Restore it from the history to record in it again." in said
    assert "Saving will record" not in said and "data-fix" not in said


def test_a_token_given_to_the_wrong_player_is_fixed_in_two_guided_fixes(client):
    """A tester: Ana shows 1 blue and Ben 1, at the table Ana holds 2 and Ben none (the token went
    to Ben by mistake). Ana's 2 was refused with only "board 2 → 1" to offer, a board change the
    table did not have. One fix is one player's (GAME-LOG.md): the refusal offers to fix Ben
    first, his blue going back to the board, the note kept; then Ana's from the board."""
    game = new_game(client)
    gid = game["id"]
    play(client, gid, [{"type": "take_tokens", "player": 0, "tokens": {"blue": 1}},
                       {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}])
    sheet = client.get(f"/games/{gid}/sheet/correction?p=0", headers=HX).get_data(as_text=True)
    form = dict(re.findall(r'name="((?:orig-)?(?:tokens|board|bag)-\w+|player|type)" value="([^"]*)"', sheet))
    assert (form["tokens-blue"], form["board-blue"]) == ("1", "2")
    refused = client.get(f"/games/{gid}/fix-preview", headers=HX,
                         query_string={**form, "tokens-blue": "2", "note": "Ben's steal was Ana's"}).get_data(as_text=True)
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", refused))
    assert ("Did Ben get the blue token by mistake? Fix Ben first: it goes back to the board; then this player, "
            "from the board.") in said
    import html

    link = html.unescape(re.search(r'class="fix-transfer".*?hx-get="([^"]+)"', refused, re.S)[1])
    ben_sheet = client.get(link, headers=HX).get_data(as_text=True)
    typed = dict(re.findall(r'name="((?:orig-)?(?:tokens|board)-blue|note)" (?:maxlength="500" )?value="([^"]*)"', ben_sheet))
    assert typed == {"tokens-blue": "0", "orig-tokens-blue": "1", "board-blue": "3", "orig-board-blue": "2",
                     "note": "Ben&#39;s steal was Ana&#39;s"}
    assert 'name="player" value="1"' in ben_sheet and "delay:300ms, load" in ben_sheet  # its preview at once
    # the two fixes, as suggested, leave the table as it is: Ana 2, Ben 0, the board 2
    play(client, gid, [{"type": "correction", "player": 1, "set": {"tokens": {"blue": 0}, "board": {**game["board"], "blue": 3}}},
                       {"type": "correction", "player": 0, "set": {"tokens": {"blue": 2}, "board": {**game["board"], "blue": 2}}}])
    state = client.get(f"/api/games/{gid}").get_json()
    assert [p["tokens"]["blue"] for p in state["players"]] == [2, 0] and state["board"]["blue"] == 2


def test_switching_player_in_the_fix_sheet_keeps_the_board_bag_and_note_typed(client):
    """A tester typed the board's white, Ben's white and a note, tapped Ana then Ben: all gone.
    The board, bag and note come along (the player's own counts are that player's)."""
    game = new_game(client)
    sheet = client.get(f"/games/{game['id']}/sheet/correction?p=1", headers=HX).get_data(as_text=True)
    link = re.search(r'data-seat="0"[^>]*hx-include="([^"]+)"', sheet)
    assert link and "[name^='board-']" in link[1] and "[name='note']" in link[1]
    ana = client.get(f"/games/{game['id']}/sheet/correction?p=0&board-white=5&bag-white=0&note=floor",
                     headers=HX).get_data(as_text=True)
    assert 'name="board-white" value="5"' in ana and 'name="orig-board-white" value="4"' in ana
    assert 'value="floor"' in ana and 'name="tokens-white" value="0"' in ana
    privileged = client.get(f"/games/{game['id']}/sheet/correction?p=0&privileges=2", headers=HX).get_data(as_text=True)
    assert 'name="privileges" value="2"' in privileged and 'name="orig-privileges" value="0"' in privileged
    odd = client.get(f"/games/{game['id']}/sheet/correction?p=0&board-white=x&board-red=-1&board-blue=100&privileges=7",
                     headers=HX).get_data(as_text=True)  # what is no count is left as the table has it
    assert all(f'name="board-{k}" value="4"' in odd for k in ("white", "red", "blue")) and "load" not in odd.split('id="fix-preview"')[1][:400]
    assert 'name="privileges" value="0"' in odd


def test_a_privilege_gained_under_a_discard_is_told_once_the_discard_is_made(client):
    """A table-mode tester: Omar, at 8 tokens, took 3 green: Tara gains a privilege (D-5), and
    Omar owes a discard (D-10). The discard prompt hid the alert, and the discard's own toast
    replaced it: Tara's scroll count changed unsaid. The discard's answer tells it."""
    game = new_game(client, ("Tara", "Omar"))
    gid = game["id"]
    board = dict(game["board"])
    for kind in ("white", "blue", "black"):
        board[kind] -= 2
    board["pearl"] -= 2
    fix = {"type": "correction", "player": 0, "set": {"tokens": {"white": 2, "blue": 2, "black": 2, "pearl": 2},
                                                       "board": board}}
    state = play(client, gid, [fix])
    take = {"type": "take_tokens", "player": 0, "tokens": {"green": 3}}
    took = form_post(client, gid, take, state["version"])
    assert took.status_code == 200  # (under the prompt) raised by the second entry, marked with its checksum
    at = re.search(r'data-kind="privilege_given" data-player="1" data-at="(2\.[0-9a-f]{8})">', took.get_data(as_text=True))
    assert at
    discard = {"type": "discard", "player": 0, "tokens": {"pearl": 1}}
    answered = form_post(client, gid, discard, state["version"] + 1, entry_id="f2").get_data(as_text=True)
    # told again, marked as raised by the second entry (a phone that showed it then drops it: app.js)
    alert = re.search(r'<p class="alert alert-privilege_given" data-kind="privilege_given" data-player="1" data-at="([^"]+)" '
                      r'data-earlier>([^<]+)</p>', answered)
    assert alert and alert[1] == at[1] and alert[2] == "Omar gains a privilege from Tara&#39;s move."
    after = client.get(f"/api/games/{gid}").get_json()
    assert after["players"][1]["privileges"] == 2 and after["current_player"] == 1  # (1 from the setup, D-1)
    assert [a["kind"] for a in after["alerts"]] == []  # the API keeps to what the discard itself raised
    # undone twice, and another take of 3 in its place (3 red): the same sentence, another entry (a
    # phone away meanwhile that showed the first must still show this one: a tester)
    for _ in range(2):
        assert client.post(f"/api/games/{gid}/undo", json={}).status_code == 200
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    again = form_post(client, gid, {**take, "tokens": {"red": 3}}, version, entry_id="f3").get_data(as_text=True)
    redo = re.search(r'data-kind="privilege_given" data-player="1" data-at="(2\.[0-9a-f]{8})">', again)
    assert redo and redo[1] != at[1]


def test_the_fix_sheet_names_what_its_player_links_choose(client):
    """The Fix sheet's "Ana" and "Ben" links read as names alone (an accessibility tester): they
    are a group, "Whose tokens to fix", the one shown marked current."""
    game = new_game(client, ("Ana", "Ben"))
    sheet = client.get(f"/games/{game['id']}/sheet/correction?p=1", headers=HX).get_data(as_text=True)
    group = sheet[sheet.index('<div class="choice-row" role="group" aria-label="Whose tokens to fix">'):].split("</div>")[0]
    assert re.findall(r'data-seat="(\d)"(?: aria-current="true")?', group) == ["0", "1"]
    assert 'data-seat="1" aria-current="true"' in group and 'data-seat="0" aria-current' not in group


def test_the_privilege_sheet_offers_no_replenish_while_tokens_are_picked_for_privileges(client):
    """A tester picked a token for a privilege, then tapped "Replenish" under it: the refill was
    recorded alone and the token dropped unsaid. D-3.1: privileges come first, so while tokens
    are picked the replenish gives way to a line saying so; put down, it is back."""
    log = {k: v for k, v in load_fixture("duel-1012.json").items() if k not in ("expected", "checkpoints", "source")}
    game = client.post("/api/games/import", json={**log, "id": None, "events": log["events"][:23], "result": None}).get_json()
    assert game["players"][game["current_player"]]["privileges"] == 2 and sum(game["bag"].values()) > 0
    gid = game["id"]
    picked = html.unescape(client.get(f"/games/{gid}/sheet/privileges?t=blue", headers=HX).get_data(as_text=True))
    assert "Use the privileges picked first, then replenish (or put their tokens down)" in picked
    assert '"type": "use_privileges"' in picked and '"type": "replenish"' not in picked
    none_picked = html.unescape(client.get(f"/games/{gid}/sheet/privileges", headers=HX).get_data(as_text=True))
    assert '"type": "replenish"' in none_picked and "picked first" not in none_picked


def _notice(resp) -> str:
    return html.unescape(re.search(r'<p class="alert alert-notice">([^<]*)</p>', resp.get_data(as_text=True))[1])


def test_a_save_that_lost_the_race_to_several_writes_is_told_each_of_them(client):
    """Testers, one phone each: Ana's phone entered Ben's 1 black for him ("Enter it here"), then
    her own 1 green; Ben's save of 1 black was refused naming only "Ana took 1 green", and he made
    his turn again: recorded twice. An undo or an undo and an entry before it left out the
    privileges they moved back. The refusal names every entry since the screen (up to 3), each
    entry undone, or how many of each, and the privileges as they now are."""
    gid = new_game(client, ("Ana", "Ben"))["id"]
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})  # v1: Ben's screen
    post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"black": 1}})
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"green": 1}})
    resp = form_post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"black": 1}}, 1, entry_id="b1")
    assert resp.status_code == 409
    assert _notice(resp).startswith("Not recorded, because another phone recorded 2 entries first: Ben took 1 black. "
                                    "Ana took 1 green. The screen is up to date")
    # an undo of a privilege-giving take: the privilege it moved back is said
    gid = new_game(client, ("Ana", "Ben"))["id"]
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})  # v1: Ben 2 privileges
    client.post(f"/api/games/{gid}/undo", json={})
    resp = form_post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"black": 1}}, 1, entry_id="b2")
    assert resp.status_code == 409 and _notice(resp).endswith("Privileges now: Ana 0, Ben 1.")
    assert "Undone: Ana took 3 red." in _notice(resp)
    # the undo and a new entry before the save: how many of each, and the privileges
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})  # v3: Ben 2 again
    client.post(f"/api/games/{gid}/undo", json={})
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"blue": 1}})
    resp = form_post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"black": 1}}, 3, entry_id="b3")
    assert resp.status_code == 409
    assert _notice(resp) == ("Not recorded, because the game changed on another phone first. Since this screen, "
                             "undone: Ana took 3 red. Entered: Ana took 1 blue. The screen is up to date; check and "
                             "try again. Privileges now: Ana 0, Ben 1.")
    # an entry and its undo: told as the undo, naming the entry taken back
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"red": 1}})
    client.post(f"/api/games/{gid}/undo", json={})
    resp = form_post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"black": 1}}, version, entry_id="b5")
    assert resp.status_code == 409 and _notice(resp).startswith(
        "Another phone undid an entry first, so this was not recorded. Undone: Ben took 1 red.")
    # two undos: each entry named
    post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"white": 1}})
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    for _ in range(2):
        client.post(f"/api/games/{gid}/undo", json={})
    resp = form_post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"black": 1}}, version, entry_id="b4")
    assert resp.status_code == 409
    assert _notice(resp).startswith("Another phone undid 2 entries first, so this was not recorded. Undone: "
                                    "Ana took 1 blue. Ben took 1 white.")


def test_many_writes_before_a_save_or_an_undo_are_told_whole(client):
    """A second tester's cases: four entries named as three ("recorded 4 entries first" and his own
    turn left out); four undos told as "undid an entry"; a refused undo that hid a second undo;
    entries made and undone again told as "entries undone 2, entered 2"; an undone privilege-giving
    take replaced by another and an entry after it: no count moved, no count said."""
    take = lambda seat, kind, n=1: {"type": "take_tokens", "player": seat, "tokens": {kind: n}}  # noqa: E731
    gid = new_game(client, ("Ana", "Ben"))["id"]
    post(client, gid, take(0, "red"))  # v1: the stale screen
    for event in (take(1, "black"), take(0, "white"), take(1, "green"), take(0, "blue")):
        post(client, gid, event)
    resp = form_post(client, gid, take(1, "black"), 1, entry_id="m1")
    assert resp.status_code == 409 and _notice(resp).startswith(
        "Not recorded, because another phone recorded 4 entries first: 1 earlier one, then: Ana took 1 white. "
        "Ben took 1 green. Ana took 1 blue.")
    for _ in range(4):
        client.post(f"/api/games/{gid}/undo", json={})
    resp = form_post(client, gid, take(1, "black"), 5, entry_id="m2")
    assert resp.status_code == 409 and _notice(resp).startswith(
        "Another phone undid 4 entries first, so this was not recorded. Undone: 1 earlier one, then: "
        "Ana took 1 white. Ben took 1 green. Ana took 1 blue.")
    # an undo refused after two: both named
    post(client, gid, take(1, "black"))
    post(client, gid, take(0, "white"))
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    for _ in range(2):
        client.post(f"/api/games/{gid}/undo", json={})
    resp = client.post(f"/games/{gid}/undo", data={"expected_version": str(version)}, headers=HX)
    assert resp.status_code == 409 and _notice(resp).startswith(
        "Another phone undid 2 entries first, so nothing more was undone. Undone: Ben took 1 black. Ana took 1 white.")
    # two entries made and undone again: nothing changed, and said so
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    post(client, gid, take(1, "black"))
    post(client, gid, take(0, "white"))
    for _ in range(2):
        client.post(f"/api/games/{gid}/undo", json={})
    polled = client.get(f"/games/{gid}/poll?v={version}&n=1", headers=HX).get_data(as_text=True)
    assert "Since this screen, entries were recorded and undone again: the game is as this screen showed it." in polled
    # Ana's 3 white undone, 2 pearls taken instead, Ben's turn entered after: Ben's 2 privileges said as they are
    post(client, gid, take(1, "white", 3))  # Ana: 1 privilege
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    client.post(f"/api/games/{gid}/undo", json={})
    post(client, gid, take(1, "pearl", 2))  # Ana: 1 again
    post(client, gid, take(0, "green"))
    polled = client.get(f"/games/{gid}/poll?v={version}&n=2", headers=HX).get_data(as_text=True)
    notice = html.unescape(re.search(r'<p class="alert alert-notice">([^<]*)</p>', polled)[1])
    assert notice.startswith("Since this screen, undone: Ben took 3 white. Entered: Ben took 2 pearls.")
    assert notice.endswith("Privileges now: Ana 1, Ben 1.")


def test_a_card_of_two_bonuses_says_so_in_the_log_and_the_preview(client):
    """A first-time player: "Ana bought a level-2 black card (1 prestige)" read as a card of one
    bonus (the tile shows two). Said in words, in the entry's sentence and the preview alike."""
    import flask_babel

    from tracker import narrate
    from tracker.rules import catalog

    double = sorted(c for c, card in catalog.jewels().items() if card.bonus == 2)
    single = sorted(c for c, card in catalog.jewels().items() if card.bonus == 1)
    with client.application.test_request_context():
        flask_babel.refresh()
        assert all("2 bonuses" in narrate.card_summary(c) for c in double) and double
        assert not any("bonuses" in narrate.card_summary(c) for c in single)
        card = catalog.jewels()[double[0]]
        assert narrate.card_summary(double[0]).startswith(f"a level-{card.level} ") and "(2 bonuses, " in narrate.card_summary(double[0])
    with client.application.test_request_context(headers={"Accept-Language": "ko"}):
        flask_babel.refresh()
        assert "보너스 2개" in narrate.card_summary(double[0])
