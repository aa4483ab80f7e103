"""Backups (export/import commands) and schema migrations on existing data."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from appconfig import app_config
from flask_migrate import upgrade
from helpers import load_fixture, new_game, play
from sqlalchemy import create_engine, text

from tracker import create_app, service
from tracker.db import db

FIRST_REVISION = "56cf77fcbd48"
#: a game created on the phone, and one imported from a log without id (its content key as id)
OLD_IDS = ("old-game-00-abcdefghijklmnopq", "log-AbCdEfGhIjKlMnOpQrStUvWxYz01")


def states(client) -> dict[str, dict]:
    out = {}
    for game in client.get("/api/games").get_json():
        state = client.get(f"/api/games/{game['id']}").get_json()
        out[game["id"]] = {k: v for k, v in state.items() if k not in ("version", "alerts")}
    return out


def test_export_then_import_restores_every_game(app, client, tmp_path):
    for name in ("duel-1012.json", "duel-1069.json"):
        assert client.post("/api/games/import", json=load_fixture(name)).status_code == 201
    active = new_game(client, ("Cho", "Dan"))
    play(client, active["id"], [{"type": "take_tokens", "player": 0, "tokens": {"pearl": 2}}])
    before = states(client)
    backup = tmp_path / "backup.json"
    result = app.test_cli_runner().invoke(args=["export", str(backup)])
    assert result.exit_code == 0, result.output
    # the database it read named, its password hidden (a backup from the wrong shell read SQLite)
    with app.app_context():
        url = db.engine.url
    assert f"exported 3 game(s) from {url.render_as_string(hide_password=True)}" in result.output
    assert url.database in result.output and (not url.password or url.password not in result.output)
    data = json.loads(backup.read_text())
    assert data["format"] == "splendor-tracker-history/1" and len(data["games"]) == 3

    restored = create_app(app_config(f"sqlite:///{tmp_path / 'restored.sqlite3'}"))
    with restored.app_context():
        # a fresh database, no `flask db upgrade` first: the import makes the tables (it stopped
        # with "no such table: players", leaving an empty file)
        result = restored.test_cli_runner().invoke(args=["import", str(backup)])
        assert result.exit_code == 0 and "imported 3 game(s), 0 already stored" in result.output
        assert states(restored.test_client()) == before
        again = restored.test_cli_runner().invoke(args=["import", str(backup)])
        assert "imported 0 game(s), 3 already stored" in again.output
        assert len(restored.test_client().get("/api/games").get_json()) == 3
        db.session.remove()
        db.engine.dispose()


def test_a_restored_game_keeps_counting_from_its_version(app, client, tmp_path):
    """Two testers: a game of 5 entries at version 9 (two undos, two entries again) came back from
    a backup at version 5; 4 entries later it was at 9 again, and a phone still showing version
    9 from before the move was told "nothing changed" (204). The backup carries the version."""
    game = new_game(client, ("Cho", "Dan"))
    takes = [{"type": "take_tokens", "player": seat, "tokens": {kind: 1}}
             for seat, kind in ((0, "red"), (1, "blue"), (0, "green"), (1, "black"), (0, "white"))]
    play(client, game["id"], takes[:4])
    for _ in range(2):
        assert client.post(f"/api/games/{game['id']}/undo").status_code == 200
    play(client, game["id"], takes[2:5])
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 9
    backup = tmp_path / "backup.json"
    assert app.test_cli_runner().invoke(args=["export", str(backup)]).exit_code == 0
    assert json.loads(backup.read_text())["games"][0]["version"] == 9
    restored = create_app(app_config(f"sqlite:///{tmp_path / 'restored.sqlite3'}"))
    with restored.app_context():
        assert restored.test_cli_runner().invoke(args=["import", str(backup)]).exit_code == 0
        there = restored.test_client()
        state = there.get(f"/api/games/{game['id']}").get_json()
        assert state["version"] == 9 and len(there.get(f"/api/games/{game['id']}/log").get_json()["events"]) == 5
        # the phone at version 9 is told of the next entry (it was at 9 again four entries later)
        assert there.get(f"/games/{game['id']}/poll?v=9&n=5", headers={"HX-Request": "true"}).status_code == 204
        play(there, game["id"], [{"type": "take_tokens", "player": 1, "tokens": {"red": 1}}])
        assert there.get(f"/games/{game['id']}/poll?v=9&n=5", headers={"HX-Request": "true"}).status_code == 200
        assert there.get(f"/api/games/{game['id']}").get_json()["version"] == 10
        db.session.remove()
        db.engine.dispose()
    # a version that cannot be the game's (fewer than its entries, not a number) is not taken
    log = {**json.loads(backup.read_text())["games"][0], "id": None, "players": ["Eun", "Finn"]}
    for bad in (3, "12", 12.0, True, -1, 10 ** 12):
        made = client.post("/api/games/import", json={**log, "version": bad, "players": ["Eun", f"F{bad!s:.4}"]})
        assert made.status_code == 201 and made.get_json()["version"] == 5, bad
    assert client.post("/api/games/import", json={**log, "version": 40}).get_json()["version"] == 40


def test_the_command_line_restores_a_backup_past_the_upload_cap(app, client, tmp_path, monkeypatch):
    """An adversarial tester: ``flask export`` wrote a history of 211,783 entries, and ``flask
    import`` refused it as the History upload does ("at most 100,000 entries at once"), leaving
    the JSON to split by hand. The cap is a web request's; the command line restores any size."""
    from tracker import service

    for name in ("duel-1012.json", "duel-1069.json"):
        assert client.post("/api/games/import", json=load_fixture(name)).status_code == 201
    before = states(client)
    backup = tmp_path / "backup.json"
    assert app.test_cli_runner().invoke(args=["export", str(backup)]).exit_code == 0
    monkeypatch.setattr(service, "MAX_IMPORT_ENTRIES", 100)  # both games are past it together
    upload = client.post("/history/import", data={"file": (backup.open("rb"), "history.json")},
                         content_type="multipart/form-data")
    assert upload.status_code == 422 and "at most 100 entries at once" in upload.get_data(as_text=True)
    restored = create_app(app_config(f"sqlite:///{tmp_path / 'restored.sqlite3'}"))
    with restored.app_context():
        result = restored.test_cli_runner().invoke(args=["import", str(backup)])
        assert result.exit_code == 0 and "imported 2 game(s), 0 already stored" in result.output, result.output
        assert states(restored.test_client()) == before
        db.session.remove()
        db.engine.dispose()


def test_a_restored_backup_still_finds_the_files_its_games_were_imported_from(app, client, tmp_path):
    """A log without id or start, and one under another tool's id, were imported; the history
    moved to a new database by a backup (SQLite to PostgreSQL, say). The same two files imported
    there again are found, not stored a second time (a tester: each game stored twice)."""
    bare = {k: v for k, v in load_fixture("duel-1012.json").items() if k not in ("id", "started", "finished")}
    foreign = {**{k: v for k, v in load_fixture("duel-1069.json").items() if k not in ("started", "finished")},
               "id": "ex-duel-1069"}
    for log in (bare, foreign):
        assert client.post("/api/games/import", json=log).status_code == 201
        assert client.post("/api/games/import", json=log).status_code == 200  # found again here
    backup = tmp_path / "backup.json"
    assert app.test_cli_runner().invoke(args=["export", str(backup)]).exit_code == 0
    kept = [game.get("import_keys") for game in json.loads(backup.read_text())["games"]]
    assert sorted(sorted(keys) for keys in kept) == [["content"], ["content", "id"]]

    restored = create_app(app_config(f"sqlite:///{tmp_path / 'restored.sqlite3'}"))
    with restored.app_context():
        result = restored.test_cli_runner().invoke(args=["import", str(backup)])
        assert "imported 2 game(s), 0 already stored" in result.output
        phone = restored.test_client()
        for log in (bare, foreign):
            answer = phone.post("/api/games/import", json=log)
            assert answer.status_code == 200, answer.get_json()
        assert len(phone.get("/api/games").get_json()) == 2
        # a key another game here holds already, or no key at all, is left aside: nothing refused
        data = json.loads(backup.read_text())
        data["games"][0]["import_keys"] = {"content": "not a key", "id": 7}
        assert "0 game(s), 2 already stored" in restored.test_cli_runner().invoke(
            args=["import", "-"], input=json.dumps(data)).output
        db.session.remove()
        db.engine.dispose()


def test_export_refusals_are_one_line_not_a_traceback(app, tmp_path):
    """An operator's `flask export` into a folder that does not exist, and on a database never
    migrated, printed Python tracebacks: each is one line saying what to do, exit status 1."""
    result = app.test_cli_runner().invoke(args=["export", str(tmp_path / "nodir" / "x.json")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "Error: could not write" in result.output and "No such file or directory" in result.output
    assert not (tmp_path / "nodir").exists()
    empty = create_app(app_config(f"sqlite:///{tmp_path / 'empty.sqlite3'}"))
    with empty.app_context():
        result = empty.test_cli_runner().invoke(args=["export", str(tmp_path / "backup.json")])
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert "Error: could not read the games: no such table" in result.output
        assert "flask --app tracker db upgrade" in result.output
        assert not (tmp_path / "backup.json").exists()
        db.session.remove()
        db.engine.dispose()


def test_a_backup_with_a_game_that_does_not_replay_imports_nothing(app, tmp_path):
    good = load_fixture("duel-1069.json")
    bad = load_fixture("duel-1102.json")
    bad["result"]["winner"]["player"] = 0
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"format": "splendor-tracker-history/1", "games": [good, bad]}))
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code != 0 and "Game 2 of the file" in result.output and "import_mismatch" in result.output
    assert service.list_games() == []
    path.write_text("{not json")
    assert app.test_cli_runner().invoke(args=["import", str(path)]).exit_code != 0
    path.write_text(json.dumps(good)[:-1] + ', "events": []}')  # read as the API reads it: no name twice
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code != 0 and "is not JSON" in result.output and "'events'" in result.output
    assert service.list_games() == []


def test_a_single_game_log_imports_from_the_command_line(app, tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(load_fixture("duel-1012.json")))
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0 and "imported 1 game(s)" in result.output
    assert service.list_games()[0].status == "finished"


@pytest.fixture(params=["sqlite"] + (["postgresql"] if os.environ.get("TEST_POSTGRES_URL") else []))
def empty_database(request, tmp_path: Path):
    """A database with no tables at all."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"
        return
    base = os.environ["TEST_POSTGRES_URL"]
    name = f"tracker_migrate_{os.getpid()}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield base.rsplit("/", 1)[0] + "/" + name
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def test_games_stored_at_the_first_migration_replay_after_upgrading(empty_database):
    app = create_app(app_config(empty_database))
    with app.app_context():
        upgrade(revision=FIRST_REVISION)
        # Rows written as the first schema had them (no later columns exist yet).
        logs = [load_fixture(n) for n in ("duel-1012.json", "duel-1102.json")]
        for i, log in enumerate(logs):
            gid = OLD_IDS[i]
            db.session.execute(text(
                "INSERT INTO games (id, game, setup, version, status, result, started) "
                "VALUES (:id, 'duel', :setup, :version, 'finished', :result, CURRENT_TIMESTAMP)"),
                {"id": gid, "setup": json.dumps({"players": log["players"], "first_player": log["first_player"],
                                                 "nobles": None}),
                 "version": len(log["events"]), "result": json.dumps(log["result"])})
            for seq, event in enumerate(log["events"], start=1):
                db.session.execute(text(
                    "INSERT INTO events (game_id, seq, entry_id, data, undone, created) "
                    "VALUES (:g, :s, NULL, :d, :u, CURRENT_TIMESTAMP)"),
                    {"g": gid, "s": seq, "d": json.dumps(event), "u": False})
        db.session.commit()
        upgrade()
        for i, log in enumerate(logs):
            view = service.load(OLD_IDS[i])
            assert view.state.status == "finished"
            assert view.to_json()["winner"] == log["result"]["winner"]
            assert view.state.turn == log["result"]["turns"]
        assert len(service.list_games()) == 2  # the new column defaults to "not deleted"
        # an id-less log imported before: its content key was its id, now its import_key too
        from tracker.models import Game
        assert [db.session.get(Game, gid).import_key for gid in OLD_IDS] == [None, OLD_IDS[1]]
        db.session.remove()
        db.engine.dispose()


def test_people_whose_names_differ_by_invisible_marks_become_one_after_upgrading(empty_database):
    """Migration e3a9b5c71d04: "Bob" and "Bob" + a zero-width joiner (pasted from a messenger)
    were two people; after the upgrade Bob's games are one person's, the other name an alias
    that still leads to him. "Kim" and "Kim" + a Hangul filler sat at one game: still two."""
    from sqlalchemy import select

    from tracker import people
    from tracker.models import GamePlayer, Player

    app = create_app(app_config(empty_database))
    with app.app_context():
        upgrade(revision="d81f0c5a9e27")
        names = {1: ("Bob", "bob"), 2: ("Bob\u200d", "bob\u200d"), 3: ("Kim", "kim"), 4: ("Kim\u3164", "kim\u3164"),
                 5: ("Ann\ufe0f", "ann\ufe0f"), 6: ("Cy", "cy")}
        for pid, (name, key) in names.items():
            db.session.execute(text("INSERT INTO players (id, name, normalized, created) "
                                    "VALUES (:i, :n, :k, CURRENT_TIMESTAMP)"), {"i": pid, "n": name, "k": key})
        seats = {"g1": (1, 6), "g2": (2, 6), "g3": (3, 4), "g4": (5, 2)}
        for gid, pids in seats.items():
            db.session.execute(text("INSERT INTO games (id, game, setup, version, status, started) "
                                    "VALUES (:id, 'duel', :setup, 0, 'active', CURRENT_TIMESTAMP)"),
                               {"id": gid, "setup": json.dumps({"players": [names[p][0] for p in pids],
                                                                "first_player": 0, "nobles": None})})
            for seat, pid in enumerate(pids):
                db.session.execute(text("INSERT INTO game_players (game_id, seat, player_id) VALUES (:g, :s, :p)"),
                                   {"g": gid, "s": seat, "p": pid})
        db.session.commit()
        upgrade()
        db.session.expire_all()
        rows = {p.id: p for p in db.session.scalars(select(Player))}
        assert rows[1].normalized == "bob" and rows[1].merged_into is None
        assert rows[2].merged_into == 1  # an alias: its old key kept, its seats moved to Bob
        seated = {(g.game_id, g.seat): g.player_id for g in db.session.scalars(select(GamePlayer))}
        assert seated[("g2", 0)] == 1 and seated[("g4", 1)] == 1
        assert rows[3].merged_into is None and rows[4].merged_into is None  # sat at one game: two people
        assert rows[5].normalized == "ann"  # alone: its key recomputed
        # typed names now find their person, however the marks were pasted
        assert people.player_for("BOB\u200c").id == 1 and people.player_for("ann").id == 5
        assert people.player_for("Kim").id == 3
        db.session.remove()
        db.engine.dispose()



def test_a_backups_games_started_in_one_second_are_restored_apart(app, client, tmp_path):
    """A tester: logs imported without a start (all "now", one second) and a new game of the same
    people, their entries each the beginning of the next's, were four games; restored from their
    backup into an empty install they became one (its id, the longest entries). Each has its own
    id in the backup: a stored game with an id of its own is never another log's."""
    log = load_fixture("duel-1012.json")
    cut = {k: v for k, v in log.items() if k not in ("id", "started", "finished")}
    ids = []
    for count in (0, 20, 40):
        resp = client.post("/api/games/import", json={**cut, "events": log["events"][:count], "result": None})
        assert resp.status_code == 201, resp.get_json()
        ids.append(resp.get_json()["id"])
    ids.append(new_game(client, tuple(log["players"]), log["first_player"])["id"])
    before = states(client)
    assert len(before) == 4
    backup = tmp_path / "backup.json"
    assert app.test_cli_runner().invoke(args=["export", str(backup)]).exit_code == 0
    data = json.loads(backup.read_text())
    assert len({g["started"] for g in data["games"]}) < 4  # (some in one second, as the tester's)

    restored = create_app(app_config(f"sqlite:///{tmp_path / 'restored.sqlite3'}"))
    with restored.app_context():
        result = restored.test_cli_runner().invoke(args=["import", str(backup)])
        assert result.exit_code == 0 and "imported 4 game(s), 0 already stored" in result.output, result.output
        assert states(restored.test_client()) == before
        again = restored.test_cli_runner().invoke(args=["import", str(backup)])
        assert "imported 0 game(s), 4 already stored" in again.output
        db.session.remove()
        db.engine.dispose()
