"""Two phones racing on one game, and a server killed mid-burst: nothing lost, nothing doubled.

Both run against real servers on loopback (a threaded server in this process for the race;
gunicorn with two workers in a child process for the crash), on each database backend.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from appconfig import app_config
from werkzeug.serving import make_server

from tracker import create_app
from tracker.db import db
from tracker.rules import autoplay, duel
from tracker.rules.errors import RuleError
from tracker.rules.events import event_to_dict, parse_event

ROUNDS = 150


def call(base: str, method: str, path: str, body: dict | None = None, timeout: float = 20) -> tuple[int, dict]:
    """One JSON request; ``(status, body)``. Connection failures raise ``OSError``."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


@pytest.fixture
def threaded_server(database_url):
    app = create_app(app_config(database_url))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    with app.app_context():
        db.engine.dispose()


def next_event(state: duel.DuelState, rng: random.Random) -> dict:
    """A legal next event for whoever is to act (seeded, so both racers agree)."""
    for ev in autoplay.propose(state, rng):
        try:
            duel.apply(state, ev)
        except RuleError:
            continue
        return event_to_dict(ev)
    raise AssertionError("no legal event proposed")


def test_two_phones_racing_take_each_version_exactly_once(threaded_server):
    base = threaded_server
    rng = random.Random(7)
    outcomes: list[tuple[int, int]] = []
    games: list[tuple[str, duel.DuelState]] = []
    state = None
    game_id = ""
    for round_no in range(ROUNDS):
        if state is None or state.winner is not None:
            status, created = call(base, "POST", "/api/games", {"game": "duel", "players": ["Ana", "Ben"], "first_player": 0})
            assert status == 201
            game_id, state, version = created["id"], duel.new_game(["Ana", "Ben"], 0), 0
            games.append((game_id, state))
        event = next_event(state, rng)
        barrier = threading.Barrier(2)
        results: list[tuple[int, dict]] = [(-1, {})] * 2

        def phone(i: int) -> None:
            barrier.wait()
            results[i] = call(base, "POST", f"/api/games/{game_id}/events",
                              {**event, "expected_version": version, "entry_id": f"r{round_no}-phone{i}"})

        threads = [threading.Thread(target=phone, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = sorted(code for code, _ in results)
        assert codes == [200, 409], (round_no, results)
        winner = next(body for code, body in results if code == 200)
        loser = next(body for code, body in results if code == 409)
        assert winner["version"] == version + 1
        assert loser["error"]["code"] == "version_conflict" and loser["state"]["version"] >= version + 1
        outcomes.append((round_no, winner["version"]))
        state = duel.apply(state, parse_event(event, 2))
        version += 1
        games[-1] = (game_id, state)

    assert len(outcomes) == ROUNDS
    for game_id, engine_state in games:
        status, log = call(base, "GET", f"/api/games/{game_id}/log")
        replayed = duel.replay({"players": log["players"], "first_player": log["first_player"]}, log["events"])
        assert replayed == duel.replay({"players": ["Ana", "Ben"], "first_player": 0},
                                       [parse_event(e, 2) for e in log["events"]])
        assert duel.to_json(replayed)["players"] == duel.to_json(engine_state)["players"]
        status, current = call(base, "GET", f"/api/games/{game_id}")
        assert current["version"] == len(log["events"])  # one version per stored event, none lost or doubled


def test_many_phones_without_expected_version_all_land_once(threaded_server):
    """Writers that send no version retry internally: every accepted entry is stored once."""
    base = threaded_server
    status, created = call(base, "POST", "/api/games", {"game": "duel", "players": ["Ana", "Ben"], "first_player": 0})
    game_id = created["id"]
    # Corrections never pass the turn, so any number of them can race without expected_version.
    bodies = [{"type": "correction", "player": i % 2, "set": {"privileges": (i % 2)}, "note": f"n{i}",
               "entry_id": f"c{i}"} for i in range(40)]
    results: list[int] = []
    lock = threading.Lock()

    def writer(chunk: list[dict]) -> None:
        for body in chunk:
            code, _ = call(base, "POST", f"/api/games/{game_id}/events", body)
            with lock:
                results.append(code)

    threads = [threading.Thread(target=writer, args=(bodies[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    accepted = results.count(200)
    refused = [c for c in results if c != 200]
    assert all(c == 422 for c in refused)  # only privilege totals above 3 may be refused
    _status, log = call(base, "GET", f"/api/games/{game_id}/log")
    assert len(log["events"]) == accepted
    assert len({e["note"] for e in log["events"]}) == accepted


# ----------------------------------------------------------------------------------- crash


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(database_url: str, port: int, tmp: Path, flags: tuple[str, ...] = ("--workers", "2", "--threads", "2")
                   ) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "crash-test", "CACHE_DIR": str(tmp / "screens")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:tracker.gunicorn_config", *flags,
         "--bind", f"127.0.0.1:{port}",
         "tracker:create_app()"],
        env=env, stdout=(tmp / "gunicorn.log").open("ab"), stderr=subprocess.STDOUT, start_new_session=True,
    )
    for _ in range(200):
        try:
            if call(f"http://127.0.0.1:{port}", "GET", "/api/games", timeout=1)[0] == 200:
                return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError((tmp / "gunicorn.log").read_text())


def test_a_server_killed_mid_burst_keeps_every_acknowledged_entry(database_url, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_gunicorn(database_url, port, tmp_path)
    try:
        _setup, events, _final = autoplay.play(11)
        status, created = call(base, "POST", "/api/games", {"game": "duel", "players": ["Ana", "Ben"],
                                                            "first_player": _setup["first_player"]})
        game_id = created["id"]
        acknowledged: list[int] = []
        refused: list[str] = []
        in_flight: list[int] = []
        stop_at = 25

        def burst() -> None:
            for n, ev in enumerate(events):
                bad = {"type": "take_tokens", "player": ev.player, "tokens": {"gold": 1}, "entry_id": f"bad{n}"}
                try:
                    code, _ = call(base, "POST", f"/api/games/{game_id}/events", bad, timeout=30)
                    assert code == 422
                    refused.append(f"bad{n}")
                    code, body = call(base, "POST", f"/api/games/{game_id}/events",
                                      {**event_to_dict(ev), "entry_id": f"e{n}"}, timeout=30)
                except (OSError, http.client.HTTPException, ValueError):  # cut mid-answer: a half body
                    in_flight.append(n)
                    return
                assert code == 200, body
                acknowledged.append(n)

        poster = threading.Thread(target=burst)
        poster.start()
        while len(acknowledged) < stop_at and poster.is_alive():
            time.sleep(0.005)
        os.killpg(server.pid, signal.SIGKILL)  # the whole gunicorn process group, mid-burst
        server.wait()
        poster.join()
        assert len(acknowledged) >= stop_at and in_flight, "the kill must land mid-burst"

        server = start_gunicorn(database_url, port, tmp_path)
        status, log = call(base, "GET", f"/api/games/{game_id}/log")
        assert status == 200
        stored = log["events"]
        # Every acknowledged entry is stored, in order; the one in flight may or may not be.
        assert len(acknowledged) <= len(stored) <= len(acknowledged) + 1
        for n, event in enumerate(stored):
            assert event == event_to_dict(events[n])
        assert not any(e.get("tokens", {}).get("gold") for e in stored if e["type"] == "take_tokens")
        # Resending the entry that was in flight (same entry_id) stores it exactly once.
        n = in_flight[0]
        code, state = call(base, "POST", f"/api/games/{game_id}/events", {**event_to_dict(events[n]), "entry_id": f"e{n}"})
        assert code == 200 and state["version"] == len(acknowledged) + 1
        status, log = call(base, "GET", f"/api/games/{game_id}/log")
        assert len(log["events"]) == len(acknowledged) + 1
        status, games = call(base, "GET", "/api/games")
        for game in games:  # every game still replays
            assert call(base, "GET", f"/api/games/{game['id']}")[0] == 200
    finally:
        try:
            os.killpg(server.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        server.wait()


def test_the_same_longer_export_imported_twice_at_once_is_stored_once_and_both_succeed(threaded_server):
    """Two phones (or a double tap) send the same later export of a stored game at the same moment:
    its entries are added once, and neither is told another phone recorded first."""
    base = threaded_server
    status, game = call(base, "POST", "/api/games", {"game": "duel", "players": ["Ana", "Ben"], "first_player": 0})
    assert status == 201
    rng, state, events = random.Random(7), duel.new_game(["Ana", "Ben"], 0), []
    for _ in range(30):
        ev = next_event(state, rng)
        state = duel.apply(state, parse_event(ev, 2))
        events.append(ev)
    for ev in events[:10]:
        assert call(base, "POST", f"/api/games/{game['id']}/events", ev)[0] == 200
    status, log = call(base, "GET", f"/api/games/{game['id']}/log")
    log["events"] = [event_to_dict(parse_event(ev, 2)) for ev in events]
    for _attempt in range(5):
        barrier, answers = threading.Barrier(2), []

        def send() -> None:
            barrier.wait()
            answers.append(call(base, "POST", "/api/games/import", log)[0])

        threads = [threading.Thread(target=send) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == [200, 200], answers
        status, stored = call(base, "GET", f"/api/games/{game['id']}/log")
        assert len(stored["events"]) == 30 and stored["events"] == log["events"]
        assert call(base, "GET", f"/api/games/{game['id']}")[1]["version"] == 30


def test_gunicorn_believes_no_forwarded_header_without_tracker_proxies(database_url, tmp_path):
    """README "Behind a reverse proxy": without ``TRACKER_PROXIES`` the forwarded headers are
    ignored. gunicorn itself believed ``X-Forwarded-Proto`` from 127.0.0.1 (an organiser's
    curl made the share page's links ``https://``); ``tracker/gunicorn_config.py`` turns that off."""
    port = free_port()
    server = start_gunicorn(database_url, port, tmp_path)
    try:
        status, created = call(f"http://127.0.0.1:{port}", "POST", "/api/games",
                               {"game": "duel", "players": ["Ana", "Ben"], "first_player": 0})
        assert status == 201
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        conn.request("GET", f"/games/{created['id']}/share",
                     headers={"X-Forwarded-Proto": "https", "X-Forwarded-Ssl": "on", "X-Forwarded-Protocol": "ssl"})
        resp = conn.getresponse()
        page = resp.read().decode()
        assert resp.status == 200
        assert f"http://127.0.0.1:{port}/games/" in page and "https://" not in page
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def test_a_connection_opened_ahead_and_left_silent_holds_no_worker(database_url, tmp_path):
    """gunicorn started with the config module and no worker class given, one worker: a
    browser's preconnect (a connection that sends nothing) held gunicorn's default sync worker
    until its 30 s timeout, which killed it, and the phone's real request behind it met "Internal
    Server Error". The config's gthread worker gives a connection's first request 5 s (gunicorn's
    own wait), then sets it aside and answers the real one."""
    port = free_port()
    server = start_gunicorn(database_url, port, tmp_path, flags=("--workers", "1"))
    try:
        with socket.create_connection(("127.0.0.1", port)):
            status, games = call(f"http://127.0.0.1:{port}", "GET", "/api/games", timeout=15)  # (sync: 30 s, killed)
            assert (status, games) == (200, [])
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def _form_post(base: str, form: dict) -> tuple[int, str]:
    """The new-game form posted as a browser does (no redirect followed): status and Location."""
    body = urllib.parse.urlencode(form, doseq=True).encode()
    conn = http.client.HTTPConnection(base.removeprefix("http://"), timeout=20)
    conn.request("POST", "/games", body=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
    resp = conn.getresponse()
    resp.read()
    conn.close()
    return resp.status, resp.getheader("Location", "")


def test_a_double_tap_on_start_the_game_at_the_same_instant_starts_one_game(threaded_server):
    """A tester's two taps 20–30 ms apart on "Start the game" made two games (one left over as a
    game in progress on the home page and in History): the form's key makes the second post
    land in the first one's game, on either database, even when both arrive together."""
    base = threaded_server
    for attempt in range(5):
        form = {"game": "duel", "player0": f"Minji{attempt}", "player1": f"Joon{attempt}", "first": "random",
                "start_key": f"double-tap-{attempt}"}
        barrier, answers = threading.Barrier(2), []

        def tap() -> None:
            barrier.wait()
            answers.append(_form_post(base, form))

        threads = [threading.Thread(target=tap) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert [status for status, _ in answers] == [303, 303], answers
        assert answers[0][1] == answers[1][1] and "/games/" in answers[0][1], answers
        status, listing = call(base, "GET", "/api/games")
        assert sum(1 for g in listing if g["players"][0] == f"Minji{attempt}") == 1, listing
