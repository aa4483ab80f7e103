"""The optional instance access code (issue: nothing lost, no one in)."""

from __future__ import annotations

import re

import pytest
from helpers import new_game


@pytest.fixture
def locked(database_url):
    """An app with an access code and rate limiting on."""
    from appconfig import app_config

    from tracker import create_app
    from tracker.access import limiter
    from tracker.db import db

    app = create_app({**app_config(database_url), "ACCESS_CODE": "open sesame", "RATELIMIT_ENABLED": True})
    with app.app_context():
        limiter.reset()
        yield app
        db.session.remove()
        db.engine.dispose()


def test_without_the_code_nothing_but_the_code_page_opens(locked):
    client = locked.test_client()
    resp = client.get("/")
    assert resp.status_code == 302 and resp.headers["Location"].startswith("/access")
    assert client.get("/api/games").status_code == 401
    assert client.get("/api/games").get_json()["error"]["code"] == "access_code_required"
    assert client.post("/api/games", json={"game": "duel", "players": ["A", "B"], "first_player": 0}).status_code == 401
    assert client.post("/api/games/import", json={}).status_code == 401
    assert client.get("/access").status_code == 200
    assert client.get("/static/app.css").status_code == 200


def test_a_game_link_opens_that_game_without_the_code(locked):
    owner = locked.test_client()
    owner.post("/access", data={"code": "open sesame"})
    game = new_game(owner)
    guest = locked.test_client()
    assert guest.get(f"/games/{game['id']}").status_code == 200
    assert guest.get(f"/api/games/{game['id']}").status_code == 200
    resp = guest.post(f"/api/games/{game['id']}/events", json={"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    assert resp.status_code == 200
    assert guest.get("/").status_code == 302  # and nothing else
    assert guest.get("/api/games").status_code == 401


def test_the_right_code_unlocks_the_device_once(locked):
    client = locked.test_client()
    resp = client.post("/access", data={"code": "wrong"})
    assert resp.status_code == 401 and "not the access code" in resp.get_data(as_text=True)
    resp = client.post("/access", data={"code": "open sesame", "next": "/"})
    assert resp.status_code == 303 and resp.headers["Location"] == "/"
    assert client.get("/").status_code == 200
    assert client.get("/api/games").status_code == 200


def test_a_new_code_locks_out_every_device_that_gave_the_old_one(locked):
    """A security tester's finding: the session only said "let in", so after the code was
    changed (a phone lost) every device that gave the old one kept its way in for a year."""
    client = locked.test_client()
    client.post("/access", data={"code": "open sesame"})
    assert client.get("/api/games").status_code == 200
    with client.session_transaction() as sess:
        assert "open sesame" not in str(sess["access"])  # the cookie is signed, not secret
    locked.config["ACCESS_CODE"] = "new moon"
    assert client.get("/api/games").status_code == 401
    assert client.get("/").status_code == 302
    client.post("/access", data={"code": "new moon"})
    assert client.get("/api/games").status_code == 200
    with client.session_transaction() as sess:
        sess["access"] = True  # a cookie of the release before (or a forged "true") lets nobody in
    assert client.get("/api/games").status_code == 401


def test_the_code_page_never_redirects_elsewhere(locked):
    client = locked.test_client()
    resp = client.post("/access", data={"code": "open sesame", "next": "https://evil.example/"})
    assert resp.headers["Location"] == "/"
    resp = locked.test_client().post("/access", data={"code": "open sesame", "next": "//evil.example/"})
    assert resp.headers["Location"] == "/"


def test_code_attempts_are_rate_limited(locked):
    client = locked.test_client()
    codes = [client.post("/access", data={"code": f"guess{i}"}).status_code for i in range(12)]
    assert codes[:10] == [401] * 10 and codes[10:] == [429, 429]
    # even the right code waits once the limit is reached
    assert client.post("/access", data={"code": "open sesame"}).status_code == 429


def test_only_the_limited_forms_pay_for_rate_limiting(locked):
    """The limits live on the two forms' own views: no limiter check runs before every other
    request (it cost a fifth of a bare request), and the limits still hold."""
    from tracker.access import limiter

    assert limiter._check_request_limit not in locked.before_request_funcs.get(None, [])
    client = locked.test_client()
    assert client.post("/access", data={"code": "open sesame"}).status_code == 303
    codes = [client.post("/join", data={"code": "ZZZZ"}).status_code for _ in range(11)]
    assert codes[:10] == [422] * 10 and codes[10] == 429
    assert [client.get("/").status_code for _ in range(30)] == [200] * 30  # other pages: never limited


def test_an_instance_without_a_code_is_open(client):
    assert client.get("/").status_code == 200
    assert client.get("/access").status_code == 302


def test_a_phone_with_only_a_game_link_may_change_its_settings_and_install_the_app(locked):
    """The display settings and the app's shell (service worker, manifest, offline page) are
    open: they show nothing of any game, and a phone that opened a game's link needs them."""
    owner = locked.test_client()
    owner.post("/access", data={"code": "open sesame"})
    game = new_game(owner)
    phone = locked.test_client()
    assert phone.get(f"/games/{game['id']}").status_code == 200
    switched = phone.get(f"/settings?lang=ko&next=/games/{game['id']}")
    assert switched.status_code == 303 and switched.headers["Location"] == f"/games/{game['id']}"
    assert "lang=ko" in switched.headers.get("Set-Cookie", "")
    for path in ("/sw.js", "/manifest.webmanifest", "/offline"):
        assert phone.get(path).status_code == 200, path
    away = phone.get("/settings?theme=dark&next=/history")  # back to a page that needs the code
    assert away.status_code == 303 and phone.get("/history").status_code == 302


def test_right_codes_never_use_up_the_limit(locked):
    """A club behind one address: every phone entering the right access code or a good join code
    counted against the limit of wrong ones (the 11th phone in a minute was refused the right
    code). Only refused codes count now; ten wrong ones still stop the eleventh try."""
    phones = [locked.test_client() for _ in range(15)]
    assert [p.post("/access", data={"code": "open sesame"}).status_code for p in phones] == [303] * 15
    game = phones[0].post("/api/games", json={"game": "duel", "players": ["Ana", "Ben"], "first_player": 0}).get_json()
    code = re.search(r'id="join-code">([A-Z0-9]+)<', phones[0].get(f"/games/{game['id']}/share").get_data(as_text=True))[1]
    assert [p.post("/join", data={"code": code}).status_code for p in phones] == [303] * 15
    wrong = [phones[1].post("/join", data={"code": "ZZZZZZ"}).status_code for _ in range(11)]
    assert wrong[:10] == [422] * 10 and wrong[10] == 429


def test_the_share_sheet_says_a_joining_phone_needs_the_access_code(locked, client):
    """With an access code the home page's join form sits behind it (the game's link and QR code
    do not): the share sheet says so; without one it says nothing."""
    phone = locked.test_client()
    phone.post("/access", data={"code": "open sesame"})
    game = phone.post("/api/games", json={"game": "duel", "players": ["Ana", "Ben"], "first_player": 0}).get_json()
    assert 'id="join-needs-access"' in phone.get(f"/games/{game['id']}/share").get_data(as_text=True)
    open_game = new_game(client)
    assert 'id="join-needs-access"' not in client.get(f"/games/{open_game['id']}/share").get_data(as_text=True)


def test_the_share_sheet_says_a_spectator_link_keeps_nobody_out_of_an_open_site(locked, client):
    """A tester: a spectator whose link was replaced went Home → History → Resume and had every
    control. Without an access code that is so (README): the share sheet says it under the
    spectator link; with one (a spectator has no way past it) it does not."""
    open_game = new_game(client)
    share = client.get(f"/games/{open_game['id']}/share").get_data(as_text=True)
    assert 'id="watch-open-site"' in share and "can still open the game itself, with its controls" in share
    phone = locked.test_client()
    phone.post("/access", data={"code": "open sesame"})
    game = phone.post("/api/games", json={"game": "duel", "players": ["Ana", "Ben"], "first_player": 0}).get_json()
    assert 'id="watch-open-site"' not in phone.get(f"/games/{game['id']}/share").get_data(as_text=True)


def test_a_new_phone_may_type_the_join_code_on_the_access_page(locked):
    """A club tester's new phone, told to type the code on the home page, met the access page
    (its home page) and typed the join code there: "not the access code", 401, the code lost.
    A live join code typed there opens its game, as its link would, asking whose phone it is;
    nothing else is unlocked, and it never counts against the limit of wrong codes."""
    first = locked.test_client()
    first.post("/access", data={"code": "open sesame"})
    game = first.post("/api/games", json={"game": "duel", "players": ["Ana", "Ben"], "first_player": 0}).get_json()
    share = first.get(f"/games/{game['id']}/share").get_data(as_text=True)
    code = re.search(r'id="join-code">([A-Z0-9]+)<', share)[1]
    assert 'id="join-needs-access"' in share
    access = locked.test_client().get("/access").get_data(as_text=True)
    assert 'id="access-join-hint"' in access
    phones = [locked.test_client() for _ in range(12)]
    for phone in phones:
        resp = phone.post("/access", data={"code": code.lower()})
        assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{game['id']}?whose=ask"
    assert 'id="whose-phone"' in phones[0].get(resp.headers["Location"]).get_data(as_text=True)
    assert phones[0].get("/").status_code == 302 and phones[0].get("/api/games").status_code == 401  # nothing else
    assert phones[0].post("/access", data={"code": "ZZZZZZ"}).status_code == 401  # an unknown code is a wrong one
    assert phones[0].post("/access", data={"code": "open sesame"}).status_code == 303


def test_a_wrong_code_stays_in_the_field_to_be_read(locked):
    """The access field shows what is typed (a join code read off another phone, 5 or S) and
    keeps a wrong one after the refusal, as the home page's join field does."""
    phone = locked.test_client()
    page = phone.get("/access").get_data(as_text=True)
    assert re.search(r'<input name="code" id="code" type="text" value=""', page)
    wrong = phone.post("/access", data={"code": "7E5SU6"})
    assert wrong.status_code == 401
    assert re.search(r'<input name="code" id="code" type="text" value="7E5SU6"', wrong.get_data(as_text=True))
    assert 'value="open sesame"' not in phone.post("/access", data={"code": "open sesame"}).get_data(as_text=True)
