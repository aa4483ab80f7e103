"""Input a new tester threw at the app: each is refused with a clear message (or made harmless),
never a 500, never one person in two seats, never a formula in an exported cell."""

from __future__ import annotations

import csv
import io

import pytest
from helpers import fixture_log, import_log, new_game

from tracker import service


@pytest.mark.parametrize("session", ["9223372036854775808", "99999999999999999999", "-5", "0", "abc"])
def test_a_series_id_no_database_holds_is_no_series_and_no_500(client, session):
    home = client.get(f"/?session={session}")
    assert home.status_code == 200 and 'name="best_of" value="3"' in home.get_data(as_text=True)
    refused = client.post("/games", data={"player0": "Kai", "player1": "Lu", "first": "9", "session": session})
    assert refused.status_code == 422 and "Choose who starts" in refused.get_data(as_text=True)


@pytest.mark.parametrize(("one", "other"), [("Jo Jo", "Jo  Jo"), ("Ｋim", "Kim"), ("a", "Ａ"), ("ℌ", "H"), ("Ⅳ", "iv")])
def test_two_spellings_of_one_person_cannot_take_both_seats(client, one, other):
    """Setup tells names apart as people are told apart (case, width, compatibility forms,
    spacing): the same person twice is refused, not seated twice."""
    resp = client.post("/api/games", json={"game": "duel", "players": [one, other], "first_player": 0})
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "bad_setup"
    assert resp.get_json()["error"]["message"] == "Each player needs a different name."
    assert client.post("/games", data={"player0": one, "player1": other, "first": "0"}).status_code == 422


def test_exported_names_are_never_spreadsheet_formulas(client):
    new_game(client, ("=1+2", "@SUM(A1)"))
    rows = list(csv.DictReader(io.StringIO(client.get("/history/export.csv").get_data().decode("utf-8-sig"))))
    assert rows[0]["p1_name"] == "'=1+2" and rows[0]["p2_name"] == "'@SUM(A1)"
    assert rows[0]["players"] == "'=1+2 · @SUM(A1)"
    assert client.get("/api/games").get_json()[0]["players"] == ["=1+2", "@SUM(A1)"]  # stored as typed


def test_a_stored_id_does_not_spare_an_import_its_checks(client):
    game = import_log(client, fixture_log("duel-1012.json", ["Ana", "Ben"]))
    for body in ({"id": game["id"]}, {"id": game["id"], "format": "splendor-tracker/1", "game": "splendor", "events": "x"}):
        resp = client.post("/api/games/import", json=body)
        assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "bad_log", body
    again = client.post("/api/games/import", json={**fixture_log("duel-1012.json", ["Ana", "Ben"]), "id": game["id"]})
    assert again.status_code == 200 and again.get_json()["id"] == game["id"]  # the same log: stored once


def test_a_log_time_with_a_control_character_is_refused(client):
    """A breaker's ``started`` of "2026-11-29T19:02:11\\u0000Z" was read as a time (Python's
    ``fromisoformat`` takes a NUL there): ``bad_log``, nothing stored; the plain time imports."""
    log = fixture_log("duel-1012.json", ["Ana", "Ben"])
    for bad in ("2026-11-29T19:02:11\x00Z", "2026-11-29T19:02:11\tZ", "２０２６-11-29T19:02:11Z"):
        resp = client.post("/api/games/import", json={**log, "started": bad})
        assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "bad_log", bad
    assert client.get("/api/games").get_json() == []
    resp = client.post("/api/games/import", json={**log, "started": "2026-11-29T19:02:11Z"})
    assert resp.status_code == 201
    assert [g["started"] for g in client.get("/api/games").get_json()] == ["2026-11-29T19:02:11Z"]


def test_a_finished_log_without_its_end_time_is_not_said_to_end_at_the_import(app, client):
    log = fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-05-01T19:00:00Z")
    log.pop("finished", None)
    game = import_log(client, log)
    row = service.game_row(game["id"])
    assert row.status == "finished" and row.finished is None
    page = client.get("/history").get_data(as_text=True)
    assert " h " not in page.split(game["id"])[0][-400:]  # no "5123 h 56 min"


@pytest.mark.parametrize(("body", "message"), [
    ({"type": ["take_tokens"], "player": 0}, 'An entry needs its type as text, e.g. "take_tokens".'),
    ({"player": 0}, 'An entry needs its type as text, e.g. "take_tokens".'),
    ({"type": "take_everything", "player": 0}, "Unknown entry type: take_everything."),
])
def test_an_entry_without_a_type_in_words_says_so_without_python_syntax(client, body, message):
    game = new_game(client)
    resp = client.post(f"/api/games/{game['id']}/events", json=body)
    assert resp.status_code == 422 and resp.get_json()["error"]["message"] == message


def test_a_game_named_by_a_list_is_refused_in_words(client):
    resp = client.post("/api/games", json={"game": ["duel"], "players": ["Ana", "Ben"], "first_player": 0})
    assert resp.status_code == 422 and resp.get_json()["error"]["message"] == "The game must be named: duel or splendor."


def test_a_spectator_s_write_gets_the_app_s_own_page(client):
    game = new_game(client)
    sid = service.spectator_id(game["id"])
    resp = client.post(f"/watch/{sid}/events", data={"event": "{}"})
    assert resp.status_code == 403 and "spectator link" in resp.get_data(as_text=True) and "<main" in resp.get_data(as_text=True)


def test_a_name_that_swells_when_matched_is_refused_not_a_500(client):
    """Nine "ﷺ" (162 letters once matched) overflowed PostgreSQL's key column: a 500. Refused
    as too long (422), by the API and the form, and nothing is stored."""
    resp = client.post("/api/games", json={"game": "duel", "players": ["ﷺ" * 9, "Ben"], "first_player": 0})
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "bad_setup"
    form = client.post("/games", data={"player0": "ﷺ" * 9, "player1": "Ben", "first": "0"})
    assert form.status_code == 422 and "1 to 40 characters" in form.get_data(as_text=True)
    assert client.get("/api/games").get_json() == []


@pytest.mark.parametrize("event", ["0", "-1", "1.5", "1e400", "NaN", '"x"', "[]", "null", "true"])
def test_an_entry_field_that_is_json_but_no_object_is_refused_by_the_fix_preview_too(client, event):
    """A tester's fix-preview with ``event=0`` (JSON, but no object) answered 500: it says what
    an entry must be, as the save does (422), and stores nothing."""
    game = new_game(client)
    said = client.get(f"/games/{game['id']}/fix-preview", query_string={"event": event}, headers={"HX-Request": "true"})
    assert said.status_code == 200 and "An entry must be a JSON object." in said.get_data(as_text=True)
    saved = client.post(f"/games/{game['id']}/events", data={"event": event}, headers={"HX-Request": "true"})
    assert saved.status_code == 422
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


@pytest.mark.parametrize("typed", ["٣", "３", "1_0", " 1.5", "1e1", "+1"])
def test_an_id_is_ascii_digits_only(client, typed):
    """``int()`` reads "٣" (Arabic-Indic three) and "３": a tester merged a player by posting one.
    A form's player id is ASCII digits only, else refused with the form's sentence."""
    import_log(client, fixture_log("own-prestige.json", ["Ana", "Ben"], "2026-11-01T19:00:00Z"))
    import_log(client, fixture_log("own-crowns.json", ["Ana", "Benny"], "2026-11-02T19:00:00Z"))
    import re

    listing = client.get("/players").get_data(as_text=True)
    ids = {n: int(i) for i, n in re.findall(r'href="/players/(\d+)">([^<]+)<', listing)}
    resp = client.post(f"/players/{ids['Ben']}/merge", data={"other": typed, "confirm": "yes"})
    assert resp.status_code == 422 and "Choose the other player" in resp.get_data(as_text=True)
    assert sorted(re.findall(r'href="/players/\d+">([^<]+)<', client.get("/players").get_data(as_text=True))) == \
        ["Ana", "Ben", "Benny"]


def test_a_form_entry_naming_a_member_twice_is_refused_and_records_nothing(client):
    """The phone's form posts its entry as JSON: ``{"red": 1, "red": 3}`` is refused (422 with the
    name in the reason, in the sheet for htmx), not recorded as either count."""
    game = new_game(client)
    event = '{"type": "take_tokens", "player": 0, "tokens": {"red": 1, "red": 3}}'
    resp = client.post(f"/games/{game['id']}/events", data={"event": event, "expected_version": "0"},
                       headers={"HX-Request": "true"})
    assert resp.status_code == 422 and "gives &#34;red&#34; twice in one object" in resp.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0
