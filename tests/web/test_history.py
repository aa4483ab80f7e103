"""The history page: every game newest first, filters, reversible deletion, table sessions,
export (JSON, CSV) and import from the page and the command line."""

from __future__ import annotations

import csv
import io
from contextlib import contextmanager
import json
import re

import flask_babel
import pytest
from flask_migrate import upgrade
from helpers import fixture_log, import_log, load_fixture, new_game, play
from sqlalchemy import event, select

from tracker import create_app
from tracker.db import db
from tracker.models import Game, SessionGame, TableSession

HX = {"HX-Request": "true"}


def app_config(uri: str) -> dict:
    """Settings for a second app (a restore target) on ``uri``."""
    return {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": uri, "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False}


def listed(page: str) -> list[str]:
    """Game ids in the order the page lists them."""
    return re.findall(r'<li class="game-row[^"]*" data-game="([^"]+)"', page)


def row_of(page: str, game_id: str) -> str:
    start = page.index(f'data-game="{game_id}"')
    return page[start:page.index("</li>", start)]


@pytest.fixture
def three_games(client):
    """A finished Duel (Ana beats Cho by prestige), a finished Splendor, an active Duel (Ana, Ben)."""
    duel = import_log(client, fixture_log("own-prestige.json", ["Ana", "Cho"], "2026-11-01T19:00:00Z", minutes=47))
    splendor = import_log(client, fixture_log("splendor-153.json", ["Ben", "Dee"], "2026-11-05T20:00:00Z"))
    active = new_game(client, ("Ana", "Ben"))
    play(client, active["id"], [{"type": "take_tokens", "player": 0, "tokens": {"pearl": 1}}])
    return duel, splendor, active


def test_history_lists_every_game_newest_first_with_its_facts(client, three_games):
    duel, splendor, active = three_games
    page = client.get("/history").get_data(as_text=True)
    assert listed(page) == [active["id"], splendor["id"], duel["id"]]
    row = row_of(page, duel["id"])
    assert "Ana" in row and "Cho" in row and "DUEL" in row.upper()
    assert "Ana won" in row and "20 prestige" in row and "66 turns" in row and "47 min" in row
    assert "finished" in row and f"/games/{duel['id']}/review" in row and "Resume" not in row
    row = row_of(page, splendor["id"])
    assert "Dee won" in row and "64 turns" in row and "Splendor" in row
    row = row_of(page, active["id"])
    assert "in progress" in row and f'href="/games/{active["id"]}"' in row and "Resume" in row
    assert "Sunday, November 1, 2026" in page and "Thursday, November 5, 2026" in page


@pytest.mark.parametrize("query, expected", [
    ("player={ana}", ["active", "duel"]),
    ("player={dee}", ["splendor"]),
    ("kind=splendor", ["splendor"]),
    ("kind=duel", ["active", "duel"]),
    ("status=active", ["active"]),
    ("status=finished", ["splendor", "duel"]),
    ("kind=duel&status=finished&player={cho}", ["duel"]),
    ("status=deleted", []),
])
def test_history_filters_by_player_kind_and_status(client, three_games, query, expected):
    duel, splendor, active = three_games
    games = {"duel": duel["id"], "splendor": splendor["id"], "active": active["id"]}
    page = client.get("/players").get_data(as_text=True)
    ids = {name.lower(): pid for pid, name in re.findall(r'href="/players/(\d+)">([^<]+)<', page)}
    url = "/history?" + query.format(**ids)
    assert listed(client.get(url).get_data(as_text=True)) == [games[k] for k in expected]
    fragment = client.get(url, headers=HX).get_data(as_text=True)
    assert "<html" not in fragment and fragment.lstrip().startswith("<section id=\"games\"")
    assert listed(fragment) == [games[k] for k in expected]


def test_deleting_asks_first_and_can_be_undone(client, three_games):
    duel, _splendor, _active = three_games
    confirm = client.get(f"/history/{duel['id']}/delete")
    assert confirm.status_code == 200 and "Delete this game?" in confirm.get_data(as_text=True)
    assert duel["id"] in listed(client.get("/history").get_data(as_text=True))  # asking deleted nothing

    resp = client.post(f"/history/{duel['id']}/delete")
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/history?deleted={duel['id']}")
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert duel["id"] not in listed(page) and "can be restored" in page
    assert f'action="/history/{duel["id"]}/restore"' in page
    assert duel["id"] not in [g["id"] for g in client.get("/api/games").get_json()]
    deleted = client.get("/history?status=deleted").get_data(as_text=True)
    assert listed(deleted) == [duel["id"]] and "Restore" in deleted
    assert f'<a class="button review" href="/games/{duel["id"]}/review"' in deleted  # (looked at before it is restored)
    assert client.get(f"/api/games/{duel['id']}").get_json()["winner"] == {"player": 0, "routes": ["prestige"]}
    # its review says so too, and restores it right there (it read as any finished game; its link
    # led to the game screen, where the restore button sat under the victory pop-up)
    review = client.get(f"/games/{duel['id']}/review").get_data(as_text=True)
    assert 'id="review-deleted"' in review and "left out of History's tallies" in review
    form = re.search(r'<form method="post" action="/history/([^/]+)/restore" class="inline-form" id="review-restore-form">(.*?)</form>', review, re.S)
    assert form and form.group(1) == duel["id"] and 'name="next" value="review"' in form.group(2)
    assert 'id="review-restore"' in form.group(2)
    at_ten = client.get(f"/games/{duel['id']}/review?turn=10").get_data(as_text=True)
    assert '<input type="hidden" name="turn" value="10" form="review-restore-form">' in at_ten
    # a turn stepped to (htmx: the replay alone) carries its own number for Restore (it restored at turn 10)
    stepped = client.get(f"/games/{duel['id']}/review?turn=8", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert '<input type="hidden" name="turn" value="8" form="review-restore-form">' in stepped
    back = client.post(f"/history/{duel['id']}/restore", data={"next": "review", "turn": "10"})
    assert back.status_code == 303 and back.headers["Location"].endswith(f"/games/{duel['id']}/review?turn=10&restored=1")
    restored = client.get(back.headers["Location"]).get_data(as_text=True)
    assert 'id="review-deleted"' not in restored and 'id="review-restored"' in restored and 'data-turn="10"' in restored
    assert client.post(f"/history/{duel['id']}/delete").status_code == 303

    resp = client.post(f"/history/{duel['id']}/restore")
    assert resp.status_code == 303
    assert 'id="review-deleted"' not in client.get(f"/games/{duel['id']}/review").get_data(as_text=True)
    assert duel["id"] in listed(client.get("/history").get_data(as_text=True))
    assert listed(client.get("/history?status=deleted").get_data(as_text=True)) == []
    assert client.post("/history/no-such-game-abcdefghijklmnop/delete").status_code == 404
    restored_page = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert 'id="restored-notice"' in restored_page
    assert f'<a href="/games/{duel["id"]}/review" id="restored-review">Review it</a>' in restored_page  # (a link away)
    # the notice is the game's as it is: the page after the delete, reloaded once it is restored,
    # or a made-up id offers to restore nothing (its Restore answered 404)
    for url in (f"/history?deleted={duel['id']}", "/history?deleted=nope", "/history?deleted=no-such-game-abcdefghijklmnop",
                "/history?restored=nope", "/history?deleted=%00"):
        page = client.get(url)
        assert page.status_code == 200, url
        assert "notice" not in page.get_data(as_text=True).split('id="notices"')[1].split("</div>")[0], url


def test_a_delete_from_a_filtered_list_lands_on_that_list_and_so_does_its_restore(client, three_games):
    """A tester deleted a game from Ana's Duels and landed on everyone's games: the Delete link, the
    confirm page (its Keep it and its form) and the Restore button pass the filters on."""
    duel, _splendor, active = three_games
    ana = re.search(r'href="/players/(\d+)">Ana<', client.get("/players").get_data(as_text=True)).group(1)
    page = client.get(f"/history?player={ana}&kind=duel").get_data(as_text=True)
    link = re.search(r'<a class="button delete" href="([^"]+)"', row_of(page, duel["id"])).group(1)
    assert link == f"/history/{duel['id']}/delete?player={ana}&amp;kind=duel"
    confirm = client.get(link.replace("&amp;", "&")).get_data(as_text=True)
    assert f'id="keep">Keep it' in confirm and f'href="/history?player={ana}&amp;kind=duel" id="keep"' in confirm
    fields = dict(re.findall(r'<input type="hidden" name="(player|kind|with|status)" value="([^"]*)">', confirm))
    assert fields == {"player": ana, "kind": "duel"}
    resp = client.post(f"/history/{duel['id']}/delete", data={**fields, "status": "bogus", "with": "x"})
    assert resp.status_code == 303 and resp.headers["Location"] == f"/history?player={ana}&kind=duel&deleted={duel['id']}"
    landed = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert listed(landed) == [active["id"]] and 'id="deleted-notice"' in landed
    assert f'<option value="{ana}" selected' in landed
    notice = landed.split('id="deleted-notice"')[1].split("</form>")[0]
    assert dict(re.findall(r'<input type="hidden" name="(player|kind)" value="([^"]*)">', notice)) == fields
    back = client.post(f"/history/{duel['id']}/restore", data=fields)
    assert back.headers["Location"] == f"/history?player={ana}&kind=duel&restored={duel['id']}"
    assert listed(client.get(back.headers["Location"]).get_data(as_text=True)) == [active["id"], duel["id"]]
    # from the deleted games' list, a row's Restore goes back there
    client.post(f"/history/{duel['id']}/delete")
    deleted = client.get("/history?status=deleted").get_data(as_text=True)
    assert '<input type="hidden" name="status" value="deleted">' in row_of(deleted, duel["id"])
    assert client.post(f"/history/{duel['id']}/restore", data={"status": "deleted"}).headers["Location"] == \
        f"/history?status=deleted&restored={duel['id']}"


def test_a_delete_from_a_players_page_lands_on_that_players_games(client, three_games):
    """A tester deleted a game from Ben's page and landed on everyone's History: the player
    page's Delete passes the player on, as a filtered History's does."""
    duel, _splendor, _active = three_games
    ana = re.search(r'href="/players/(\d+)">Ana<', client.get("/players").get_data(as_text=True)).group(1)
    page = client.get(f"/players/{ana}").get_data(as_text=True)
    link = re.search(r'<a class="button delete" href="([^"]+)"', row_of(page, duel["id"])).group(1)
    assert link == f"/history/{duel['id']}/delete?player={ana}"
    confirm = client.get(link).get_data(as_text=True)
    fields = dict(re.findall(r'<input type="hidden" name="(player|kind|with|status)" value="([^"]*)">', confirm))
    resp = client.post(f"/history/{duel['id']}/delete", data=fields)
    assert resp.headers["Location"] == f"/history?player={ana}&deleted={duel['id']}"


def test_a_link_to_a_player_nobody_is_shows_everyones_games_and_says_so(client, three_games):
    """``/history?player=<an id nobody has>`` said "No games match" under a filter reading "everyone"."""
    page = client.get("/history?player=9999").get_data(as_text=True)
    assert "No player here has that link: these are everyone's games." in page
    assert len(listed(page)) == 3 and "No games match" not in page
    assert 'id="unknown-player"' not in client.get("/history").get_data(as_text=True)
    assert 'id="unknown-player"' in client.get("/history?player=abc").get_data(as_text=True)


def test_a_deleted_game_records_nothing_until_it_is_restored(client, three_games):
    """A second phone still showing a deleted game cannot write into it (API and screen alike:
    422 ``game_deleted``, nothing stored); the game's screen says it was deleted and restores
    it in one tap, back to the same screen, where entries work again."""
    _duel, _splendor, active = three_games
    game_id = active["id"]
    version = client.get(f"/api/games/{game_id}").get_json()["version"]
    assert client.post(f"/history/{game_id}/delete").status_code == 303
    take = {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}
    for expected in (version, None):
        refused = client.post(f"/api/games/{game_id}/events", json={**take, "expected_version": expected})
        assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "game_deleted"
    assert client.post(f"/api/games/{game_id}/undo", json={}).get_json()["error"]["code"] == "game_deleted"
    # the state says so (a tester read "status": "active" and nothing else)
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["deleted"] is True and state["status"] == "active" and state["version"] == version
    # The second phone's poll brings the deleted screen at once (the version did not change)...
    polled = client.get(f"/games/{game_id}/poll?v={version}&n={version}", headers={"HX-Request": "true"})
    assert polled.status_code == 200 and 'id="restore-game"' in polled.get_data(as_text=True)
    assert f"poll?v={version}&amp;n=" in polled.get_data(as_text=True) and "&amp;d=1" in polled.get_data(as_text=True)
    deleted_poll = polled.get_data(as_text=True).split('hx-get="', 2)[1].split('"')[0].replace("&amp;", "&")
    assert client.get(deleted_poll, headers={"HX-Request": "true"}).status_code == 204
    # ...and an entry from a screen drawn before is answered with that screen, saying why.
    form = client.post(f"/games/{game_id}/events", headers={"HX-Request": "true"},
                       data={"event": json.dumps(take), "expected_version": str(version)})
    body = form.get_data(as_text=True)
    assert form.status_code == 409 and "This game was deleted" in body and 'id="restore-game"' in body
    assert client.get(f"/api/games/{game_id}").get_json()["version"] == version
    screen = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "nothing can be recorded in it until it is restored" in screen
    assert 'id="restore-game"' in screen and 'id="action-take"' not in screen

    restored = client.post(f"/history/{game_id}/restore", data={"next": "game"})
    assert client.get(deleted_poll, headers={"HX-Request": "true"}).status_code == 200  # restored: redrawn
    assert restored.status_code == 303 and restored.headers["Location"] == f"/games/{game_id}"
    assert 'id="action-take"' in client.get(f"/games/{game_id}").get_data(as_text=True)
    assert client.post(f"/api/games/{game_id}/events", json={**take, "expected_version": version}).status_code == 200
    assert "deleted" not in client.get(f"/api/games/{game_id}").get_json()


def test_history_needs_a_fixed_number_of_queries(app, client):
    def count_queries() -> int:
        seen = []
        listener = lambda *args: seen.append(1)  # noqa: E731
        event.listen(db.engine, "before_cursor_execute", listener)
        try:
            assert client.get("/history").status_code == 200
        finally:
            event.remove(db.engine, "before_cursor_execute", listener)
        return len(seen)

    import_log(client, fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-01T19:00:00Z"))
    client.get("/history")  # first visit attaches nothing new; warm up
    few = count_queries()
    for i, name in enumerate(["duel-1069.json", "duel-1102.json", "own-color.json", "splendor-153.json"]):
        import_log(client, fixture_log(name, [f"P{i}", f"Q{i}"], f"2026-11-0{i + 2}T19:00:00Z"))
    client.get("/history")
    assert count_queries() == few


def test_games_on_one_day_between_the_same_people_form_a_session_with_a_tally(client):
    import_log(client, fixture_log("own-prestige.json", ["Ana", "Ben"], "2026-11-07T19:00:00Z"))
    import_log(client, fixture_log("own-color.json", ["Ana", "Ben"], "2026-11-07T20:00:00Z"))
    import_log(client, fixture_log("duel-1102.json", ["Ana", "Ben"], "2026-11-07T21:00:00Z"))  # Ben wins
    import_log(client, fixture_log("own-crowns.json", ["Ana", "Ben"], "2026-11-08T19:00:00Z"))  # next day
    import_log(client, fixture_log("duel-1069.json", ["Ana", "Cho"], "2026-11-07T22:00:00Z"))  # other people
    page = client.get("/history").get_data(as_text=True)
    tallies = re.findall(r'data-field="tally">([^<]+)<', page)
    assert tallies == ["Ana 2 – 1 Ben"]
    nights = [n for n in page.split('<section class="night')[1:]]
    assert [len(listed(n)) for n in nights] == [1, 1, 3]  # Ana–Ben on the 8th, Ana–Cho, Ana–Ben on the 7th
    assert "Sunday, November 8, 2026" in nights[0] and "Ana 2 – 1 Ben" in nights[2]


def test_a_game_night_is_the_readers_local_evening_past_midnight_included(client):
    """Games between the same people form one session by the evening they were played in the
    reader's time zone (a day from 6 a.m. to 6 a.m.), not by their UTC date: in New York 23:30 and
    00:20 UTC are 6:30 and 7:20 PM of one evening; in Seoul 23:30 and 00:20 are one night too."""
    import flask_babel

    first = import_log(client, fixture_log("duel-1012.json", ["Ana", "Cho"], "2026-01-16T23:30:00Z"))  # Ana wins
    second = import_log(client, fixture_log("duel-1069.json", ["Cho", "Ana"], "2026-01-17T00:20:00Z"))  # Cho wins
    client.set_cookie("tz", "America/New_York")
    flask_babel.refresh()
    page = client.get("/history").get_data(as_text=True)
    assert re.findall(r'data-field="tally">([^<]+)<', page) == ["Ana 1 – 1 Cho"]
    assert page.count('<section class="night') == 1 and "Friday, January 16, 2026" in page
    banner = client.get(f"/games/{second['id']}").get_data(as_text=True)
    assert "Friday, January 16, 2026: <b>Ana 1 – 1 Cho</b>" in banner  # a past night by its day, not "Tonight"
    # in Seoul: 14:30 and 15:20 UTC are 23:30 and 00:20, one night; 21:30 UTC (6:30 the next
    # morning) starts another day
    import_log(client, fixture_log("own-prestige.json", ["Dee", "Eve"], "2026-02-01T14:30:00Z"))
    import_log(client, fixture_log("own-color.json", ["Dee", "Eve"], "2026-02-01T15:20:00Z"))
    import_log(client, fixture_log("own-crowns.json", ["Dee", "Eve"], "2026-02-01T21:30:00Z"))
    client.set_cookie("tz", "Asia/Seoul")
    flask_babel.refresh()
    page = client.get("/history?player=" + re.search(r'/players/(\d+)">Dee<', client.get("/players").get_data(
        as_text=True))[1]).get_data(as_text=True)
    nights = page.split('<section class="night')[1:]
    assert [len(listed(n)) for n in nights] == [1, 2]
    # in UTC the first two are one day too, and the New York pair splits at midnight no more than
    # by the 6 a.m. turn: 23:30 and 00:20 UTC are one night
    client.set_cookie("tz", "UTC")
    flask_babel.refresh()
    page = client.get("/history").get_data(as_text=True)
    assert "Ana 1 – 1 Cho" in page
    assert first["id"] in page


def test_days_and_times_are_shown_in_the_readers_language_and_time_zone(client):
    """The phone's time zone (the ``tz`` cookie app.js sets) and language: 19:00 UTC on the 8th
    is 04:00 on Monday the 9th in Seoul, Sunday's game night (its row says its date); an
    unknown zone falls back to UTC."""
    import flask_babel

    game = import_log(client, fixture_log("own-crowns.json", ["Ana", "Ben"], "2026-11-08T19:00:00Z"))
    client.set_cookie("tz", "Asia/Seoul")
    client.set_cookie("lang", "ko")
    flask_babel.refresh()  # the test's app context keeps the locale chosen by the import
    page = client.get("/history").get_data(as_text=True).replace(game["id"], "")  # (a random id may hold "Nov")
    assert "2026년 11월 8일 일요일" in page and "2026. 11. 9. 오전 4:00" in page and "Nov" not in page
    assert "2026년 11월 8일 일요일 밤 ~ 다음 날 새벽" in page  # (a game after midnight: its row says its date)
    review = client.get(f"/games/{game['id']}/review").get_data(as_text=True).replace(game["id"], "")
    assert "2026. 11. 9. 오전 4:00" in review and "UTC" not in review  # Korean joins date and time without a comma
    flask_babel.refresh()
    client.set_cookie("tz", "Mars/Olympus_Mons")
    client.set_cookie("lang", "en")
    page = client.get("/history").get_data(as_text=True)
    assert "Sunday, November 8, 2026" in page and "7:00 PM" in page
    assert "until after midnight" not in page  # 7 PM: no game after midnight


def test_impossible_times_are_refused_at_import_and_never_break_the_history(app, client):
    """A log dated in the year 9999 is refused (bad_log); a game stored with such a time anyway
    (an older release accepted it) still lets the history load in a zone ahead of UTC."""
    from datetime import datetime

    import flask_babel

    from tracker.db import db
    from tracker.models import Game

    log = fixture_log("own-crowns.json", ["Ana", "Ben"], "9999-12-30T00:00:00Z")
    resp = client.post("/api/games/import", json=log)
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "bad_log"
    game = import_log(client, fixture_log("own-crowns.json", ["Ana", "Ben"]))
    with app.app_context():
        row = db.session.get(Game, game["id"])
        row.started = datetime(9999, 12, 31, 23, 59, 59)
        db.session.commit()
    client.set_cookie("tz", "Asia/Seoul")
    flask_babel.refresh()
    page = client.get("/history")
    assert page.status_code == 200 and "9999-12-31" in page.get_data(as_text=True)
    assert client.get(f"/games/{game['id']}/review").status_code == 200


def test_a_best_of_three_session_is_started_and_continued_from_the_home_page(app, client):
    home = client.get("/").get_data(as_text=True)
    assert 'name="best_of" value="3"' in home and 'href="/history"' in home
    resp = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0", "best_of": "3"})
    first_id = resp.headers["Location"].rsplit("/", 1)[-1]
    session_id = db.session.get(SessionGame, first_id).session_id
    home = client.get(f"/?session={session_id}&player0=Ana&player1=Ben").get_data(as_text=True)
    assert "Game 2 of best of 3" in home and "Ana 0 – 0 Ben" in home
    assert f'name="session" value="{session_id}"' in home and 'name="best_of"' not in home
    resp = client.post("/games", data={"player0": "ana", "player1": "BEN", "first": "1", "session": str(session_id)})
    second_id = resp.headers["Location"].rsplit("/", 1)[-1]
    assert db.session.get(SessionGame, second_id).session_id == session_id
    # Other people cannot join this session: their game stands alone.
    # (Ben asked about once: also in a game in progress with Ana)
    resp = client.post("/games", data={"player0": "Cho", "player1": "Ben", "first": "0", "session": str(session_id),
                                       "namesake_ok": "Ben"})
    assert db.session.get(SessionGame, resp.headers["Location"].rsplit("/", 1)[-1]) is None
    page = client.get("/history").get_data(as_text=True)
    assert "best of 3" in page and "Ana 0 – 0 Ben" in page


def test_once_the_series_next_game_is_started_the_old_banner_only_leads_to_it(client):
    """Best of 3: after game 1, one phone starts game 2 from the banner; the other phone's banner
    then offers that game and no longer a button that would start a second game 2."""
    log = load_fixture("duel-1069.json")
    resp = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": str(log["first_player"]), "best_of": "3"})
    gid = resp.headers["Location"].rsplit("/", 1)[-1]
    for event in log["events"]:
        assert client.post(f"/api/games/{gid}/events", json=event).status_code == 200
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    link = re.search(r'id="next-in-series" href="([^"]+)"', page)[1].replace("&amp;", "&")
    assert f"after={gid}" in link
    home = client.get(link).get_data(as_text=True)
    session = re.search(r'name="session" value="([^"]+)"', home)[1]
    second = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": str(log["first_player"]),
                                         "session": session, "after": gid}).headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert f'id="next-game" href="/games/{second}"' in page
    assert 'id="next-in-series"' not in page and 'id="same-players"' not in page
    assert 'id="series-winner"' not in page
    for event in log["events"]:  # the same player wins again: 2-0 decides the best of 3
        assert client.post(f"/api/games/{second}/events", json=event).status_code == 200
    winner = ["Ana", "Ben"][log["result"]["winner"]["player"]]
    page = client.get(f"/games/{second}").get_data(as_text=True)
    assert f'<strong id="series-winner">{winner} wins the series!</strong>' in page
    assert 'id="next-in-series"' not in page
    # History names the winner beside the series' tally too (it gave the tally alone)
    history = client.get("/history").get_data(as_text=True)
    assert f'<span class="series-winner" data-field="series-winner">{winner} won the series</span>' in history
    assert history.count('data-field="series-winner"') == 1


def test_the_victory_banner_links_to_the_review_and_shows_the_tally(client):
    import_log(client, fixture_log("own-prestige.json", ["Ana", "Ben"], "2026-11-07T19:00:00Z"))
    game = import_log(client, fixture_log("duel-1102.json", ["Ana", "Ben"], "2026-11-07T20:00:00Z"))
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f'href="/games/{game["id"]}/review"' in page and "Review the game" in page
    assert "Ana 1 – 1 Ben" in page


def test_home_suggests_known_players_while_typing(client, three_games):
    page = client.get("/").get_data(as_text=True)
    assert 'list="known-players"' in page
    options = re.findall(r'<option value="([^"]+)">', page[page.index('<datalist id="known-players">'):])
    assert set(options[:4]) == {"Ana", "Ben", "Cho", "Dee"} and options[:2] == ["Ana", "Ben"]


def test_history_exports_json_and_csv(client):
    game = import_log(client, fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-01T19:00:00Z"))
    import_log(client, fixture_log("splendor-133.json", None, "2026-11-02T19:00:00Z"))
    resp = client.get("/history/export.json")
    assert "attachment" in resp.headers["Content-Disposition"]
    data = json.loads(resp.get_data(as_text=True))
    assert data["format"] == "splendor-tracker-history/1" and len(data["games"]) == 2

    resp = client.get("/history/export.csv")
    assert resp.mimetype == "text/csv" and "attachment" in resp.headers["Content-Disposition"]
    raw = resp.get_data()
    assert raw.startswith(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark: Excel reads Korean names right
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert [r["game"] for r in rows] == ["duel", "splendor"]
    duel = rows[0]
    assert duel["id"] == game["id"] and duel["date_utc"] == "2026-11-01 19:00" and duel["nobles"] == "" and duel["players"] == "Ana · Ben"
    assert (duel["winner"], duel["routes"], duel["turns"]) == ("Ana", "prestige", "70")
    # The fixture's recorded final position: A 20 prestige, 6 crowns, 8 in black; B 11, 2, 2 in
    # each of white, blue and red (a tie: each tied colour named, as the review names them)
    assert [duel[k] for k in ("p1_prestige", "p1_crowns", "p1_best_colour", "p1_best_colour_points")] == ["20", "6", "black", "8"]
    assert [duel[k] for k in ("p2_prestige", "p2_crowns", "p2_best_colour", "p2_best_colour_points")] == ["11", "2", "white/blue/red", "2"]
    splendor = rows[1]
    assert splendor["winner"] == "Player B" and splendor["turns"] == "96" and splendor["routes"] == ""
    assert splendor["nobles"] == "N-08 N-09 N-03 N-02" and splendor["finished_utc"] == "2026-11-02 19:40"
    assert splendor["p2_prestige"] == "21" and splendor["p3_name"] == "Player C" and splendor["p4_name"] == ""
    assert int(splendor["p2_cards"]) > 0 and splendor["p4_cards"] == ""  # the cards bought: Splendor's tie-break
    assert (duel["series"], duel["series_best_of"]) == ("", "")  # outside any "best of N"
    # a club's series, in the last columns: its number and N (a tester missed them)
    first = client.post("/games", data={"player0": "Cho", "player1": "Dan", "first": "0", "best_of": "3"})
    first_id = first.headers["Location"].rsplit("/", 1)[-1]
    rows = list(csv.DictReader(io.StringIO(client.get("/history/export.csv").get_data().decode("utf-8-sig"))))
    series = next(r for r in rows if r["id"] == first_id)
    assert series["series"].isdigit() and series["series_best_of"] == "3"


@contextmanager
def fresh_server(path):
    """A test client of another app on a fresh, migrated SQLite file (a restore's target)."""
    restored = create_app(app_config(f"sqlite:///{path}"))
    with restored.app_context():
        upgrade()
        yield restored.test_client()
        db.session.remove()
        db.engine.dispose()


def upload(client, data, name="game.json"):
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post("/history/import", data={"file": (io.BytesIO(body), name)}, content_type="multipart/form-data",
                       follow_redirects=True)


def test_an_import_answers_with_a_redirect_so_a_reload_sends_nothing_again(client):
    body = json.dumps(fixture_log("own-crowns.json", ["Ana", "Ben"])).encode()
    resp = client.post("/history/import", data={"file": (io.BytesIO(body), "g.json")}, content_type="multipart/form-data")
    assert resp.status_code == 303 and resp.headers["Location"] == "/history?imported=1&existing=0"
    assert "Imported 1 game." in client.get(resp.headers["Location"]).get_data(as_text=True)


def test_a_file_saved_with_a_byte_order_mark_imports(client):
    """Some editors save UTF-8 with a byte order mark: the file is still a game log."""
    body = b"\xef\xbb\xbf" + json.dumps(fixture_log("own-crowns.json", ["Ana", "Ben"])).encode()
    resp = client.post("/history/import", data={"file": (io.BytesIO(body), "g.json")}, content_type="multipart/form-data")
    assert resp.status_code == 303 and resp.headers["Location"] == "/history?imported=1&existing=0"


def test_the_history_page_reads_a_file_as_the_api_reads_it(app, client):
    """A tester's UTF-16 file was imported by the API (200) but refused by the History page, and a
    number of 5,000 digits got the API's own sentence but the page's "choose a JSON file": the
    page now reads the file as the API does. A file over the import's limit says the limit."""
    log = fixture_log("own-crowns.json", ["Ana", "Ben"])
    for encoding in ("utf-16", "utf-32"):
        resp = client.post("/history/import", data={"file": (io.BytesIO(json.dumps(log).encode(encoding)), "g.json")},
                           content_type="multipart/form-data")
        assert resp.status_code == 303, encoding
    assert len(client.get("/api/games").get_json()) == 1
    huge = json.dumps({**log, "id": None, "first_player": 0}).replace('"first_player": 0', '"first_player": ' + "9" * 5000)
    page = client.post("/history/import", data={"file": (io.BytesIO(huge.encode()), "g.json")},
                       content_type="multipart/form-data")
    api = client.post("/api/games/import", data=huge, content_type="application/json")
    assert page.status_code == api.status_code == 422
    assert api.get_json()["error"]["message"] in page.get_data(as_text=True)
    app.config["MAX_IMPORT_BYTES"] = 2 * 1024 * 1024
    resp = client.post("/history/import", data={"file": (io.BytesIO(b" " * (3 * 1024 * 1024)), "g.json")},
                       content_type="multipart/form-data")
    assert resp.status_code == 413
    assert "The file is larger than 2 MB, the most one import takes" in resp.get_data(as_text=True)
    assert 'href="/history"' in resp.get_data(as_text=True)


def test_importing_from_the_history_page_never_duplicates(client):
    log = fixture_log("duel-1069.json", ["Ana", "Ben"])
    resp = upload(client, log)
    assert resp.status_code == 200 and "Imported 1 game." in resp.get_data(as_text=True)
    resp = upload(client, log)
    assert "Nothing new: the game is already stored." in resp.get_data(as_text=True)
    assert len(client.get("/api/games").get_json()) == 1

    history = client.get("/history/export.json").get_data()
    resp = upload(client, history, "history.json")
    assert "Nothing new: the game is already stored." in resp.get_data(as_text=True)
    assert len(client.get("/api/games").get_json()) == 1


def test_importing_a_file_saved_before_undos_says_the_game_was_played_on_since(client, app, tmp_path):
    """A tester saved a game's file, undid its last entry and recorded another, then imported
    the file: "Nothing new: the game is already stored." hid that the file no longer matched.
    The stored game is kept; the notice says it was played on since the file was saved."""
    game = new_game(client, ("Ana", "Ben"))
    play(client, game["id"], [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}},
                              {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}])
    saved = client.get(f"/api/games/{game['id']}/log").get_json()
    assert client.post(f"/api/games/{game['id']}/undo").status_code == 200
    play(client, game["id"], [{"type": "take_tokens", "player": 1, "tokens": {"green": 1}}])
    body = upload(client, saved).get_data(as_text=True)
    assert ("Nothing imported: the game is stored here already, and was played on since this file was saved "
            "(entries undone, others recorded). It is kept as it is here.") in body
    assert "Nothing new" not in body
    events = client.get(f"/api/games/{game['id']}/log").get_json()["events"]
    assert events[-1]["tokens"] == {"green": 1} and len(events) == 2
    # in a backup beside a new game: said of that one game
    backup = {"format": "splendor-tracker-history/1", "games": [saved, fixture_log("duel-1069.json", ["Cy", "Di"])]}
    body = upload(client, backup, "history.json").get_data(as_text=True)
    assert "Imported 1 game; 1 already stored." in body
    assert "1 stored game was played on here since the file was saved (entries undone, others recorded)" in body
    # the file as the game stands now: nothing new, as before
    assert "Nothing new: the game is already stored." in upload(client, client.get(
        f"/api/games/{game['id']}/log").get_json()).get_data(as_text=True)
    # the command line says it too
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(saved))
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert "1 already stored (1 of them as they stood before entries undone here" in result.output, result.output


def test_importing_a_game_deleted_here_says_so_and_leads_to_its_restore(client):
    """The file of a game deleted here: it stays deleted (a backup does not undo a deletion), and
    the notice says so with the way to the deleted games (it said only "already stored")."""
    log = fixture_log("duel-1069.json", ["Ana", "Ben"])
    game = upload(client, log) and client.get("/api/games").get_json()[0]
    client.post(f"/history/{game['id']}/delete")
    body = upload(client, log).get_data(as_text=True)
    assert "Nothing new: the game is already stored." in body
    assert "1 of the stored games is deleted here: the file does not bring it back." in body
    assert '<a href="/history?status=deleted" id="import-see-deleted">' in body
    assert f"/history/{game['id']}/restore" in client.get("/history?status=deleted").get_data(as_text=True)
    # a backup that marks it deleted too: as it should be, no call to restore it (a tester)
    backup = client.get("/history/export.json").get_data()
    body = upload(client, backup, "history.json").get_data(as_text=True)
    assert "Nothing new: the game is already stored." in body and "the file does not bring it back" not in body
    # in Korean, one game stored reads as one game (Korean has one plural form: it said "all (1)")
    flask_babel.refresh()  # the app context kept for the test remembers the locale on g
    ko = client.get("/history?imported=0&existing=1&existing_deleted=1", headers={"Accept-Language": "ko"})
    assert "이 게임은 이미 저장되어 있습니다" in ko.get_data(as_text=True) and "모두(1개)" not in ko.get_data(as_text=True)
    flask_babel.refresh()
    assert client.get("/api/games").get_json() == []


def test_an_address_with_no_import_count_tells_no_import(client):
    """A made-up address ("?imported=abc", a number too long) said "The file holds no game."
    with no upload (a tester); the counts an import sends are told."""
    for query in ("imported=abc", "imported=99999999999999999999999", "imported=", "imported=-1"):
        body = client.get(f"/history?{query}").get_data(as_text=True)
        assert "The file holds no game." not in body and "Imported" not in body, query
    assert "The file holds no game." in client.get("/history?imported=0").get_data(as_text=True)
    assert "Imported 2 games." in client.get("/history?imported=2").get_data(as_text=True)


def test_a_backup_of_a_game_deleted_there_says_it_is_kept_under_deleted(client):
    """A tester: a backup whose one game was deleted (not stored here yet) said "Imported 1 game."
    and the list showed nothing new: the game went straight to "deleted", unsaid."""
    upload(client, fixture_log("duel-1012.json", ["Cho", "Dae"]))
    from tracker.service import HISTORY_FORMAT

    deleted_there = {**fixture_log("duel-1069.json", ["Ana", "Ben"]), "deleted": True}
    backup = json.dumps({"format": HISTORY_FORMAT, "games": [deleted_there]}).encode()
    body = upload(client, backup, "history.json").get_data(as_text=True)
    assert "Imported 1 game." in body
    assert "1 imported game was deleted in the file: it is kept under “deleted”." in body
    assert '<a href="/history?status=deleted" id="import-see-came-deleted">' in body
    deleted = client.get("/history?status=deleted").get_data(as_text=True)
    assert len(re.findall(r'<li class="game-row[^"]*is-deleted', deleted)) == 1 and "Ana · Ben" in re.sub(r"<[^>]+>", "", deleted)
    assert "Ana" not in client.get("/history").get_data(as_text=True)  # (nor in its Player filter)


def test_a_file_that_does_not_replay_is_refused_and_imports_nothing(client):
    good = fixture_log("own-color.json")
    bad = fixture_log("duel-1102.json")
    bad["result"]["winner"]["player"] = 0
    resp = upload(client, {"format": "splendor-tracker-history/1", "games": [good, bad]})
    assert resp.status_code == 422 and "Game 2 of the file" in resp.get_data(as_text=True)
    assert client.get("/api/games").get_json() == []
    resp = upload(client, b"{not json")
    assert resp.status_code == 422 and "Choose a JSON file" in resp.get_data(as_text=True)
    assert client.get("/api/games").get_json() == []


def test_the_whole_history_round_trips_through_the_page_with_identical_states(client, tmp_path, three_games):
    duel, _splendor, _active = three_games
    client.post(f"/history/{duel['id']}/delete")

    def states(c):
        out = {}
        for g in c.get("/api/games").get_json():
            state = c.get(f"/api/games/{g['id']}").get_json()
            out[g["id"]] = {k: v for k, v in state.items() if k not in ("version", "alerts")}
        return out

    before = states(client)
    backup = client.get("/history/export.json").get_data()
    csv_before = client.get("/history/export.csv").get_data(as_text=True)
    with fresh_server(tmp_path / "restored.sqlite3") as other:
        assert "Imported 3 games." in upload(other, backup).get_data(as_text=True)
        assert states(other) == before
        assert listed(other.get("/history?status=deleted").get_data(as_text=True)) == [duel["id"]]
        assert other.get("/history/export.csv").get_data(as_text=True) == csv_before
        assert "Nothing new: all 3 games are already stored." in upload(other, backup).get_data(as_text=True)


def test_the_import_command_does_not_duplicate_a_log_without_id(app, tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(fixture_log("own-crowns.json")))
    runner = app.test_cli_runner()
    assert "imported 1 game(s), 0 already stored" in runner.invoke(args=["import", str(path)]).output
    assert "imported 0 game(s), 1 already stored" in runner.invoke(args=["import", str(path)]).output


def test_a_spectator_of_a_finished_game_gets_a_review_link_by_the_spectator_link(app, client):
    from tracker import service

    game = import_log(client, fixture_log("own-color.json", ["Ana", "Ben"]))
    sid = service.spectator_id(game["id"])
    page = client.get(f"/watch/{sid}")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "Ana wins!" in text
    assert game["id"] not in text and f'id="review-game" href="/watch/{sid}/review"' in text


def test_out_of_range_ids_are_ignored_or_404(client, three_games):
    assert client.get("/players/99999999999999").status_code == 404
    assert len(listed(client.get("/history?player=99999999999999999999").get_data(as_text=True))) == 3
    assert client.get("/history?player=abc&kind=chess&status=lost").status_code == 200
    for session in ("99999999999999999999", "-1", "abc", "true"):
        resp = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0", "session": session})
        assert resp.status_code == 303
    resp = client.post("/api/games", json={"game": "duel", "players": ["Ana", "Ben"], "first_player": 0,
                                          "session": True, "best_of": [3]})
    assert resp.status_code == 201
    assert client.get("/history/no-such-game-abcdefghijklmnop/delete").status_code == 404


def test_a_series_the_home_form_does_not_offer_is_refused_and_starts_no_game(app, client):
    """The form offers one game or best of 3, 5, 7: anything else posted is 422 saying so, not a
    single game started instead."""
    for best_of in ("99", "-1", "1", "4", "3 ", "99999999999999999999", "three"):
        resp = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0", "best_of": best_of})
        assert resp.status_code == 422, best_of
        assert "best of 3, 5 or 7" in resp.get_data(as_text=True)
    assert client.get("/api/games").get_json() == []
    resp = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0", "best_of": "5"})
    assert resp.status_code == 303
    session_id = db.session.get(SessionGame, resp.headers["Location"].rsplit("/", 1)[-1]).session_id
    assert db.session.get(TableSession, session_id).best_of == 5


def test_an_uploaded_file_naming_a_member_twice_imports_nothing(client):
    text = json.dumps(fixture_log("own-crowns.json", ["Ana", "Ben"]))
    page = upload(client, (text[:-1] + ', "players": ["Eve", "Ben"]}').encode())
    assert page.status_code == 422
    assert "The JSON gives &#34;players&#34; twice in one object" in page.get_data(as_text=True)
    assert client.get("/api/games").get_json() == []


def _first_checked(home: str) -> str:
    return re.search(r'name="first" value="([^"]+)" checked', home)[1]


def test_the_next_game_of_a_series_is_started_by_the_other_player_and_shows_the_score(client):
    """Best of 3, Ben started game 1: the banner's "Next game of the series" leads to a form
    where Ana (the other player) is chosen to start, saying why; game 2's screen shows the
    series and its score before it; the strip goes once game 2 is over (the banner has it)."""
    log = load_fixture("duel-1069.json")
    resp = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "1", "best_of": "3"})
    gid = resp.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert '<p class="series-strip" id="series-strip">Best of 3 · game 1 · <b>Ana 0 – 0 Ben</b></p>' in page
    events = [{**e, "player": 1 - e["player"]} if "player" in e else e for e in log["events"]]
    for event in events:  # the same moves, seats swapped (Ben starts)
        assert client.post(f"/api/games/{gid}/events", json=event).status_code == 200, event
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    # finished: the banner gives the score; the strip (the score before this game) is hidden by
    # app.css while the screen is finished, there for when the win is undone
    assert '<main id="game" class="game finished"' in page
    assert '<p class="series-strip" id="series-strip">Best of 3 · game 1 · <b>Ana 0 – 0 Ben</b></p>' in page
    winner = ["Ana", "Ben"][1 - log["result"]["winner"]["player"]]
    link = re.search(r'id="next-in-series" href="([^"]+)"', page)[1].replace("&amp;", "&")
    home = client.get(link).get_data(as_text=True)
    assert _first_checked(home) == "0"  # Ana
    assert '<p class="hint" id="last-starter">Ben started the last game: Ana starts this one.</p>' in home
    session = re.search(r'name="session" value="([^"]+)"', home)[1]
    second = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0", "session": session,
                                         "after": gid}).headers["Location"].rsplit("/", 1)[-1]
    state = client.get(f"/api/games/{second}").get_json()
    assert state["current_player"] == 0 and state["players"][1]["privileges"] == 1
    page = client.get(f"/games/{second}").get_data(as_text=True)
    score = "Ana 1 – 0 Ben" if winner == "Ana" else "Ana 0 – 1 Ben"
    assert f'id="series-strip">Best of 3 · game 2 · <b>{score}</b></p>' in page
    # the strip is outside the swapped screen: an entry's htmx answer does not carry it
    entry = client.get(f"/games/{second}", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'id="game"' in entry and "series-strip" not in entry


def test_a_series_game_opened_after_its_win_still_says_the_score_before_it_once_the_win_is_undone(client):
    """A tester's phone opened game 2 of a best of 3 after its win; the other phone undid the
    win, and the series line never came back (it is drawn with the page, not with each screen).
    It is drawn for a finished game too, with the score before that game (never counting the
    win shown), hidden while the screen is finished (app.css)."""
    log = load_fixture("duel-1069.json")
    first = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0", "best_of": "3"})
    gid = first.headers["Location"].rsplit("/", 1)[-1]
    for event in log["events"]:
        assert client.post(f"/api/games/{gid}/events", json=event).status_code == 200
    winner = ["Ana", "Ben"][log["result"]["winner"]["player"]]
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    home = client.get(re.search(r'id="next-in-series" href="([^"]+)"', page)[1].replace("&amp;", "&"))
    session = re.search(r'name="session" value="([^"]+)"', home.get_data(as_text=True))[1]
    second = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "1", "session": session,
                                         "after": gid}).headers["Location"].rsplit("/", 1)[-1]
    before = "Ana 1 – 0 Ben" if winner == "Ana" else "Ana 0 – 1 Ben"
    events = [{**e, "player": 1 - e["player"]} if "player" in e else e for e in log["events"]]
    for event in events:  # game 2: the same moves, seats swapped, so the other player wins it
        assert client.post(f"/api/games/{second}/events", json=event).status_code == 200
    assert client.get(f"/api/games/{second}").get_json()["status"] == "finished"
    page = client.get(f"/games/{second}").get_data(as_text=True)  # opened after the win
    assert '<main id="game" class="game finished"' in page
    assert f'id="series-strip">Best of 3 · game 2 · <b>{before}</b></p>' in page  # not 1 – 1
    assert client.post(f"/api/games/{second}/undo", json={}).status_code == 200
    screen = client.get(f"/games/{second}/poll?v={len(events)}", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert '<main id="game" class="game"' in screen  # no longer finished: app.css shows the strip again
    # (tests/browser/test_two_phones.py sees it come back on the phone)


def test_a_classic_splendor_series_of_three_goes_on_as_splendor_with_every_player(app, client):
    """A best of 3 of three players (classic Splendor): the banner offers "Next game of the
    series" (it did only for two players: games 2 and 3 were loose games), whose form has
    Splendor and the three names; game 2 joins the series. A Duel is no game of a Splendor
    series: a Duel sent with its session is a game of its own."""
    from sqlalchemy import select

    from tracker.db import db
    from tracker.models import SessionGame

    log = load_fixture("splendor-133.json")
    names = ["Ana", "Ben", "Cho"]
    first = client.post("/api/games", json={"game": "splendor", "players": names, "first_player": 0,
                                            "nobles": log["nobles"], "best_of": 3}).get_json()
    for event in log["events"]:
        assert client.post(f"/api/games/{first['id']}/events", json=event).status_code == 200, event
    page = client.get(f"/games/{first['id']}").get_data(as_text=True)
    assert 'id="same-players"' not in page
    link = re.search(r'id="next-in-series" href="([^"]+)"', page)[1].replace("&amp;", "&")
    assert "game=splendor" in link and "player2=Cho" in link
    home = client.get(link).get_data(as_text=True)
    assert 'value="splendor" id="game-splendor" checked' in home and 'value="Cho"' in home
    assert '<p class="series-note" id="series-note">Game 2 of best of 3 · <b>Ana 0 · Ben 1 · Cho 0</b></p>' in home
    session = re.search(r'name="session" value="([^"]+)"', home)[1]
    second = client.post("/games", data={"game": "splendor", "player0": "Ana", "player1": "Ben", "player2": "Cho",
                                         "first": "1", "session": session, "after": first["id"],
                                         "noble": ["N-01", "N-02", "N-03", "N-04"]})
    second_id = second.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/games/{second_id}").get_data(as_text=True)
    assert 'id="series-strip">Best of 3 · game 2 · <b>Ana 0 · Ben 1 · Cho 0</b></p>' in page
    # two players' Splendor series: its next game is Splendor, and a Duel does not join it
    two = client.post("/api/games", json={"game": "splendor", "players": ["Dan", "Eve"], "first_player": 0,
                                          "nobles": ["N-01", "N-02", "N-03"], "best_of": 3}).get_json()
    with app.app_context():
        sid = db.session.scalar(select(SessionGame.session_id).where(SessionGame.game_id == two["id"]))
    duel = client.post("/games", data={"player0": "Dan", "player1": "Eve", "first": "0", "session": str(sid)})
    assert 'id="series-strip"' not in client.get(duel.headers["Location"]).get_data(as_text=True)
    again = client.post("/games", data={"game": "splendor", "player0": "Dan", "player1": "Eve", "first": "1",
                                        "session": str(sid), "noble": ["N-01", "N-02", "N-03"]})
    assert 'id="series-strip">Best of 3 · game 2 · <b>Dan 0 – 0 Eve</b>' in client.get(again.headers["Location"]).get_data(as_text=True)


def test_a_new_game_with_the_same_players_passes_the_start_on(client):
    """No series: "New game, same players" after a game Ana started suggests Ben; names typed in
    another order follow the people, not the seats; other people get no suggestion."""
    log = load_fixture("duel-1102.json")
    game = import_log(client, fixture_log("duel-1102.json", ["Ana", "Ben"]))
    starter = ["Ana", "Ben"][log["first_player"]]
    other = ["Ana", "Ben"][1 - log["first_player"]]
    home = client.get(f"/?player0=Ana&player1=Ben&after={game['id']}").get_data(as_text=True)
    assert _first_checked(home) == str(1 - log["first_player"])
    assert f"{starter} started the last game" in home
    home = client.get(f"/?player0=Ben&player1=Ana&after={game['id']}").get_data(as_text=True)
    assert _first_checked(home) == str(["Ben", "Ana"].index(other))
    home = client.get(f"/?player0=Ana&player1=Cho&after={game['id']}").get_data(as_text=True)
    assert _first_checked(home) == "0" and 'id="last-starter"' not in home
    home = client.get("/?player0=Ana&player1=Ben&after=nonsense").get_data(as_text=True)
    assert _first_checked(home) == "0" and 'id="last-starter"' not in home


def test_the_same_players_are_the_same_table_after_a_rename(client):
    """A tester renamed Chloe to Chloé, then tapped "New game, same players" on their finished
    game: the form no longer said who started last nor passed the start on, and the new game
    was not offered on the old banner (names compared as typed). People are followed through
    renames; who started is named as the form names them."""
    log = load_fixture("duel-1102.json")
    game = import_log(client, fixture_log("duel-1102.json", ["Dae", "Chloe"]))
    page = client.get("/players").get_data(as_text=True)
    chloe = int(re.search(r'href="/players/(\d+)">Chloe<', page)[1])
    assert client.post(f"/players/{chloe}/rename", data={"name": "Chloé"}).status_code == 303
    starter = ["Dae", "Chloé"][log["first_player"]]
    home = client.get(f"/?player0=Dae&player1=Chloé&after={game['id']}").get_data(as_text=True)
    assert _first_checked(home) == str(1 - log["first_player"])
    assert f'<p class="hint" id="last-starter">{starter} started the last game: ' in home
    second = client.post("/games", data={"player0": "Dae", "player1": "Chloé", "first": str(1 - log["first_player"]),
                                         "after": game["id"]}).headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f'id="next-game" href="/games/{second}"' in page and 'id="same-players"' not in page
    # the old name typed is the same person too
    home = client.get(f"/?player0=chloe&player1=Dae&after={game['id']}").get_data(as_text=True)
    assert f'id="next-game" href="/games/{second}"' in home or f"/games/{second}" in home


def test_after_a_three_player_splendor_game_the_next_seat_starts(client):
    log = fixture_log("splendor-133.json")
    game = import_log(client, log)
    names = log["players"]
    following = names[(log["first_player"] + 1) % 3]
    query = "&".join(f"player{i}={n}" for i, n in enumerate(names))
    home = client.get(f"/?game=splendor&{query}&after={game['id']}").get_data(as_text=True)
    assert _first_checked(home) == str(names.index(following))
    assert f"{names[log['first_player']]} started the last game" in home


def _series_game_won(client, best_of: int) -> tuple[dict, str, str]:
    """A "best of N" started from the form (Ana starts), game 1 played to its end (duel-1069):
    ``(log, game id, the banner's "Next game of the series" link)``."""
    log = load_fixture("duel-1069.json")
    gid = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0", "best_of": str(best_of)}) \
        .headers["Location"].rsplit("/", 1)[-1]
    for event in log["events"]:
        assert client.post(f"/api/games/{gid}/events", json=event).status_code == 200
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    return log, gid, re.search(r'id="next-in-series" href="([^"]+)"', page)[1].replace("&amp;", "&")


def test_both_phones_starting_the_next_game_of_the_series_end_up_in_one_game(app, client):
    """Both phones on game 1's banner tap "Next game of the series" then "Start the game": the
    second is taken to the game the first started (told so), the series keeps two games; the old
    link, opened again, says the next game is started and leads to it."""
    _log, gid, link = _series_game_won(client, 3)
    other = app.test_client()
    forms = [c.get(link).get_data(as_text=True) for c in (client, other)]
    sessions = [re.search(r'name="session" value="([^"]+)"', f)[1] for f in forms]
    data = {"player0": "Ana", "player1": "Ben", "first": "1", "session": sessions[0], "after": gid}
    first = client.post("/games", data=data)
    second = other.post("/games", data={**data, "first": "0"})
    game2 = first.headers["Location"].rsplit("/", 1)[-1]
    assert first.status_code == second.status_code == 303
    assert second.headers["Location"] == f"/games/{game2}"
    page = other.get(second.headers["Location"]).get_data(as_text=True)
    assert "This table&#39;s next game was already started: you are in it." in page
    assert "already started" not in other.get(f"/games/{game2}").get_data(as_text=True)  # said once
    assert client.get(f"/api/games/{game2}").get_json()["current_player"] == 1  # the first phone's choice
    assert 'id="series-strip">Best of 3 · game 2 ·' in page
    assert len(client.get("/api/games").get_json()) == 2
    again = other.get(link).get_data(as_text=True)
    assert f'id="next-game" href="/games/{game2}"' in again and 'id="last-starter"' not in again
    # other people at the form are not sent to that game
    cho = other.post("/games", data={**data, "player1": "Cho", "session": "", "namesake_ok": "Ana"})
    assert cho.status_code == 303 and cho.headers["Location"] != f"/games/{game2}"



def test_a_form_kept_open_since_counts_from_the_table_s_latest_game(client):
    """Back to the form that followed game 1, after game 2 was played and finished: it suggests
    the start from game 2 and links the new game after game 2 (not "you are in it" into game 2);
    while game 2 is still being played it leads there, with no series line to mislead."""
    log, gid, link = _series_game_won(client, 5)
    session = re.search(r'name="session" value="([^"]+)"', client.get(link).get_data(as_text=True))[1]
    game2 = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "1", "session": session,
                                        "after": gid}).headers["Location"].rsplit("/", 1)[-1]
    kept = client.get(link).get_data(as_text=True)  # the old form, game 2 under way
    assert f'id="next-game" href="/games/{game2}"' in kept and 'id="series-note"' not in kept
    events = [{**e, "player": 1 - e["player"]} if "player" in e else e for e in log["events"]]
    for event in events:  # game 2: Ben starts, the same moves
        assert client.post(f"/api/games/{game2}/events", json=event).status_code == 200
    kept = client.get(link).get_data(as_text=True)
    assert f'name="after" value="{game2}"' in kept and "Ben started the last game" in kept
    assert _first_checked(kept) == "0"
    third = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0", "session": session,
                                        "after": gid})
    game3 = third.headers["Location"].rsplit("/", 1)[-1]
    assert game3 not in (gid, game2) and service_next(client, game2) == game3 and service_next(client, gid) == game2


def service_next(client, game_id):
    from tracker import service
    return service.game_row(game_id).next_game_id


def test_two_phones_starting_the_next_game_at_the_same_instant_make_one_game(app, database_url):
    """Both phones tap "Start the game" together (threads released at once, several times): each
    finished game gets exactly one next game, and both phones land in it."""
    import threading

    log = load_fixture("duel-1069.json")
    setup_client = app.test_client()
    for _round in range(4):
        created = setup_client.post("/api/games", json={"game": "duel", "players": ["Ana", "Ben"], "first_player": 0})
        gid = created.get_json()["id"]
        for event in log["events"]:
            assert setup_client.post(f"/api/games/{gid}/events", json=event).status_code == 200
        barrier = threading.Barrier(2)
        landed: list[str] = []

        def start(first: str) -> None:
            phone = app.test_client()
            barrier.wait()
            resp = phone.post("/games", data={"player0": "Ana", "player1": "Ben", "first": first, "after": gid})
            landed.append(resp.headers.get("Location", str(resp.status_code)))

        phones = [threading.Thread(target=start, args=(f,)) for f in ("0", "1")]
        for t in phones:
            t.start()
        for t in phones:
            t.join()
        following = service_next(setup_client, gid)
        assert following and landed == [f"/games/{following}"] * 2, landed
        games = [g for g in setup_client.get("/api/games").get_json() if g["status"] == "active"]
        assert len(games) == _round + 1


def test_a_restored_backup_keeps_renamed_and_merged_players_and_the_series(client, tmp_path):
    """The backup keeps beside each log who sat there (by the person's name now), its "best of"
    series and the table's next game, and the aliases merges and renames left: restored on a
    fresh server, the players, their figures, the series badges and tallies are the same."""
    log = load_fixture("duel-1069.json")
    first = log["first_player"]
    # a best of 3: game 1 played, game 2 started after it
    g1 = client.post("/games", data={"player0": "Eve", "player1": "Ana", "first": str(first), "best_of": "3"})
    g1 = g1.headers["Location"].rsplit("/", 1)[-1]
    play(client, g1, log["events"])
    session = db.session.get(SessionGame, g1).session_id
    g2 = client.post("/games", data={"player0": "Eve", "player1": "Ana", "first": str(1 - first),
                                     "session": str(session), "after": g1}).headers["Location"].rsplit("/", 1)[-1]
    # people: Dae renamed Dae-ho (an old rename would have left no alias: the seat says it too),
    # "김 민준" merged into "김민준"
    import_log(client, fixture_log("own-prestige.json", ["Dae", "Ben"], "2026-11-01T19:00:00Z"))
    import_log(client, fixture_log("own-crowns.json", ["김 민준", "Ben"], "2026-11-02T19:00:00Z"))
    import_log(client, fixture_log("own-color.json", ["김민준", "Cho"], "2026-11-03T19:00:00Z"))
    ids = {n: int(i) for i, n in re.findall(r'href="/players/(\d+)">([^<]+)<', client.get("/players").get_data(as_text=True))}
    assert client.post(f"/players/{ids['Dae']}/rename", data={"name": "Dae-ho"}).status_code == 303
    assert client.post(f"/players/{ids['김민준']}/merge", data={"other": str(ids['김 민준']), "confirm": "yes"}).status_code == 303

    def figures(c) -> dict:
        page = c.get("/players").get_data(as_text=True)
        out = {}
        for pid, name in re.findall(r'href="/players/(\d+)">([^<]+)<', page):
            p = c.get(f"/players/{pid}").get_data(as_text=True)
            out[name] = tuple(re.search(rf'data-stat="{k}">([^<]*)<', p)[1] for k in ("games", "wins", "win-rate"))
        return out

    def series_view(c) -> tuple:
        page = c.get("/history").get_data(as_text=True)
        banner = c.get(f"/games/{g1}").get_data(as_text=True)
        return (page.count("best of 3"), re.findall(r'data-field="tally">([^<]+)<', page),
                'id="next-game"' in banner, "Best of 3: <b>" in banner)

    before, series_before = figures(client), series_view(client)
    assert "Dae-ho" in before and "Dae" not in before and "김 민준" not in before and before["김민준"][0] == "2"
    assert series_before[0] == 1 and series_before[2] and series_before[3]
    backup = client.get("/history/export.json").get_json()
    assert backup["aliases"] == {"Dae": "Dae-ho", "김 민준": "김민준"}
    by_id = {g["id"]: g for g in backup["games"]}
    assert by_id[g1]["series"]["best_of"] == 3 and by_id[g1]["series"] == by_id[g2]["series"]
    assert by_id[g1]["next_game"] == g2 and by_id[g1]["people"] == ["Eve", "Ana"]
    # an older backup's rename without its alias: the seat's person is enough
    old_style = json.loads(json.dumps(backup))
    old_style["aliases"] = {"김 민준": "김민준"}

    for n, data in enumerate((backup, old_style)):
        with fresh_server(tmp_path / f"restored-{n}.sqlite3") as other:
            assert "Imported 5 games." in upload(other, data).get_data(as_text=True)
            assert figures(other) == before
            assert series_view(other) == series_before
            typed = other.post("/api/games", json={"game": "duel", "players": ["Dae", "김 민준"], "first_player": 0})
            assert typed.status_code == 201  # the old names still mean Dae-ho and 김민준
            assert set(figures(other)) == set(before)


def test_a_duel_and_a_splendor_game_of_one_evening_are_not_one_score(client):
    import_log(client, fixture_log("own-prestige.json", ["Ana", "Ben"], "2026-11-07T19:00:00Z"))
    import_log(client, fixture_log("own-color.json", ["Ana", "Ben"], "2026-11-07T20:00:00Z"))
    splendor = import_log(client, fixture_log("splendor-153.json", ["Ana", "Ben"], "2026-11-07T21:00:00Z"))
    page = client.get("/history").get_data(as_text=True)
    assert page.count('<section class="night') == 2 and re.findall(r'data-field="tally">([^<]+)<', page) == [
        "Ana 2 – 0 Ben"]  # the two Duels (Ana wins both); the Splendor game stands alone
    assert "Tonight:" not in client.get(f"/games/{splendor['id']}").get_data(as_text=True)


def _backup(*games, aliases=None) -> dict:
    return {"format": "splendor-tracker-history/1", "aliases": aliases or {}, "games": list(games)}


def test_a_hostile_or_broken_backup_never_seats_one_person_twice_nor_half_imports(client):
    """A backup's extra fields are checked as the app's own would be: an alias that would seat
    one person twice, a series of other people's games, a next game of another table or of
    itself, a series of no known length, a truthy "deleted" are left out; a game refused late
    (its time, another game's id) leaves nothing of the file stored."""
    swapped = fixture_log("own-prestige.json", ["Kai", "Lou"], "2026-11-01T19:00:00Z")
    swapped["people"] = ["Lou", "Kai"]
    twice = fixture_log("own-crowns.json", ["Max", "Ned"], "2026-11-02T19:00:00Z")
    twice["people"] = ["Zed", "Zed"]
    pat = fixture_log("own-color.json", ["Pat", "Quin"], "2026-11-03T19:00:00Z")
    ray = fixture_log("duel-1102.json", ["Ray", "Sam"], "2026-11-03T20:00:00Z")
    pat["id"], ray["id"] = "A" * 32, "B" * 32
    pat["series"] = ray["series"] = {"id": 7, "best_of": 3}
    pat["next_game"], ray["next_game"] = pat["id"], pat["id"]
    loose = fixture_log("duel-1012.json", ["Tia", "Uma"], "2026-11-04T19:00:00Z")
    loose["series"], loose["deleted"] = {"id": None, "best_of": "3"}, "no"
    resp = upload(client, _backup(swapped, twice, pat, ray, loose, aliases={"Max": "Zed", "Ned": "Zed"}))
    assert "Imported 5 games" in resp.get_data(as_text=True)
    names = re.findall(r'href="/players/\d+">([^<]+)<', client.get("/players").get_data(as_text=True))
    assert sorted(names) == ["Kai", "Lou", "Max", "Ned", "Pat", "Quin", "Ray", "Sam", "Tia", "Uma"]
    page = client.get("/history").get_data(as_text=True)
    assert "best of 3" in page and page.count("best of 3") == 2  # Pat–Quin and Ray–Sam each their own
    assert "Pat 1 – 0 Quin" in page or "Pat 0 – 1 Quin" in page
    assert 'id="next-game"' not in client.get(f"/games/{pat['id']}").get_data(as_text=True)
    assert 'id="next-game"' not in client.get(f"/games/{ray['id']}").get_data(as_text=True)
    assert len(client.get("/api/games").get_json()) == 5  # none deleted
    # a file refused on its second game stores nothing of its first, nor its aliases
    first = fixture_log("own-prestige.json", ["Hal", "Ivy"], "2026-11-05T19:00:00Z")
    first["series"] = {"id": 1, "best_of": 3}
    second = fixture_log("own-crowns.json", ["Hal", "Ivy"], "2026-11-06T19:00:00Z")
    for broken in ({"started": "not a time"}, {"finished": "2026-11-06T18:00:00Z"}, {"id": pat["id"]}):
        resp = upload(client, _backup(first, {**second, **broken}, aliases={"Halbert": "Hal"}))
        assert resp.status_code == 422 and "Game 2 of the file" in resp.get_data(as_text=True), broken
        assert len(client.get("/api/games").get_json()) == 5
        assert "Hal" not in client.get("/players").get_data(as_text=True)
    # an empty backup changes nothing
    assert "The file holds no game." in upload(client, _backup(aliases={"Ghost": "Phantom"})).get_data(as_text=True)
    assert "Phantom" not in client.get("/players").get_data(as_text=True)


def _figures(c) -> dict:
    """Each listed player's games and wins, as their own page shows them."""
    page = c.get("/players").get_data(as_text=True)
    out = {}
    for pid, name in re.findall(r'href="/players/(\d+)">([^<]+)<', page):
        p = c.get(f"/players/{pid}").get_data(as_text=True)
        out[name] = tuple(re.search(rf'data-stat="{k}">([^<]*)<', p)[1] for k in ("games", "wins"))
    return out


def test_a_name_forgotten_and_typed_for_someone_new_keeps_each_person_s_games_in_a_restore(client, tmp_path):
    """A tester: Uwe renamed "Uwe Krause", his old name "Uwe" forgotten, then typed for a new
    person at a later game. The backup says who sat where (``people``), but the restore went by
    the typed names: "Uwe Krause" vanished and the new Uwe had both games. Each seat goes to the
    person the backup names."""
    import_log(client, fixture_log("own-prestige.json", ["Uwe", "Vera"], "2026-11-01T19:00:00Z"))  # seat 0 wins
    uwe = int(re.search(r'href="/players/(\d+)">Uwe<', client.get("/players").get_data(as_text=True))[1])
    assert client.post(f"/players/{uwe}/rename", data={"name": "Uwe Krause"}).status_code == 303
    alias = re.search(r'name="alias" value="(\d+)"', client.get(f"/players/{uwe}").get_data(as_text=True))[1]
    assert client.post(f"/players/{uwe}/forget-name", data={"alias": alias}).status_code == 303
    import_log(client, fixture_log("own-crowns.json", ["Uwe", "Vera"], "2026-11-02T19:00:00Z"))

    before = _figures(client)
    assert before["Uwe Krause"] == ("1", "1") and before["Uwe"][0] == "1" and before["Vera"][0] == "2"
    backup = client.get("/history/export.json").get_json()
    assert [g["people"] for g in backup["games"]] == [["Uwe Krause", "Vera"], ["Uwe", "Vera"]]
    with fresh_server(tmp_path / "uwe.sqlite3") as other:
        assert "Imported 2 games." in upload(other, backup).get_data(as_text=True)
        assert _figures(other) == before
        # and "Uwe" typed at a new game is still the new Uwe, not Uwe Krause
        other.post("/api/games", json={"game": "duel", "players": ["Uwe", "Vera"], "first_player": 0})
        after = _figures(other)
        assert after["Uwe"][0] == "2" and after["Uwe Krause"][0] == "1"


def _rename_forgetting(client, name: str, new: str) -> None:
    """Rename the person called ``name`` to ``new`` and forget the old name (free for anyone)."""
    pid = int(re.search(rf'href="/players/(\d+)">{re.escape(name)}<', client.get("/players").get_data(as_text=True))[1])
    assert client.post(f"/players/{pid}/rename", data={"name": new}).status_code == 303
    page = client.get(f"/players/{pid}").get_data(as_text=True)
    alias = dict(zip(re.findall(r'<span class="alias-name">([^<]+)</span>', page),
                     re.findall(r'name="alias" value="(\d+)"', page)))[name]
    assert client.post(f"/players/{pid}/forget-name", data={"alias": alias}).status_code == 303


@pytest.mark.parametrize("renames", [
    [("Bea", "Cleo"), ("Ann", "Bea")],  # a chain: Bea's name passed on to Ann
    [("Ann", "Tmp"), ("Bea", "Ann"), ("Tmp", "Bea")],  # a swap
], ids=["chain", "swap"])
def test_names_passed_on_between_people_keep_each_person_s_games_in_a_restore(client, tmp_path, renames):
    """A tester: after a chain of renames (Bea → Cleo, then Ann → Bea) or a swap (Ann and Bea
    exchanged names), each old name forgotten, a restore seated the wrong person (a new "Ann"; the
    two of a swap exchanged, wins and all) and made "Bea" another name of Cleo."""
    import_log(client, fixture_log("own-prestige.json", ["Ann", "Bea"], "2026-11-01T19:00:00Z"))  # Ann wins
    for old, new in renames:
        _rename_forgetting(client, old, new)
    import_log(client, fixture_log("own-crowns.json", ["Bea", "Dan"], "2026-11-02T19:00:00Z"))

    before = _figures(client)
    backup = client.get("/history/export.json").get_json()
    with fresh_server(tmp_path / "renames.sqlite3") as other:
        assert "Imported 2 games." in upload(other, backup).get_data(as_text=True)
        assert _figures(other) == before
        assert other.get("/history/export.json").get_json()["games"][0]["people"] == backup["games"][0]["people"]
        # "Bea" typed at a new game is the person called Bea now, as on the first server
        other.post("/api/games", json={"game": "duel", "players": ["Bea", "Eve"], "first_player": 0})
        client.post("/api/games", json={"game": "duel", "players": ["Bea", "Eve"], "first_player": 0})
        assert _figures(other) == _figures(client)


def test_a_rename_of_case_only_survives_a_restore(client, tmp_path):
    import_log(client, fixture_log("own-prestige.json", ["cleo", "Dan"], "2026-11-01T19:00:00Z"))
    cleo = re.search(r'href="/players/(\d+)">cleo<', client.get("/players").get_data(as_text=True))[1]
    assert client.post(f"/players/{cleo}/rename", data={"name": "Cleo"}).status_code == 303
    backup = client.get("/history/export.json").get_data()
    with fresh_server(tmp_path / "case.sqlite3") as other:
        upload(other, backup)
        assert re.findall(r'href="/players/\d+">([^<]+)<', other.get("/players").get_data(as_text=True)) == [
            "Cleo", "Dan"]


def test_a_day_is_named_once_and_splendor_rows_give_the_winning_prestige(client):
    """Three tables on one day: the day's name heads the first of them only (it read as three
    days); a Splendor row and review say the winner's prestige as a Duel's say the route; the
    Game filter's choices fit a phone (Duel, Splendor)."""
    import_log(client, fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-07T19:00:00Z"))
    import_log(client, fixture_log("duel-1069.json", ["Cho", "Dae"], "2026-11-07T20:00:00Z"))
    splendor = import_log(client, fixture_log("splendor-133.json", ["Eun", "Fay", "Gil"], "2026-11-07T21:00:00Z"))
    import_log(client, fixture_log("duel-1102.json", ["Ana", "Ben"], "2026-11-06T19:00:00Z"))
    page = client.get("/history").get_data(as_text=True)
    days = re.findall(r'<h2 class="day">([^<]*)</h2>', page)
    assert len(days) == 2 and days[0] != days[1] and page.count('class="night same-day lone"') == 2
    prestige = splendor["winner"]["prestige"]
    assert f'<span class="score-line" data-field="score">{prestige} prestige</span>' in row_of(page, splendor["id"])
    # the winner's mark is a star in both games: a crown (♛) counts crowns on every Duel card, and a
    # tester read a Duel winner's ♛ as a win by the crowns route (the route is said in words)
    assert '<span aria-hidden="true">★</span>' in row_of(page, splendor["id"]) and "♛" not in page
    assert page.count('<span aria-hidden="true">★</span>') == 4
    assert '<option value="duel">Duel</option>' in page
    review = client.get(f"/games/{splendor['id']}/review").get_data(as_text=True)
    assert re.search(rf'won</b> \({prestige} prestige\) · ', review)


def test_a_spectator_of_a_finished_game_is_offered_no_new_game(client):
    """The watch link is "without any controls": its victory banner offered "New game, same
    players" (without the table's series)."""
    from tracker import service

    for name, players in (("duel-1069.json", ["Ana", "Ben"]), ("splendor-133.json", ["Ana", "Ben", "Cho"])):
        game = import_log(client, fixture_log(name, players))
        with client.application.app_context():
            sid = service.spectator_id(game["id"])
        page = client.get(f"/watch/{sid}").get_data(as_text=True)
        assert 'id="victory"' in page and 'id="same-players"' not in page
        assert 'id="same-players"' in client.get(f"/games/{game['id']}").get_data(as_text=True)


def test_each_rows_buttons_and_the_game_screen_are_named_for_a_screen_reader(client, three_games):
    """A screen reader's list of buttons heard "Review, Review, Review…": each names its game;
    the game screen has a heading naming the game."""
    duel, _splendor, active = three_games
    page = client.get("/history").get_data(as_text=True)
    row = row_of(page, duel["id"])
    assert re.search(r'class="button review" href="[^"]+" aria-label="Review the game Ana · Cho, [^"]+"', row)
    assert re.search(r'class="button delete" href="[^"]+" aria-label="Delete the game Ana · Cho, [^"]+"', row)
    assert re.search(r'aria-label="Resume the game Ana · Ben, [^"]+"', row_of(page, active["id"]))
    screen = client.get(f"/games/{active['id']}").get_data(as_text=True)
    assert '<h1 class="visually-hidden">Splendor Duel: Ana · Ben</h1>' in screen


def test_a_night_is_headed_by_its_own_day_and_only_the_current_one_is_tonight(client):
    """A night whose first game starts after midnight is the evening before's (6 a.m. rule): it
    was headed by the next day, and two nights either side of 6 a.m. read as one day. The
    victory banner says "Tonight" only on the current night (an old game said it too)."""
    import flask_babel
    from datetime import datetime, timedelta, timezone

    client.set_cookie("tz", "Asia/Seoul")
    flask_babel.refresh()
    # Seoul: Tue 24 Nov 04:00 and 04:40 (Monday's night), then 06:20 (Tuesday's)
    import_log(client, fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-23T19:00:00Z", minutes=30))
    import_log(client, fixture_log("duel-1069.json", ["Ben", "Ana"], "2026-11-23T19:40:00Z", minutes=30))
    import_log(client, fixture_log("duel-1102.json", ["Ana", "Ben"], "2026-11-23T21:20:00Z", minutes=30))
    page = client.get("/history").get_data(as_text=True)
    assert re.findall(r'<h2 class="day">([^<]*)</h2>', page) == ["Tuesday, November 24, 2026",
                                                                     "Monday, November 23, 2026 · until after midnight"]
    assert re.findall(r'data-field="tally">([^<]+)<', page) == ["Ana 1 – 1 Ben"]
    # Tonight's two games, 50 and 25 minutes ago, fall in one night where it is not just past
    # 6 a.m. (in Seoul from 21:00 to 23:00 UTC they fell either side of it): New York then.
    from zoneinfo import ZoneInfo

    if 5 <= datetime.now(ZoneInfo("Asia/Seoul")).hour < 8:
        client.set_cookie("tz", "America/New_York")
        flask_babel.refresh()
    now = (datetime.now(timezone.utc) - timedelta(minutes=50)).strftime("%Y-%m-%dT%H:%M:%SZ")
    import_log(client, fixture_log("duel-1012.json", ["Cho", "Dae"], now, minutes=20))
    tonight = import_log(client, fixture_log("duel-1069.json", ["Dae", "Cho"],
                                             (datetime.now(timezone.utc) - timedelta(minutes=25)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                                             minutes=20))
    assert "Tonight: <b>Cho 1 – 1 Dae</b>" in client.get(f"/games/{tonight['id']}").get_data(as_text=True)


def test_a_lone_game_after_a_tallied_table_of_its_day_stands_apart(client):
    """Two Duels of Ana and Ben, then a Splendor game of others the same evening: the lone game
    had no header and read as part of "Ana 1 – 1 Ben"; it is marked to stand apart (a line)."""
    import_log(client, fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-07T10:00:00Z"))
    import_log(client, fixture_log("duel-1069.json", ["Ana", "Ben"], "2026-11-07T11:00:00Z"))
    import_log(client, fixture_log("splendor-133.json", ["Eun", "Fay", "Gil"], "2026-11-07T09:00:00Z"))
    page = client.get("/history").get_data(as_text=True)
    nights = re.findall(r'<section class="(night[^"]*)" data-night', page)
    assert len(nights) == 2 and "lone" not in nights[0] and nights[1] == "night same-day lone", nights
    assert len(re.findall(r'data-field="tally"', page)) == 1


def test_the_delete_page_of_a_game_already_deleted_offers_its_restore(client):
    """A reload after deleting (or Back) showed "Delete this game?" with a live Delete button."""
    game = import_log(client, fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-07T19:00:00Z"))
    assert 'id="confirm-delete"' in client.get(f"/history/{game['id']}/delete").get_data(as_text=True)
    assert client.post(f"/history/{game['id']}/delete").status_code == 303
    page = client.get(f"/history/{game['id']}/delete").get_data(as_text=True)
    assert "This game is already deleted" in page and 'id="confirm-delete"' not in page
    assert f'action="/history/{game["id"]}/restore"' in page
    assert client.post(f"/history/{game['id']}/restore").status_code == 303
    assert 'id="confirm-delete"' in client.get(f"/history/{game['id']}/delete").get_data(as_text=True)


def test_same_players_from_an_older_game_counts_from_their_latest_game_and_mentions_one_in_progress(client):
    """An older game's "New game, same players" (opened the day after) passes the start on from
    the latest game these people began, even one begun from the home page, and says a game of
    theirs is still in progress (with its link); the form can still start another."""
    log = load_fixture("duel-1102.json")
    old = import_log(client, fixture_log("duel-1102.json", ["Ana", "Ben"], "2026-11-01T19:00:00Z"))
    old_starter = log["first_player"]
    # a game begun from the home page since, by the other person: still in progress
    since = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": str(1 - old_starter)})
    since_id = since.headers["Location"].rsplit("/", 1)[-1]
    home = client.get(f"/?player0=Ana&player1=Ben&after={old['id']}").get_data(as_text=True)
    assert _first_checked(home) == str(old_starter)  # the in-progress game's starter was the other one
    assert f"{['Ana', 'Ben'][1 - old_starter]} started the last game" in home
    assert f'id="playing-game" href="/games/{since_id}"' in home
    # other people: no mention
    home = client.get(f"/?player0=Ana&player1=Cho&after={old['id']}").get_data(as_text=True)
    assert 'id="playing-notice"' not in home


def test_a_backup_alias_of_a_persons_own_name_is_no_alias(client):
    """A backup naming a person's own name (another case) as their alias ("bob" for "Bob"), with
    a seat typed under a third name, is imported with the person once (it failed with a 500: the
    alias and the person were stored under one key)."""
    game = fixture_log("own-prestige.json", ["Rob", "Ann"], "2026-11-01T19:00:00Z")
    game["people"] = ["Bob", "Ann"]
    resp = upload(client, _backup(game, aliases={"bob": "Bob", "ROBBY": "Bob"}))
    assert resp.status_code == 200 and "Imported 1 game" in resp.get_data(as_text=True)
    names = re.findall(r'href="/players/\d+">([^<]+)<', client.get("/players").get_data(as_text=True))
    assert sorted(names) == ["Ann", "Bob"]
    backup = client.get("/history/export.json").get_json()
    assert backup["aliases"] == {"ROBBY": "Bob", "Rob": "Bob"}


def test_a_backup_whose_people_another_import_stored_meanwhile_is_imported_over_them(app, client):
    """Two phones import one backup at the same moment: the import whose write comes second
    finds the other's alias (stored between its check and its write) and is imported again over
    it, not a 500; the alias still leads to its person."""
    from sqlalchemy import event, insert, select

    from tracker.db import db
    from tracker.models import Player, utcnow

    import_log(client, fixture_log("own-crowns.json", ["Rob", "Ann"], "2026-10-01T19:00:00Z"))
    game = fixture_log("own-prestige.json", ["Rob", "Ann"], "2026-11-01T19:00:00Z")
    sneaked: list[bool] = []

    def other_import_first(_conn, _cursor, statement, _params, _context, _many):
        if not sneaked and statement.startswith("INSERT INTO players"):  # this import's first write
            sneaked.append(True)
            with db.engine.begin() as other:
                rob = other.scalar(select(Player.id).where(Player.normalized == "rob"))
                other.execute(insert(Player).values(name="Robby", normalized="robby", created=utcnow(), merged_into=rob))

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", other_import_first)
        try:
            resp = upload(client, _backup(game, aliases={"Robby": "Rob"}))
        finally:
            event.remove(db.engine, "before_cursor_execute", other_import_first)
    assert sneaked and resp.status_code == 200 and "Imported 1 game" in resp.get_data(as_text=True)
    names = re.findall(r'href="/players/\d+">([^<]+)<', client.get("/players").get_data(as_text=True))
    assert sorted(names) == ["Ann", "Rob"]
    assert client.get("/history/export.json").get_json()["aliases"] == {"Robby": "Rob"}


def test_a_backup_restored_where_one_of_its_series_games_was_imported_alone_keeps_the_series(client, tmp_path):
    """A tester exported game 1 of a best of 3 alone, then the whole backup, and restored both on
    a new server, the game first: the series came back as "2 – 0" over games 2 and 3, game 1 left
    out (it was stored already, and only games the backup created joined a series). Now the game
    stored before joins its series, whichever file came first."""
    logs = [load_fixture(name) for name in ("duel-1012.json", "duel-1102.json", "duel-1069.json")]  # 1 – 0, 1 – 1, 2 – 1
    previous = None
    games = []
    for n, log in enumerate(logs):
        form = {"player0": "Eve", "player1": "Ana", "first": str(log["first_player"])}
        form.update({"best_of": "3"} if previous is None else
                    {"session": str(db.session.get(SessionGame, games[0]).session_id), "after": previous})
        gid = client.post("/games", data=form).headers["Location"].rsplit("/", 1)[-1]
        play(client, gid, log["events"])
        games.append(previous := gid)

    def series(c) -> tuple:
        page = c.get("/history").get_data(as_text=True)
        return (page.count("best of 3"), re.findall(r'data-field="tally">([^<]+)<', page),
                {g: db.session.get(SessionGame, g) is not None for g in games})

    before = series(client)
    assert before[0] == 1 and len(before[1]) == 1 and all(before[2].values())
    alone = client.get(f"/games/{games[0]}/export").get_json()
    backup = client.get("/history/export.json").get_json()
    for order in ((alone, backup), (backup, alone)):
        with fresh_server(tmp_path / f"restored-{len(order[0])}.sqlite3") as other:
            for data in order:
                assert upload(other, data).status_code == 200
            assert series(other)[:2] == before[:2]
            sessions = {db.session.get(SessionGame, g).session_id for g in games}
            assert len(sessions) == 1


def test_a_deleted_finished_game_of_a_series_offers_no_next_game_and_says_it_was_deleted(client):
    """A tester opened a deleted game of a best of 3 the day after: its banner showed the series
    at "1 – 1" (the tally without it) and "Next game of the series", the deleted notice hidden
    under it. A deleted game's banner now says it was deleted and offers no next game nor tally;
    restored, it has them back."""
    log = load_fixture("duel-1012.json")
    gid = client.post("/games", data={"player0": "Eve", "player1": "Ana", "first": str(log["first_player"]),
                                      "best_of": "3"}).headers["Location"].rsplit("/", 1)[-1]
    play(client, gid, log["events"])
    screen = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="next-in-series"' in screen and 'id="victory-tally"' in screen and 'id="victory-deleted"' not in screen
    assert client.post(f"/history/{gid}/delete").status_code == 303
    screen = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="victory-deleted"' in screen and "Eve wins!" in screen and 'id="review-game"' in screen
    for gone in ('id="next-in-series"', 'id="same-players"', 'id="victory-tally"'):
        assert gone not in screen, gone
    assert client.post(f"/history/{gid}/restore", data={"next": "game"}).status_code == 303
    assert 'id="next-in-series"' in client.get(f"/games/{gid}").get_data(as_text=True)


def _session_of(client, game_id: str) -> int | None:
    """The "best of N" series (session id) ``game_id`` was played in, from the CSV export."""
    rows = csv.DictReader(io.StringIO(client.get("/history/export.csv").get_data().decode("utf-8-sig")))
    found = next(r for r in rows if r["id"] == game_id)["series"]
    return int(found) if found else None


def _series_game(client, winner: str, series: dict) -> str:
    """A Duel game of Ana and Ben won by ``winner``, in the series ``series`` names (``best_of``
    or ``session``): duel-1069's moves, seats swapped when the other seat should win."""
    log = load_fixture("duel-1069.json")
    swap = ["Ana", "Ben"][log["result"]["winner"]["player"]] != winner
    events = [{**e, "player": 1 - e["player"]} if swap and "player" in e else e for e in log["events"]]
    first = 1 - log["first_player"] if swap else log["first_player"]
    gid = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": str(first), **series}
                      ).headers["Location"].rsplit("/", 1)[-1]
    for event in events:
        assert client.post(f"/api/games/{gid}/events", json=event).status_code == 200, event
    assert client.get(f"/api/games/{gid}").get_json()["winner"]["player"] == ["Ana", "Ben"].index(winner)
    return gid


@pytest.mark.parametrize("restored_from", ["", "review", "game"])
def test_a_game_restored_into_a_series_decided_without_it_leaves_the_series(app, client, restored_from):
    """Best of 3 (a tester): game 1 Ana's, game 2 Ben's and then deleted, games 3 Ben's and 4
    Ana's: Ana won 2 – 1. Game 2 restored read "Ana 2 – 2 Ben · Ana won the series"; it now leaves
    the series (kept in History, said so) and the series stays Ana's 2 – 1. A game restored into a
    series that its win leaves whole (Ana 2 – 0, then 2 – 1) stays in it; one still in play restored
    into a series decided meanwhile leaves it (its win would break it). Restored from History,
    the review or the game screen, each says so once."""
    def session_of(gid):
        with app.app_context():
            return db.session.scalar(select(SessionGame.session_id).where(SessionGame.game_id == gid))

    g1 = _series_game(client, "Ana", {"best_of": "3"})
    sid = str(session_of(g1))
    g2 = _series_game(client, "Ben", {"session": sid})
    assert client.post(f"/history/{g2}/delete").status_code == 303
    g3 = _series_game(client, "Ben", {"session": sid})
    g4 = _series_game(client, "Ana", {"session": sid})
    assert [session_of(g) for g in (g3, g4)] == [int(sid)] * 2
    resp = client.post(f"/history/{g2}/restore", data={"next": restored_from} if restored_from else {})
    assert resp.status_code == 303
    said = "It no longer counts in its best of 3: the series was decided without it (Ana 2 – 1 Ben)."
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert (said if restored_from == "game" else f'<span id="restored-series">{said}</span>') in page
    assert said not in client.get(resp.headers["Location"]).get_data(as_text=True)  # said once
    assert session_of(g2) is None
    page = client.get("/history").get_data(as_text=True)
    assert re.search(r'data-field="tally">Ana 2 – 1 Ben<', page) and "2 – 2" not in page and g2 in listed(page)
    # deleted and restored again, from its review: out of the series already, nothing to say
    assert client.post(f"/history/{g2}/delete").status_code == 303
    resp = client.post(f"/history/{g2}/restore", data={"next": "review"})
    review_page = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert 'id="review-restored"' in review_page and 'id="restored-series"' not in review_page

    if restored_from == "":  # a game still in play, deleted, restored once the series was decided: it leaves too
        log = load_fixture("duel-1069.json")
        k1 = _series_game(client, "Ana", {"best_of": "3"})
        sid = str(session_of(k1))
        k2 = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": str(log["first_player"]),
                                         "session": sid}).headers["Location"].rsplit("/", 1)[-1]
        assert client.post(f"/api/games/{k2}/events", json=log["events"][0]).status_code == 200
        assert client.post(f"/history/{k2}/delete").status_code == 303
        _series_game(client, "Ana", {"session": sid})
        resp = client.post(f"/history/{k2}/restore")
        assert ("It no longer counts in its best of 3: the series was decided without it (Ana 2 – 0 Ben).</span>"
                in client.get(resp.headers["Location"]).get_data(as_text=True))
        assert session_of(k2) is None and client.get(f"/api/games/{k2}").get_json()["status"] == "active"

    h1 = _series_game(client, "Ana", {"best_of": "3"})
    sid = str(session_of(h1))
    h2 = _series_game(client, "Ben", {"session": sid})
    assert client.post(f"/history/{h2}/delete").status_code == 303
    h3 = _series_game(client, "Ana", {"session": sid})
    assert session_of(h3) == int(sid)
    resp = client.post(f"/history/{h2}/restore", data={"next": "game"})
    assert 'It no longer counts' not in client.get(resp.headers["Location"]).get_data(as_text=True)
    assert session_of(h2) == int(sid)
    assert re.search(r'data-field="tally">Ana 2 – 1 Ben<', client.get("/history").get_data(as_text=True))


def test_a_game_finished_into_a_series_decided_without_it_leaves_the_series(app, client):
    """Best of 3, two games in progress at once: game 1 Ana's, game 2 left half-played, games 3
    Ben's and 4 Ana's (Ana 2 – 1). Game 2, finished by Ben afterwards, would read "Ana 2 – 2 Ben";
    the entry that ends it takes it out of the series, which stays Ana's 2 – 1. Finished into a
    series its win leaves whole (Ana 2 – 0, then 2 – 1) it stays in it."""
    def session_of(gid):
        with app.app_context():
            return db.session.scalar(select(SessionGame.session_id).where(SessionGame.game_id == gid))

    log = load_fixture("duel-1069.json")
    ben_wins = ["Ana", "Ben"][log["result"]["winner"]["player"]] == "Ben"
    events = log["events"] if ben_wins else [{**e, "player": 1 - e["player"]} if "player" in e else e
                                             for e in log["events"]]
    first = log["first_player"] if ben_wins else 1 - log["first_player"]

    def half_played(sid):
        gid = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": str(first), "session": sid}
                          ).headers["Location"].rsplit("/", 1)[-1]
        play(client, gid, events[:10])
        return gid

    g1 = _series_game(client, "Ana", {"best_of": "3"})
    sid = str(session_of(g1))
    g2 = half_played(sid)
    _series_game(client, "Ben", {"session": sid})
    _series_game(client, "Ana", {"session": sid})
    assert re.search(r'data-field="tally">Ana 2 – 1 Ben<', client.get("/history").get_data(as_text=True))
    play(client, g2, events[10:])  # through the JSON API: the write path, whichever way the entry came
    assert client.get(f"/api/games/{g2}").get_json()["winner"]["player"] == 1
    assert session_of(g2) is None
    page = client.get("/history").get_data(as_text=True)
    assert re.search(r'data-field="tally">Ana 2 – 1 Ben<', page) and "2 – 2" not in page and g2 in listed(page)

    h1 = _series_game(client, "Ana", {"best_of": "3"})
    sid = str(session_of(h1))
    h2 = half_played(sid)
    _series_game(client, "Ana", {"session": sid})
    play(client, h2, events[10:])
    assert session_of(h2) == int(sid)
    assert re.search(r'data-field="tally">Ana 2 – 1 Ben<', client.get("/history").get_data(as_text=True))


def test_a_backup_whose_series_could_not_have_been_played_keeps_the_games_that_decided_it(client, tmp_path):
    """A tester's hand-made backup: three games Zed won, all three in one best of 3, read
    "Zed 3 – 0 Yan · Zed won the series". The games are all imported; the series keeps the two
    that decided it (2 – 0) and the third is a game of its own, as a restore would leave it."""
    g1 = _series_game(client, "Ana", {"best_of": "3"})
    g2 = _series_game(client, "Ana", {"session": str(_session_of(client, g1))})
    g3 = _series_game(client, "Ana", {})
    backup = client.get("/history/export.json").get_json()
    logs = {g["id"]: g for g in backup["games"]}
    assert logs[g1]["series"] == logs[g2]["series"] and logs[g3].get("series") is None
    logs[g3]["series"] = logs[g1]["series"]
    with fresh_server(tmp_path / "series.sqlite3") as other:
        assert "Imported 3 games." in upload(other, backup).get_data(as_text=True)
        page = other.get("/history").get_data(as_text=True)
        assert sorted(listed(page)) == sorted([g1, g2, g3])
        assert re.search(r'data-field="tally">Ana 2 – 0 Ben<', page) and "3 – 0" not in page
        restored = {g["id"]: g.get("series") for g in other.get("/history/export.json").get_json()["games"]}
        assert restored[g1] == restored[g2] and restored[g1]["best_of"] == 3 and restored[g3] is None


def test_games_started_in_the_same_second_keep_their_order_through_a_backup(app, client, tmp_path):
    """A tester: two games imported in the same second swapped places in History after a backup
    was restored elsewhere (a log's times are whole seconds; the tie went to the games' ids), and
    the night's #1 and #2 with them. The restore keeps the file's order, which is the starts'."""
    from datetime import datetime, timedelta

    first = import_log(client, fixture_log("own-prestige.json", ["Ana", "Ben"]))["id"]
    second = import_log(client, fixture_log("own-crowns.json", ["Ana", "Ben"]))["id"]
    older, newer = sorted([first, second])  # a tie would list ``older`` first (by id, within the night)
    base = datetime(2026, 11, 1, 19, 0, 0)
    with app.app_context():
        for gid, ms in ((older, 100), (newer, 600)):
            db.session.get(Game, gid).started = base + timedelta(milliseconds=ms)
        db.session.commit()
    assert listed(client.get("/history").get_data(as_text=True))[:2] == [newer, older]
    backup = client.get("/history/export.json").get_json()
    assert [g["started"] for g in backup["games"] if g["id"] in (older, newer)] == ["2026-11-01T19:00:00Z"] * 2
    with fresh_server(tmp_path / "order.sqlite3") as other:
        assert "Imported 2 games." in upload(other, backup).get_data(as_text=True)
        assert listed(other.get("/history").get_data(as_text=True))[:2] == [newer, older]


def test_the_deleted_games_list_shows_no_tally(client):
    """Two games of one night have a tally ("Ana 2 – 0 Cho"); deleted, they are counted in no
    tally, so their list under "deleted" shows none either (it showed one over the deleted games)."""
    first = import_log(client, fixture_log("own-prestige.json", ["Ana", "Cho"], "2026-11-01T19:00:00Z", minutes=47))
    second = import_log(client, fixture_log("own-prestige.json", ["Ana", "Cho"], "2026-11-01T20:00:00Z", minutes=47))
    page = client.get("/history").get_data(as_text=True)
    assert re.search(r'data-field="tally">Ana 2 – 0 Cho<', page)
    for game in (first, second):
        assert client.post(f"/history/{game['id']}/delete").status_code == 303
    deleted = client.get("/history?status=deleted").get_data(as_text=True)
    assert sorted(listed(deleted)) == sorted([first["id"], second["id"]]) and 'data-field="tally"' not in deleted


def test_a_best_of_3_left_undecided_by_a_shared_win_says_so_at_game_4(app, client):
    """Classic Splendor, best of 3: a win shared (S-4), then one each: 1 – 1 after three games.
    The next game's form said "Game 4 of best of 3"; it says why there is a fourth."""
    from sqlalchemy import select

    from tracker.db import db
    from tracker.models import SessionGame
    from tracker.rules import splendor_autoplay
    from tracker.rules.events import event_to_dict

    session = None
    for seed in (3, 4, 5):  # a full tie, seat 1 wins, seat 0 wins
        setup, events, _state = splendor_autoplay.play(seed, players=2)
        body = {"game": "splendor", **setup, "players": ["Odile", "Quinn"]}
        body.update({"session": session} if session else {"best_of": 3})
        game = client.post("/api/games", json=body).get_json()
        for event in events:
            assert client.post(f"/api/games/{game['id']}/events", json=event_to_dict(event)).status_code == 200
        with app.app_context():
            session = db.session.scalar(select(SessionGame.session_id).where(SessionGame.game_id == game["id"]))
    home = client.get(f"/?game=splendor&player0=Odile&player1=Quinn&session={session}").get_data(as_text=True)
    assert ('<p class="series-note" id="series-note">Game 4: best of 3, still undecided · '
            '<b>Odile 1 – 1 Quinn · 1 shared win</b></p>') in home


def test_a_shared_win_in_an_evenings_tally_is_nobody_s_win_alone(client):
    """A tester: Odile and Quinn's evening of classic Splendor, Quinn winning one game and the
    other a win they shared (S-4), read "Odile 1 – 2 Quinn": three wins for two games. The tally
    counts the shared win apart, as head to head does."""
    from tracker.rules import splendor_autoplay
    from tracker.rules.events import event_to_dict

    def log(seed: int, started: str) -> dict:
        setup, events, state = splendor_autoplay.play(seed, players=2)
        winner = {"players": list(state.winner.players), "prestige": state.winner.prestige, "cards": state.winner.cards}
        return {"format": "splendor-tracker/1", "game": "splendor", **setup, "players": ["Odile", "Quinn"],
                "events": [event_to_dict(e) for e in events], "result": {"winner": winner, "turns": state.turn},
                "started": started}

    import_log(client, log(4, "2026-11-22T18:00:00Z"))  # seat 1, Quinn, wins
    import_log(client, log(3, "2026-11-22T19:30:00Z"))  # a full tie: both win
    page = client.get("/history").get_data(as_text=True)
    assert re.findall(r'data-field="tally">([^<]+)<', page) == ["Odile 0 – 1 Quinn · 1 shared win"]
    # the shared win's row names both winners as History's rows do, on the home page too
    assert 'data-field="winner">Odile &amp; Quinn won<' in page
    assert "finished · Odile &amp; Quinn won" in client.get("/").get_data(as_text=True)
    flask_babel.refresh()
    korean = client.get("/history", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert re.findall(r'data-field="tally">([^<]+)<', korean) == ["Odile 0 – 1 Quinn · 공동 승리 1회"]


def test_a_game_in_progress_says_whose_turn_and_which_turn_it_is(client):
    """History's rows of games in progress said "in progress" only: four games of the same two
    people could not be told apart (a tester). Each now says whose turn and which turn, as the
    home page does, from the listing columns written with each entry (an undo, an import, a rename
    and the game's end too); a finished game says its turns played instead."""
    game = new_game(client, ("Ana", "Ben"))
    standing = lambda: re.search(r'data-field="standing">([^<]*)<', row_of(client.get("/history").get_data(as_text=True), game["id"]))
    assert standing()[1] == "Ana's turn · Turn 1"
    play(client, game["id"], [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}}])
    assert standing()[1] == "Ben's turn · Turn 2"
    assert client.post(f"/api/games/{game['id']}/undo").status_code == 200
    assert standing()[1] == "Ana's turn · Turn 1"
    ben = client.get("/players").get_data(as_text=True)
    ben_id = re.search(r'href="/players/(\d+)">Ben<', ben)[1]
    assert client.post(f"/players/{ben_id}/rename", data={"name": "Benny"}).status_code == 303
    play(client, game["id"], [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}}])
    assert standing()[1] == "Benny's turn · Turn 2"
    home = client.get("/").get_data(as_text=True)
    assert "Benny's turn · Turn 2" in home[home.index(f'/games/{game["id"]}'):][:800]
    # imported half-way: the import writes them too; once finished, none
    log = fixture_log("duel-1102.json", ["Cy", "Dee"])
    ongoing = import_log(client, {**log, "events": log["events"][:10], "result": None})
    state = client.get(f"/api/games/{ongoing['id']}").get_json()
    page = client.get("/history").get_data(as_text=True)
    said = re.search(r'data-field="standing">([^<]*)<', row_of(page, ongoing["id"]))[1]
    assert said == f"{['Cy', 'Dee'][state['current_player']]}'s turn · Turn {state['turn']}"
    finished = import_log(client, fixture_log("own-prestige.json", ["Eve", "Fay"]))
    assert 'data-field="standing"' not in row_of(client.get("/history").get_data(as_text=True), finished["id"])


def test_a_game_in_progress_stored_before_its_turn_was_kept_says_it_too(client):
    """A game in progress stored before the listing kept its turn (the migration leaves them
    empty): History said only "in progress" where the home page said "Ana's turn · Turn 19" (a
    tester). The first visit writes them from the game's replay, once."""
    from tracker.db import db
    from tracker.models import Game

    game = new_game(client, ("Ana", "Ben"))
    play(client, game["id"], [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}}])
    db.session.execute(db.update(Game).where(Game.id == game["id"]).values(turn=None, to_play=None))
    db.session.commit()
    page = client.get("/history").get_data(as_text=True)
    assert re.search(r'data-field="standing">([^<]*)<', row_of(page, game["id"]))[1] == "Ben's turn · Turn 2"
    db.session.expire_all()
    assert (db.session.get(Game, game["id"]).turn, db.session.get(Game, game["id"]).to_play) == (2, 1)
    db.session.execute(db.update(Game).where(Game.id == game["id"]).values(turn=None, to_play=None))
    db.session.commit()
    home = client.get("/").get_data(as_text=True)
    assert "Ben's turn · Turn 2" in home[home.index(f'/games/{game["id"]}'):][:800]


def test_a_game_taken_up_again_days_later_lasts_days_and_hours(app):
    """A club organiser's game resumed days later read "113 h 50 min" (taken for a typo): a day or
    more is said in days and hours; shorter games as before."""
    from datetime import timedelta

    from tracker.views.history import duration

    with app.test_request_context("/"):
        assert duration(timedelta(hours=113, minutes=50)) == "4 d 17 h"
        assert duration(timedelta(hours=1, minutes=5)) == "1 h 05 min"
        assert duration(timedelta(minutes=39)) == "39 min" and duration(None) == "–"
    with app.test_request_context("/", headers={"Accept-Language": "ko"}):
        import flask_babel

        flask_babel.refresh()
        assert duration(timedelta(hours=113, minutes=50)) == "4일 17시간"


def test_the_home_list_names_each_game_of_a_series_by_its_number(app, client):
    """A café tester: three "Ana · Ben" games on the home page looked like repeats. A game of a
    "best of N" says so there, "Best of 3 · game 2", numbered as its strip numbers it (a deleted
    game left out); a game of no series says nothing."""
    g1 = _series_game(client, "Ana", {"best_of": "3"})
    with app.app_context():
        sid = str(db.session.scalar(select(SessionGame.session_id).where(SessionGame.game_id == g1)))
    g2 = _series_game(client, "Ben", {"session": sid})
    alone = new_game(client, ("Ana", "Cho"))["id"]

    def series_of(page, gid):
        item = re.search(rf'<li><a href="/games/{gid}">(.*?)</a></li>', page, re.S)[1]
        found = re.search(r'data-field="series">([^<]+)<', item)
        return found[1] if found else None

    page = client.get("/").get_data(as_text=True)
    assert (series_of(page, g1), series_of(page, g2), series_of(page, alone)) == ("Best of 3 · game 1", "Best of 3 · game 2", None)
    assert f'id="series-strip">Best of 3 · game 2 ·' in client.get(f"/games/{g2}").get_data(as_text=True)
    assert client.post(f"/history/{g1}/delete").status_code == 303
    assert series_of(client.get("/").get_data(as_text=True), g2) == "Best of 3 · game 1"


def test_a_finished_series_game_says_the_series_score_after_it_on_its_turn_line(client):
    """An organiser closed game 3's banner: "Game over · Hana won", and nothing said who won the
    series (the strip above, the score before the game, is hidden once it is over). The turn line
    says the score its win made, and the series' winner once decided; each game its own."""
    g1 = _series_game(client, "Ana", {"best_of": "3"})
    sid = _session_of(client, g1)
    series_after = re.compile(r'<span class="series-after" id="series-after">(.*?)</span>', re.S)
    page = client.get(f"/games/{g1}").get_data(as_text=True)
    assert series_after.search(page)[1] == "Best of 3: <b>Ana 1 – 0 Ben</b>"
    g2 = _series_game(client, "Ben", {"session": str(sid)})
    g3 = _series_game(client, "Ana", {"session": str(sid)})
    page = client.get(f"/games/{g3}").get_data(as_text=True)
    assert series_after.search(page)[1] == "Best of 3: <b>Ana 2 – 1 Ben</b> · Ana wins the series!"
    assert series_after.search(client.get(f"/games/{g2}").get_data(as_text=True))[1] == "Best of 3: <b>Ana 1 – 1 Ben</b>"
    # the banner of a game opened again once the series went on says the same score (it said the later one)
    banner = re.compile(r'id="victory-tally">(.*?)</p>', re.S)
    assert banner.search(client.get(f"/games/{g1}").get_data(as_text=True))[1].strip() == "Best of 3: <b>Ana 1 – 0 Ben</b>"
    assert "wins the series" in banner.search(page)[1]
    assert series_after.search(client.get(f"/games/{g1}", headers={"HX-Request": "true"}).get_data(as_text=True))
    # a game outside any series, or still in play, says nothing of the kind
    single = _series_game(client, "Ben", {})
    assert 'id="series-after"' not in client.get(f"/games/{single}").get_data(as_text=True)
    game = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0", "best_of": "3"})
    assert 'id="series-after"' not in client.get(game.headers["Location"]).get_data(as_text=True)


def test_an_abandoned_game_restored_after_the_series_went_on_without_it_leaves_the_series(app, client):
    """An organiser: best of 3, game 1 Ana's; game 2 begun, then deleted as abandoned; a new
    game 2 started from game 1's banner. The old game 2 restored renumbered the game the table
    was playing to "game 3" and the series held two games in play. It now leaves the series (kept
    in History, said so); the game being played stays game 2. A finished game restored keeps its
    place (the last test above: Ana 2 – 1 Ben)."""
    log = load_fixture("duel-1069.json")
    g1 = _series_game(client, "Ana", {"best_of": "3"})
    sid = str(_session_of(client, g1))

    def started():
        return client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": str(log["first_player"]),
                                           "session": sid}).headers["Location"].rsplit("/", 1)[-1]

    old = started()
    assert client.post(f"/api/games/{old}/events", json=log["events"][0]).status_code == 200
    assert client.post(f"/history/{old}/delete").status_code == 303
    new = started()
    assert client.post(f"/api/games/{new}/events", json=log["events"][0]).status_code == 200
    assert "game 2" in client.get(f"/games/{new}").get_data(as_text=True)
    resp = client.post(f"/history/{old}/restore")
    said = "It no longer counts in its best of 3: the series went on with a later game while it was deleted (Ana 1 – 0 Ben)."
    assert said in client.get(resp.headers["Location"]).get_data(as_text=True)
    assert _session_of(client, old) is None and _session_of(client, new) == int(sid)
    assert client.get(f"/api/games/{old}").get_json()["status"] == "active" and old in listed(client.get("/history").get_data(as_text=True))
    strip = re.search(r'id="series-strip">(.*?)</p>', client.get(f"/games/{new}").get_data(as_text=True))[1]
    assert "game 2" in strip and "Ana 1 – 0 Ben" in strip
    assert 'id="series-strip"' not in client.get(f"/games/{old}").get_data(as_text=True)
    # the last game of its series, restored, keeps its place: nothing went on without it
    assert client.post(f"/history/{new}/delete").status_code == 303
    resp = client.post(f"/history/{new}/restore")
    assert "It no longer counts" not in client.get(resp.headers["Location"]).get_data(as_text=True)
    assert _session_of(client, new) == int(sid)
