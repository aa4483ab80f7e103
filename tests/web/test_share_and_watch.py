"""A second phone joins by link, QR or code; spectators watch read-only (writes are 403)."""

from __future__ import annotations

import re
from datetime import timedelta

from helpers import fixture_log, new_game, post

from tracker import service
from tracker.db import db
from tracker.models import JoinCode

HX = {"HX-Request": "true"}


def share_page(client, game_id: str) -> str:
    resp = client.get(f"/games/{game_id}/share")
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def test_the_share_sheet_shows_the_link_a_qr_code_and_a_join_code(client):
    game = new_game(client)
    page = share_page(client, game["id"])
    assert f"/games/{game['id']}" in page and f'src="/games/{game["id"]}/qr.svg"' in page
    code = re.search(r'id="join-code">([A-Z0-9]{6})<', page).group(1)
    assert all(c not in "01OIL" for c in code)
    assert share_page(client, game["id"]).count(code) == 1  # the same code while it is fresh
    qr = client.get(f"/games/{game['id']}/qr.svg")
    assert qr.status_code == 200 and qr.headers["Content-Type"] == "image/svg+xml" and b"<svg" in qr.data
    assert client.get("/games/unknown-game-xxxxxxxx/qr.svg").status_code == 404


def test_the_share_sheet_of_a_table_of_four_speaks_of_the_other_phones(client):
    """A tester's 4-phone Splendor: the share sheet said "Another phone … on the other phone" to
    a table where three phones join. A Duel's still speaks of one."""
    duel = share_page(client, new_game(client)["id"])
    assert "<h2>Another phone</h2>" in duel and "on the other phone's home page" in duel
    four = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben", "Cy", "Di"],
                                            "first_player": 0, "nobles": ["N-01", "N-02", "N-03", "N-04", "N-05"]})
    assert four.status_code == 201, four.get_json()
    page = share_page(client, four.get_json()["id"])
    assert "<h2>Other phones</h2>" in page and "on each of the other phones: each can record" in page
    assert "on each other phone's home page" in page and "Another phone" not in page


def test_a_typed_code_opens_the_game_on_another_phone(client):
    game = new_game(client)
    code = re.search(r'id="join-code">([A-Z0-9]{6})<', share_page(client, game["id"])).group(1)
    resp = client.post("/join", data={"code": f" {code.lower()[:3]} {code.lower()[3:]} "})
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{game['id']}?whose=ask"
    # a dash between the halves (a tester: "unknown or has expired"), a Korean keyboard's full width
    for typed in (f"{code[:3]}-{code[3:]}", "".join(chr(ord(c) + 0xFEE0) for c in code)):
        resp = client.post("/join", data={"code": typed})
        assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{game['id']}?whose=ask", typed
    for typed in (f"{code[:3]}가{code[3:]}", f"{code[:3]}!{code[3:]}"):  # a stray character: a wrong code
        assert client.post("/join", data={"code": typed}).status_code == 422, typed


def test_an_unknown_or_expired_code_is_refused(app, client):
    game = new_game(client)
    code = re.search(r'id="join-code">([A-Z0-9]{6})<', share_page(client, game["id"])).group(1)
    row = db.session.get(JoinCode, code)
    row.expires_at = row.expires_at - timedelta(minutes=16)
    db.session.commit()
    resp = client.post("/join", data={"code": code})
    assert resp.status_code == 422 and "unknown or has expired" in resp.get_data(as_text=True)
    refused = client.post("/join", data={"code": "ZZZZZZ"})
    body = refused.get_data(as_text=True)
    assert refused.status_code == 422
    # The refusal is said at the join form, not at the new-game form above it.
    assert body.index('id="join-error"') > body.index('<form class="join"') > body.index('class="new-game"')
    assert "autofocus" in body  # the phone brings the code field, and the refusal, into view
    fresh = re.search(r'id="join-code">([A-Z0-9]{6})<', share_page(client, game["id"])).group(1)
    assert fresh != code


def test_join_attempts_are_rate_limited(database_url):
    from appconfig import app_config

    from tracker import create_app
    from tracker.access import limiter

    app = create_app({**app_config(database_url), "RATELIMIT_ENABLED": True})
    with app.app_context():
        limiter.reset()
        client = app.test_client()
        codes = [client.post("/join", data={"code": f"AAAA{i:02d}"}).status_code for i in range(12)]
        assert codes[:10] == [422] * 10 and codes[10:] == [429, 429]
        db.session.remove()
        db.engine.dispose()


def test_a_spectator_sees_the_game_without_controls_and_never_its_id(client):
    game = new_game(client, ("Ana", "Ben"))
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})
    watch = re.search(r'id="watch-link">[^<]*(/watch/[A-Za-z0-9_-]+)<', share_page(client, game["id"])).group(1)
    page = client.get(watch).get_data(as_text=True)
    assert "Ben's turn" in page and "watching" in page
    assert 'id="sheet"' not in page and 'id="undo"' not in page and 'id="action-take"' not in page
    assert game["id"] not in page
    assert client.get(watch + "/poll?v=1", headers=HX).status_code == 204
    post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    assert f'{watch}/poll?v=1&amp;n=1"' in page  # the spectator's poller says what its screen shows
    fresh = client.get(watch + "/poll?v=1&n=1", headers=HX)
    assert fresh.status_code == 200 and 'data-version="2"' in fresh.get_data(as_text=True)
    assert game["id"] not in fresh.get_data(as_text=True)
    assert 'data-kind="done"><span>✓ Ben took 1 blue.<' in fresh.get_data(as_text=True)  # the spectator's toast too
    client.post(f"/api/games/{game['id']}/undo", json={})
    undone = client.get(watch + "/poll?v=2&n=2", headers=HX).get_data(as_text=True)
    assert "Undone: Ben took 1 blue." in undone and 'data-kind="done"' not in undone


def test_a_spectator_cannot_write(client):
    game = new_game(client)
    sid = service.spectator_id(game["id"])
    for path in (f"/watch/{sid}", f"/watch/{sid}/events", f"/watch/{sid}/undo"):
        assert client.post(path, data={"event": "{}"}).status_code == 403
    assert client.get(f"/watch/{'x' * 32}").status_code == 404
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0


def test_the_home_page_offers_joining_by_code(client):
    page = client.get("/").get_data(as_text=True)
    assert 'action="/join"' in page and 'name="code"' in page


def test_a_code_typed_letter_by_letter_fits_and_a_wrong_one_stays_to_be_read(client):
    """The share sheet shows the code letter-spaced, so "9 T N 8 N X" is a natural way to type
    it: the field cut it at 8 characters. A refused code stays in the field (it was emptied)."""
    game = new_game(client)
    code = re.search(r'id="join-code">([A-Z0-9]{6})<', share_page(client, game["id"])).group(1)
    spaced = " ".join(code)
    home = client.get("/").get_data(as_text=True)
    maxlength = int(re.search(r'id="join-code-input" name="code" maxlength="(\d+)"', home).group(1))
    assert len(spaced) <= maxlength
    assert client.post("/join", data={"code": spaced}).headers["Location"] == f"/games/{game['id']}?whose=ask"
    wrong = client.post("/join", data={"code": "9 T N 8 N Z"}).get_data(as_text=True)
    assert 'value="9 T N 8 N Z"' in wrong


def test_the_share_sheet_says_how_long_its_code_still_lasts(client):
    """A code is given again while it has 5 or more minutes left: the sheet said "valid 15
    minutes" even with 6 left."""
    game = new_game(client)
    page = share_page(client, game["id"])
    assert "valid 15 minutes" in page
    code = re.search(r'id="join-code">([A-Z0-9]{6})<', page).group(1)
    row = db.session.get(JoinCode, code)
    row.expires_at = row.expires_at - timedelta(minutes=9, seconds=30)
    db.session.commit()
    page = share_page(client, game["id"])
    assert code in page and "valid 6 minutes" in page


def test_a_spectator_is_told_the_game_was_deleted_and_restored(client):
    """Deleting keeps the version, and the spectator's poll compared the version alone: the
    watch screen went on showing "Ben's turn" after the table deleted the game."""
    game = new_game(client, ("Ana", "Ben"))
    sid = service.spectator_id(game["id"])
    assert client.get(f"/watch/{sid}/poll?v=0&n=0", headers=HX).status_code == 204
    assert client.post(f"/history/{game['id']}/delete").status_code in (302, 303)
    fresh = client.get(f"/watch/{sid}/poll?v=0&n=0", headers=HX)
    body = fresh.get_data(as_text=True)
    assert fresh.status_code == 200 and "This game was deleted by its table." in body
    assert "Restore" not in body and game["id"] not in body
    assert f"/watch/{sid}/poll?v=0&amp;n=0&amp;d=1" in body  # now it polls as a screen showing the deletion
    assert client.get(f"/watch/{sid}/poll?v=0&n=0&d=1", headers=HX).status_code == 204
    assert "This game was deleted by its table." in client.get(f"/watch/{sid}").get_data(as_text=True)
    assert client.post(f"/history/{game['id']}/restore").status_code in (302, 303)
    restored = client.get(f"/watch/{sid}/poll?v=0&n=0&d=1", headers=HX).get_data(as_text=True)
    assert "deleted" not in restored and "Ana's turn" in restored


def test_a_spectator_screen_is_marked_for_its_wide_layout_and_opens_the_log(client):
    """A club's screen shows the watch link: the game is marked ``watching`` (the stylesheet
    lays it out in two columns, larger, on a wide landscape display) and the log is open (a
    screen on a wall has no hand to open it). A player's phone keeps the log closed."""
    game = new_game(client, ("Ana", "Ben"))
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    sid = service.spectator_id(game["id"])
    page = client.get(f"/watch/{sid}").get_data(as_text=True)
    assert re.search(r'<main id="game" class="game watching"', page) and '<details class="log" id="log" open>' in page
    own = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "watching" not in re.search(r'<main id="game" class="([^"]*)"', own).group(1)
    assert '<details class="log" id="log">' in own
    css = client.get("/static/app.css").get_data(as_text=True)
    assert ".game.watching>.log{grid-column:2;" in css and ".game.watching{zoom:1.5}" in css  # served minified


def test_a_spectator_is_told_the_choice_the_table_owes(client):
    """A royal card due or tokens to return: the players' phones open a prompt sheet, which a
    spectator does not have; its turn line said only whose turn it was."""
    from helpers import fixture_log, import_log, load_fixture

    def position(upto: int) -> dict:
        log = fixture_log("duel-1012.json")
        log.pop("id", None)
        log["events"], log["result"] = log["events"][:upto], None
        return import_log(client, log)

    def owed(game: dict) -> str | None:
        page = client.get(f"/watch/{service.spectator_id(game['id'])}").get_data(as_text=True)
        found = re.search(r'<p class="owed" id="owed" role="status">([^<]*)</p>', page)
        return found.group(1) if found else None

    royal = position(45)
    assert royal["pending"]["kind"] == "royal"
    assert owed(royal) == f"{royal['players'][royal['current_player']]['name']} takes a royal card"
    discard_at = next(i for i, e in enumerate(load_fixture("duel-1012.json")["events"]) if e["type"] == "discard")
    discard = position(discard_at)
    assert discard["pending"]["kind"] == "discard"
    count = discard["pending"]["count"]
    name = discard["players"][discard["current_player"]]["name"]
    assert owed(discard) == f"{name} returns {count} token{'s' if count > 1 else ''} to keep 10"
    assert owed(position(44)) is None  # nothing owed: nothing said
    # a player's own phone has the prompt sheet instead
    assert 'id="owed"' not in client.get(f"/games/{royal['id']}").get_data(as_text=True)


def test_the_share_sheet_has_the_spectator_links_qr_and_other_watch_pages_are_not_found(client):
    game = new_game(client)
    page = share_page(client, game["id"])
    sid = service.spectator_id(game["id"])
    assert f'src="/watch/{sid}/qr.svg"' in page and 'id="watch-qr"' in page
    qr = client.get(f"/watch/{sid}/qr.svg")
    assert qr.status_code == 200 and qr.headers["Content-Type"] == "image/svg+xml"
    for path in ("export", "a/b", "undo"):
        assert client.get(f"/watch/{sid}/{path}").status_code == 404
    assert client.get(f"/watch/{sid}/review").status_code == 200  # the spectator's own review (no id in it)
    assert client.post(f"/watch/{sid}/review").status_code == 403
    assert client.get(f"/watch/{sid}/poll?v=0", headers=HX).status_code == 204  # the real pages still answer


def test_a_spectator_follows_the_table_to_its_next_game(client):
    """A club's screen on a watch link stayed on the old result when the table started "New game,
    same players": it is told within a poll, offered the next game's own watch link (never the
    game's id), and app.js follows it by itself a minute later."""
    from helpers import fixture_log, import_log

    log = fixture_log("duel-1102.json", ["Ana", "Ben"])
    log.pop("id", None)
    finished = import_log(client, log)
    sid = service.spectator_id(finished["id"])
    version = finished["version"]
    page = client.get(f"/watch/{sid}").get_data(as_text=True)
    assert "next-game" not in page and f"/watch/{sid}/poll?v={version}&amp;n={version}\"" in page
    nxt = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "1", "after": finished["id"]})
    next_id = nxt.headers["Location"].rsplit("/", 1)[-1]
    assert next_id != finished["id"]
    fresh = client.get(f"/watch/{sid}/poll?v={version}&n={version}", headers=HX)
    body = fresh.get_data(as_text=True)
    next_watch = f"/watch/{service.spectator_id(next_id)}"
    assert fresh.status_code == 200 and f'href="{next_watch}" data-follow-after="60"' in body
    assert f'id="next-game-bar" href="{next_watch}"' in body
    assert next_id not in body and finished["id"] not in body
    assert client.get(f"/watch/{sid}/poll?v={version}&n={version}&x=1", headers=HX).status_code == 204
    assert "data-follow-after" in client.get("/static/app.js").get_data(as_text=True)
    # the finished game's link opened afresh (a friend who was not there) stays on that game
    later = client.get(f"/watch/{sid}").get_data(as_text=True)
    assert f'href="{next_watch}"' in later and "data-follow-after" not in later and "follow-note" not in later


def test_a_spectator_told_of_a_deletion_hears_no_alert_again(client):
    """The screen a deletion redraws carries no news: the last entry's alert ("Ben gains a
    privilege") was said once, when it happened (the players' poll behaved so already)."""
    game = new_game(client, ("Ana", "Ben"))
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})
    sid = service.spectator_id(game["id"])
    assert 'data-kind="privilege_given"' in client.get(f"/watch/{sid}/poll?v=0&n=0", headers=HX).get_data(as_text=True)
    assert client.post(f"/history/{game['id']}/delete").status_code in (302, 303)
    body = client.get(f"/watch/{sid}/poll?v=1&n=1", headers=HX).get_data(as_text=True)
    assert "This game was deleted by its table." in body and 'data-kind="privilege_given"' not in body


def test_a_new_spectator_link_stops_the_old_one_and_its_open_screens_are_told(client):
    """A spectator link posted where it should not be could never be taken back: the share
    sheet makes a new one; the old link shows nothing and a screen still open on it says why."""
    game = new_game(client, ("Ana", "Ben"))
    old = re.search(r'id="watch-link">[^<]*/watch/([A-Za-z0-9_-]+)<', share_page(client, game["id"])).group(1)
    assert client.get(f"/watch/{old}/poll?v=0&n=0", headers=HX).status_code == 204
    resp = client.post(f"/games/{game['id']}/share/watch")
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/games/{game['id']}/share?renewed=1")
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    new = re.search(r'id="watch-link">[^<]*/watch/([A-Za-z0-9_-]+)<', page).group(1)
    assert new != old and len(new) >= 16 and 'id="watch-renewed"' in page
    assert 'id="watch-renewed"' not in share_page(client, game["id"])  # said once, after the tap
    assert service.game_id_for_spectator(new) == game["id"]
    fresh = client.get(f"/watch/{old}")  # opened afresh: said as such
    assert fresh.status_code == 404 and "the table may have made a new one" in fresh.get_data(as_text=True)
    assert client.get(f"/watch/{old}/qr.svg").status_code == 404
    gone = client.get(f"/watch/{old}/poll?v=0&n=0", headers=HX)
    body = gone.get_data(as_text=True)
    assert gone.status_code == 410 and 'id="game"' in body and "no longer shows the game" in body
    assert "hx-get" not in body and game["id"] not in body  # no poller left, and no write key
    watch = client.get(f"/watch/{new}").get_data(as_text=True)
    assert "Ana's turn" in watch and game["id"] not in watch
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 0  # nothing else changed
    assert client.post("/games/unknown-game-xxxxxxxx/share/watch").status_code == 404
    opened = client.get(f"/games/{game['id']}/share/watch")  # the address of the form, opened: its page
    assert opened.status_code == 303 and opened.headers["Location"] == f"/games/{game['id']}/share"
    assert client.put(f"/games/{game['id']}/share/watch").status_code == 405


def test_a_code_of_a_game_deleted_since_is_refused_with_its_reason(client):
    game = new_game(client)
    code = re.search(r'id="join-code">([A-Z0-9]{6})<', share_page(client, game["id"])).group(1)
    client.post(f"/history/{game['id']}/delete")
    refused = client.post("/join", data={"code": code})
    assert refused.status_code == 422
    body = refused.get_data(as_text=True)
    assert "was deleted on the phone that shared it" in body and f"/games/{game['id']}" not in body
    client.post(f"/history/{game['id']}/restore")
    assert client.post("/join", data={"code": code}).headers["Location"] == f"/games/{game['id']}?whose=ask"


def test_a_joining_phone_is_asked_whose_it_is(client):
    """One phone each: a phone that joins by code (or opens the share sheet's link or QR, or comes
    back from sharing) is asked whose phone it is; a name keeps that player's side at the bottom
    (the "mine" setting) and the question is not asked again; "Everyone's" clears it."""
    game = new_game(client, players=("Mia", "Leo"))
    page = share_page(client, game["id"])
    assert re.search(rf'id="play-link">http://[^<]+/games/{game["id"]}\?whose=ask<', page)
    assert f'id="back-to-game" href="/games/{game["id"]}?whose=ask"' in page
    code = re.search(r'id="join-code">([A-Z0-9]{6})<', page).group(1)
    joined = client.post("/join", data={"code": code}).headers["Location"]
    asked = client.get(joined).get_data(as_text=True)
    assert 'id="whose-phone"' in asked and "Whose phone is this?" in asked
    choices = re.findall(r'<a class="small-btn" id="phone-(\w+)" href="([^"]+)">([^<]+)</a>', asked)
    assert [(c[0], c[2]) for c in choices] == [("0", "Mia"), ("1", "Leo"), ("shared", "Everyone's (the player to act at the bottom)")]
    leo = choices[1][1].replace("&amp;", "&")
    resp = client.get(leo)
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{game['id']}"
    again = client.get(joined).get_data(as_text=True)
    assert 'id="whose-phone"' not in again
    assert 'class="small-btn on" aria-current="true" id="mine-1"' in again  # Leo's side at the bottom
    # the plain game address never asks; "Everyone's" forgets the choice, so the next join asks again
    assert 'id="whose-phone"' not in client.get(f"/games/{game['id']}").get_data(as_text=True)
    client.get(choices[2][1].replace("&amp;", "&"))
    assert 'id="whose-phone"' in client.get(joined).get_data(as_text=True)


def test_the_phone_that_shared_the_game_is_asked_whose_it_is_back_on_it(client):
    """The first phone brings the others in from its share sheet: back on the game by the phone's
    own Back (the plain address), it is asked whose phone it is too (a tester's first phone never
    was, and showed the other player's sheets on their turns); answered, not again. Another game
    is not asked about."""
    game = new_game(client, players=("Emma", "Jihun"))
    other = new_game(client, players=("Ola", "Per"))
    assert 'id="whose-phone"' not in client.get(f"/games/{game['id']}").get_data(as_text=True)
    share_page(client, game["id"])
    back = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert 'id="whose-phone"' in back and "Whose phone is this?" in back
    assert 'id="whose-phone"' not in client.get(f"/games/{other['id']}").get_data(as_text=True)
    emma = re.search(r'id="phone-0" href="([^"]+)">Emma<', back)[1].replace("&amp;", "&")
    assert client.get(emma).status_code == 303
    again = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert 'id="whose-phone"' not in again and 'class="small-btn on" aria-current="true" id="mine-0"' in again



def test_a_sharing_phone_that_answered_is_not_asked_again_after_sharing_again(client):
    """A tester's sharing phone had said whose it is; its share sheet, opened again for the next
    phone, asked "Whose phone is this?" once more on "Back to the game". Answered in this game
    (a player, or everyone's), the share sheet's way back asks nothing; another game's sheet
    still asks."""
    game = new_game(client, players=("Emma", "Jihun"))
    for answer, seat in (("0", 0), ("shared", None)):
        page = share_page(client, game["id"])
        back = re.search(r'id="back-to-game" href="([^"]+)"', page)[1]
        asked = client.get(back.replace("&amp;", "&")).get_data(as_text=True)
        link = re.search(rf'id="phone-{answer}" href="([^"]+)"', asked)[1].replace("&amp;", "&")
        assert f"game={game['id']}" in link and client.get(link).status_code == 303
        page = share_page(client, game["id"])
        assert f'id="back-to-game" href="/games/{game["id"]}"' in page
        again = client.get(f"/games/{game['id']}").get_data(as_text=True)
        assert 'id="whose-phone"' not in again
        assert ('class=" mine-0"' in again) == (seat == 0)
        client.delete_cookie("whose_answered")  # (the next round asks again)
        client.delete_cookie("mine")
    other = new_game(client, players=("Ola", "Per"))
    assert f'id="back-to-game" href="/games/{other["id"]}?whose=ask"' in share_page(client, other["id"])


def test_a_phone_whose_player_sits_in_the_next_game_is_not_asked_back_from_sharing_it(client):
    """A tester: "New game, same players" kept "This phone: Ana" on the phone that started it, but
    Share, then "Back to the game", asked "Whose phone is this?" again. A phone whose player sits
    in the game knows whose it is; a phone of nobody in it is still asked."""
    done = client.post("/api/games/import", json={**fixture_log("duel-1069.json"), "players": ["Ana", "Ben"]})
    client.get("/settings?mine=Ana&next=/")
    started = client.post("/games", data={"game": "duel", "player0": "Ana", "player1": "Ben", "first": "1",
                                          "after": done.get_json()["id"]})
    gid = started.headers["Location"].rsplit("/", 1)[-1]
    assert 'id="whose-phone"' not in client.get(f"/games/{gid}").get_data(as_text=True)
    page = share_page(client, gid)
    assert f'id="back-to-game" href="/games/{gid}"' in page
    back = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="whose-phone"' not in back and 'class="small-btn on" aria-current="true" id="mine-0"' in back
    client.get("/settings?mine=Cleo&next=/")  # a phone of nobody at this table
    assert f'id="back-to-game" href="/games/{gid}?whose=ask"' in share_page(client, gid)
    assert 'id="whose-phone"' in client.get(f"/games/{gid}").get_data(as_text=True)


def test_a_phone_that_is_one_player_s_is_asked_again_when_it_starts_a_game(client):
    """A Korean tester's phone, Jimin's in a Duel of one phone each, started a classic game for
    three on that one phone: Seojun's and Hayun's turns hid behind "on their own phone". A game
    started from the form on a phone that is a seated player's asks whose phone it is, that
    player marked; "Everyone's" makes it the table's; a game without that player, or the table's
    next game (``after``), asks nothing."""
    first = new_game(client, players=("Jimin", "Seojun"))
    client.get(f"/settings?mine=Jimin&next=/games/{first['id']}")
    form = {"game": "splendor", "player0": "Jimin", "player1": "Seojun", "player2": "Hayun", "first": "0",
            "noble": ["N-01", "N-02", "N-03", "N-04"], "namesake_ok": ["Jimin", "Seojun", "Hayun"]}
    # (each game here has people of the others in it, all in progress: the home form's question
    # about names in another game being played, answered once for all, ``namesake_ok``)
    started = client.post("/games", data=form)
    assert started.status_code == 303
    page = client.get(started.headers["Location"]).get_data(as_text=True)
    assert 'id="whose-phone"' in page and "Whose phone is this?" in page
    assert re.search(r'class="small-btn on" id="phone-0" aria-current="true" href="[^"]+">Jimin<', page)
    shared = re.search(r'id="phone-shared" href="([^"]+)"', page)[1].replace("&amp;", "&")
    assert client.get(shared).status_code == 303
    again = client.get(started.headers["Location"]).get_data(as_text=True)
    assert 'id="whose-phone"' not in again and "own phone" not in again
    # the answer stands: the next game on this phone, now everyone's, asks nothing
    later = client.post("/games", data=form).headers["Location"]
    assert 'id="whose-phone"' not in client.get(later).get_data(as_text=True)
    client.get(f"/settings?mine=Jimin&next={later}")
    without = client.post("/games", data={**form, "player0": "Mina"}).headers["Location"]
    assert 'id="whose-phone"' not in client.get(without).get_data(as_text=True)
    duel = client.post("/games", data={"game": "duel", "player0": "Jimin", "player1": "Seojun", "first": "0",
                                       "namesake_ok": ["Jimin", "Seojun"]})
    done = client.post("/api/games/import", json={**fixture_log("duel-1069.json"), "players": ["Jimin", "Seojun"]})
    assert duel.status_code == 303 and done.status_code == 201
    client.get(f"/settings?mine=Jimin&next=/")
    following = client.post("/games", data={"game": "duel", "player0": "Jimin", "player1": "Seojun", "first": "1",
                                            "after": done.get_json()["id"], "namesake_ok": ["Jimin", "Seojun"]})
    assert following.status_code == 303
    assert 'id="whose-phone"' not in client.get(following.headers["Location"]).get_data(as_text=True)
    # an ``after`` naming no game (or one this game did not follow) asks as any new game does
    stray = client.post("/games", data={"game": "duel", "player0": "Jimin", "player1": "Cleo", "first": "0",
                                        "after": "no-such-game", "namesake_ok": "Jimin"}).headers["Location"]
    assert 'id="whose-phone"' in client.get(stray).get_data(as_text=True)


def test_a_mine_cookie_no_name_can_have_is_nobody_s(client):
    """A tester's ``mine`` cookie holding a NUL answered 500 on PostgreSQL (its text refuses NUL)
    at a new game, on the game screen and on the Fix sheet: it is nobody's phone then."""
    for value in ("%00", "x%00y"):
        client.set_cookie("mine", value)
        started = client.post("/games", data={"game": "duel", "player0": "Ana", "player1": "Ben", "first": "0"})
        assert started.status_code == 303
        gid = started.headers["Location"].rsplit("/", 1)[-1]
        assert client.get(f"/games/{gid}").status_code == 200
        assert client.get(f"/games/{gid}/sheet/correction").status_code == 200
    assert len(client.get("/api/games").get_json()) == 2

def test_two_phones_opening_share_at_once_show_the_same_spectator_link(app, client):
    """The first Share of a game makes its spectator link: two phones opening it at the same
    moment (or a double tap) each made one, and every link but the last showed nothing."""
    from sqlalchemy import event, update

    from tracker.models import Game

    game = new_game(client)
    sneaked: list[str] = []

    def other_phone_first(_conn, _cursor, statement, _params, _context, _many):
        if not sneaked and statement.startswith("UPDATE games SET spectator_id"):
            sneaked.append("s" + "1" * 31)
            with db.engine.begin() as other:
                other.execute(update(Game).where(Game.id == game["id"]).values(spectator_id=sneaked[0]))

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", other_phone_first)
        try:
            page = share_page(client, game["id"])
        finally:
            event.remove(db.engine, "before_cursor_execute", other_phone_first)
    assert sneaked and f"/watch/{sneaked[0]}" in page
    assert client.get(f"/watch/{sneaked[0]}").status_code == 200
    assert f"/watch/{sneaked[0]}" in share_page(client, game["id"])


def test_a_phone_in_table_mode_is_not_asked_whose_it_is(client):
    """Table mode says the phone lies between the players: back from its share sheet it is not
    asked whose phone it is (a name would have turned table mode off, unsaid)."""
    game = new_game(client)
    client.get(f"/settings?table=on&next=/games/{game['id']}")
    assert 'id="whose-phone"' not in client.get(f"/games/{game['id']}?whose=ask").get_data(as_text=True)
    client.get(f"/settings?table=off&next=/games/{game['id']}")
    assert 'id="whose-phone"' in client.get(f"/games/{game['id']}?whose=ask").get_data(as_text=True)


def test_a_spectator_link_of_a_finished_game_opens_its_review_without_its_id(client):
    """The banner of a finished game on a spectator's screen leads to the review, by the
    spectator link: turn by turn, stepping, charts, and nothing that reveals the game's id (no
    game screen, no log file, no History or player links)."""
    from helpers import load_fixture

    log = load_fixture("duel-1012.json")
    gid = client.post("/api/games/import", json=log).get_json()["id"]
    watch = re.search(r'id="watch-link">[^<]*(/watch/[A-Za-z0-9_-]+)<', share_page(client, gid)).group(1)
    banner = client.get(watch).get_data(as_text=True)
    assert f'id="review-game" href="{watch}/review"' in banner and gid not in banner
    page = client.get(f"{watch}/review")
    body = page.get_data(as_text=True)
    assert page.status_code == 200 and gid not in body
    assert "won" in body and 'data-turn="70"' in body and f'href="{watch}/review?turn=69"' in body
    assert 'id="download-log"' not in body and "/history" not in body and f'href="{watch}"' in body
    step = client.get(f"{watch}/review?turn=12", headers=HX).get_data(as_text=True)
    assert step.lstrip().startswith('<section id="replay"') and "After turn 12" in step and gid not in step
    assert client.get("/watch/no-such-spectator-link-xxxx/review").status_code == 404
    # the table's own review is unchanged
    own = client.get(f"/games/{gid}/review").get_data(as_text=True)
    assert 'id="download-log"' in own and f'href="/games/{gid}/review?turn=69"' in own


def test_the_game_log_leads_to_the_review_so_far_players_by_the_game_spectators_by_their_link(client):
    """A game in progress: under its log, "Turn by turn" opens the review so far; on a
    spectator's live screen (and its log drawer) by the spectator link, never the game's id.
    A game with no entry yet has nothing to review and no link."""
    game = new_game(client)
    gid = game["id"]
    assert 'id="review-so-far"' not in client.get(f"/games/{gid}").get_data(as_text=True)
    post(client, gid, {"type": "take_tokens", "player": game["current_player"], "tokens": {"red": 1}})
    own = client.get(f"/games/{gid}").get_data(as_text=True)
    assert f'id="review-so-far" href="/games/{gid}/review"' in own
    review = client.get(f"/games/{gid}/review").get_data(as_text=True)
    assert "After turn 1 · " in review
    watch = re.search(r'id="watch-link">[^<]*(/watch/[A-Za-z0-9_-]+)<', share_page(client, gid)).group(1)
    for page in (client.get(watch), client.get(f"{watch}/log", headers=HX)):
        body = page.get_data(as_text=True)
        assert f'id="review-so-far" href="{watch}/review"' in body and gid not in body
    spectator = client.get(f"{watch}/review")
    assert spectator.status_code == 200 and gid not in spectator.get_data(as_text=True)


def test_a_spectator_of_a_series_game_sees_the_series_and_its_score_never_the_id(client):
    """A tester's spectator of a "best of 3" saw no series line, which both phones show."""
    resp = client.post("/games", data={"player0": "Ana", "player1": "Ben", "first": "0", "best_of": "3"})
    gid = resp.headers["Location"].rsplit("/", 1)[-1]
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    watch = re.search(r'id="watch-link">[^<]*(/watch/[A-Za-z0-9_-]+)<', share_page(client, gid)).group(1)
    page = client.get(watch).get_data(as_text=True)
    assert '<p class="series-strip" id="series-strip">Best of 3 · game 1 · <b>Ana 0 – 0 Ben</b></p>' in page
    assert gid not in page
    # a single game has none
    single = new_game(client, ("Cho", "Dan"))
    watch = re.search(r'id="watch-link">[^<]*(/watch/[A-Za-z0-9_-]+)<', share_page(client, single["id"])).group(1)
    assert 'id="series-strip"' not in client.get(watch).get_data(as_text=True)


def test_the_share_sheet_of_a_finished_game_shows_its_result_link_and_no_join_code(app, client):
    """A finished game records nothing more: its share sheet offered a join code and said the
    other phone "can record entries too". It gives the link to the result, and no code; undone
    back into play, the game has its code again."""
    log = fixture_log("duel-1069.json")
    gid = client.post("/api/games/import", json=log).get_json()["id"]
    page = share_page(client, gid)
    assert 'id="share-finished"' in page and "see its result" in page
    assert 'id="join-code"' not in page and "record entries too" not in page
    assert f'/games/{gid}?whose=ask' in page and 'id="watch-link"' in page
    with app.app_context():
        assert db.session.query(JoinCode).filter_by(game_id=gid).count() == 0  # none minted
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    assert client.post(f"/api/games/{gid}/undo", json={"expected_version": version}).status_code == 200
    page = share_page(client, gid)
    assert re.search(r'id="join-code">([A-Z0-9]{6})<', page) and 'id="share-finished"' not in page


def test_a_seat_another_phone_took_is_said_when_the_next_phone_is_asked(app, client):
    """Two phones had both taken Ben's seat with no word (a tester): the question tells a joining
    phone which seats another phone took, and still lets it take one (a phone may be replaced).
    A phone that answers again, or answers "Everyone's", gives its seat back."""
    game = new_game(client, players=("Ana", "Ben"))
    asking = f"/games/{game['id']}?whose=ask"

    def choices(phone) -> dict[str, str]:
        page = phone.get(asking).get_data(as_text=True)
        found = re.findall(r'<a class="small-btn[^"]*" id="phone-(\d)"[^>]*href="([^"]+)">(.*?)</a>', page)
        return {seat: (href.replace("&amp;", "&"), label) for seat, href, label in found}

    assert {seat: label for seat, (_, label) in choices(client).items()} == {"0": "Ana", "1": "Ben"}
    assert client.get(choices(client)["1"][0]).status_code == 303  # the first phone: Ben's
    other = app.test_client()
    asked = choices(other)
    assert asked["0"][1] == "Ana" and asked["1"][1] == "Ben <small>(on another phone)</small>"
    assert 'class="small-btn taken" id="phone-1"' in other.get(asking).get_data(as_text=True)
    # the second takes Ben's anyway
    assert other.get(asked["1"][0]).status_code == 303
    third = app.test_client()
    assert choices(third)["1"][1] == "Ben <small>(on another phone)</small>"
    # a name refused (a tab in it) changes nothing: neither the phone's player nor its seat
    refused = asked["1"][0].replace("mine=Ben", "mine=Be%09n")
    assert refused != asked["1"][0] and other.get(refused).status_code == 303
    assert 'class="small-btn on" aria-current="true" id="mine-1"' in other.get(f"/games/{game['id']}").get_data(as_text=True)
    assert choices(third)["1"][1] == "Ben <small>(on another phone)</small>"
    # the first phone turns out to be Ana's, the second gives Ben's back ("Everyone's")
    assert client.get(asked["0"][0]).status_code == 303  # (the same choices on every phone)
    shared = re.search(r'id="phone-shared" href="([^"]+)"', third.get(asking).get_data(as_text=True))[1]
    assert other.get(shared.replace("&amp;", "&")).status_code == 303
    assert {seat: label for seat, (_, label) in choices(third).items()} == {
        "0": "Ana <small>(on another phone)</small>", "1": "Ben"}
    # a forged phone id is no phone's: a new one is given, the seat taken all the same
    forged = app.test_client()
    forged.set_cookie("phone", "x" * 200)
    assert forged.get(choices(forged)["1"][0]).status_code == 303
    assert choices(third)["1"][1] == "Ben <small>(on another phone)</small>"


def test_a_phone_already_a_players_from_an_earlier_game_takes_that_seat_in_the_next(app, client):
    """A phone that is Ben's since an earlier game is asked nothing in the next one (or answers
    nothing): opening it takes Ben's seat all the same, and the next phone asked is told (a
    tester's second game: both phones were Ben's, the question said nothing)."""
    first = new_game(client, players=("Ana", "Ben"))
    page = client.get(f"/games/{first['id']}?whose=ask").get_data(as_text=True)
    ben = re.search(r'id="phone-1" href="([^"]+)"', page)[1].replace("&amp;", "&")
    assert client.get(ben).status_code == 303
    second = new_game(client, players=("Ben", "Cy"))  # Ben now sits first
    assert "This phone: Ben" in client.get(f"/games/{second['id']}").get_data(as_text=True)
    other = app.test_client()
    asked = other.get(f"/games/{second['id']}?whose=ask").get_data(as_text=True)
    assert re.search(r'id="phone-0"[^>]*>Ben <small>\(on another phone\)</small></a>', asked)
    assert re.search(r'id="phone-1"[^>]*>Cy</a>', asked)
    # read again: nothing new to write (one indexed read), the seat still taken
    assert client.get(f"/games/{second['id']}").status_code == 200
    assert "Ben <small>(on another phone)</small>" in other.get(f"/games/{second['id']}?whose=ask").get_data(as_text=True)


def test_a_seat_taken_on_another_phone_after_the_question_was_drawn_is_asked_again(app, client):
    """Both phones answered at once (a Korean tester's pair): the second never saw that the first
    had just taken 민준's seat. Its answer is asked again, saying so, and "yes" takes it all the
    same; a seat its question named taken is no surprise (one tap, as before)."""
    game = new_game(client, players=("민준", "서연"))
    asking = f"/games/{game['id']}?whose=ask"
    other = app.test_client()
    drawn = other.get(asking).get_data(as_text=True)  # before the first phone answers
    first = re.search(r'id="phone-0" href="([^"]+)"', client.get(asking).get_data(as_text=True))[1]
    assert client.get(first.replace("&amp;", "&")).status_code == 303  # the first phone: 민준's
    late = re.search(r'id="phone-0" href="([^"]+)"', drawn)[1].replace("&amp;", "&")
    resp = other.get(late)
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{game['id']}?whose=ask&taken=0"
    again = other.get(resp.headers["Location"]).get_data(as_text=True)
    assert "Another phone has just been made 민준's. Is this phone 민준's too?" in again
    assert 'id="whose-phone"' in again and "mine-0\" aria-current" not in again  # (not 민준's yet)
    yes = re.search(r'id="phone-again" href="([^"]+)"', again)[1].replace("&amp;", "&")
    assert "again=1" in yes and other.get(yes).status_code == 303
    assert 'class="small-btn on" aria-current="true" id="mine-0"' in other.get(f"/games/{game['id']}").get_data(as_text=True)
    # a third phone, its question drawn now: 민준's named taken, one tap takes it, no second question
    third = app.test_client()
    link = re.search(r'id="phone-0" href="([^"]+)"', third.get(asking).get_data(as_text=True))[1].replace("&amp;", "&")
    assert "again=1" in link and third.get(link).headers["Location"] == f"/games/{game['id']}"
    # a taken= naming no taken seat (or none at all) says nothing
    for odd in ("1", "7", "x", "-1"):
        assert 'id="seat-taken"' not in app.test_client().get(f"{asking}&taken={odd}").get_data(as_text=True), odd


def test_the_question_on_a_waiting_phone_shows_a_seat_as_another_phone_takes_it(app, client):
    """Two phones asked at once: the first answer showed on the second only when it was tapped
    (a tester). The question asks again every few seconds: 204 while the seats taken are those it
    shows, the question redrawn alone when they change, then nothing until the next change."""
    game = new_game(client, players=("Ana", "Ben"))
    asking = f"/games/{game['id']}?whose=ask"
    other = app.test_client()
    drawn = other.get(asking).get_data(as_text=True)
    check = re.search(r'<section class="whose-phone" id="whose-phone"[^>]*hx-get="([^"]+)"', drawn)[1].replace("&amp;", "&")
    assert "part=whose" in check and "seats=-" in check and "whose=ask" in check
    assert other.get(check, headers=HX).status_code == 204  # nothing taken yet
    first = re.search(r'id="phone-1" href="([^"]+)"', client.get(asking).get_data(as_text=True))[1]
    assert client.get(first.replace("&amp;", "&")).status_code == 303  # the first phone: Ben's
    resp = other.get(check, headers=HX)
    redrawn = resp.get_data(as_text=True)
    assert resp.status_code == 200 and redrawn.lstrip().startswith('<section class="whose-phone"')
    assert "Ben <small>(on another phone)</small>" in redrawn and 'id="game"' not in redrawn
    again = re.search(r'hx-get="([^"]+)"', redrawn)[1].replace("&amp;", "&")
    assert "seats=1" in again and other.get(again, headers=HX).status_code == 204
    # the first phone's own question never names its own seat taken
    assert client.get(check, headers=HX).status_code == 204


def test_asking_again_whose_phone_this_is_frees_its_seat_meanwhile(app, client):
    """"This phone: 서연 ✎" asks the question again: another phone asked meanwhile saw 서연's
    seat still taken (a Korean tester). Asking again frees it until this phone answers."""
    game = new_game(client, players=("민준", "서연"))
    asking = f"/games/{game['id']}?whose=ask"
    seoyeon = re.search(r'id="phone-1" href="([^"]+)"', client.get(asking).get_data(as_text=True))[1]
    assert client.get(seoyeon.replace("&amp;", "&")).status_code == 303
    other = app.test_client()
    assert "서연 <small>(on another phone)</small>" in other.get(asking).get_data(as_text=True)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    again = re.search(r'class="this-phone this-phone-1" href="([^"]+)"', page)[1].replace("&amp;", "&")
    assert f"game={game['id']}" in again and client.get(again).status_code == 303
    assert "(on another phone)" not in other.get(asking).get_data(as_text=True)
    assert 'id="whose-phone"' in client.get(asking).get_data(as_text=True)  # asked again, as before
