"""What a security tester found open: answers a cache on the way could keep, cookies sent over
plain HTTP from an HTTPS site, a ``next`` with dot segments, settings changed by another site's
link, and an import file large enough to hold a worker for minutes."""

from __future__ import annotations

import io
import json

import pytest

from helpers import fixture_log, new_game

from tracker import service
from tracker.access import safe_next


def test_api_answers_and_downloads_are_never_kept_by_a_cache(client):
    gid = new_game(client)["id"]
    for path in ("/api/games", f"/api/games/{gid}", f"/api/games/{gid}/log", f"/games/{gid}/export",
                 "/history/export.json", "/history/export.csv"):
        resp = client.get(path)
        assert resp.status_code == 200, path
        assert resp.headers["Cache-Control"] == "no-store", path
    assert client.get("/api/games/nope").headers["Cache-Control"] == "no-store"


def test_every_cookie_is_secure_over_https_and_not_over_plain_http(client):
    gid = new_game(client)["id"]
    secure = client.get(f"/settings?mine=Ana&table=off&theme=dark&next=/games/{gid}", base_url="https://games.example")
    cookies = secure.headers.getlist("Set-Cookie")
    assert len(cookies) >= 3 and all("; Secure" in c for c in cookies), cookies
    plain = client.get(f"/settings?mine=Ana&next=/games/{gid}")
    assert plain.headers.getlist("Set-Cookie") and not any("Secure" in c for c in plain.headers.getlist("Set-Cookie"))


def test_a_next_with_dot_segments_goes_home(app):
    with app.test_request_context():
        for target in ("/.//evil.com", "/..//evil.com", "/games/../history", "/./", "/%2e//evil.com",
                       "/%2E%2e//evil.com", "/.%2e//evil.com"):
            assert safe_next(target) == "/", target
        assert safe_next("/games/abc?sheet=buy") == "/games/abc?sheet=buy"
    assert app.test_client().get("/settings?next=/.//evil.com").headers["Location"] == "/"


def test_a_settings_link_followed_from_another_site_changes_nothing(client):
    gid = new_game(client)["id"]
    resp = client.get(f"/settings?mine=Ana&table=turned&next=/games/{gid}", headers={"Sec-Fetch-Site": "cross-site"})
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{gid}"
    assert resp.headers.getlist("Set-Cookie") == []
    # a QR code scanned by the camera, or a tap in the app itself: as before
    for site in ("none", "same-origin"):
        resp = client.get(f"/settings?mine=Ana&next=/games/{gid}", headers={"Sec-Fetch-Site": site})
        assert any(c.startswith("mine=") for c in resp.headers.getlist("Set-Cookie")), site


def test_a_file_of_too_many_entries_is_refused_whole(client, monkeypatch):
    log = fixture_log("duel-1012.json")
    monkeypatch.setattr(service, "MAX_IMPORT_ENTRIES", 100)
    backup = {"format": service.HISTORY_FORMAT, "games": [log, {**log, "id": None}]}
    before = len(client.get("/api/games").get_json())
    page = client.post("/history/import", data={"file": (io.BytesIO(json.dumps(backup).encode()), "history.json")},
                       content_type="multipart/form-data")
    assert page.status_code == 422
    assert f"A file imports at most 100 entries at once; this one has {2 * len(log['events'])}. Import its games in parts" in page.get_data(as_text=True)
    assert len(client.get("/api/games").get_json()) == before


def test_tracker_hosts_refuses_a_request_for_another_host(database_url, monkeypatch):
    """The share page's link and QR code are built from the request's host: a forged ``Host``
    put another site in them. ``TRACKER_HOSTS`` names the hosts the app answers to."""
    from tracker import create_app

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "hosts-test")
    monkeypatch.setenv("TRACKER_HOSTS", "games.example, localhost")
    app = create_app()
    client = app.test_client()
    assert client.get("/", headers={"Host": "games.example"}).status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_never_migrated_is_named_in_the_log(backend, tmp_path):
    """``flask run`` on a new database file answered a bare 500 and a traceback (a tester had
    skipped ``db upgrade``): the page is still a 500, and the log says what to run."""
    import logging
    import os

    from appconfig import app_config

    from tracker import NOT_MIGRATED, create_app

    if backend == "postgresql":
        url = os.environ.get("TEST_POSTGRES_URL")
        if not url:
            pytest.skip("no PostgreSQL server (scripts/test.sh starts one)")
    else:
        url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    app = create_app(app_config(url))
    said: list[str] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = lambda record: said.append(record.getMessage())  # type: ignore[method-assign]
    # (the app's own logger: a migration run in this process by another test, Alembic's
    # fileConfig, disables the loggers that existed then)
    app.logger.addHandler(handler)
    disabled, app.logger.disabled = app.logger.disabled, False
    try:
        resp = app.test_client().get("/")
        api = app.test_client().get("/api/games")
    finally:
        app.logger.removeHandler(handler)
        app.logger.disabled = disabled
    assert resp.status_code == 500 and api.status_code == 500
    assert api.get_json()["error"]["code"] == "internal_server_error"
    assert NOT_MIGRATED in said and "db upgrade" in NOT_MIGRATED
