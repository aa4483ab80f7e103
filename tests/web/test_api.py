"""The JSON API of GAME-LOG.md: every endpoint, every Duel error code, idempotence and versions."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import text
from helpers import load_fixture, new_game, play, post

from tracker.rules.duel import TOKEN_TOTALS
from tracker.rules.tokens import Tokens

TOTALS = TOKEN_TOTALS.to_dict()


def give(client, game_id: str, seat: int, tokens: dict, other: dict | None = None) -> dict:
    """Corrections: ``seat`` holds exactly ``tokens`` (and the opponent ``other``, if given);
    the bag is emptied and the board holds the rest (D-12 totals kept)."""
    state = client.get(f"/api/games/{game_id}").get_json()
    held = [Tokens.of(p["tokens"]) for p in state["players"]]
    if other is not None:
        held[1 - seat] = Tokens.of(other)
        board = TOKEN_TOTALS - held[1 - seat] - Tokens.of(state["players"][seat]["tokens"])
        _fix(client, game_id, 1 - seat, {"tokens": held[1 - seat].to_dict(), "board": board.to_dict(), "bag": {}})
    held[seat] = Tokens.of(tokens)
    board = TOKEN_TOTALS - held[0] - held[1]
    assert board.is_valid()
    return _fix(client, game_id, seat, {"tokens": held[seat].to_dict(), "board": board.to_dict(), "bag": {}})


def _fix(client, game_id: str, seat: int, counts: dict) -> dict:
    """A correction of ``seat`` to ``counts``; the state after it (the state as it was when the
    game already holds those counts: such a fix is refused, nothing to correct)."""
    resp = post(client, game_id, {"type": "correction", "player": seat, "set": counts})
    if resp.status_code == 422 and resp.get_json()["error"]["message"].startswith("Nothing to correct: the game"):
        return client.get(f"/api/games/{game_id}").get_json()
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def imported(client, name: str, upto: int | None = None) -> dict:
    """Import a fixture game, whole (with its result) or its first ``upto`` events (active)."""
    log = load_fixture(name)
    log = {k: v for k, v in log.items() if k not in ("expected", "checkpoints", "source")}
    if upto is not None:
        log["events"] = log["events"][:upto]
        log["result"] = None
    resp = client.post("/api/games/import", json=log)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def error_of(resp, status: int = 422) -> str:
    assert resp.status_code == status, resp.get_json()
    err = resp.get_json()["error"]
    assert err["message"], err
    return err["code"]


# ------------------------------------------------------------------------------- endpoints


def test_creating_a_game_answers_201_with_the_setup_state(client):
    state = new_game(client, ("Ana", "Ben"), first_player=1)
    assert state["game"] == "duel" and state["status"] == "active" and state["version"] == 0
    assert state["current_player"] == 1 and state["turn"] == 1
    assert [p["privileges"] for p in state["players"]] == [1, 0]
    assert state["privileges_supply"] == 2
    assert state["board"] == TOTALS and sum(state["bag"].values()) == 0
    assert len(state["id"]) >= 22  # >= 128 random bits, URL-safe


def test_game_ids_are_distinct_and_url_safe(client):
    ids = {new_game(client)["id"] for _ in range(5)}
    assert len(ids) == 5
    assert all(all(c.isalnum() or c in "-_" for c in i) for i in ids)


def test_listing_games_shows_players_status_and_winner(client):
    active = new_game(client, ("Cho", "Dan"))
    finished = imported(client, "duel-1069.json")
    games = {g["id"]: g for g in client.get("/api/games").get_json()}
    assert games[active["id"]]["players"] == ["Cho", "Dan"] and games[active["id"]]["status"] == "active"
    assert games[finished["id"]]["status"] == "finished"
    assert games[finished["id"]]["winner"] == {"player": 0, "routes": ["crowns"]}
    assert games[finished["id"]]["finished"] is None  # its log does not say when it ended: not "now"


def test_getting_a_state_and_an_unknown_game(client):
    game = new_game(client)
    assert client.get(f"/api/games/{game['id']}").get_json()["players"][0]["name"] == "Ana"
    assert error_of(client.get("/api/games/nope"), 404) == "not_found"
    assert error_of(post(client, "nope", {"type": "replenish", "player": 0}), 404) == "not_found"


def test_posting_an_event_raises_the_version_and_returns_alerts(client):
    game = new_game(client)
    resp = post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})
    state = resp.get_json()
    assert resp.status_code == 200 and state["version"] == 1
    assert state["players"][0]["tokens"]["red"] == 3 and state["board"]["red"] == 1
    assert state["players"][1]["privileges"] == 2 and state["privileges_supply"] == 1
    assert [a["kind"] for a in state["alerts"]] == ["privilege_given"]
    assert state["current_player"] == 1 and state["turn"] == 2


def test_a_refused_event_answers_422_and_stores_nothing(client):
    game = new_game(client)
    resp = post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 2, "blue": 2}})
    body = resp.get_json()["error"]
    assert resp.status_code == 422
    assert body == {"code": "too_many_tokens", "message": body["message"], "rule": "D-5"}
    after = client.get(f"/api/games/{game['id']}").get_json()
    assert after["version"] == 0 and after["board"] == TOTALS
    assert client.get(f"/api/games/{game['id']}/log").get_json()["events"] == []


def test_a_body_that_is_not_json_answers_400(client):
    game = new_game(client)
    resp = client.post(f"/api/games/{game['id']}/events", data="take 3", content_type="text/plain")
    assert error_of(resp, 400) == "bad_json"
    assert error_of(client.post("/api/games", data="{oops", content_type="application/json"), 400) == "bad_json"


def test_a_number_too_long_for_python_is_json_and_refused_as_a_bad_field(client):
    """A 5,000-digit integer is JSON (GAME-LOG.md: 400 is for a body that is not JSON at all):
    the field is refused as out of range (422 bad_event) and nothing is stored."""
    game = new_game(client)
    body = '{"type": "take_tokens", "player": ' + "9" * 5000 + ', "tokens": {"red": 1}}'
    resp = client.post(f"/api/games/{game['id']}/events", data=body, content_type="application/json")
    assert error_of(resp) == "bad_event"
    body = '{"type": "take_tokens", "player": 0, "tokens": {"red": -' + "1" * 5000 + '}}'
    assert error_of(client.post(f"/api/games/{game['id']}/events", data=body, content_type="application/json")) == "bad_event"
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


def test_json_naming_a_member_twice_is_refused_as_that_endpoint_s_malformed_body(client):
    """``{"red": 1, "red": 3}`` is JSON (RFC 8259 leaves which one counts to the reader): refused
    with the endpoint's malformed-body code and the name given twice; nothing is stored."""
    game = new_game(client)
    body = '{"type": "take_tokens", "player": 0, "tokens": {"red": 1, "red": 3}}'
    resp = client.post(f"/api/games/{game['id']}/events", data=body, content_type="application/json")
    assert error_of(resp) == "bad_event" and '"red" twice' in resp.get_json()["error"]["message"]
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0
    resp = client.post("/api/games", data='{"game": "duel", "players": ["Ana", "Ben"], "first_player": 0, '
                                          '"first_player": 1}', content_type="application/json")
    assert error_of(resp) == "bad_setup" and '"first_player" twice' in resp.get_json()["error"]["message"]
    log = json.dumps(load_fixture("duel-1012.json"))
    resp = client.post("/api/games/import", data=log[:-1] + ', "result": null}', content_type="application/json")
    assert error_of(resp) == "bad_log" and '"result" twice' in resp.get_json()["error"]["message"]
    resp = client.post(f"/api/games/{game['id']}/undo", data='{"expected_version": 0, "expected_version": 0}',
                       content_type="application/json")
    assert error_of(resp) == "bad_event"
    assert len(client.get("/api/games").get_json()) == 1
    # the same member name in two objects is no repeat
    resp = client.post(f"/api/games/{game['id']}/events", data=body.replace('"red": 3', '"blue": 1'),
                       content_type="application/json")
    assert resp.status_code == 200 and resp.get_json()["version"] == 1


def test_an_import_id_this_app_never_gives_imports_the_game_under_its_own_id(client):
    """GAME-LOG.md sets no form for a log's ``id``: one this app never gives (short, another
    tool's, a trailing newline, which once made a game nobody could open) is imported as an
    id-less log is, under a new id, and found again by its content; an id that is not text is
    a malformed log."""
    log = {k: v for k, v in load_fixture("duel-1069.json").items() if k not in ("expected", "checkpoints", "source")}
    for foreign in ("ex-duel-1069", "nleu9F-sxDmtEcpU-fcVhhZn\n", "한 판"):
        resp = client.post("/api/games/import", json={**log, "id": foreign})
        stored = resp.get_json()["id"]
        assert resp.status_code in (200, 201) and stored != foreign and len(stored) >= 22
        assert client.get(f"/api/games/{stored}").get_json()["status"] == "finished"
    ids = [g["id"] for g in client.get("/api/games").get_json()]
    assert len(ids) == 1  # one game: the second and third logs are the first one again
    assert client.post("/api/games/import", json={**log, "id": "ex-duel-1069"}).status_code == 200
    assert error_of(client.post("/api/games/import", json={**log, "id": 1069})) == "bad_log"
    assert len(client.get("/api/games").get_json()) == 1


def test_a_log_id_of_another_tool_is_not_imported_twice(client):
    """GAME-LOG.md: a log whose id is already stored is not imported twice. Another tool's id
    ("custom-1") is kept as a key: a second log under it with other players is refused (it was
    stored as a second game), the same game exported later in it extends it, and the stored
    game keeps an id of ours."""
    log = {k: v for k, v in load_fixture("duel-1069.json").items() if k not in ("expected", "checkpoints", "source")}
    start = {k: v for k, v in log.items() if k != "result"}
    first = client.post("/api/games/import", json={**start, "id": "custom-1", "players": ["Ana", "Ben"], "events": log["events"][:10]})
    assert first.status_code == 201 and first.get_json()["id"] != "custom-1"
    other = client.post("/api/games/import", json={**start, "id": "custom-1", "players": ["Cleo", "Dan"], "events": log["events"][:10]})
    assert other.status_code == 422 and error_of(other) == "bad_log"
    assert "Another game is stored under this log's id (custom-1)" in other.get_json()["error"]["message"]
    assert len(client.get("/api/games").get_json()) == 1
    # the same game, exported later: its entries are added to the game stored
    later = client.post("/api/games/import", json={**log, "id": "custom-1", "players": ["Ana", "Ben"]})
    assert later.status_code == 200 and later.get_json()["id"] == first.get_json()["id"]
    assert later.get_json()["status"] == "finished" and later.get_json()["version"] == len(log["events"])
    # without the id (as the refusal says), the other table's game is a game of its own
    alone = client.post("/api/games/import", json={**start, "players": ["Cleo", "Dan"], "events": log["events"][:10]})
    assert alone.status_code == 201 and len(client.get("/api/games").get_json()) == 2



def test_a_log_id_is_a_text_of_at_most_128_characters_with_nothing_invisible(client):
    """A breaker imported a log whose id was 100,000 characters, or held a NUL that a later
    refusal said back raw: both are ``bad_log`` now, and nothing is stored; 128 characters of
    another tool's id still import."""
    log = {k: v for k, v in load_fixture("duel-1069.json").items() if k not in ("expected", "checkpoints", "source")}
    for bad in ("x" * 129, "ex-\x00", "ex-\u202e1", "ex-\u200b"):
        resp = client.post("/api/games/import", json={**log, "id": bad.encode().decode("unicode_escape")})
        assert error_of(resp) == "bad_log", bad
        assert "at most 128 characters" in resp.get_json()["error"]["message"]
    assert client.get("/api/games").get_json() == []
    resp = client.post("/api/games/import", json={**log, "id": "y" * 128})
    assert resp.status_code == 201 and len(client.get("/api/games").get_json()) == 1


def test_a_foreign_id_first_seen_on_a_game_stored_without_it_becomes_its_key(client):
    """A tester: the log without an id, then with "custom-8" (found by its content: 200), then
    "custom-8" with other players was stored as a new game, and the second file refused after it."""
    log = {k: v for k, v in load_fixture("duel-1012.json").items() if k not in ("expected", "checkpoints", "source")}
    game = client.post("/api/games/import", json={**log, "players": ["Ana", "Bob"]})
    assert game.status_code == 201
    again = client.post("/api/games/import", json={**log, "players": ["Ana", "Bob"], "id": "custom-8"})
    assert again.status_code == 200 and again.get_json()["id"] == game.get_json()["id"]
    other = client.post("/api/games/import", json={**log, "players": ["Zed", "Bob"], "id": "custom-8"})
    assert other.status_code == 422 and error_of(other) == "bad_log"
    assert client.post("/api/games/import", json={**log, "players": ["Ana", "Bob"], "id": "custom-8"}).status_code == 200
    assert len(client.get("/api/games").get_json()) == 1


def test_a_log_event_that_is_no_entry_is_a_malformed_log_and_a_refused_one_a_mismatch(client):
    """GAME-LOG.md: bad_log for a malformed log, import_mismatch for a replay that disagrees."""
    log = {k: v for k, v in load_fixture("duel-1069.json").items() if k not in ("expected", "checkpoints", "source")}
    log.pop("id", None)
    for broken in (None, {"type": "teleport", "player": 0}, {"type": "take_tokens", "player": 0, "tokens": {"ruby": 1}}):
        resp = client.post("/api/games/import", json={**log, "events": [broken] + log["events"][1:]})
        assert error_of(resp) == "bad_log"
        assert "Event 1 of the log is malformed" in resp.get_json()["error"]["message"]
    unknown = {"type": "reserve", "player": log["events"][0]["player"], "card": "D9-99"}
    assert error_of(client.post("/api/games/import", json={**log, "events": [unknown]})) == "bad_log"
    assert error_of(client.post("/api/games/import", json={**log, "result": "won"})) == "bad_log"
    wrong_turn = dict(log["events"][0], player=1 - log["events"][0]["player"])
    resp = client.post("/api/games/import", json={**log, "events": [wrong_turn] + log["events"][1:]})
    assert error_of(resp) == "import_mismatch"


def test_a_correction_that_changes_nothing_is_refused_and_not_recorded(client):
    """An adversarial tester: a fix of the privileges to the count already held was recorded
    (a version and a log line for nothing), in Splendor too during a noble choice."""
    game = new_game(client)  # Ana starts: Ben holds the 1 privilege, both hold no tokens
    for fix in ({"privileges": 0}, {"privileges": 0, "tokens": {}},
                {"board": {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2, "gold": 3}}):
        resp = post(client, game["id"], {"type": "correction", "player": 0, "set": fix})
        assert resp.status_code == 422 and error_of(resp) == "bad_event", fix
        assert resp.get_json()["error"]["message"].startswith("Nothing to correct: the game already has these counts")
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0
    # a part that changes is still recorded, whatever else is given as it was
    resp = post(client, game["id"], {"type": "correction", "player": 1, "set": {"privileges": 2, "tokens": {}}})
    assert resp.status_code == 200 and resp.get_json()["players"][1]["privileges"] == 2
    splendor_game = client.post("/api/games", json={"game": "splendor", "players": ["Mo", "Jo"], "first_player": 0,
                                                    "nobles": ["N-01", "N-02", "N-03"]}).get_json()
    resp = post(client, splendor_game["id"], {"type": "correction", "player": 0, "set": {"tokens": {}}})
    assert error_of(resp) == "bad_event" and resp.get_json()["error"]["rule"] == "S-1"
    # a stored game with such a fix (recorded before) still loads: only new entries are judged
    log = {"format": "splendor-tracker/1", "game": "duel", "players": ["Ana", "Ben"], "first_player": 0,
           "events": [{"type": "correction", "player": 0, "set": {"privileges": 0}}]}
    assert client.post("/api/games/import", json=log).status_code == 201


def test_a_correction_never_fixes_cards(client):
    """GAME-LOG.md: "cards are never corrected (undo instead)": a correction naming cards is
    refused, not half applied."""
    game = new_game(client)
    fix = {"type": "correction", "player": 0, "set": {"privileges": 0, "cards": ["D1-01"]}}
    resp = client.post(f"/api/games/{game['id']}/events", json=fix)
    assert error_of(resp) == "bad_event" and "cards are never corrected" in resp.get_json()["error"]["message"]
    top = {"type": "correction", "player": 0, "privileges": 0, "royals": ["R-1"]}
    assert error_of(client.post(f"/api/games/{game['id']}/events", json=top)) == "bad_event"
    beside = {"type": "correction", "player": 1, "set": {"privileges": 1}, "cards": ["D1-07"]}
    assert error_of(client.post(f"/api/games/{game['id']}/events", json=beside)) == "bad_event"
    for key in ("card", "Cards", "royal", "noble"):
        odd = {"type": "correction", "player": 0, "privileges": 0, key: "D1-07"}
        assert error_of(client.post(f"/api/games/{game['id']}/events", json=odd)) == "bad_event", key
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0
    # a token kind beside the bags is no card: it is told where a count goes
    loose = {"type": "correction", "player": 0, "set": {"privileges": 0, "gold": 1}}
    resp = client.post(f"/api/games/{game['id']}/events", json=loose)
    message = resp.get_json()["error"]["message"]
    assert error_of(resp) == "bad_event" and "not gold" in message and "cards" not in message
    assert '"tokens": {"gold": 1}' in message


def test_a_setup_says_its_game_and_duel_has_no_nobles(client):
    """GAME-LOG.md: game is duel or splendor; for duel, nobles is null."""
    assert error_of(client.post("/api/games", json={"players": ["Ana", "Ben"], "first_player": 0})) == "bad_setup"
    resp = client.post("/api/games", json={"game": "duel", "players": ["Ana", "Ben"], "first_player": 0,
                                           "nobles": ["N-01", "N-02", "N-03"]})
    assert error_of(resp) == "bad_setup"
    ok = client.post("/api/games", json={"game": "duel", "players": ["Ana", "Ben"], "first_player": 0, "nobles": None})
    assert ok.status_code == 201


def test_a_name_typed_with_a_combining_accent_is_the_same_name(client):
    """"é" as one character or as e + combining accent is one name: two such players are refused,
    and a name is stored in its composed form."""
    resp = client.post("/api/games", json={"game": "duel", "players": ["e\u0301", "\u00e9"], "first_player": 0})
    assert error_of(resp) == "bad_setup"
    game = client.post("/api/games", json={"game": "duel", "players": ["Rene\u0301e", "Ben"], "first_player": 0}).get_json()
    assert game["players"][0]["name"] == "Ren\u00e9e"


def test_a_stale_expected_version_answers_409_with_the_current_state(client):
    game = new_game(client)
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}, expected_version=0)
    resp = post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}, expected_version=0)
    assert error_of(resp, 409) == "version_conflict"
    assert resp.get_json()["state"]["version"] == 1
    assert client.get(f"/api/games/{game['id']}").get_json()["players"][1]["tokens"]["blue"] == 0


def test_an_expected_version_ahead_of_the_game_is_said_to_be_ahead_not_overtaken(client):
    """A version the game never had (a typo) is no entry recorded first: the message says the
    game's version; the code stays ``version_conflict`` (409) with the state; an undo alike."""
    game = new_game(client)
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    resp = post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}, expected_version=7)
    assert error_of(resp, 409) == "version_conflict"
    assert resp.get_json()["error"]["message"] == ("This game is at version 1: expected_version 7 is ahead of it. "
                                                   "Send the version of the game's latest state.")
    assert resp.get_json()["state"]["version"] == 1
    undo = client.post(f"/api/games/{game['id']}/undo", json={"expected_version": 2})
    assert error_of(undo, 409) == "version_conflict" and "version 1: expected_version 2 is ahead" in undo.get_json()["error"]["message"]
    stale = post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}, expected_version=0)
    assert stale.get_json()["error"]["message"] == "Another entry was recorded first; check the game and try again."
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1


def test_a_write_to_no_game_is_404_whatever_its_version_or_entry_id(client):
    """A breaker's write to an unknown game with ``expected_version: "a"`` was 422 ``bad_event``:
    no game is 404 ``not_found`` first; a malformed field of a real game stays 422."""
    event = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}
    for fields in ({"expected_version": "a"}, {"entry_id": " x"}, {"expected_version": -1}):
        resp = post(client, "xxxxxxxxxxxxxxxxxxxx", event, **fields)
        assert error_of(resp, 404) == "not_found", fields
        assert error_of(client.post("/api/games/xxxxxxxxxxxxxxxxxxxx/undo", json=fields), 404) == "not_found"
    # a body that is JSON but no object (``null``, a list): 404 too (it was 422, a breaker)
    for body in ("null", "[]", '"x"', "3"):
        for write in ("events", "undo"):
            resp = client.post(f"/api/games/xxxxxxxxxxxxxxxxxxxx/{write}", data=body, content_type="application/json")
            assert error_of(resp, 404) == "not_found", body
    game = new_game(client)
    assert error_of(post(client, game["id"], event, expected_version="a"), 422) == "bad_event"
    assert error_of(client.post(f"/api/games/{game['id']}/undo", json={"expected_version": "a"}), 422) == "bad_event"
    for body in ("null", "[]", '"x"', "3"):
        for write in ("events", "undo"):
            resp = client.post(f"/api/games/{game['id']}/{write}", data=body, content_type="application/json")
            assert error_of(resp, 422) == "bad_event", body


def test_a_repeated_entry_id_is_stored_once_even_after_undo(client):
    game = new_game(client)
    ev = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}
    first = post(client, game["id"], ev, entry_id="tap-1").get_json()
    again = post(client, game["id"], ev, entry_id="tap-1")
    assert again.status_code == 200 and again.get_json()["version"] == first["version"] == 1
    assert len(client.get(f"/api/games/{game['id']}/log").get_json()["events"]) == 1
    client.post(f"/api/games/{game['id']}/undo", json={})
    replayed = post(client, game["id"], ev, entry_id="tap-1").get_json()
    assert replayed["version"] == 2 and replayed["players"][0]["tokens"]["red"] == 0


def test_undo_removes_the_last_applied_event_and_raises_the_version(client):
    game = new_game(client)
    play(client, game["id"], [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}},
                              {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}])
    resp = client.post(f"/api/games/{game['id']}/undo", json={"expected_version": 2})
    state = resp.get_json()
    assert resp.status_code == 200 and state["version"] == 3
    assert state["current_player"] == 1 and state["players"][1]["tokens"]["blue"] == 0
    assert state["players"][0]["tokens"]["red"] == 1
    assert error_of(client.post(f"/api/games/{game['id']}/undo", json={"expected_version": 2}), 409) == "version_conflict"
    assert len(client.get(f"/api/games/{game['id']}/log").get_json()["events"]) == 1


def test_undo_with_nothing_applied_is_refused(client):
    game = new_game(client)
    assert error_of(client.post(f"/api/games/{game['id']}/undo", json={})) == "nothing_to_undo"
    empty_json = client.post(f"/api/games/{game['id']}/undo", data="", content_type="application/json")
    assert error_of(empty_json) == "nothing_to_undo"
    bare = client.post(f"/api/games/{game['id']}/undo")  # no body, no Content-Type (curl -X POST)
    assert error_of(bare) == "nothing_to_undo"


def test_a_bare_undo_with_no_body_undoes(client):
    """GAME-LOG.md: the undo's body is optional: a POST with none at all undoes the last entry."""
    game = new_game(client)
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    resp = client.post(f"/api/games/{game['id']}/undo")
    assert resp.status_code == 200 and resp.get_json()["players"][0]["tokens"]["red"] == 0
    assert resp.get_json()["version"] == 2


def test_undo_is_possible_after_the_game_ended(client):
    state = imported(client, "duel-1102.json")
    assert state["status"] == "finished"
    resp = client.post(f"/api/games/{state['id']}/undo", json={})
    assert resp.status_code == 200 and resp.get_json()["status"] == "active"
    assert client.get("/api/games").get_json()[0]["status"] == "active"


def test_the_log_export_matches_the_contract(client):
    game = new_game(client, ("Ana", "Ben"), first_player=1)
    play(client, game["id"], [{"type": "take_tokens", "player": 1, "tokens": {"pearl": 2}}])
    log = client.get(f"/api/games/{game['id']}/log").get_json()
    assert log["format"] == "splendor-tracker/1" and log["game"] == "duel" and log["id"] == game["id"]
    assert log["players"] == ["Ana", "Ben"] and log["first_player"] == 1 and log["nobles"] is None
    assert log["events"] == [{"type": "take_tokens", "player": 1, "tokens": {"pearl": 2}}]
    assert log["result"] is None and log["started"].endswith("Z") and log["finished"] is None


def test_export_then_import_gives_the_identical_state(client, app):
    original = imported(client, "duel-1012.json")
    log = client.get(f"/api/games/{original['id']}/log").get_json()
    assert log["result"] == {"winner": {"player": 0, "routes": ["prestige"]}, "turns": 70}
    again = client.post("/api/games/import", json=log)
    assert again.status_code == 200  # same id: not imported twice
    assert len(client.get("/api/games").get_json()) == 1
    log.pop("id")  # the same game without its id is still the stored game
    same = client.post("/api/games/import", json=log)
    assert same.status_code == 200 and same.get_json()["id"] == original["id"]
    log["started"] = "2026-01-02T19:00:00Z"  # played again another evening: a game of its own
    copy = client.post("/api/games/import", json=log)
    assert copy.status_code == 201 and copy.get_json()["id"] != original["id"]
    a, b = original, copy.get_json()
    for key in ("players", "board", "bag", "winner", "turn", "privileges_supply", "royals_available"):
        assert a[key] == b[key]


def test_an_import_whose_replay_disagrees_with_its_result_is_refused(client):
    log = load_fixture("duel-1012.json")
    log["result"] = {"winner": {"player": 1, "routes": ["prestige"]}, "turns": 70}
    assert error_of(client.post("/api/games/import", json=log)) == "import_mismatch"
    log = load_fixture("duel-1012.json")
    log["events"][3]["tokens"] = {"gold": 1}
    assert error_of(client.post("/api/games/import", json=log)) == "import_mismatch"
    # a result with a bool for seat 0 or a float for its turns says something else (a tester's
    # hand-edited file was accepted: Python's False == 0 and 70.0 == 70)
    for winner, turns, code in (({"player": False, "routes": ["prestige"]}, 70, "import_mismatch"),
                                ({"player": 0, "routes": ["prestige"]}, 70.0, "bad_log"),  # (turns: a whole number)
                                ({"player": 0.0, "routes": ["prestige"]}, 70, "import_mismatch")):
        log = load_fixture("duel-1012.json")
        log["result"] = {"winner": winner, "turns": turns}
        assert error_of(client.post("/api/games/import", json=log)) == code, (winner, turns)
    assert client.get("/api/games").get_json() == []
    log = load_fixture("duel-1012.json")
    assert log["result"] == {"winner": {"player": 0, "routes": ["prestige"]}, "turns": 70}
    assert client.post("/api/games/import", json=log).status_code == 201  # as recorded: accepted


@pytest.mark.parametrize("log", [
    {"format": "other/2", "events": []},
    {"format": "splendor-tracker/1", "game": "duel", "players": ["A", "B"], "first_player": 0, "events": "x"},
    {"format": "splendor-tracker/1", "game": "duel", "players": ["A"], "first_player": 0, "events": []},
    {"format": "splendor-tracker/1", "id": ["../../etc"], "game": "duel", "players": ["A", "B"], "first_player": 0, "events": []},
    [1, 2, 3],
])
def test_a_malformed_log_is_refused_as_bad_log(client, log):
    assert error_of(client.post("/api/games/import", json=log)) == "bad_log"


# ------------------------------------------------------------------------- error codes


@pytest.mark.parametrize("body", [
    {"game": "duel", "players": ["Ana"], "first_player": 0},
    {"game": "duel", "players": ["Ana", ""], "first_player": 0},
    {"game": "duel", "players": ["Ana", "Ben"], "first_player": 2},
    {"game": "chess", "players": ["Ana", "Ben"], "first_player": 0},
    {"game": "duel", "players": ["A" * 41, "Ben"], "first_player": 0},
    {"game": "duel", "players": ["\u0958" * 40, "Ben"], "first_player": 0},  # 80 once composed
    {"game": "splendor", "players": ["\ufb2a" * 40, "Noa"], "first_player": 0},
    [],
])
def test_a_bad_setup_is_refused(client, body):
    assert error_of(client.post("/api/games", json=body)) == "bad_setup"


def test_a_name_that_composes_longer_is_refused_everywhere_and_never_stored(client):
    """An adversarial tester: 40 × "क़" was stored as 80 characters; the game's pages then
    answered 500, and so did the whole history's backup. Refused at setup, by form and import."""
    name = "\u0958" * 40
    resp = client.post("/games", data={"game": "duel", "player0": name, "player1": "Ben", "first": "0"})
    assert resp.status_code == 422 and "1 to 40 characters" in resp.get_data(as_text=True)
    log = {"format": "splendor-tracker/1", "game": "duel", "players": [name, "Noa"], "first_player": 0, "events": []}
    assert error_of(client.post("/api/games/import", json=log)) in ("bad_setup", "bad_log")
    assert client.get("/api/games").get_json() == []  # nothing stored by either
    short = client.post("/api/games", json={"game": "duel", "players": ["\u0958" * 20, "Ben"], "first_player": 0})
    assert short.status_code == 201
    gid = short.get_json()["id"]
    assert client.get(f"/games/{gid}").status_code == 200
    assert client.get("/history/export.json").status_code == 200


@pytest.mark.parametrize("event, code", [
    ({"type": "dance", "player": 0}, "bad_event"),
    ({"type": "take_tokens", "player": 5, "tokens": {"red": 1}}, "bad_event"),
    ({"type": "take_tokens", "player": 0, "tokens": {"red": -1}}, "bad_event"),
    ({"type": "take_tokens", "player": 0, "tokens": {"ruby": 1}}, "bad_event"),
    ({"type": "take_tokens", "player": 0, "tokens": {"red": 10**9}}, "bad_event"),
    ({"type": "reserve", "player": 0, "card": "D9-99"}, "unknown_card"),
    ({"type": "take_tokens", "player": 1, "tokens": {"red": 1}}, "not_your_turn"),
    ({"type": "take_tokens", "player": 0, "tokens": {"red": 2, "blue": 2}}, "too_many_tokens"),
    ({"type": "take_tokens", "player": 0, "tokens": {"gold": 1}}, "gold_not_allowed"),
    ({"type": "take_tokens", "player": 0, "tokens": {"pearl": 3}}, "not_enough_tokens"),
    ({"type": "replenish", "player": 0}, "bag_empty"),
    ({"type": "use_privileges", "player": 0, "tokens": {"red": 1}}, "not_enough_privileges"),
    ({"type": "take_royal", "player": 0, "royal": "DR-1"}, "no_royal_due"),
    ({"type": "discard", "player": 0, "tokens": {"red": 1}}, "no_discard_due"),
    ({"type": "purchase", "player": 0, "card": "D1-01", "payment": {}}, "wrong_payment"),
    ({"type": "purchase", "player": 0, "card": "D1-01", "from_reserve": True, "payment": {}}, "not_reserved"),
    ({"type": "correction", "player": 0, "set": {"tokens": {"red": 1}}}, "invariant_broken"),
])
def test_error_codes_on_a_fresh_game(client, event, code):
    game = new_game(client)
    assert error_of(post(client, game["id"], event)) == code
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


def test_wrong_payment_not_enough_tokens_and_a_good_purchase(client):
    game = new_game(client)
    give(client, game["id"], 0, {"blue": 1, "green": 1, "red": 1})
    gid = game["id"]
    d101 = {"type": "purchase", "player": 0, "card": "D1-01"}  # costs 1 blue, green, red, black
    assert error_of(post(client, gid, {**d101, "payment": {"blue": 1, "green": 1, "red": 1}})) == "wrong_payment"
    assert error_of(post(client, gid, {**d101, "payment": {"blue": 2, "green": 1, "red": 1}})) == "wrong_payment"
    assert error_of(post(client, gid, {**d101, "payment": {"blue": 1, "green": 1, "red": 1, "black": 1}})) == "not_enough_tokens"
    give(client, gid, 0, {"blue": 1, "green": 1, "red": 1, "gold": 1})
    state = post(client, gid, {**d101, "payment": {"blue": 1, "green": 1, "red": 1, "gold": 1}}).get_json()
    assert state["players"][0]["bonuses"]["white"] == 1 and state["bag"]["gold"] == 1


def test_joker_codes(client):
    game = new_game(client)
    gid = game["id"]
    give(client, gid, 0, {"white": 2, "green": 2, "black": 1, "pearl": 1})
    joker = {"type": "purchase", "player": 0, "card": "D1-28", "payment": {"white": 2, "green": 2, "black": 1, "pearl": 1}}
    assert error_of(post(client, gid, {**joker, "wild_color": "white"})) == "joker_needs_bonus"
    give(client, gid, 0, {"blue": 1, "green": 1, "red": 1, "black": 1})
    play(client, gid, [{"type": "purchase", "player": 0, "card": "D1-01", "payment": {"blue": 1, "green": 1, "red": 1, "black": 1}},
                       {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}])
    give(client, gid, 0, {"white": 1, "green": 2, "black": 1, "pearl": 1})  # white bonus 1 pays one white
    ev = {**joker, "payment": {"white": 1, "green": 2, "black": 1, "pearl": 1}}
    assert error_of(post(client, gid, {**ev, "wild_color": "blue"})) == "joker_color"
    assert error_of(post(client, gid, ev)) == "bad_event"  # a joker needs its colour
    ok = post(client, gid, {**ev, "wild_color": "white"}).get_json()
    assert ok["players"][0]["jokers"] == {"D1-28": "white"}
    assert ok["players"][0]["bonuses"]["white"] == 2 and ok["players"][0]["color_points"]["white"] == 1


def test_reserve_codes(client):
    game = new_game(client)
    gid = game["id"]
    play(client, gid, [
        {"type": "reserve", "player": 0, "card": "D1-01"},
        {"type": "reserve", "player": 1, "level": 2},
    ])
    assert error_of(post(client, gid, {"type": "reserve", "player": 0, "card": "D1-01"})) == "card_unavailable"
    play(client, gid, [{"type": "reserve", "player": 0, "card": "D1-02"}])
    assert error_of(post(client, gid, {"type": "reserve", "player": 1, "level": 1})) == "no_gold_on_board"
    give(client, gid, 0, {})  # Ana's two golds go back to the board
    play(client, gid, [{"type": "take_tokens", "player": 1, "tokens": {"red": 1}},
                       {"type": "reserve", "player": 0, "level": 3}])
    state = play(client, gid, [{"type": "take_tokens", "player": 1, "tokens": {"red": 1}}])
    assert state["players"][0]["reserved"] == [{"card": "D1-01"}, {"card": "D1-02"}, {"level": 3}]
    assert error_of(post(client, gid, {"type": "reserve", "player": 0, "level": 1})) == "reserve_limit"


def _settle_royal(client, gid: str, state: dict) -> dict:
    pending = state["pending"]
    if pending and pending["kind"] == "royal":
        royal = next(r for r in state["royals_available"] if r != "DR-4")
        resp = post(client, gid, {"type": "take_royal", "player": pending["player"], "royal": royal})
        assert resp.status_code == 200, resp.get_json()
        return resp.get_json()
    return state


def test_deck_empty_when_every_level_three_card_is_gone(client):
    from tracker.rules import catalog

    gid = new_game(client)["id"]
    # Level 3: 13 cards, 3 face up, so 10 in the deck: 4 reserved by name and 6 bought empty it.
    play(client, gid, [{"type": "reserve", "player": 0, "card": "D3-04"},
                       {"type": "reserve", "player": 1, "card": "D3-06"},
                       {"type": "reserve", "player": 0, "card": "D3-08"}])
    give(client, gid, 0, {}, other={})  # the golds go back to the board
    play(client, gid, [{"type": "reserve", "player": 1, "card": "D3-10"}])
    for card_id in ["D3-01", "D3-03", "D3-05", "D3-07", "D3-02", "D3-09"]:
        state = client.get(f"/api/games/{gid}").get_json()
        seat = state["current_player"]
        bonuses = state["players"][seat]["bonuses"]
        cost = catalog.jewels()[card_id].cost
        owed = {k: max(0, n - bonuses.get(k, 0)) if k != "pearl" else n for k, n in cost.to_dict().items()}
        payment = {k: min(n, 4) for k, n in owed.items()}
        payment["gold"] = sum(owed.values()) - sum(payment.values())
        give(client, gid, seat, payment, other={})
        resp = post(client, gid, {"type": "purchase", "player": seat, "card": card_id, "payment": payment})
        assert resp.status_code == 200, resp.get_json()
        state = _settle_royal(client, gid, resp.get_json())
    assert state["status"] == "active", "the setup must not end the game"
    seat = state["current_player"]
    assert len(state["players"][seat]["reserved"]) == 2
    give(client, gid, seat, {}, other={})
    assert error_of(post(client, gid, {"type": "reserve", "player": seat, "level": 3})) == "deck_empty"
    assert post(client, gid, {"type": "reserve", "player": seat, "level": 2}).status_code == 200


def test_privilege_codes(client):
    game = new_game(client)
    gid = game["id"]
    play(client, gid, [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}}])
    state = client.get(f"/api/games/{gid}").get_json()
    board = Tokens.of(state["board"]) - Tokens(blue=2)
    post(client, gid, {"type": "correction", "player": 1, "set": {"board": board.to_dict(), "bag": {"blue": 2}}})
    assert error_of(post(client, gid, {"type": "use_privileges", "player": 1, "tokens": {"gold": 1}})) == "gold_not_allowed"
    after = play(client, gid, [{"type": "replenish", "player": 1}])
    assert after["players"][0]["privileges"] == 1 and after["board"]["blue"] == 4
    assert error_of(post(client, gid, {"type": "use_privileges", "player": 1, "tokens": {"red": 1}})) == "privilege_after_replenish"


def test_pending_choices_and_their_codes(client):
    royal = imported(client, "duel-1012.json", upto=45)
    assert royal["pending"] == {"kind": "royal", "player": 0}
    gid = royal["id"]
    assert error_of(post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})) == "royal_required"
    assert error_of(post(client, gid, {"type": "take_royal", "player": 0, "royal": "DR-9"})) == "unknown_card"
    second = imported(client, "duel-1012.json", upto=79)
    assert error_of(post(client, second["id"], {"type": "take_royal", "player": 0, "royal": "DR-2"})) == "royal_unavailable"

    discard = imported(client, "duel-1012.json", upto=22)
    assert discard["pending"] == {"kind": "discard", "player": 1, "count": 1}
    assert [a["kind"] for a in discard["alerts"]] == ["discard_due"]
    gid = discard["id"]
    assert error_of(post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"red": 1}})) == "discard_required"
    held = discard["players"][1]["tokens"]
    two = {k: 1 for k, n in held.items() if n}  # more than one kind: too many
    assert error_of(post(client, gid, {"type": "discard", "player": 1, "tokens": two})) == "wrong_discard"
    lacking = next(k for k, n in held.items() if n == 0)
    assert error_of(post(client, gid, {"type": "discard", "player": 1, "tokens": {lacking: 1}})) == "not_enough_tokens"


def test_steal_codes(client):
    state = imported(client, "duel-1012.json", upto=66)
    gid = state["id"]
    ev = {"type": "purchase", "player": 0, "card": "D2-02", "payment": {"blue": 1, "red": 1}}
    assert error_of(post(client, gid, ev)) == "steal_required"
    assert error_of(post(client, gid, {**ev, "steal": "gold"})) == "gold_not_allowed"
    lacking = next(k for k, n in state["players"][1]["tokens"].items() if n == 0 and k != "gold")
    assert error_of(post(client, gid, {**ev, "steal": lacking})) == "steal_target"
    # a token kind no game has is malformed, and the rule it breaks is the steal's (D-8), as above
    for steal, code in (("diamond", "bad_event"), ("gold", "gold_not_allowed"), (lacking, "steal_target")):
        assert post(client, gid, {**ev, "steal": steal}).get_json()["error"]["rule"] == "D-8", steal
    assert post(client, gid, {**ev, "steal": "diamond"}).get_json()["error"]["code"] == "bad_event"
    assert post(client, gid, {**ev, "payment": "x", "steal": "blue"}).get_json()["error"]["rule"] == "D-7"
    done = post(client, gid, {**ev, "steal": "blue"}).get_json()
    assert done["players"][1]["tokens"]["blue"] == state["players"][1]["tokens"]["blue"] - 1


def test_nothing_is_accepted_after_the_game_ends(client):
    state = imported(client, "duel-1069.json")
    seat = 1 - state["current_player"]
    assert error_of(post(client, state["id"], {"type": "take_tokens", "player": seat, "tokens": {"red": 1}})) == "game_over"
    assert error_of(post(client, state["id"], {"type": "correction", "player": 0, "set": {"privileges": 0}})) == "game_over"
    # "any event after the game ended": one that is no entry at all is told the game is over too
    for junk in ({"type": "bogus", "player": 0}, {"type": "take_tokens", "player": 0, "tokens": {"purple": 1}}):
        assert error_of(post(client, state["id"], junk)) == "game_over"
        assert error_of(post(client, state["id"], junk, expected_version=state["version"])) == "game_over"
    assert client.get(f"/api/games/{state['id']}").get_json()["version"] == state["version"]


def test_a_splendor_game_over_refuses_a_malformed_entry_as_game_over(client):
    state = imported(client, "splendor-153.json")
    assert state["status"] == "finished"
    assert error_of(post(client, state["id"], {"type": "bogus", "player": 0})) == "game_over"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(client, constant):
    """RFC 8259 has no NaN or Infinity (Python's reader takes them): 400 bad_json, nothing stored."""
    body = '{"game": "duel", "players": ["Ana", "Ben"], "first_player": %s, "nobles": null}' % constant
    resp = client.post("/api/games", data=body, content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "bad_json"
    game = new_game(client)
    body = '{"type": "take_tokens", "player": 0, "tokens": {"red": %s}}' % constant
    resp = client.post(f"/api/games/{game['id']}/events", data=body, content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "bad_json"
    log = json.dumps(load_fixture("duel-1012.json"))[:-1] + ', "x": %s}' % constant
    resp = client.post("/api/games/import", data=log, content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "bad_json"
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0
    assert len(client.get("/api/games").get_json()) == 1


def test_an_entry_id_is_any_text_of_at_most_64_characters_and_an_empty_one_is_none(client):
    """GAME-LOG.md: ``entry_id`` is "a string of at most 64 characters" (a breaker's `" a"` and
    `""` were refused). Spaces count as written; `""` is no id at all (a client sending it with
    every entry would otherwise have all but its first dropped as repeats)."""
    game = new_game(client)
    gid = game["id"]

    def take(player: int, color: str) -> dict:
        return {"type": "take_tokens", "player": player, "tokens": {color: 1}}

    assert post(client, gid, take(0, "red"), entry_id=" a").get_json()["version"] == 1
    assert post(client, gid, take(1, "red"), entry_id="a").get_json()["version"] == 2  # another id
    assert post(client, gid, take(0, "red"), entry_id=" a").get_json()["version"] == 2  # the same: stored once
    assert post(client, gid, take(0, "blue"), entry_id="").get_json()["version"] == 3
    assert post(client, gid, take(1, "blue"), entry_id="").get_json()["version"] == 4  # not a repeat
    assert post(client, gid, take(0, "green"), entry_id="é" * 64).get_json()["version"] == 5
    for bad in ("x" * 65, "a\x00b", "a\u200bb"):
        assert error_of(post(client, gid, take(1, "green"), entry_id=bad.encode().decode("unicode_escape"))) == "bad_event", bad
    assert client.get(f"/api/games/{gid}").get_json()["version"] == 5


def test_bad_write_arguments_are_refused(client):
    game = new_game(client)
    ev = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}
    assert error_of(post(client, game["id"], ev, entry_id="x" * 65)) == "bad_event"
    assert error_of(post(client, game["id"], ev, expected_version="7")) == "bad_event"
    assert error_of(post(client, game["id"], ev, expected_version=-1)) == "bad_event"


# ------------------------------------------------------------------- hostile input


def test_the_api_takes_only_json_bodies(client):
    """A cross-site form can only send form or text bodies: none of them reaches a write."""
    game = new_game(client)
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    undo = client.post(f"/api/games/{game['id']}/undo", data="", content_type="text/plain",
                       headers={"Origin": "https://evil.example"})
    assert error_of(undo, 403) == "cross_site"  # (refused for where it comes from, before its body)
    undo = client.post(f"/api/games/{game['id']}/undo", data="", content_type="text/plain")
    assert error_of(undo, 400) == "bad_json"
    form = client.post(f"/api/games/{game['id']}/events", data={"type": "replenish", "player": "1"})
    assert error_of(form, 400) == "bad_json"
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1


def test_json_that_is_not_an_object_is_a_bad_entry_on_every_write(client):
    """Valid JSON of the wrong shape (``null``, a list, a number) is 422 with the write's own
    sentence on the entry and the undo alike; only text that is not JSON is 400 ``bad_json``."""
    game = new_game(client)
    for body in ("null", "[1]", "3"):
        for url in (f"/api/games/{game['id']}/events", f"/api/games/{game['id']}/undo"):
            resp = client.post(url, data=body, content_type="application/json")
            assert error_of(resp) == "bad_event" and "JSON object" in resp.get_json()["error"]["message"], (url, body)
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


def test_an_unknown_card_is_named_before_the_state_of_the_board(client):
    """Reserving a card that does not exist says so, even with no gold left to reserve with."""
    game = new_game(client)
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["board"]["gold"] == 3
    for _ in range(3):  # the three golds go, reserving the three level 3 secret cards
        state = post(client, game["id"], {"type": "reserve", "player": state["current_player"], "level": 3}).get_json()
    assert state["board"]["gold"] == 0
    resp = post(client, game["id"], {"type": "reserve", "player": state["current_player"], "card": "D9-99"})
    assert error_of(resp) == "unknown_card"
    resp = post(client, game["id"], {"type": "reserve", "player": state["current_player"], "level": 1})
    assert error_of(resp) == "no_gold_on_board"


@pytest.mark.parametrize("body", ["[" * 100000, '{"a":' * 100000,
                                  '{"format": "splendor-tracker/1", "x": ' + "[" * 3000 + "]" * 3000 + "}"])
def test_deeply_nested_json_is_a_400_not_a_crash(client, body):
    """Nested too deeply to read, valid or not: 400 saying so, not blaming the Content-Type (a breaker)."""
    game = new_game(client)
    for url in (f"/api/games/{game['id']}/events", f"/api/games/{game['id']}/undo", "/api/games/import"):
        resp = client.post(url, data=body, content_type="application/json")
        assert error_of(resp, 400) == "bad_json"
        assert resp.get_json()["error"]["message"].startswith("The request body is nested too deeply to be read as JSON")
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site", "Origin": "https://prank.example"},
    {"Sec-Fetch-Site": "same-site", "Origin": "http://other.localhost"},
    {"Origin": "https://prank.example"},  # a browser without Sec-Fetch-*
    {"Origin": "null"},  # a sandboxed frame, a file
])
def test_a_write_from_another_sites_page_is_refused_and_changes_nothing(client, headers):
    """A breaker: any page a player opens could undo a game's entries (an empty POST needs no
    preflight), also on a club's own network. Refused 403 ``cross_site`` before anything is read."""
    game = new_game(client)
    gid = game["id"]
    assert post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).status_code == 200
    resp = client.post(f"/api/games/{gid}/undo", headers=headers)
    assert error_of(resp, 403) == "cross_site"
    assert resp.get_json()["error"]["message"] == "A page of another site cannot write to a game."
    resp = client.post(f"/api/games/{gid}/events", json={"type": "take_tokens", "player": 1, "tokens": {"red": 1}},
                       headers=headers)
    assert error_of(resp, 403) == "cross_site"
    assert error_of(client.post("/api/games", json={"game": "duel", "players": ["X", "Y"], "first_player": 0},
                                headers=headers), 403) == "cross_site"
    state = client.get(f"/api/games/{gid}", headers=headers).get_json()  # reading is anyone's
    assert state["version"] == 1 and state["players"][0]["tokens"]["red"] == 1
    assert len(client.get("/api/games").get_json()) == 1


@pytest.mark.parametrize("headers", [
    {}, {"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"}, {"Sec-Fetch-Site": "none"},
    {"Origin": "http://localhost"},
])
def test_a_write_from_a_script_or_this_sites_page_is_taken(client, headers):
    game = new_game(client)
    assert post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).status_code == 200
    resp = client.post(f"/api/games/{game['id']}/undo", headers=headers)
    assert resp.status_code == 200 and resp.get_json()["version"] == 2


def test_unknown_api_paths_and_methods_answer_json(client):
    assert error_of(client.get("/api/nothing-here"), 404) == "not_found"
    game = new_game(client)
    resp = client.delete(f"/api/games/{game['id']}")
    assert resp.status_code == 405 and resp.get_json()["error"]["code"] == "method_not_allowed"
    assert "GET" in resp.headers["Allow"]  # as HTTP asks of a 405
    import flask_babel

    flask_babel.refresh()
    korean = client.get("/api/nothing-here", headers={"Accept-Language": "ko"}).get_json()["error"]
    assert korean["code"] == "not_found" and "링크" in korean["message"]


UNSHOWABLE = "A name cannot hold a character no phone can show (half of an emoji, a private or unassigned code)."
HIDDEN = "A name cannot hold invisible or control characters (a zero-width space, a direction mark)."


@pytest.mark.parametrize("players, message", [
    (["Ana\ud800", "Ben"], UNSHOWABLE), (["\ue000", "Ben"], UNSHOWABLE), (["Ana\U000e0080", "Ben"], UNSHOWABLE), (["\u200b", "Ben"], HIDDEN), (["Ana\u0000", "Ben"], HIDDEN),
    (["\u202eanA", "Ben"], HIDDEN), (["Ana\u200b", "Ben"], HIDDEN),
    (["a\nb", "Ben"], "A name is one line."), (["Ana\u2028Ben", "Cho"], "A name is one line."),
    (["Ana\x85Ben", "Cho"], "A name is one line."),
    (["\u3164", "Ben"], "Each player needs a name of 1 to 40 characters."),
    (["\u2800\u115f", "Ben"], "Each player needs a name of 1 to 40 characters."),
    (["Bob", "Bob\u200c"], "Each player needs a different name."), (["Bob", "Bob\ufe0f"], "Each player needs a different name."),
    (["Kim", "Kim\u3164"], "Each player needs a different name."), (["Jo Jo", "Jo\uffa0Jo"], "Each player needs a different name."),
    (["👩‍👩‍👧‍👦" * 10, "Ben"], "Each player needs a name of 1 to 40 characters (an emoji can count as several)."),
    ([" ", "Ben"], "Each player needs a name of 1 to 40 characters."),
    ([7, "Ben"], "A player's name is text."),
    (["Ana", "ana"], "Each player needs a different name."),
])
def test_names_that_are_invisible_broken_or_the_same_are_refused_saying_why(client, players, message):
    resp = client.post("/api/games", json={"game": "duel", "players": players, "first_player": 0})
    assert error_of(resp) == "bad_setup" and resp.get_json()["error"]["message"] == message
    assert client.get("/").status_code == 200 and client.get("/api/games").get_json() == []


def test_korean_and_emoji_names_are_welcome(client):
    state = new_game(client, ("김민지", "Ben 👩‍👩‍👧"))
    assert state["players"][0]["name"] == "김민지" and state["players"][1]["name"] == "Ben 👩‍👩‍👧"


def test_a_note_or_entry_id_with_a_lone_surrogate_is_refused(client):
    game = new_game(client)
    note = {"type": "correction", "player": 0, "set": {"privileges": 0}, "note": "x\udfff"}
    assert error_of(post(client, game["id"], note)) == "bad_event"
    take = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}
    assert error_of(post(client, game["id"], take, entry_id="\ud800")) == "bad_event"
    assert client.get(f"/games/{game['id']}").status_code == 200


@pytest.mark.parametrize("started, finished", [
    ("0001-01-01T00:00:00+01:00", None), ("9999-12-31T23:59:59-01:00", None), ("yesterday", None),
    ("2026-11-29T20:00:00Z", "2026-11-29T19:00:00Z"),
])
def test_import_refuses_impossible_times(client, started, finished):
    log = load_fixture("duel-1069.json")
    log["started"], log["finished"] = started, finished
    assert error_of(client.post("/api/games/import", json=log)) == "bad_log"


def test_a_chunked_body_over_the_limit_is_413_not_malformed(client):
    """A body sent in chunks (no Content-Length) is cut at MAX_CONTENT_LENGTH: it is too large
    (413, as a body that says its length is), not bad JSON."""
    import io
    import json

    game = new_game(client)
    body = json.dumps({"type": "take_tokens", "player": 0, "tokens": {"red": 1}, "pad": "x" * 1_200_000}).encode()
    resp = client.post(f"/api/games/{game['id']}/events", input_stream=io.BytesIO(body),
                       headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
                     environ_overrides={"wsgi.input_terminated": True})
    assert resp.status_code == 413
    small = json.dumps({"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).encode()
    ok = client.post(f"/api/games/{game['id']}/events", input_stream=io.BytesIO(small),
                     headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
                     environ_overrides={"wsgi.input_terminated": True})
    assert ok.status_code == 200 and ok.get_json()["players"][0]["tokens"]["red"] == 1
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1


def test_after_the_database_server_drops_its_connections_the_next_requests_answer(app, client, database_url, request,
                                                                                  monkeypatch):
    """An operator restarted PostgreSQL under gunicorn: once it was back, each worker still
    answered 503 on its next request (a pooled connection the server had closed). A connection
    idle longer than half a second (a restart takes longer) is tried before use, so every request
    after the restart answers; one in steady use is not (a busy night's requests pay nothing)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has no server to restart")
    import time

    from tracker.db import IDLE_PING_SECONDS, db

    pings = []
    real_ping = db.engine.dialect.do_ping
    monkeypatch.setattr(db.engine.dialect, "do_ping", lambda conn: pings.append(1) or real_ping(conn))
    game = new_game(client)
    for _ in range(3):  # steady use: no ping
        assert client.get(f"/api/games/{game['id']}").status_code == 200
        db.session.remove()  # (as each request's end does under gunicorn: the fixture's context spans the test)
    assert pings == []
    with request.getfixturevalue("postgres_emptier").connect() as conn:  # the server closes the others
        killed = conn.execute(text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                   "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalar()
    assert killed >= 1
    time.sleep(IDLE_PING_SECONDS + 0.2)  # (the restart's own time)
    for _ in range(5):
        resp = client.get(f"/api/games/{game['id']}")
        assert resp.status_code == 200 and resp.get_json()["version"] == 0
        db.session.remove()
    assert len(pings) == 1  # the idle one, found closed: the pool made a new one, used since without a try
    posted = client.post(f"/api/games/{game['id']}/events", json={"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    assert posted.status_code == 200 and posted.get_json()["version"] == 1


def test_a_database_too_busy_to_answer_is_a_503_to_retry_and_records_nothing(client, monkeypatch):
    """A security tester's finding: an entry posted while a long export held SQLite answered 500
    after the busy timeout. It is a 503 with Retry-After (a phone sends it again by itself), the
    game as it was; the page side says so in words."""
    from sqlalchemy.exc import OperationalError

    from tracker import service

    game = new_game(client)

    def locked(*args, **kwargs):
        raise OperationalError("INSERT INTO events", {}, Exception("database is locked"))

    monkeypatch.setattr(service, "_insert_event", locked)
    take = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}
    resp = client.post(f"/api/games/{game['id']}/events", json=take)
    assert resp.status_code == 503 and resp.headers["Retry-After"] == "5"
    assert resp.get_json()["error"]["code"] == "service_unavailable"
    assert "nothing was recorded" in resp.get_json()["error"]["message"]
    page = client.post(f"/games/{game['id']}/events", data={"event": json.dumps(take), "expected_version": "0"},
                       headers={"HX-Request": "true"})
    assert page.status_code == 503 and "did not answer in time (busy with other tables, or down)" in page.get_data(as_text=True)
    monkeypatch.undo()
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0
    assert post(client, game["id"], take).status_code == 200


def test_a_game_and_a_log_keep_a_bounded_number_of_entries(client, monkeypatch):
    """A security tester imported a 100,000-entry log (no-change corrections): every export
    slowed by seconds. A game keeps at most ``MAX_ENTRIES`` (2,000; a whole game is 90–200):
    the entry beyond is refused (422), as is a longer log, and nothing is stored."""
    from tracker import service

    assert service.MAX_ENTRIES == 2000
    monkeypatch.setattr(service, "MAX_ENTRIES", 3)
    game = new_game(client)
    takes = [{"type": "take_tokens", "player": p, "tokens": {"red": 1}} for p in (0, 1, 0, 1)]
    for take in takes[:3]:
        assert post(client, game["id"], take).status_code == 200
    resp = post(client, game["id"], takes[3])
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "too_many_entries"
    assert resp.get_json()["error"]["message"] == "A game keeps at most 3 entries: this one is full."
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 3
    log = client.get(f"/api/games/{game['id']}/log").get_json()
    log = {**{k: v for k, v in log.items() if k != "id"}, "events": log["events"] + takes[3:], "started": None}
    resp = client.post("/api/games/import", json=log)
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "bad_log"
    assert resp.get_json()["error"]["message"] == "A game keeps at most 3 entries; this log has 4."
    assert len(client.get("/api/games").get_json()) == 1


def test_a_database_fault_that_is_no_busy_moment_stays_a_500(client, monkeypatch):
    """Only a busy or unreachable database is a 503 to try again: a missing table (migrations not
    run) is the operator's to fix, a 500 in the log, never "try again in a moment"."""
    from sqlalchemy.exc import OperationalError

    from tracker import service

    game = new_game(client)

    def missing(*args, **kwargs):
        raise OperationalError("INSERT INTO events", {}, Exception("no such table: events"))

    monkeypatch.setattr(service, "_insert_event", missing)
    resp = client.post(f"/api/games/{game['id']}/events", json={"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    assert resp.status_code == 500 and "Retry-After" not in resp.headers
    assert resp.get_json()["error"]["code"] == "internal_server_error"


def test_an_entry_sent_twice_at_once_answers_with_the_game_holding_it(app, client):
    """A phone's entry sent again while its first copy is being written (no expected version):
    the second copy finds the entry stored and answers with the game that holds it, version and
    tokens included; before, it answered the game as read just before that write (one version
    behind: the entry seemed lost)."""
    from sqlalchemy import event, insert, update

    from tracker.db import db
    from tracker.models import Event, Game, utcnow

    game = new_game(client)
    entry = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}
    sneaked: list[bool] = []

    def first_copy_lands(_conn, _cursor, statement, _params, _context, _many):
        if not sneaked and "events.entry_id" in statement and statement.lstrip().startswith("SELECT events.seq"):
            sneaked.append(True)  # the first copy commits between this copy's read and its check
            with db.engine.begin() as other:
                other.execute(insert(Event).values(game_id=game["id"], seq=1, entry_id="twice", data=entry,
                                                   undone=False, created=utcnow()))
                other.execute(update(Game).where(Game.id == game["id"]).values(version=1))

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", first_copy_lands)
        try:
            resp = post(client, game["id"], entry, entry_id="twice")
        finally:
            event.remove(db.engine, "before_cursor_execute", first_copy_lands)
    body = resp.get_json()
    assert sneaked and resp.status_code == 200, body
    assert body["version"] == 1 and body["players"][0]["tokens"]["red"] == 1
    assert len(client.get(f"/api/games/{game['id']}/log").get_json()["events"]) == 1


def test_the_api_imports_an_export_as_large_as_the_history_page_does(client):
    """A long game's export with notes (over the 1 MB of an entry) is imported by the API as by
    the History page (16 MB); an entry's body keeps the 1 MB limit."""
    import copy

    log = load_fixture("duel-1069.json")
    big = copy.deepcopy(log)
    big.pop("id", None)
    for event in big["events"]:
        event["note"] = "n" * 20_000  # GAME-LOG.md: fields may be added freely
    body = json.dumps(big)
    assert len(body) > 1024 * 1024
    resp = client.post("/api/games/import", data=body, content_type="application/json")
    assert resp.status_code == 201, resp.get_data(as_text=True)[:200]
    assert len(client.get(f"/api/games/{resp.get_json()['id']}/log").get_json()["events"]) == len(log["events"])
    game = new_game(client)
    huge = post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}, "pad": "x" * 1_100_000})
    assert huge.status_code == 413
