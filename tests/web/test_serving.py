"""Serving for many tables: fingerprinted long-cached static files, compression, reverse proxy,
the per-worker snapshot cache, and a constant number of SQL statements per listing page."""

from __future__ import annotations

import gzip
import json
import re
from datetime import timedelta

import brotli
import pytest
from flask import url_for
from sqlalchemy import event, insert

from helpers import fixture_log, import_log, new_game, post
from tracker import create_app, screen, service
from tracker.db import db
from tracker.models import Event, Game, GamePlayer, Player, utcnow
from tracker.rules import autoplay, duel
from tracker.rules.events import event_to_dict
from tracker.serving import IMMUTABLE, minified, static_fingerprint

HX = {"HX-Request": "true"}


# ------------------------------------------------------------------------ static files


def _static_urls(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_pages_link_fingerprinted_static_files(client, app):
    urls = _static_urls(client.get("/").get_data(as_text=True))
    assert urls, "the page links no static file"
    for url in urls:
        assert re.search(r"\.[0-9a-f]{12}(\.[a-z0-9]+)?$", url), url
    digest = static_fingerprint(app, "app.css")
    assert f"/static/app.{digest}.css" in urls


def test_a_fingerprinted_file_is_cached_for_a_year(client, app):
    with app.test_request_context():
        url = url_for("static", filename="app.js")
    resp = client.get(url)
    assert resp.status_code == 200
    assert resp.headers["Cache-Control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    assert resp.mimetype in ("text/javascript", "application/javascript")
    with open(f"{app.static_folder}/app.js", "rb") as f:
        written = f.read()
    assert resp.get_data() == minified("app.js", "text/javascript", written)  # served without comments
    assert len(resp.get_data()) < len(written) * 0.75
    # a file the page loads into itself is governed by the page's policy: nosniff only
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    for name in ("Content-Security-Policy", "Referrer-Policy", "X-Frame-Options", "Last-Modified"):
        assert name not in resp.headers, name
    assert resp.headers["Vary"] == "Accept-Encoding"


def test_what_a_browser_may_open_as_a_document_keeps_the_page_headers(client, app):
    """The service worker (a worker's script carries its own policy), the manifest, an error for a
    missing static file and the page itself keep the strict policy; a static file's plain name
    revalidates by its ETag alone."""
    game = new_game(client)
    with app.test_request_context():
        icon = url_for("static", filename="icons/icon-192.png")
    for path in ("/sw.js", "/manifest.webmanifest", "/static/nothing.js", f"/games/{game['id']}"):
        resp = client.get(path)
        assert "default-src 'self'" in resp.headers["Content-Security-Policy"], path
        assert resp.headers["X-Frame-Options"] == "DENY", path
    png = client.get(icon)
    assert png.status_code == 200 and png.mimetype == "image/png"
    assert "Content-Security-Policy" not in png.headers and png.headers["X-Content-Type-Options"] == "nosniff"
    plain = client.get("/static/app.css")
    again = client.get("/static/app.css", headers={"If-None-Match": plain.headers["ETag"]})
    assert again.status_code == 304


def test_the_plain_name_and_an_outdated_fingerprint_revalidate(client):
    plain = client.get("/static/app.css")
    assert plain.status_code == 200 and plain.headers["Cache-Control"] == "no-cache"
    stale = client.get("/static/app.000000000000.css")
    assert stale.status_code == 200 and stale.headers["Cache-Control"] == "no-cache"
    assert stale.get_data() == plain.get_data()


def test_static_files_answer_304_to_their_etag(client, app):
    with app.test_request_context():
        url = url_for("static", filename="app.css")
    first = client.get(url, headers={"Accept-Encoding": "gzip"})
    again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""


@pytest.mark.parametrize("encoding,decode", [("br", brotli.decompress), ("gzip", gzip.decompress)])
def test_static_files_are_served_precompressed(client, app, encoding, decode):
    with app.test_request_context():
        url = url_for("static", filename="htmx.min.js")
    plain = client.get(url).get_data()
    resp = client.get(url, headers={"Accept-Encoding": encoding})
    assert resp.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in resp.headers.get_all("Vary")[0] + ",".join(resp.headers.get_all("Vary"))
    assert int(resp.headers["Content-Length"]) == len(resp.get_data()) < len(plain) / 2
    assert decode(resp.get_data()) == plain


def test_unknown_or_escaping_static_paths_are_404(client):
    assert client.get("/static/nothing-here.css").status_code == 404
    assert client.get("/static/../__init__.py").status_code == 404
    assert client.get("/static/nothing.0123456789ab.css").status_code == 404


def test_the_service_worker_precaches_the_fingerprinted_files(client, app):
    body = client.get("/sw.js").get_data(as_text=True)
    digest = static_fingerprint(app, "app.css")
    assert f"/static/app.{digest}.css" in body


# ------------------------------------------------------------------------ compression


def test_pages_and_partials_are_compressed(client):
    game = new_game(client)
    page = client.get(f"/games/{game['id']}", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert "<main" in gzip.decompress(page.get_data()).decode()
    assert "Accept-Encoding" in ",".join(page.headers.get_all("Vary"))
    partial = client.get(f"/games/{game['id']}", headers={**HX, "Accept-Encoding": "br, gzip"})
    assert partial.headers["Content-Encoding"] == "br"
    assert brotli.decompress(partial.get_data()).decode().lstrip().startswith("<main")


@pytest.mark.parametrize("accept,expected", [
    ("gzip;q=0", None), ("br;q=0", None), ("gzip;q=0, br;q=0", None), ("br;q=0, gzip", "gzip"),
    ("gzip;q=0.5, br;q=0", "gzip"), ("identity", None), ("*;q=0", None),
])
def test_an_encoding_refused_with_q_0_is_never_used(client, app, accept, expected):
    """A tester: ``Accept-Encoding: gzip;q=0`` was answered in gzip (and ``br;q=0`` in brotli) by
    Flask-Compress, pages and static files alike. The app reads the header once for both."""
    game = new_game(client)
    with app.test_request_context():
        static = url_for("static", filename="htmx.min.js")
    for url in (f"/games/{game['id']}", static, "/static/app.js"):
        resp = client.get(url, headers={"Accept-Encoding": accept})
        assert resp.status_code == 200, url
        assert resp.headers.get("Content-Encoding") == expected, (url, accept)
        body = resp.get_data()
        plain = {"gzip": gzip.decompress, "br": brotli.decompress}.get(expected, lambda b: b)(body)
        assert plain.startswith(b"<!doctype html") or b"htmx" in plain[:2000] or b"function" in plain[:4000], url


def test_json_is_compressed_and_small_answers_are_not(client):
    game = new_game(client)
    state = client.get(f"/api/games/{game['id']}", headers={"Accept-Encoding": "gzip"})
    assert state.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(state.get_data()))["id"] == game["id"]
    poll = client.get(f"/games/{game['id']}/poll?v=0", headers={**HX, "Accept-Encoding": "gzip"})
    assert poll.status_code == 204 and "Content-Encoding" not in poll.headers
    plain = client.get(f"/api/games/{game['id']}")
    assert "Content-Encoding" not in plain.headers and plain.get_json()["id"] == game["id"]


def test_one_entry_answer_stays_small_on_the_wire(client):
    game = new_game(client)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    entry = re.search(r'name="entry_id" value="([^"]+)"', page)
    form = {"event": json.dumps({"type": "take_tokens", "player": 0, "tokens": {"red": 1, "blue": 1, "white": 1}}),
            "expected_version": "0", "entry_id": entry.group(1) if entry else "e1"}
    resp = client.post(f"/games/{game['id']}/events", data=form, headers={**HX, "Accept-Encoding": "gzip"})
    assert resp.status_code == 200 and resp.headers["Content-Encoding"] == "gzip"
    assert len(resp.get_data()) <= 4096


# ------------------------------------------------------------------------ reverse proxy


def _proxy_app(database_url: str, count: int):
    from appconfig import app_config

    return create_app({**app_config(database_url), "PROXY_COUNT": count})


def test_behind_a_proxy_the_forwarded_scheme_host_and_address_are_used(database_url):
    app = _proxy_app(database_url, 1)
    seen = {}

    @app.get("/_whoami")
    def whoami():  # type: ignore[no-untyped-def]
        from flask import request

        seen.update(addr=request.remote_addr, url=url_for("pages.home", _external=True))
        return "ok"

    headers = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "games.example"}
    assert app.test_client().get("/_whoami", headers=headers).status_code == 200
    assert seen == {"addr": "203.0.113.7", "url": "https://games.example/"}


def test_without_a_proxy_forwarded_headers_are_ignored(database_url):
    app = _proxy_app(database_url, 0)
    seen = {}

    @app.get("/_whoami")
    def whoami():  # type: ignore[no-untyped-def]
        from flask import request

        seen.update(addr=request.remote_addr, url=url_for("pages.home", _external=True))
        return "ok"

    app.test_client().get("/_whoami", headers={"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"})
    assert seen == {"addr": "127.0.0.1", "url": "http://localhost/"}


@pytest.mark.parametrize(("env", "config", "trusted"), [("1", 0, True), ("0", 1, False), (None, 1, True), (None, None, False)])
def test_tracker_proxies_wins_over_proxy_count_as_the_other_variables_do(database_url, monkeypatch, env, config, trusted):
    """README: an environment variable wins over ``instance/config.py`` (``TRACKER_PROXIES`` over
    ``PROXY_COUNT``, as ``DATABASE_URL`` and ``SECRET_KEY``)."""
    if env is None:
        monkeypatch.delenv("TRACKER_PROXIES", raising=False)
    else:
        monkeypatch.setenv("TRACKER_PROXIES", env)
    app = _proxy_app(database_url, config)
    seen = {}

    @app.get("/_whoami")
    def whoami():  # type: ignore[no-untyped-def]
        from flask import request

        seen.update(addr=request.remote_addr)
        return "ok"

    app.test_client().get("/_whoami", headers={"X-Forwarded-For": "203.0.113.7"})
    assert seen["addr"] == ("203.0.113.7" if trusted else "127.0.0.1")


# ------------------------------------------------------------------------ snapshot cache


def _fresh_state(app, game_id: str) -> dict:
    """The game replayed from the database alone, with no snapshot."""
    with app.app_context():
        row = db.session.get(Game, game_id)
        events = [e for e in db.session.query(Event).filter_by(game_id=game_id, undone=False).order_by(Event.seq)]
        state = duel.replay(row.setup, [e.data for e in events])
        return {"version": row.version, **duel.to_json(state)}


def test_two_workers_with_their_own_snapshots_stay_in_step(database_url):
    """Two apps on one database stand for two gunicorn workers: entries and undos written
    through either are seen by the other, whatever each has kept."""
    from appconfig import app_config

    apps = [create_app(app_config(database_url)) for _ in range(2)]
    clients = [a.test_client() for a in apps]
    setup, events, _final = autoplay.play(11)
    game = new_game(clients[0], first_player=setup["first_player"])
    for i, ev in enumerate(events[:40]):
        c = clients[i % 2]
        assert post(c, game["id"], event_to_dict(ev)).status_code == 200
        if i % 7 == 6:  # an undo through the other worker, then the entry again
            assert clients[(i + 1) % 2].post(f"/api/games/{game['id']}/undo", json={}).status_code == 200
            assert post(clients[i % 2], game["id"], event_to_dict(ev)).status_code == 200
        for other in clients:
            shown = other.get(f"/api/games/{game['id']}").get_json()
            shown.pop("id")
            assert shown == _fresh_state(apps[0], game["id"])
    for a in apps:
        with a.app_context():
            db.session.remove()
            db.engine.dispose()


def test_the_log_is_narrated_the_same_with_and_without_snapshots(database_url):
    from appconfig import app_config

    cached = create_app(app_config(database_url))
    uncached = create_app({**app_config(database_url), "SNAPSHOT_CACHE_SIZE": 0})
    client = cached.test_client()
    setup, events, _final = autoplay.play(5)
    game = new_game(client, first_player=setup["first_player"])
    for i, ev in enumerate(events[:30]):
        assert post(client, game["id"], event_to_dict(ev)).status_code == 200
        client.get(f"/games/{game['id']}")  # narrates and keeps the sentences
        if i in (9, 20):  # an undo, narrated, then the same entry again
            assert client.post(f"/api/games/{game['id']}/undo", json={}).status_code == 200
            client.get(f"/games/{game['id']}")
            assert post(client, game["id"], event_to_dict(ev)).status_code == 200
    logs = []
    for a in (cached, uncached):
        with a.test_request_context():
            view = service.load(game["id"])
            logs.append((screen.game_context(view)["log"], screen.last_entry(view)))
            db.session.remove()
    assert logs[0] == logs[1] and len(logs[0][0]) == 30
    for a in (cached, uncached):
        with a.app_context():
            db.engine.dispose()


def test_the_alerts_told_again_after_a_prompt_are_the_same_with_and_without_snapshots(database_url):
    """``raised_under_prompts`` takes the states before a discard, royal card or noble from the
    game's snapshot (no replay from the game's start on every such entry: a fifth of a long
    game's entries in the benchmark); without a snapshot it folds the game: the same states."""
    from appconfig import app_config

    cached = create_app(app_config(database_url))
    uncached = create_app({**app_config(database_url), "SNAPSHOT_CACHE_SIZE": 0})
    client = cached.test_client()
    setup, events, _final = autoplay.play(57)  # (a take of 3 alike over 10 tokens, privilege told after the discard)
    game = new_game(client, first_player=setup["first_player"])
    told = 0
    for ev in events:
        assert post(client, game["id"], event_to_dict(ev)).status_code == 200
        seen = []
        for a in (cached, uncached):
            with a.test_request_context():
                view = service.load(game["id"])
                seen.append((service.recent_states(view, 5), screen.raised_under_prompts(view)))
                db.session.remove()
        assert seen[0] == seen[1]
        assert [at for at, _state in seen[0][0]] == list(range(max(1, len(view.events) - 5), len(view.events)))
        told += bool(seen[0][1])
    assert told >= 1  # (a privilege or an extra turn told again after its prompt)
    for a in (cached, uncached):
        with a.app_context():
            db.engine.dispose()


def test_a_version_read_with_the_events_guards_the_snapshot(app):
    """A snapshot is kept only for the version its events were read at."""
    game = service.create_game({"game": "duel", "players": ["Ana", "Ben"], "first_player": 0})
    service.post_event(game.row.id, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    cache = service._snapshots()
    cache.forget(game.row.id)
    view = service.load(game.row.id)
    snap = cache.get(game.row.id)
    assert snap is not None and snap.version == view.version == 1 and snap.events is view.events


def test_a_game_folded_from_its_start_keeps_its_last_steps(app, monkeypatch):
    """A worker that folds a game afresh (a restart, another worker's entries) keeps the last
    ``MAX_TAIL`` steps with it: the states before a discard or a royal card (the alerts told
    again after a prompt) then come from the snapshot, never from a second fold of the game."""
    from tracker.snapshots import MAX_TAIL

    setup, events, _final = autoplay.play(57)
    log = {"format": "splendor-tracker/1", "game": "duel", "players": ["Ana", "Ben"], "nobles": None, "result": None,
           "first_player": setup["first_player"],
           "events": [event_to_dict(ev) for ev in events[:60]]}
    view, _created = service.import_log(log)
    cache = service._snapshots()
    cache.forget(view.row.id)
    view = service.load(view.row.id)
    snap = cache.get(view.row.id)
    assert snap is not None and len(snap.tail) == MAX_TAIL == 32
    assert [step[0] for step in snap.tail] == list(view.events[-MAX_TAIL:]) and snap.tail[-1][2] == view.state
    folds = []
    monkeypatch.setattr(duel, "steps", lambda *args: folds.append(args) or iter(()))
    states = service.recent_states(view, 5)
    assert folds == [] and [at for at, _state in states] == list(range(55, 60))
    assert states[-1][1] == snap.tail[-2][2]


# ------------------------------------------------------------------------ N+1


def _bulk_games(count: int) -> None:
    """``count`` more games with their seats and one entry each, inserted in bulk."""
    now = utcnow()
    if not db.session.query(Player).count():
        db.session.execute(insert(Player), [{"name": n, "normalized": n.lower(), "created": now} for n in ("Ana", "Ben")])
    ids = {p.normalized: p.id for p in db.session.query(Player)}
    start = db.session.query(Game).count()
    games, seats, events = [], [], []
    for i in range(start, start + count):
        gid = f"bulk-game-{i:06d}-xxxxxxxxxxxxxxxx"
        finished = i % 3 == 0
        games.append({"id": gid, "game": "duel", "setup": {"players": ["Ana", "Ben"], "first_player": 0, "nobles": None},
                      "version": 1, "status": "finished" if finished else "active",
                      "result": {"winner": {"player": i % 2, "routes": ["crowns"]}, "turns": 30} if finished else None,
                      "started": now - timedelta(minutes=i), "finished": now - timedelta(minutes=i - 30) if finished else None})
        seats += [{"game_id": gid, "seat": 0, "player_id": ids["ana"]}, {"game_id": gid, "seat": 1, "player_id": ids["ben"]}]
        events.append({"game_id": gid, "seq": 1, "data": {"type": "take_tokens", "player": 0, "tokens": {"red": 1}},
                       "undone": False, "created": now})
    db.session.execute(insert(Game), games)
    db.session.execute(insert(GamePlayer), seats)
    db.session.execute(insert(Event), events)
    db.session.commit()


def _statements(app, client, path: str) -> int:
    count = 0

    def counter(*_args):  # type: ignore[no-untyped-def]
        nonlocal count
        count += 1

    event.listen(db.engine, "before_cursor_execute", counter)
    try:
        resp = client.get(path)
    finally:
        event.remove(db.engine, "before_cursor_execute", counter)
    assert resp.status_code == 200, (path, resp.status_code)
    return count


@pytest.mark.parametrize("path", ["/api/games", "/", "/history"])
def test_listings_take_a_constant_number_of_statements(app, client, path):
    if path == "/history" and not any(r.rule == "/history" for r in app.url_map.iter_rules()):
        pytest.skip("no history page")
    _bulk_games(10)
    client.get(path)  # first visit: one-off work (e.g. attaching seats to old games) is not counted
    few = _statements(app, client, path)
    _bulk_games(990)
    client.get(path)
    many = _statements(app, client, path)
    assert many == few <= 12, (path, few, many)


def test_workers_starting_together_share_one_generated_secret_key(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from tracker import _secret_key

    with ThreadPoolExecutor(8) as pool:
        keys = set(pool.map(lambda _i: _secret_key(tmp_path), range(32)))
    assert len(keys) == 1 and len(keys.pop()) == 64
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]


# ------------------------------------------------------------------------ the write path


def _statement_texts(client, method: str, path: str, **kw) -> tuple[object, list[str]]:
    seen: list[str] = []

    def record(_conn, _cursor, statement, *_args):  # type: ignore[no-untyped-def]
        seen.append(statement.split()[0].upper())

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        resp = client.open(path, method=method, **kw)
    finally:
        event.remove(db.engine, "before_cursor_execute", record)
    return resp, seen


def test_an_entry_on_the_kept_version_is_one_update_and_one_insert(client):
    """The common write: judged on the worker's snapshot, then the conditional version bump
    (returning the row) and the insert; no read of the game, no re-read after the commit."""
    game = new_game(client)
    client.get(f"/games/{game['id']}")  # this worker keeps the game at version 0
    resp, statements = _statement_texts(client, "POST", f"/api/games/{game['id']}/events", json={
        "type": "take_tokens", "player": 0, "tokens": {"red": 1, "blue": 1, "white": 1},
        "expected_version": 0, "entry_id": "first"})
    assert resp.status_code == 200 and resp.get_json()["version"] == 1
    assert [s for s in statements if s not in ("BEGIN", "COMMIT")] == ["UPDATE", "INSERT"]
    assert resp.get_json()["players"][0]["tokens"]["red"] == 1


def test_a_repeated_entry_id_on_the_fast_path_stores_nothing(client):
    game = new_game(client)
    body = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}, "expected_version": 0, "entry_id": "same"}
    first = client.post(f"/api/games/{game['id']}/events", json=body)
    again = client.post(f"/api/games/{game['id']}/events", json=body)
    assert first.status_code == again.status_code == 200
    assert again.get_json()["version"] == 1 and again.get_json()["players"][0]["tokens"]["red"] == 1
    # The same entry_id with the new version is still the same entry: nothing more is stored.
    third = client.post(f"/api/games/{game['id']}/events", json={**body, "expected_version": 1})
    assert third.status_code == 200 and third.get_json()["version"] == 1


def test_a_stale_phone_gets_a_conflict_not_a_rule_error(client):
    """An entry built on an old version is judged on the stored game: 409, even when it would
    also break a rule there."""
    game = new_game(client)
    ok = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}, "expected_version": 0}
    assert client.post(f"/api/games/{game['id']}/events", json=ok).status_code == 200
    stale = client.post(f"/api/games/{game['id']}/events", json={**ok, "entry_id": "other"})
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "version_conflict"


def test_the_listing_summary_is_written_with_the_winning_entry(app, client):
    setup, events, final = autoplay.play(3)
    game = new_game(client, first_player=setup["first_player"])
    for ev in events:
        assert post(client, game["id"], event_to_dict(ev)).status_code == 200
    db.session.remove()
    row = db.session.get(Game, game["id"])
    assert row.status == "finished" and row.finished is not None and row.version == len(events)
    assert row.result == {"winner": duel.to_json(final)["winner"], "turns": final.turn}


# ------------------------------------------------------------------------ a long game's screen


def _long_game(client, entries: int) -> str:
    setup, events, _final = autoplay.play(21)
    game = new_game(client, first_player=setup["first_player"])
    for ev in events[:entries]:
        assert post(client, game["id"], event_to_dict(ev)).status_code == 200
    return game["id"]


def test_the_screen_shows_the_latest_log_lines_and_the_rest_on_request(client):
    game_id = _long_game(client, 30)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    log = page[page.index('id="log"'):page.index("</details>", page.index('id="log"'))]
    assert log.count("<li>") == screen.LOG_LINES == 20 and "Game log (30)" in log
    assert 'start="30"' in log and f'href="/games/{game_id}/log"' in log
    full = client.get(f"/games/{game_id}/log", headers=HX)
    assert full.status_code == 200 and full.get_data(as_text=True).count("<li>") == 30
    assert 'id="log-all"' not in full.get_data(as_text=True) and "open" in full.get_data(as_text=True)
    plain = client.get(f"/games/{game_id}/log")  # without htmx: the whole screen, log open
    assert plain.status_code == 200 and plain.get_data(as_text=True).count("<li>") == 30
    assert client.get("/games/unknown-game-id-xxxxxxxxxxxxxx/log").status_code == 404


def test_a_spectator_gets_the_whole_log_without_the_game_id(client):
    game_id = _long_game(client, 25)
    sid = _spectator_id(client, game_id)
    watch = client.get(f"/watch/{sid}").get_data(as_text=True)
    assert f'href="/watch/{sid}/log"' in watch and game_id not in watch
    full = client.get(f"/watch/{sid}/log", headers=HX).get_data(as_text=True)
    assert full.count("<li>") == 25 and game_id not in full


def _spectator_id(client, game_id: str) -> str:
    share = client.get(f"/games/{game_id}/share").get_data(as_text=True)
    return re.search(r"/watch/([A-Za-z0-9_-]+)", share).group(1)


def test_game_screen_answers_say_their_version(client):
    game = new_game(client)
    page = client.get(f"/games/{game['id']}/poll?v=99", headers=HX)
    assert page.status_code == 200 and page.headers["Tracker-Version"] == "0"
    resp = post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    form = {"event": json.dumps({"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}), "expected_version": "1"}
    entry = client.post(f"/games/{game['id']}/events", data=form, headers=HX)
    assert resp.status_code == 200 and entry.status_code == 200 and entry.headers["Tracker-Version"] == "2"
    assert 'data-version="2"' in entry.get_data(as_text=True)


# ------------------------------------------------------------------------ screens drawn once per version


def _worker(database_url: str, cache_dir, **config):
    """An app standing for one gunicorn worker: its own memory, the database and the shared
    screen cache folder of the host, CSRF on as in production."""
    from appconfig import app_config

    return create_app({**app_config(database_url), "CACHE_TYPE": "FileSystemCache", "CACHE_DIR": str(cache_dir),
                       "WTF_CSRF_ENABLED": True, **config})


def _phone(app):
    """A phone's client with its session's CSRF token (read from the game page's htmx headers)."""
    client = app.test_client()
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    return client, token


def _drawings(monkeypatch) -> list[str]:
    """Counts the game screens drawn (``render_block`` of the ``game`` block) from now on."""
    from tracker.views import pages

    drawn: list[str] = []
    original = pages.render_block

    def counting(template, block, /, **ctx):  # type: ignore[no-untyped-def]
        drawn.append(block)
        return original(template, block, **ctx)

    monkeypatch.setattr(pages, "render_block", counting)
    return drawn


def _hidden(html: str, name: str) -> set[str]:
    return set(re.findall(rf'name="{name}" value="([^"]*)"', html))


def test_a_screen_drawn_for_one_phone_gives_each_form_its_own_entry_key(client):
    """A page drawn for one phone alone (not shared) gives each of its forms a key of its own:
    the three royal cards of a prompt are three possible entries, and one key for all would make
    a second save look like the first sent again (GAME-LOG.md ``entry_id``)."""
    log = fixture_log("duel-1012.json")
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player")},
            "events": log["events"][:45], "result": None}
    state = import_log(client, part)
    assert state["pending"]["kind"] == "royal"
    for headers in ({}, HX):  # the page, and the htmx screen of a phone whose poll missed several entries
        page = client.get(f"/games/{state['id']}" if not headers else f"/games/{state['id']}/poll?v=0",
                          headers=headers).get_data(as_text=True)
        keys = re.findall(r'name="entry_id" value="([^"]*)"', page)
        assert len(keys) >= 2 and all(re.fullmatch(r"[0-9a-f]{32}", k) for k in keys), keys
        assert len(set(keys)) == len(keys), "two forms of one page share an entry key"


def test_the_other_phone_gets_the_screen_the_entry_drew(database_url, tmp_path, monkeypatch):
    """Two workers sharing the host's screen cache: the screen drawn as one phone's entry answer
    is what the other phone's poll gets, byte for byte (compressed once), with the same alerts
    and without a second drawing. It carries no phone's own values: its forms' CSRF token and
    entry_id are empty (app.js fills them in on each phone), so no session's token is in it."""
    workers = [_worker(database_url, tmp_path / "screens") for _ in range(2)]
    (a, token_a), (b, token_b) = _phone(workers[0]), _phone(workers[1])
    assert token_a != token_b
    game = new_game(a)
    a.get(f"/games/{game['id']}")
    drawn = _drawings(monkeypatch)
    form = {"event": json.dumps({"type": "take_tokens", "player": 0, "tokens": {"pearl": 1, "red": 1}}),
            "expected_version": "0", "entry_id": "a-1", "csrf_token": token_a}
    gz = {**HX, "Accept-Encoding": "gzip"}
    entry = a.post(f"/games/{game['id']}/events", data=form, headers=gz)
    assert entry.status_code == 200 and drawn == ["game"] and entry.headers["Content-Encoding"] == "gzip"
    poll = b.get(f"/games/{game['id']}/poll?v=0", headers=gz)
    assert poll.status_code == 200 and drawn == ["game"], "the poll drew the screen again"
    assert poll.get_data() == entry.get_data()  # the same bytes: compressed once
    mine, theirs = gzip.decompress(entry.get_data()).decode(), gzip.decompress(poll.get_data()).decode()
    assert 'data-version="1"' in theirs and poll.headers["Tracker-Version"] == "1"
    assert _hidden(mine, "csrf_token") == {""} and _hidden(mine, "entry_id") <= {""}  # (a save form: once chips are tapped)
    for token in (token_a, token_b):
        assert token.split(".")[0] not in mine
    for name in ("HX-Trigger", "HX-Replace-Url", "Tracker-Version", "X-Content-Type-Options"):
        assert poll.headers.get(name) == entry.headers.get(name), name
    # Phone B enters next, with its token (the page's, sent as a header by htmx): it works.
    form = {"event": json.dumps({"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}),
            "expected_version": "1", "entry_id": "b-1"}
    assert b.post(f"/games/{game['id']}/events", data=form, headers={**HX, "X-CSRFToken": token_b}).status_code == 200
    assert a.get(f"/games/{game['id']}/poll?v=1", headers=HX).headers["Tracker-Version"] == "2"
    assert drawn == ["game", "game"]
    for w in workers:
        with w.app_context():
            db.session.remove()
            db.engine.dispose()


def test_a_kept_screen_in_another_encoding_is_compressed_for_the_phone_that_asks(database_url, tmp_path):
    """A phone that takes brotli made the entry; the other one takes only gzip (plain HTTP): its
    poll gets the kept HTML in gzip from the app, and one that takes neither gets it as it is."""
    worker = _worker(database_url, tmp_path / "screens", WTF_CSRF_ENABLED=False)
    a, b = worker.test_client(), worker.test_client()
    game = new_game(a)
    take = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}
    entry = a.post(f"/games/{game['id']}/events", data={"event": json.dumps(take), "expected_version": "0"},
                   headers={**HX, "Accept-Encoding": "br, gzip"})
    assert entry.headers["Content-Encoding"] == "br"
    html = brotli.decompress(entry.get_data()).decode()
    entered = _flask_requests(worker)
    poll = b.get(f"/games/{game['id']}/poll?v=0", headers={**HX, "Accept-Encoding": "gzip"})
    assert poll.headers["Content-Encoding"] == "gzip" and gzip.decompress(poll.get_data()).decode() == html
    plain = b.get(f"/games/{game['id']}/poll?v=0", headers={**HX, "Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and plain.get_data(as_text=True) == html
    assert len(entered) == 2  # both answered by the app
    assert b.get(f"/games/{game['id']}/poll?v=0", headers={**HX, "Accept-Encoding": "gzip, br"}).get_data() == entry.get_data()
    assert len(entered) == 2  # the same encoding: the kept bytes, before Flask
    with worker.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_kept_screen_is_used_only_at_its_version_and_language(database_url, tmp_path, monkeypatch):
    workers = [_worker(database_url, tmp_path / "screens", WTF_CSRF_ENABLED=False) for _ in range(2)]
    a, b = workers[0].test_client(), workers[1].test_client()
    game = new_game(a)
    drawn = _drawings(monkeypatch)
    take = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}
    assert a.post(f"/games/{game['id']}/events", data={"event": json.dumps(take), "expected_version": "0"},
                  headers=HX).status_code == 200
    assert len(drawn) == 1
    # An entry through the API draws nothing: the kept screen (version 1) is now stale.
    assert post(a, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}).status_code == 200
    poll = b.get(f"/games/{game['id']}/poll?v=1", headers=HX)
    assert poll.headers["Tracker-Version"] == "2" and len(drawn) == 2
    assert "Ben" in poll.get_data(as_text=True) and 'data-version="2"' in poll.get_data(as_text=True)
    # That poll's drawing is kept too: the next phone at version 1 gets it without drawing.
    assert a.get(f"/games/{game['id']}/poll?v=1", headers=HX).headers["Tracker-Version"] == "2"
    assert len(drawn) == 2
    # A phone in Korean gets a screen drawn in Korean, not the English one kept.
    korean = b.get(f"/games/{game['id']}/poll?v=1", headers={**HX, "Accept-Language": "ko"})
    assert len(drawn) == 3 and "차례" in korean.get_data(as_text=True)
    for w in workers:
        with w.app_context():
            db.session.remove()
            db.engine.dispose()


def test_conflicts_errors_spectators_and_the_end_are_never_kept(app, client, monkeypatch):
    """Only the screen everybody sees after a write is shared: a 409's notice, a rule error, a
    spectator's screen and a finished game's victory banner are drawn for their request."""
    from tracker import screens

    game = new_game(client)
    take = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}
    assert post(client, game["id"], take).status_code == 200
    stale = client.post(f"/games/{game['id']}/events", headers=HX,
                        data={"event": json.dumps({**take, "player": 1}), "expected_version": "0"})
    assert stale.status_code == 409
    with app.test_request_context(headers=HX):
        assert screens.find(game["id"], 1) is None
    sid = _spectator_id(client, game["id"])
    assert client.get(f"/watch/{sid}/poll?v=0", headers=HX).status_code == 200
    with app.test_request_context(headers=HX):
        assert screens.find(game["id"], 1) is None
    setup, events, final = autoplay.play(3)
    done = new_game(client, first_player=setup["first_player"])
    for ev in events[:-1]:
        assert post(client, done["id"], event_to_dict(ev)).status_code == 200
    last = client.post(f"/games/{done['id']}/events", headers=HX,
                       data={"event": json.dumps(event_to_dict(events[-1])), "expected_version": str(len(events) - 1)})
    assert last.status_code == 200 and 'id="victory"' in last.get_data(as_text=True)
    with app.test_request_context(headers=HX):
        assert screens.find(done["id"], len(events)) is None


def test_a_new_release_never_serves_screens_the_old_one_drew(database_url, tmp_path):
    """The key carries a fingerprint of the code, templates, translations and screen settings."""
    from tracker import screens

    before, same = (_worker(database_url, tmp_path / "screens", WTF_CSRF_ENABLED=False) for _ in range(2))
    other = _worker(database_url, tmp_path / "screens", WTF_CSRF_ENABLED=False, POLL_SECONDS=5)
    releases = [w.extensions["tracker.screens"].release for w in (before, same, other)]
    assert releases[0] == releases[1] != releases[2]
    client = before.test_client()
    game = new_game(client)
    assert client.post(f"/games/{game['id']}/events", headers=HX, data={
        "event": json.dumps({"type": "take_tokens", "player": 0, "tokens": {"red": 1}}), "expected_version": "0",
    }).status_code == 200
    for worker, kept in ((same, True), (other, False)):
        with worker.test_request_context(headers=HX):
            assert (screens.find(game["id"], 1) is not None) is kept
    for w in (before, same, other):
        with w.app_context():
            db.session.remove()
            db.engine.dispose()


def test_a_phone_whose_session_ended_gets_a_fresh_token_with_the_refusal(database_url, tmp_path):
    """A phone's session cookie lost while its page stayed open: its htmx save is refused (400,
    nothing stored) with a fresh CSRF token in ``Tracker-CSRF`` (a new session), which app.js
    takes; sent again with it, the save is stored. A plain form (no htmx) gets no token."""
    worker = _worker(database_url, tmp_path / "screens")
    a, token = _phone(worker)
    game = new_game(a)
    a.delete_cookie("session")  # the browser forgot it; the page still sends the old token
    form = {"event": json.dumps({"type": "take_tokens", "player": 0, "tokens": {"red": 1}}),
            "expected_version": "0", "entry_id": "e-1"}
    refused = a.post(f"/games/{game['id']}/events", data=form, headers={**HX, "X-CSRFToken": token})
    assert refused.status_code == 400 and refused.headers.get("Tracker-CSRF")
    fresh = refused.headers["Tracker-CSRF"]
    assert fresh != token and a.get(f"/api/games/{game['id']}").get_json()["version"] == 0
    again = a.post(f"/games/{game['id']}/events", data=form, headers={**HX, "X-CSRFToken": fresh})
    assert again.status_code == 200 and again.headers["Tracker-Version"] == "1"
    plain = worker.test_client().post(f"/games/{game['id']}/events", data=form)
    assert plain.status_code == 400 and "Tracker-CSRF" not in plain.headers
    with worker.app_context():
        db.session.remove()
        db.engine.dispose()


# ------------------------------------------------------------------------ quiet polls


def _flask_requests(app) -> list[str]:
    """The paths of the requests the Flask app handles from now on (``request_started``)."""
    from flask import request, request_started

    seen: list[str] = []

    def started(sender, **_extra):  # type: ignore[no-untyped-def]
        seen.append(request.path)

    request_started.connect(started, app, weak=False)
    return seen


def test_a_poll_while_nothing_changed_is_one_read_outside_flask(app, client):
    """``QuietPolls``: the 204 of an unchanged game is one SELECT in autocommit (no BEGIN or
    ROLLBACK), with no Flask request (no ``before_request``), and the same headers the app's
    own 204 has."""
    game = new_game(client)
    entered = _flask_requests(app)
    path = f"/games/{game['id']}/poll?v=0"
    quiet, statements = _statement_texts(client, "GET", path, headers=HX)
    assert quiet.status_code == 204 and quiet.get_data() == b"" and entered == []
    assert statements == ["SELECT"]
    counted, statements = _statement_texts(client, "GET", path + "&n=0", headers=HX)  # the poller's own URL
    assert counted.status_code == 204 and entered == [] and statements == ["SELECT"]
    app.config["QUIET_POLLS"] = False
    flask_204 = client.get(path, headers=HX)
    assert flask_204.status_code == 204 and entered == [f"/games/{game['id']}/poll"]
    app.config["QUIET_POLLS"] = True
    for name in ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options", "Vary"):
        assert quiet.headers.get(name) == flask_204.headers.get(name), name


def test_polls_the_shortcut_does_not_answer_go_to_the_app(app, client):
    game = new_game(client)
    entered = _flask_requests(app)
    assert post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).status_code == 200
    entered.clear()
    changed = client.get(f"/games/{game['id']}/poll?v=0", headers=HX)
    assert changed.status_code == 200 and changed.headers["Tracker-Version"] == "1" and len(entered) == 1
    assert client.get("/games/unknown-game-id-xxxxxxxxxxxxxx/poll?v=0").status_code == 404 and len(entered) == 2
    odd = client.get(f"/games/{game['id']}/poll?v=1&x=2", headers=HX)  # not the poller's own query: the app decides
    assert odd.status_code == 204 and len(entered) == 3
    assert client.post(f"/games/{game['id']}/poll?v=1").status_code == 405 and len(entered) == 4


def test_a_poll_for_a_kept_screen_is_answered_without_the_flask_request(database_url, tmp_path):
    """A changed game whose screen is kept: the poll is answered with the kept bytes and headers
    before Flask builds a request (no session, routing, ``before_request`` or database session),
    in the phone's language; also for a phone with no session yet (the page it shows has its token)."""
    worker = _worker(database_url, tmp_path / "screens")
    (a, token_a), (b, token_b) = _phone(worker), _phone(worker)
    game = new_game(a)
    entered = _flask_requests(worker)
    form = {"event": json.dumps({"type": "take_tokens", "player": 0, "tokens": {"red": 1, "blue": 1}}),
            "expected_version": "0", "csrf_token": token_a}
    entry = a.post(f"/games/{game['id']}/events", data=form, headers={**HX, "Accept-Encoding": "gzip"})
    assert entry.status_code == 200 and len(entered) == 1
    poll = b.get(f"/games/{game['id']}/poll?v=0", headers={**HX, "Accept-Encoding": "gzip"})
    assert poll.status_code == 200 and len(entered) == 1, "the poll went through the whole app"
    assert poll.headers["Content-Encoding"] == "gzip" and poll.headers["Tracker-Version"] == "1"
    assert int(poll.headers["Content-Length"]) == len(poll.get_data())
    # htmx's answers carry only the headers that apply to a response swapped into a page
    assert poll.headers["X-Content-Type-Options"] == entry.headers["X-Content-Type-Options"] == "nosniff"
    assert "Content-Security-Policy" not in poll.headers and "Content-Security-Policy" not in entry.headers
    assert poll.headers["Content-Type"] == entry.headers["Content-Type"] == "text/html; charset=utf-8"
    assert set(poll.headers["Vary"].split(", ")) >= {"HX-Request", "Accept-Encoding", "Accept-Language", "Cookie"}
    assert poll.headers.get("HX-Trigger") == entry.headers.get("HX-Trigger")
    assert 'data-version="1"' in gzip.decompress(poll.get_data()).decode()
    fresh = worker.test_client()  # no session: the kept screen has no phone's values to fill in
    first = fresh.get(f"/games/{game['id']}/poll?v=0", headers={**HX, "Accept-Encoding": "gzip"})
    assert first.status_code == 200 and len(entered) == 1 and first.get_data() == poll.get_data()
    # in Korean (its cookie, or its browser's language) the English screen is not the one sent
    korean = fresh.get(f"/games/{game['id']}/poll?v=0", headers={**HX, "Accept-Encoding": "gzip", "Accept-Language": "ko"})
    assert len(entered) == 2 and "차례" in gzip.decompress(korean.get_data()).decode()
    fresh.set_cookie("lang", "ko")
    again = fresh.get(f"/games/{game['id']}/poll?v=0", headers={**HX, "Accept-Encoding": "gzip"})
    assert len(entered) == 2 and again.get_data() == korean.get_data()  # kept by the first Korean poll
    with worker.app_context():
        db.session.remove()
        db.engine.dispose()


# ------------------------------------------------------------------------ gunicorn settings


def test_gunicorn_workers_freeze_what_they_hold_and_collect_young_objects_less_often(monkeypatch):
    """``tracker/gunicorn_config.py``: after start and after the 200th and 2,000th request a
    worker's objects leave the collector's walk (frozen after a full collection)."""
    import gc

    from tracker import gunicorn_config

    threshold = gc.get_threshold()
    monkeypatch.setattr(gunicorn_config, "_served", 0)
    try:
        gunicorn_config.post_worker_init(None)
        assert gc.get_threshold() == gunicorn_config.GC_THRESHOLD == (20000, 20, 100)
        frozen = gc.get_freeze_count()
        assert frozen > 1000
        gc.unfreeze()
        for _ in range(199):
            gunicorn_config.post_request(None, None, None, None)
        assert gc.get_freeze_count() == 0
        gunicorn_config.post_request(None, None, None, None)  # the 200th
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_behind_a_proxy_with_a_prefix_a_kept_screen_is_still_shared(database_url, tmp_path):
    """``QuietPolls`` sits inside ProxyFix: the poll answered early sees the proxy's path
    prefix, so it finds the screen the entry kept (drawn with prefixed links)."""
    worker = _worker(database_url, tmp_path / "screens", PROXY_COUNT=1)
    (a, token_a), (b, _token_b) = _phone(worker), _phone(worker)
    game = new_game(a)
    entered = _flask_requests(worker)
    proxy = {**HX, "X-Forwarded-Prefix": "/tracker"}
    form = {"event": json.dumps({"type": "take_tokens", "player": 0, "tokens": {"green": 1}}),
            "expected_version": "0", "csrf_token": token_a}
    assert a.post(f"/games/{game['id']}/events", data=form, headers=proxy).status_code == 200
    poll = b.get(f"/games/{game['id']}/poll?v=0", headers=proxy)
    assert poll.status_code == 200 and len(entered) == 1, "the kept screen was not found behind the proxy"
    assert f'hx-get="/tracker/games/{game["id"]}/poll?v=1&amp;n=1"' in poll.get_data(as_text=True)
    with worker.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_failing_screen_cache_costs_the_saving_never_the_answer(app, client, monkeypatch):
    """A cache backend that raises (Redis gone, a full disk): entries and polls still answer."""
    from tracker import screens

    def broken(*_args, **_kwargs):  # type: ignore[no-untyped-def]
        raise ConnectionError("cache down")

    monkeypatch.setattr(screens.cache, "set", broken)
    monkeypatch.setattr(screens.cache, "get", broken)
    game = new_game(client)
    entry = client.post(f"/games/{game['id']}/events", headers=HX, data={
        "event": json.dumps({"type": "take_tokens", "player": 0, "tokens": {"red": 1}}), "expected_version": "0"})
    assert entry.status_code == 200 and entry.headers["Tracker-Version"] == "1"
    poll = client.get(f"/games/{game['id']}/poll?v=0", headers=HX)
    assert poll.status_code == 200 and 'data-version="1"' in poll.get_data(as_text=True)


@pytest.mark.parametrize("v", ["²", "١", "１", "-1", "1.0", "9" * 30, ""])
def test_odd_versions_in_a_poll_are_never_an_error(client, v):
    """Only ASCII digits are a version: anything else is "a screen I do not know" (the fresh
    screen), never a 500, for players and spectators alike."""
    game = new_game(client)
    assert client.get(f"/games/{game['id']}/poll", query_string={"v": v}, headers=HX).status_code == 200
    sid = _spectator_id(client, game["id"])
    assert client.get(f"/watch/{sid}/poll", query_string={"v": v}, headers=HX).status_code == 200
    assert screen.seen_version({"v": v}) is None


def test_a_file_cache_folder_others_may_write_to_is_refused(database_url, tmp_path):
    """The file cache unpickles what it reads: a configured folder open to others stops the app
    at start; a default folder someone else prepared is passed over for ``instance/screens``."""
    from tracker import screens

    shared = tmp_path / "open"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(RuntimeError, match="CACHE_DIR"):
        _worker(database_url, shared)
    assert screens.private_dir(tmp_path / "mine") and oct((tmp_path / "mine").stat().st_mode & 0o777) == "0o700"
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "mine")
    assert not screens.private_dir(link)


def test_the_default_folder_is_private_and_named_from_the_secret(database_url, tmp_path, monkeypatch):
    """Other users of the host cannot guess the default folder (its name comes from the secret
    key, the instance and the database) and never share keys with another database."""
    import shutil
    from pathlib import Path

    from appconfig import app_config

    from tracker import screens

    config = {**app_config(database_url), "CACHE_TYPE": "FileSystemCache"}
    one, two = (create_app({**config, "SECRET_KEY": key}) for key in ("one", "two"))
    dirs = [Path(a.config["CACHE_DIR"]) for a in (one, two)]
    assert dirs[0] != dirs[1] and all(screens.private_dir(d) for d in dirs)
    other_db = create_app({**config, "SECRET_KEY": "one", "SQLALCHEMY_DATABASE_URI": database_url + "-other"})
    assert one.extensions["tracker.screens"].release != other_db.extensions["tracker.screens"].release
    trap = tmp_path / "trap"
    trap.mkdir()
    trap.chmod(0o777)
    monkeypatch.setattr(screens, "default_dir", lambda _app: trap)
    fallback = create_app({**config, "SECRET_KEY": "one"})
    assert fallback.config["CACHE_DIR"] == str(Path(fallback.instance_path) / "screens")
    for d in dirs + [Path(other_db.config["CACHE_DIR"])]:
        shutil.rmtree(d, ignore_errors=True)


def test_behind_a_proxy_with_a_prefix_every_address_keeps_it(database_url, tmp_path):
    """Under /club: a settings choice leads back under /club (it led to the site's root), and the
    manifest, the service worker's address and scope for static files, the offline page's link
    and the access code's redirect carry the prefix."""
    worker = _worker(database_url, tmp_path / "screens", PROXY_COUNT=1, WTF_CSRF_ENABLED=False)
    client = worker.test_client()
    club = {"X-Forwarded-Prefix": "/club"}
    home = client.get("/", headers=club).get_data(as_text=True)
    assert 'data-sw="/club/sw.js"' in home
    assert 'href="/club/settings?lang=ko&amp;next=/"' in home
    resp = client.get("/settings?lang=ko&next=/history", headers=club)
    assert resp.status_code == 303 and resp.headers["Location"] == "/club/history"
    assert client.get("/settings?lang=en&next=//evil.example/x", headers=club).headers["Location"] == "/club/"
    manifest = client.get("/manifest.webmanifest", headers=club).get_json(force=True)
    assert manifest["start_url"] == "/club/" and manifest["scope"] == "/club/"
    assert 'url.pathname.startsWith("/club/static/")' in client.get("/sw.js", headers=club).get_data(as_text=True)
    assert 'href="/club/"' in client.get("/offline", headers=club).get_data(as_text=True)
    # a page drawn as the answer to a form (a wrong join code) sends a settings choice home
    refused = client.post("/join", data={"code": "ZZZZZZ"}, headers=club)
    assert refused.status_code == 422 and 'id="join-error"' in refused.get_data(as_text=True)
    assert 'href="/club/settings?theme=dark&amp;next=/"' in refused.get_data(as_text=True)
    worker.config["ACCESS_CODE"] = "let-us-in"
    gate = worker.test_client().get("/history", headers=club)
    assert gate.status_code == 302 and gate.headers["Location"].startswith("/club/access?next=/history")
    entered = worker.test_client().post("/access", data={"code": "let-us-in", "next": "/history"}, headers=club)
    assert entered.status_code == 303 and entered.headers["Location"] == "/club/history"


def test_a_host_no_address_can_be_built_on_is_a_plain_400(client):
    """A Host header of a 64-letter label, an empty label or 200 letters (a scanner's, a broken
    proxy's): 400 in plain text before the app (a 500 before: its links could not be built);
    an ordinary host, a port, an IPv6 address are served."""
    game = client.post("/api/games", json={"game": "duel", "players": ["Ana", "Ben"], "first_player": 0}).get_json()
    for host in ("a" * 64, "a..b", "x" * 200 + ".example"):
        for path in ("/", f"/games/{game['id']}/qr.svg", "/api/games"):
            resp = client.get(path, headers={"Host": host})
            assert resp.status_code == 400 and resp.mimetype == "text/plain", (host, path)
            assert "Host header" in resp.get_data(as_text=True)
    for host in ("tracker.example", "tracker.example:8080", "[::1]:5000", "카페.example"):
        assert client.get(f"/games/{game['id']}/qr.svg", headers={"Host": host}).status_code == 200, host


def test_the_screen_cache_counts_its_files_once_every_few_keeps_and_still_prunes(database_url, tmp_path):
    """``FileSystemCache`` is the app's ``ScreenFiles``: cachelib reads its file count (twice)
    before every screen kept; here once every ``PRUNE_EVERY`` keeps, and a cache over its
    threshold still prunes itself (to its threshold, at most ``PRUNE_EVERY`` keeps later)."""
    from tracker import screens

    every = screens.ScreenFiles.PRUNE_EVERY
    worker = _worker(database_url, tmp_path / "screens", CACHE_THRESHOLD=10)
    backend = worker.extensions["cache"][screens.cache]
    assert isinstance(backend, screens.ScreenFiles)
    reads = []
    real_get = backend.get
    backend.get = lambda key: (reads.append(key), real_get(key))[1]  # type: ignore[method-assign]
    with worker.test_request_context("/"):
        for version in range(every + 1):  # one game played on: its screen kept again and again
            screens.keep("game-a", screens.Shared(version, "<main></main>", []))
        # the count read before the first keep and the (every + 1)th (twice each), and once more
        # as the first keep added a file: cachelib alone read it 2 × 33 + 1 times
        assert len(reads) == 5
        for n in range(3 * every):  # many games at once
            screens.keep(f"game-{n:03d}", screens.Shared(1, "<main></main>", []))
    kept = [f for f in (tmp_path / "screens").iterdir() if not f.name.endswith(backend._fs_transaction_suffix)]
    assert 10 < len(kept) <= 10 + every + 1, len(kept)  # pruned, the count file among them
