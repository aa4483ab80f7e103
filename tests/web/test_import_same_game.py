"""Import (GAME-LOG.md): "a log whose id is already stored is not imported twice" means the same
game: a log naming the id of another stored game is refused; a stored game's log without its id,
or spelled another way (a time zone, key order, a field added to an event), is not stored twice;
fields added to ``result`` are not compared, and a result that differs says how."""

from __future__ import annotations

import copy
import io
import json

import pytest

from helpers import fixture_log, new_game, play, post

from tracker import archive
from tracker.models import Game
from tracker.db import db


def _import(client, log):
    return client.post("/api/games/import", json=log)


def _count(client) -> int:
    return len(client.get("/api/games").get_json())


def test_a_log_naming_the_id_of_another_stored_game_is_refused_and_stores_nothing(client):
    one = _import(client, fixture_log("duel-1012.json", ["Ana", "Ben"], started="2026-11-20T19:00:00Z")).get_json()
    other = fixture_log("own-crowns.json", ["Q1", "Q2"], started="2026-11-21T19:00:00Z")
    other["id"] = one["id"]
    resp = _import(client, other)
    assert resp.status_code == 422
    error = resp.get_json()["error"]
    assert error["code"] == "bad_log"
    assert error["message"] == (f"Another game is stored under this log's id ({one['id']}): its players or entries "
                                "differ. Remove the id to import this log as a game of its own.")
    assert _count(client) == 1 and client.get(f"/api/games/{one['id']}").get_json()["players"][0]["name"] == "Ana"
    # the history page says it too, and imports nothing
    page = client.post("/history/import", data={"file": (io.BytesIO(json.dumps(other).encode()), "g.json")},
                       content_type="multipart/form-data")
    assert page.status_code == 422 and "Another game is stored under this log" in page.get_data(as_text=True)
    assert _count(client) == 1
    # the same players and seats with other entries (duel-1102 also starts with seat 1) are another game too
    same_seats = fixture_log("duel-1102.json", ["Ana", "Ben"], started="2026-11-20T19:00:00Z")
    same_seats["id"] = one["id"]
    assert _import(client, same_seats).get_json()["error"]["code"] == "bad_log"
    assert _count(client) == 1


def test_an_earlier_export_of_a_stored_game_is_already_stored(client):
    log = fixture_log("duel-1012.json", ["Ana", "Ben"], started="2026-11-20T19:00:00Z")
    one = _import(client, log).get_json()
    early = client.get(f"/api/games/{one['id']}/log").get_json()
    early["events"], early["result"], early["finished"] = early["events"][:20], None, None
    resp = _import(client, early)
    assert resp.status_code == 200 and resp.get_json()["id"] == one["id"] and _count(client) == 1


def test_a_stored_games_log_without_its_id_or_spelled_otherwise_is_not_stored_twice(client):
    one = _import(client, fixture_log("duel-1069.json", ["Ann", "Bob"], started="2026-11-30T13:00:00Z")).get_json()
    exported = client.get(f"/api/games/{one['id']}/log").get_json()
    variants = []
    no_id = {k: v for k, v in exported.items() if k != "id"}
    variants.append(no_id)
    variants.append({**no_id, "started": "2026-11-30T22:00:00+09:00"})  # the same moment in Seoul
    extra = copy.deepcopy(no_id)
    extra["events"][0]["entry_id"] = "tapped-once"  # a field added to an event
    variants.append(extra)
    variants.append(dict(reversed(list(no_id.items()))))  # other key order
    for variant in variants:
        resp = _import(client, variant)
        assert resp.status_code == 200 and resp.get_json()["id"] == one["id"], variant.get("started")
    assert _count(client) == 1
    # an id-less file imported twice, whatever its spelling, is stored once
    fresh = fixture_log("own-prestige.json", ["Cho", "Dan"], started="2026-11-29T10:00:00Z")
    first = _import(client, fresh)
    again = _import(client, {**fresh, "started": "2026-11-29T19:00:00+09:00"})
    assert first.status_code == 201 and again.status_code == 200
    assert again.get_json()["id"] == first.get_json()["id"] and _count(client) == 2


def test_an_id_less_log_stored_under_the_former_key_is_still_found(client, app):
    """Ids of id-less logs were hashed from the file's own text (``archive.legacy_log_key``): a
    game stored so (here: imported under that id) is found again, not stored twice."""
    log = fixture_log("own-color.json", ["Eve", "Fay"])
    assert "started" not in log  # (with a start, the stored game is found by its start too)
    legacy = archive.legacy_log_key(log)
    assert _import(client, {**log, "id": legacy}).status_code == 201
    resp = _import(client, log)
    assert resp.status_code == 200 and resp.get_json()["id"] == legacy and _count(client) == 1
    with app.app_context():
        assert db.session.get(Game, legacy) is not None


def test_fields_added_to_the_result_are_not_compared_and_a_differing_result_says_how(client):
    log = fixture_log("duel-1012.json", ["Ana", "Ben"], started="2026-11-20T19:00:00Z")
    added = copy.deepcopy(log)
    added["result"]["rounds"] = 35
    added["result"]["winner"]["names"] = ["Ana"]
    assert _import(client, added).status_code == 201
    wrong = fixture_log("duel-1069.json", ["Ana", "Ben"], started="2026-11-21T19:00:00Z")
    truth = wrong["result"]
    winner = truth["winner"]["player"]
    wrong["result"] = {"winner": {**truth["winner"], "player": 1 - winner}, "turns": truth["turns"] + 1}
    resp = _import(client, wrong)
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "import_mismatch"
    names = wrong["players"]
    assert resp.get_json()["error"]["message"] == (
        f"Replaying the log does not give its recorded result: it records {names[1 - winner]} won by 10 crowns "
        f"after {truth['turns'] + 1} turns, the replay gives {names[winner]} won by 10 crowns after {truth['turns']} turns.")
    unfinished = fixture_log("duel-1069.json", ["Ana", "Ben"], started="2026-11-22T19:00:00Z")
    unfinished["result"] = None
    message = _import(client, unfinished).get_json()["error"]["message"]
    assert message.startswith("Replaying the log does not give its recorded result: it records no winner yet, ")
    # a result on a log of an unfinished game: it should be null (and a turn count of true is no number)
    cut = fixture_log("duel-1069.json", ["Ana", "Ben"], started="2026-11-23T19:00:00Z")
    cut["events"] = cut["events"][:9]
    cut["result"] = {"winner": None, "turns": 9}
    message = _import(client, cut).get_json()["error"]["message"]
    assert message == "Replaying the log gives no winner yet, so its result must be null; it records no known winner after 9 turns."
    for turns in (True, "9", 9.0, None):  # no count of turns: a malformed log, not a result that disagrees
        cut["result"] = {"winner": None, "turns": turns}
        error = _import(client, cut).get_json()["error"]
        assert (error["code"], error["message"]) == (
            "bad_log", "A log's result is null or an object with winner and turns (a whole number)."), turns
    # in Korean, the quoted results are Korean too
    import flask_babel

    flask_babel.refresh()
    ko = client.post("/api/games/import", json=wrong, headers={"Accept-Language": "ko"}).get_json()["error"]["message"]
    assert "won after" not in ko and f"{truth['turns']}턴 뒤 {names[winner]} 승리" in ko
    assert _count(client) == 1


def test_a_longer_export_of_a_stored_game_adds_its_later_entries(client):
    """An export made at entry 20 was imported; the export made at the end adds the entries
    after it (it had answered "already stored" and dropped them)."""
    full = {**fixture_log("duel-1012.json", ["Ana", "Ben"], started="2026-11-20T19:00:00Z"), "id": "table-7-game-1-of-the-club-night"}
    total = len(full["events"])
    early = {**full, "events": full["events"][:20], "result": None, "finished": None}
    first = _import(client, early)
    assert first.status_code == 201 and first.get_json()["status"] == "active"
    resp = _import(client, full)
    state = resp.get_json()
    assert resp.status_code == 200 and state["id"] == "table-7-game-1-of-the-club-night"
    assert state["status"] == "finished" and state["winner"] == full["result"]["winner"]
    assert state["version"] == total and state["turn"] == full["result"]["turns"]
    assert client.get("/api/games/table-7-game-1-of-the-club-night/log").get_json()["events"] == full["events"]
    assert [g["status"] for g in client.get("/api/games").get_json()] == ["finished"]
    # the game goes on from there as any other: an undo takes back the last imported entry
    undone = client.post("/api/games/table-7-game-1-of-the-club-night/undo", json={"expected_version": total}).get_json()
    assert undone["status"] == "active" and undone["version"] == total + 1
    assert len(client.get("/api/games/table-7-game-1-of-the-club-night/log").get_json()["events"]) == total - 1
    # an export shorter than the game is already stored: nothing changes
    assert _import(client, early).status_code == 200
    assert len(client.get("/api/games/table-7-game-1-of-the-club-night/log").get_json()["events"]) == total - 1


def test_an_id_less_longer_export_and_a_history_file_add_later_entries_and_say_so(client):
    log = fixture_log("own-prestige.json", ["Cho", "Dan"], started="2026-11-29T10:00:00Z")
    total = len(log["events"])
    early = {**log, "events": log["events"][:6], "result": None}
    early.pop("finished", None)
    stored = _import(client, early).get_json()
    page = client.post("/history/import", data={"file": (io.BytesIO(json.dumps(log).encode()), "g.json")},
                       content_type="multipart/form-data", follow_redirects=True)
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert ">1 stored game got the later entries the file has of it." in text
    assert _count(client) == 1
    state = client.get(f"/api/games/{stored['id']}").get_json()
    assert state["status"] == "finished" and state["version"] == total
    assert len(client.get(f"/api/games/{stored['id']}/log").get_json()["events"]) == total
    # a history file: that game, stored whole now, and a longer export of another: not "Nothing new"
    other = fixture_log("own-crowns.json", ["Eun", "Finn"], started="2026-11-29T12:00:00Z")
    _import(client, {**other, "events": other["events"][:4], "result": None, "finished": None})
    history = {"format": "splendor-tracker-history/1", "games": [log, other]}
    page = client.post("/history/import", data={"file": (io.BytesIO(json.dumps(history).encode()), "h.json")},
                       content_type="multipart/form-data", follow_redirects=True)
    text = page.get_data(as_text=True)
    assert "1 game already stored; 1 stored game got the later entries the file has of it." in text
    assert "Nothing new" not in text and _count(client) == 2


def test_a_longer_export_of_a_deleted_game_is_refused_and_changes_nothing(client):
    log = fixture_log("own-crowns.json", ["Eun", "Finn"], started="2026-11-28T10:00:00Z")
    early = {**log, "events": log["events"][:5], "result": None, "id": "continued-game-0001-of-the-night"}
    early.pop("finished", None)
    stored = _import(client, early).get_json()
    with client.application.app_context():
        db.session.get(Game, stored["id"]).deleted_at = db.func.now()
        db.session.commit()
    resp = _import(client, {**log, "id": "continued-game-0001-of-the-night"})
    assert resp.status_code in (409, 422) and resp.get_json()["error"]["code"] == "game_deleted"
    assert len(client.get(f"/api/games/{stored['id']}/log").get_json()["events"]) == 5


def test_names_in_another_case_or_nobles_in_another_order_are_the_same_game(client):
    """A stored Splendor game's log with its players' names typed in another case and its
    nobles listed in another order records the same game: not stored twice."""
    one = _import(client, fixture_log("splendor-133.json", ["Ana", "Ben", "Cho"], started="2026-11-27T19:00:00Z"))
    exported = client.get(f"/api/games/{one.get_json()['id']}/log").get_json()
    del exported["id"]
    exported["players"] = ["ana", "BEN", "cho"]
    exported["nobles"] = list(reversed(exported["nobles"]))
    again = _import(client, exported)
    assert again.status_code == 200 and again.get_json()["id"] == one.get_json()["id"] and _count(client) == 1
    # other people in the same seats, or a different start player, are another game
    other = {**exported, "players": ["Ana", "Ben", "Dae"]}
    assert _import(client, other).status_code == 201 and _count(client) == 2


def test_a_result_differing_only_in_its_route_names_the_routes(client):
    log = fixture_log("duel-1102.json", ["Ana", "Ben"])
    truth = log["result"]["winner"]["routes"]
    wrong = "prestige" if truth != ["prestige"] else "crowns"
    log["result"]["winner"]["routes"] = [wrong]
    names = {"prestige": "20 prestige", "crowns": "10 crowns", "color": "10 prestige in one colour"}
    error = _import(client, log).get_json()["error"]
    assert error["code"] == "import_mismatch"
    assert f"won by {names[wrong]} after" in error["message"]
    assert f"won by {', '.join(names[r] for r in truth)} after" in error["message"]
    assert _count(client) == 0


def _upload(client, data):
    return client.post("/history/import", data={"file": (io.BytesIO(json.dumps(data, indent=1).encode()), "h.json")},
                       content_type="multipart/form-data")


TAKES = [{"type": "take_tokens", "player": 0, "tokens": {"white": 1}}, {"type": "take_tokens", "player": 1, "tokens": {"red": 1, "blue": 1}},
         {"type": "take_tokens", "player": 0, "tokens": {"green": 1}}, {"type": "take_tokens", "player": 1, "tokens": {"black": 1}}]


def test_a_file_refused_late_leaves_no_trace_of_the_games_it_continued(client):
    """A backup continuing a stored game twice, then refused at its third game: nothing of it
    stays, not even in the worker's memory (the rolled-back entries had been kept there, and the
    next entries were judged against them)."""
    game = new_game(client)
    play(client, game["id"], TAKES[:2])
    longer = client.get(f"/api/games/{game['id']}/log").get_json()
    longer["events"] += [TAKES[2], TAKES[3]]
    bad = {**fixture_log("own-prestige.json", ["Q1", "Q2"], "2026-11-20T19:00:00Z"), "finished": "2026-11-19T19:00:00Z"}
    resp = _upload(client, {"format": "splendor-tracker-history/1", "games": [longer, longer, bad]})
    assert resp.status_code == 422 and "Game 3 of the file" in resp.get_data(as_text=True)
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["version"] == 2 and state["players"][0]["tokens"]["green"] == 0
    # the same game continued otherwise reaches that version: its own entries are what counts
    other = client.get(f"/api/games/{game['id']}/log").get_json()
    other["events"] += [{"type": "take_tokens", "player": 0, "tokens": {"pearl": 1}}, TAKES[3]]
    assert _import(client, other).status_code == 200
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["version"] == 4 and state["players"][0]["tokens"]["pearl"] == 1
    assert state["players"][0]["tokens"]["green"] == 0
    assert client.get(f"/api/games/{game['id']}/log").get_json()["events"] == other["events"]
    # and the next entry is judged on them: Ana holds no green to return
    refused = post(client, game["id"], {"type": "discard", "player": 0, "tokens": {"green": 1}}, expected_version=4)
    assert refused.status_code == 422


def test_a_longer_export_cannot_finish_the_stored_game_before_it_started(client):
    full = {**fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-20T19:00:00Z"), "id": "started-later-than-it-finished"}
    early = {**full, "events": full["events"][:10], "result": None, "finished": None}
    assert _import(client, early).status_code == 201
    resp = _import(client, {**full, "started": "2020-01-01T00:00:00Z", "finished": "2020-01-02T00:00:00Z"})
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "bad_log"
    assert client.get("/api/games/started-later-than-it-finished").get_json()["version"] == 10


def test_an_export_made_before_undos_does_not_bring_the_undone_entries_back(client):
    game = new_game(client)
    play(client, game["id"], TAKES)
    before = client.get(f"/api/games/{game['id']}/log").get_json()
    for version in (4, 5):
        assert client.post(f"/api/games/{game['id']}/undo", json={"expected_version": version}).status_code == 200
    assert _import(client, before).status_code == 200
    assert _upload(client, {"format": "splendor-tracker-history/1", "games": [before]}).status_code == 303
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["version"] == 6 and len(client.get(f"/api/games/{game['id']}/log").get_json()["events"]) == 2


def test_an_export_made_before_undos_and_played_on_elsewhere_is_refused_not_bringing_them_back(client):
    """A breaker: the table undid two entries here; an export from before the undos, with one
    more entry recorded elsewhere, was added after the two entries in force, bringing the undone
    ones back. It is played otherwise: refused, nothing stored; a log going on with another
    entry than the one undone continues the game as it stands."""
    game = new_game(client)
    play(client, game["id"], TAKES)
    before = client.get(f"/api/games/{game['id']}/log").get_json()
    for version in (4, 5):
        assert client.post(f"/api/games/{game['id']}/undo", json={"expected_version": version}).status_code == 200
    longer = {**before, "events": before["events"] + [{"type": "take_tokens", "player": 0, "tokens": {"blue": 1}}]}
    resp = _import(client, longer)
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "import_mismatch"
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["version"] == 6 and len(client.get(f"/api/games/{game['id']}/log").get_json()["events"]) == 2
    # the game as it stands, with an entry other than the one undone after it: added
    other = {**before, "events": before["events"][:2] + [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}}]}
    assert _import(client, other).status_code == 200
    log = client.get(f"/api/games/{game['id']}/log").get_json()
    assert log["events"] == other["events"] and client.get(f"/api/games/{game['id']}").get_json()["version"] == 7


def test_a_backup_with_more_of_a_game_deleted_here_imports_the_rest(client, app):
    game = new_game(client)
    play(client, game["id"], TAKES[:2])
    longer = client.get(f"/api/games/{game['id']}/log").get_json()
    longer["events"] += TAKES[2:]
    with app.app_context():
        db.session.get(Game, game["id"]).deleted_at = db.func.now()
        db.session.commit()
    fresh = fixture_log("own-crowns.json", ["Eun", "Finn"], "2026-11-28T10:00:00Z")
    page = _upload(client, {"format": "splendor-tracker-history/1", "games": [longer, fresh]})
    assert page.status_code == 303
    assert "Imported 1 game; 1 already stored." in client.get(page.headers["Location"]).get_data(as_text=True)
    assert len(client.get(f"/api/games/{game['id']}/log").get_json()["events"]) == 2


def test_a_history_file_over_a_megabyte_uploads(client):
    logs = [fixture_log(name, [f"P{i}", f"Q{i}"], f"2026-11-{10 + i:02d}T19:00:00Z")
            for i, name in enumerate(["duel-1012.json", "duel-1069.json", "duel-1102.json"])]
    body = json.dumps({"format": "splendor-tracker-history/1", "games": logs}, indent=150).encode()
    assert len(body) > 1024 * 1024
    page = client.post("/history/import", data={"file": (io.BytesIO(body), "big.json")}, content_type="multipart/form-data")
    assert page.status_code == 303 and _count(client) == 3


def test_an_id_and_start_less_log_with_names_in_another_case_is_the_same_game(client):
    log = fixture_log("splendor-133.json", ["Hana", "Ben", "Cho"])
    log.pop("started", None), log.pop("finished", None), log.pop("id", None)
    first = _import(client, log)
    again = _import(client, {**log, "players": ["HANA", "ben", "cho"], "nobles": list(reversed(log["nobles"]))})
    assert first.status_code == 201 and again.status_code == 200 and _count(client) == 1
    assert again.get_json()["players"][0]["name"] == "Hana"


def test_an_id_less_log_gets_an_unguessable_id_and_is_still_found_by_its_content(client, app):
    """A security tester computed an imported game's id (then its write key) from its players,
    entries and start time: the id was the hash of the log. Now the id is random like a new
    game's; the hash is kept apart (``import_key``) so a second import still finds the game."""
    from tracker import service

    log = fixture_log("own-crowns.json", ["Pia", "Quin"], started="2026-11-30T20:00:37Z")
    first = _import(client, log)
    assert first.status_code == 201
    gid = first.get_json()["id"]
    with app.app_context():
        parsed = service._replay_log(log)
        key = archive.log_key(parsed[0], parsed[1], [service.event_to_dict(e) for e in parsed[3]],
                              service._parse_time(log["started"]))
        assert gid != key and not gid.startswith("log-") and service.is_game_id(gid)
        assert db.session.get(Game, gid).import_key == key
    again = _import(client, {**log, "started": "2026-11-30T21:00:37+01:00"})  # the same game, spelled otherwise
    assert again.status_code == 200 and again.get_json()["id"] == gid and _count(client) == 1
    # the same log imported by another table is another game, with another id
    other = _import(client, fixture_log("own-crowns.json", ["Pia", "Quin"], started="2026-11-30T20:05:00Z"))
    assert other.status_code == 201 and other.get_json()["id"] not in (gid, key)
    # a game imported before, under its key as id (the migration gave it that import_key), is found
    older = fixture_log("own-color.json", ["Eve", "Fay"], started="2026-11-29T10:00:00Z")
    with app.app_context():
        parsed = service._replay_log(older)
        old_key = archive.log_key(parsed[0], parsed[1], [service.event_to_dict(e) for e in parsed[3]],
                                  service._parse_time(older["started"]))
    assert _import(client, {**older, "id": old_key}).status_code == 201
    resp = _import(client, older)
    assert resp.status_code == 200 and resp.get_json()["id"] == old_key


def test_a_log_with_no_id_no_start_and_no_entry_is_a_new_game_each_time(client):
    """A tester: an id-less log of a setup alone (no ``started``, no entry) imported twice gave
    back the first game, since moved on by its table. Nothing tells such a setup from another
    table's: each import is a game of its own. A log with entries, or a start, is still found
    again by its content."""
    setup = {"format": "splendor-tracker/1", "game": "duel", "players": ["Xa", "Xb"], "first_player": 0,
             "nobles": None, "events": [], "result": None}
    first = _import(client, setup)
    assert first.status_code == 201
    gid = first.get_json()["id"]
    assert post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).status_code == 200
    again = _import(client, setup)
    assert again.status_code == 201 and again.get_json()["id"] != gid and again.get_json()["version"] == 0
    assert _count(client) == 2
    # with a start, or an entry, the same log is the same game
    started = {**setup, "started": "2026-11-20T19:00:00Z"}
    assert _import(client, started).status_code == 201
    assert _import(client, started).status_code == 200
    one = {**setup, "events": [{"type": "take_tokens", "player": 0, "tokens": {"blue": 1}}]}
    assert _import(client, one).status_code == 201
    assert _import(client, one).status_code == 200
    assert _count(client) == 4


IDLESS = {"format": "splendor-tracker/1", "game": "duel", "players": ["Repro A", "Repro B"], "first_player": 0,
          "nobles": None, "events": TAKES[:2], "result": None}
PLAYED_OTHERWISE = ("This log's game is stored here already and has been played differently since (entries undone "
                    "and others recorded): nothing is imported.")


def _undo_all_then(client, gid: str, event: dict) -> list[dict]:
    for _ in range(2):
        assert client.post(f"/api/games/{gid}/undo").status_code == 200
    assert post(client, gid, event).status_code == 200
    return client.get(f"/api/games/{gid}/log").get_json()["events"]


def test_a_log_imported_again_after_the_table_played_otherwise_adds_nothing(client):
    """A tester: an id-less log imported, both its entries undone and a correction recorded,
    the same file imported again: its second entry was stored after the correction (422, yet
    written), and the game could no longer be opened (500 on its page, on History's export).
    The file is the game as it stood before those undos: nothing of it comes back."""
    gid = _import(client, IDLESS).get_json()["id"]
    correction = {"type": "correction", "player": 1, "set": {"privileges": 2}}
    events = _undo_all_then(client, gid, correction)
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    resp = _import(client, IDLESS)
    assert resp.status_code == 200 and resp.get_json()["version"] == version
    state = client.get(f"/api/games/{gid}").get_json()
    assert state["version"] == version and state["players"][1]["privileges"] == 2
    assert client.get(f"/api/games/{gid}/log").get_json()["events"] == events
    assert client.get(f"/games/{gid}").status_code == 200
    assert client.get("/history/export.json").status_code == 200
    assert client.get("/history/export.csv").status_code == 200
    fresh = fixture_log("own-crowns.json", ["Eun", "Finn"], "2026-11-28T10:00:00Z")
    page = _upload(client, {"format": "splendor-tracker-history/1", "games": [fresh, IDLESS]})
    assert page.status_code == 303
    assert "Imported 1 game; 1 already stored." in client.get(page.headers["Location"]).get_data(as_text=True)
    assert client.get(f"/api/games/{gid}/log").get_json()["events"] == events


def test_entries_the_table_took_back_and_entered_again_stay_taken_back(client):
    """A tester: all four entries undone, the first entered again as it was, the file imported
    again: the three others came back (the file is the game as it stood before the undos)."""
    log = fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-20T19:00:00Z")
    log = {**log, "events": log["events"][:4], "result": None, "finished": None}
    gid = _import(client, log).get_json()["id"]
    for _ in range(4):
        assert client.post(f"/api/games/{gid}/undo").status_code == 200
    assert post(client, gid, log["events"][0]).status_code == 200
    for again in (log, {**log, "id": gid}):
        resp = _import(client, again)
        assert resp.status_code == 200, resp.get_json()
        assert len(client.get(f"/api/games/{gid}/log").get_json()["events"]) == 1
    # a file with entries the game never had in that order is refused, and stores nothing
    longer = {**log, "id": gid, "events": log["events"][:2] + [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}}]}
    assert post(client, gid, log["events"][1]).status_code == 200
    assert post(client, gid, log["events"][2]).status_code == 200
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    resp = _import(client, longer)
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "import_mismatch"
    assert resp.get_json()["error"]["message"] == PLAYED_OTHERWISE
    assert client.get(f"/api/games/{gid}").get_json()["version"] == version


def test_a_log_that_says_when_it_finished_but_not_when_it_started_is_listed_at_its_finish(client):
    log = fixture_log("duel-1102.json", ["Ana", "Ben"])
    log.pop("started", None)
    log["finished"] = "2026-11-29T19:41:50Z"
    resp = _import(client, log)
    assert resp.status_code == 201, resp.get_json()
    listed = client.get("/api/games").get_json()[0]
    assert listed["started"] == listed["finished"] == "2026-11-29T19:41:50Z"
    # unfinished, with a finish time: the time is not the game's (it has not finished)
    part = {**fixture_log("duel-1069.json", ["Cy", "Dee"]), "result": None, "finished": "2026-11-29T19:41:50Z"}
    part["events"] = part["events"][:6]
    part.pop("started", None)
    resp = _import(client, part)
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["status"] == "active"


def test_a_longer_log_with_a_finish_but_no_start_extends_the_game_stored_without_one(client):
    """A tester: a log of 10 entries under a foreign id, no times (its start here: when it was
    imported), then the whole game with its finish (in the past) and still no start: refused as
    "cannot finish before it started". The start was never the log's: it finishes then."""
    full = fixture_log("duel-1102.json", ["Ana", "Ben"])
    full.pop("started", None)
    first = _import(client, {**full, "id": "ext-abc", "events": full["events"][:10], "result": None, "finished": None})
    assert first.status_code == 201
    resp = _import(client, {**full, "id": "ext-abc", "finished": "2026-11-29T19:41:50Z"})
    assert resp.status_code == 200, resp.get_json()
    listed = client.get("/api/games").get_json()[0]
    assert listed["status"] == "finished" and listed["finished"] == listed["started"]
    # a log that gives its start keeps the refusal
    again = _import(client, {**full, "id": "ext-abc", "started": "2026-11-30T19:00:00Z", "finished": "2026-11-29T19:41:50Z"})
    assert again.status_code == 422 and again.get_json()["error"]["code"] == "bad_log"


def test_an_empty_id_is_no_id(client):
    """A tester: ``"id": ""`` was taken as another tool's id, so every later log with an empty id
    was refused as another game stored under it."""
    one = _import(client, {**fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-20T19:00:00Z"), "id": ""})
    two = _import(client, {**fixture_log("duel-1069.json", ["Cy", "Dee"], "2026-11-21T19:00:00Z"), "id": " "})
    assert one.status_code == two.status_code == 201 and _count(client) == 2


def test_a_log_dated_ahead_of_the_server_clock_is_stored_as_starting_now(client):
    """A tester: a log starting 3 hours ahead (a phone's skewed clock) was stored so; finished
    here, the game ended before it started, and no backup holding it could be restored."""
    from datetime import datetime, timedelta, timezone

    ahead = (datetime.now(timezone.utc) + timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
    log = fixture_log("duel-1012.json", ["Ana", "Ben"])
    part = {**log, "started": ahead, "events": log["events"][:-1], "result": None, "finished": None}
    part.pop("id", None)
    gid = _import(client, part).get_json()["id"]
    assert post(client, gid, log["events"][-1]).status_code == 200  # the winning entry, made here
    listed = client.get("/api/games").get_json()[0]
    assert listed["status"] == "finished" and listed["started"] <= listed["finished"]
    exported = client.get(f"/api/games/{gid}/log").get_json()
    assert _import(client, exported).status_code == 200
    backup = client.get("/history/export.json").get_json()
    page = _upload(client, backup)
    assert page.status_code == 303
    # the same file again is still the same game (found by its own start, not the one stored)
    assert _import(client, part).status_code == 200 and _count(client) == 1


def test_an_earlier_export_without_its_id_or_with_an_id_unknown_here_is_the_same_game(client):
    """A tester: an export made before undos, its id removed, was stored as a second game (the
    start matched, but only the entries as they stand were compared); a log imported without its
    id, then with it (an id of this app's form, unknown here), made two games too."""
    log = fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-20T19:00:00Z")
    gid = _import(client, {**log, "events": log["events"][:10], "result": None, "finished": None}).get_json()["id"]
    early = client.get(f"/api/games/{gid}/log").get_json()
    for _ in range(2):
        assert client.post(f"/api/games/{gid}/undo").status_code == 200
    assert post(client, gid, {"type": "replenish", "player": early["events"][8]["player"]}).status_code in (200, 422)
    stored = client.get(f"/api/games/{gid}/log").get_json()["events"]
    idless = {k: v for k, v in early.items() if k != "id"}
    resp = _import(client, idless)
    assert resp.status_code == 200 and resp.get_json()["id"] == gid and _count(client) == 1
    assert client.get(f"/api/games/{gid}/log").get_json()["events"] == stored
    # a log imported without its id, then with an id of ours that names no game here
    other = fixture_log("duel-1069.json", ["Cy", "Dee"], "2026-11-21T19:00:00Z")
    first = _import(client, other).get_json()["id"]
    again = _import(client, {**other, "id": "A" * 32})
    assert again.status_code == 200 and again.get_json()["id"] == first and _count(client) == 2


def test_a_later_backup_with_a_game_played_otherwise_imports_the_rest_of_the_file(client):
    """A tester kept a second instance up to date from backups: the later backup had one game
    played otherwise (undone, other entries) than the earlier copy, and the whole file was refused,
    its new games with it. That game is kept as it is here and said so; the rest imports."""
    log = fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-20T19:00:00Z")
    gid = _import(client, {**log, "events": log["events"][:10], "result": None, "finished": None}).get_json()["id"]
    backup = client.get("/history/export.json").get_json()
    stored = client.get(f"/api/games/{gid}/log").get_json()["events"]
    # the file from the other instance: the game went otherwise there after entry 8; a new game
    otherwise = {**backup["games"][0], "events": log["events"][:8] + [{"type": "take_tokens", "player": log["events"][8]["player"],
                                                                        "tokens": {"pearl": 1}}]}
    fresh = fixture_log("own-crowns.json", ["Eun", "Finn"], "2026-11-28T10:00:00Z")
    later = {**backup, "games": [otherwise, fresh]}
    if _import(client, otherwise).status_code == 422:  # (the take is legal there: else the test means nothing)
        page = _upload(client, later)
        assert page.status_code == 303
        said = client.get(page.headers["Location"]).get_data(as_text=True)
        assert "Imported 1 game." in said
        assert "1 stored game has other entries than the file's (played otherwise here or in the file): it is kept as it is here." in said
        assert client.get(f"/api/games/{gid}/log").get_json()["events"] == stored and _count(client) == 2
    else:
        raise AssertionError("the other instance's entry was refused by the rules")


def test_the_export_of_a_game_imported_under_another_tools_id_is_found_by_that_file_elsewhere(client, app):
    """A breaker: a log under another tool's id ("bga-table-998877") imported here is exported
    under our id; on another instance that export, then the original file, were stored as two
    games. The export carries the keys the file found the game by (``import_keys``): each finds
    the other, in either order; keys naming another table's game are ignored."""
    original = {**fixture_log("splendor-153.json", ["Hana", "Ben"]), "id": "bga-table-998877"}
    original.pop("started", None)
    first = _import(client, original)
    assert first.status_code == 201
    export = client.get(f"/api/games/{first.get_json()['id']}/log").get_json()
    assert export["id"] == first.get_json()["id"] and "id" in export["import_keys"]

    def forget_all() -> None:  # another instance: an empty database
        with app.app_context():
            from tracker.models import Event
            db.session.query(Event).delete()
            db.session.query(Game).delete()
            db.session.commit()

    forget_all()  # the export first, then the original file: one game
    assert _import(client, export).status_code == 201
    assert _import(client, original).status_code == 200 and _count(client) == 1
    forget_all()  # the original file first, then an export made elsewhere (another of our ids)
    assert _import(client, original).status_code == 201
    elsewhere = {**export, "id": "Z" * len(export["id"])}
    assert _import(client, elsewhere).status_code == 200 and _count(client) == 1
    # keys naming a game of other players are no such game: a game of its own
    other_players = {**elsewhere, "players": ["Ola", "Per"], "id": "Y" * len(export["id"])}
    assert _import(client, other_players).status_code == 201 and _count(client) == 2


@pytest.mark.parametrize("meanwhile", ["undo", "entry"])
def test_a_write_landing_while_a_log_extends_its_game_is_judged_not_a_version_conflict(client, monkeypatch, meanwhile):
    """A breaker raced an import extending a game with a phone's write: 409 ``version_conflict``,
    for an import that sends no ``expected_version``. The log is judged again on the game as it
    then is: played otherwise (an undo) is ``import_mismatch``; the phone's entry being the
    log's next one, the rest is added."""
    from tracker import service

    full = {**fixture_log("duel-1012.json", ["Ana", "Ben"], started="2026-11-20T19:00:00Z"), "id": "raced-game"}
    early = {**full, "events": full["events"][:20], "result": None, "finished": None}
    first = _import(client, early)
    assert first.status_code == 201
    gid = first.get_json()["id"]
    undid, landed = service._undid, []

    def write_meanwhile(game_id, entry):
        if not landed:  # once, between the import's read of the game and its write
            landed.append(meanwhile)
            if meanwhile == "undo":
                service.undo(game_id, expected_version=20)
            else:
                service.post_event(game_id, full["events"][20], expected_version=20)
        return undid(game_id, entry)

    monkeypatch.setattr(service, "_undid", write_meanwhile)
    resp = _import(client, full)
    assert landed == [meanwhile]
    log = client.get(f"/api/games/{gid}/log").get_json()["events"]
    if meanwhile == "undo":
        assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "import_mismatch"
        assert log == full["events"][:19] and client.get(f"/api/games/{gid}").get_json()["version"] == 21
    else:
        assert resp.status_code == 200 and resp.get_json()["version"] == len(full["events"])
        assert log == full["events"]
