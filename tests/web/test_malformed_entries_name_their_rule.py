"""A malformed entry's refusal names the rule of its type (GAME-LOG.md: ``rule`` is the rule id;
a contract checker found ``rule: ""`` on every shape error): a take of -1 red is D-5, a Splendor
purchase naming no card S-2.4. What is not an entry of a known type names the turn (D-2, S-2);
what concerns the request itself (its body, its version) names no rule."""

from __future__ import annotations

import pytest
from helpers import new_game, post

SPLENDOR = {"game": "splendor", "players": ["Ana", "Ben", "Cy"], "first_player": 0,
            "nobles": ["N-01", "N-02", "N-03", "N-04"]}


def refused(resp) -> tuple[str, str]:
    assert resp.status_code == 422, resp.get_json()
    err = resp.get_json()["error"]
    return err["code"], err["rule"]


@pytest.mark.parametrize(("event", "rule"), [
    ({"type": "take_tokens", "player": 0, "tokens": {"red": -1}}, "D-5"),
    ({"type": "take_tokens", "player": 0, "tokens": {"purple": 1}}, "D-5"),
    ({"type": "take_tokens", "player": 0}, "D-5"),
    ({"type": "use_privileges", "player": 0, "tokens": "red"}, "D-3.1"),
    ({"type": "reserve", "player": 0}, "D-6"),
    ({"type": "purchase", "player": 0, "card": "D1-01", "wild_color": "gold"}, "D-7"),
    ({"type": "take_royal", "player": 0}, "D-9"),
    ({"type": "discard", "player": 0, "tokens": {"red": 1.5}}, "D-10"),
    ({"type": "correction", "player": 0, "set": {"cards": []}}, "D-12"),
    ({"type": "take_tokens", "player": 2, "tokens": {"red": 1}}, "D-5"),
    ({"type": "shuffle", "player": 0}, "D-2"),
    ({"type": 7, "player": 0}, "D-2"),
    ({"type": "take_noble", "player": 0, "noble": "N-01"}, "D-2"),
])
def test_a_malformed_duel_entry_names_the_rule_of_its_type(client, event, rule):
    gid = new_game(client)["id"]
    assert refused(post(client, gid, event)) == ("bad_event", rule)
    assert client.get(f"/api/games/{gid}").get_json()["version"] == 0  # nothing stored


@pytest.mark.parametrize(("event", "rule"), [
    ({"type": "take_tokens", "player": 0, "tokens": {"red": "two"}}, "S-2.1"),
    ({"type": "purchase", "player": 0}, "S-2.4"),
    ({"type": "reserve", "player": 0, "card": "S1-01", "level": 1}, "S-2.3"),
    ({"type": "discard", "player": 0, "tokens": []}, "S-3.1"),
    ({"type": "take_noble", "player": 0}, "S-3.2"),
    ({"type": "take_royal", "player": 0, "royal": "DR-1"}, "S-2"),
    ({"type": "take_tokens", "player": 3, "tokens": {"red": 1}}, "S-2.1"),
])
def test_a_malformed_splendor_entry_names_the_rule_of_its_type(client, event, rule):
    resp = client.post("/api/games", json=SPLENDOR)
    assert resp.status_code == 201
    gid = resp.get_json()["id"]
    assert refused(post(client, gid, event)) == ("bad_event", rule)


def test_what_concerns_the_request_names_no_rule(client):
    gid = new_game(client)["id"]
    assert refused(client.post(f"/api/games/{gid}/events", json=[1, 2])) == ("bad_event", "")
    assert refused(post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}},
                        expected_version="x")) == ("bad_event", "")


def test_an_imported_log_with_a_malformed_entry_names_its_rule(client):
    log = {"format": "splendor-tracker/1", "game": "duel", "players": ["Ana", "Ben"], "first_player": 0,
           "events": [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}},
                      {"type": "take_tokens", "player": 1, "tokens": {"red": -2}}]}
    resp = client.post("/api/games/import", json=log)
    assert resp.status_code == 422
    err = resp.get_json()["error"]
    assert err["code"] == "bad_log" and err["rule"] == "D-5" and "Event 2" in err["message"], err
