"""A merged or renamed player's other name still means that person: a new game cannot seat the
person twice under two names (a club tester seated "Eve" and "Evie" after merging them: Eve won
against herself, her counts disagreed, and a backup of that history dropped the merge)."""

from __future__ import annotations

import io
import json
import re

from helpers import fixture_log, import_log, new_game

from tracker.models import Game


def player_id(client, name: str) -> int:
    page = client.get("/players").get_data(as_text=True)
    return dict((n, int(i)) for i, n in re.findall(r'href="/players/(\d+)">([^<]+)<', page))[name]


def merged_eve(client) -> int:
    import_log(client, fixture_log("own-prestige.json", ["Eve", "Ana"], "2026-11-01T19:00:00Z"))
    import_log(client, fixture_log("own-crowns.json", ["Evie", "Ben"], "2026-11-02T19:00:00Z"))
    eve = player_id(client, "Eve")
    resp = client.post(f"/players/{eve}/merge", data={"other": str(player_id(client, "Evie")), "confirm": "yes"})
    assert resp.status_code == 303
    return eve


def test_a_new_game_refuses_a_person_under_a_merged_name(app, client):
    merged_eve(client)
    resp = client.post("/api/games", json={"game": "duel", "players": ["Eve", "evie"], "first_player": 0})
    assert resp.status_code == 422
    error = resp.get_json()["error"]
    assert error["code"] == "bad_setup" and error["message"] == \
        "evie is another name of Eve: each player needs a different name."
    # the seat order does not matter; the phone's form says the same on its page
    resp = client.post("/api/games", json={"game": "duel", "players": ["EVIE", "Eve"], "first_player": 0})
    assert resp.status_code == 422 and resp.get_json()["error"]["message"].startswith("EVIE is another name of Eve")
    page = client.post("/games", data={"game": "duel", "player0": "Evie", "player1": "Eve", "first": "0"})
    assert page.status_code == 422 and "Evie is another name of Eve" in page.get_data(as_text=True)
    with app.app_context():
        assert Game.query.count() == 2  # nothing half-made
    # Eve with someone else still starts a game
    assert client.post("/api/games", json={"game": "duel", "players": ["Evie", "Ana"], "first_player": 0}).status_code == 201


def test_two_old_names_of_one_person_are_named_together(client):
    import_log(client, fixture_log("own-prestige.json", ["Dae", "Ana"], "2026-11-01T19:00:00Z"))
    dae = player_id(client, "Dae")
    assert client.post(f"/players/{dae}/rename", data={"name": "Dae-ho"}).status_code == 303
    assert client.post(f"/players/{dae}/rename", data={"name": "Daehyun"}).status_code == 303
    resp = client.post("/api/games", json={"game": "duel", "players": ["Dae", "dae-ho"], "first_player": 0})
    assert resp.status_code == 422
    assert resp.get_json()["error"]["message"] == \
        "Dae and dae-ho are both names of Daehyun: each player needs a different name."


def test_the_refusal_is_in_korean_too(client):
    from flask_babel import refresh

    merged_eve(client)
    refresh()  # the test's app context keeps the locale the earlier requests chose
    resp = client.post("/api/games", json={"game": "duel", "players": ["Eve", "Evie"], "first_player": 0},
                       headers={"Accept-Language": "ko"})
    message = resp.get_json()["error"]["message"]
    assert resp.status_code == 422 and "Evie" in message and "Eve" in message and "another name" not in message


def test_renaming_to_another_persons_old_name_says_whose_it_is(client):
    merged_eve(client)
    ben = player_id(client, "Ben")
    resp = client.post(f"/players/{ben}/rename", data={"name": "evie"})
    assert resp.status_code == 422
    assert "Evie is already another name of Eve, who sat at a game with Ben: choose another name." in resp.get_data(as_text=True)
    assert player_id(client, "Ben") == ben


def backup_after_merge(client) -> dict:
    merged_eve(client)
    client.post("/api/games", json={"game": "duel", "players": ["Eve", "Evie"], "first_player": 0})  # refused
    backup = client.get("/history/export.json").get_json()
    assert backup["aliases"] == {"Evie": "Eve"} and len(backup["games"]) == 2
    return backup


def test_the_backup_restores_the_merge_in_a_fresh_database(client, sqlite_template, tmp_path):
    """With no game seating Eve twice, a backup restored elsewhere keeps Evie as Eve's name."""
    import shutil

    from appconfig import app_config

    from tracker import create_app

    backup = backup_after_merge(client)
    shutil.copy(sqlite_template, tmp_path / "restored.sqlite3")
    second = create_app(app_config(f"sqlite:///{tmp_path / 'restored.sqlite3'}"))
    other = second.test_client()
    resp = other.post("/history/import", data={"file": (io.BytesIO(json.dumps(backup).encode()), "b.json")})
    assert resp.status_code == 303, resp.get_data(as_text=True)[:500]
    page = other.get("/players").get_data(as_text=True)
    names = re.findall(r'href="/players/\d+">([^<]+)</a></td>\s*<td>(\d+)</td>', page)
    assert ("Eve", "2") in names and all(n != "Evie" for n, _ in names)


def test_an_imported_game_of_both_names_counts_the_person_once(client):
    """A log played elsewhere (or before the merge) seats Eve and Evie: it imports as it is,
    shows both names, and counts one game for Eve, not two (nor a win against herself)."""
    eve = merged_eve(client)
    import_log(client, fixture_log("own-color.json", ["Eve", "Evie"], "2026-11-03T19:00:00Z"))
    page = client.get("/players").get_data(as_text=True)
    assert re.search(rf'href="/players/{eve}">Eve</a></td>\s*<td>3</td>', page)  # 2 before + 1
    history = client.get("/history").get_data(as_text=True)
    assert "Evie" in history
    page = client.get(f"/players/{eve}")
    assert page.status_code == 200
    # her head to head lists no game against her own old name (a tester's read "Tae-ho: 1 game, 1 – 0")
    assert 'aria-label="1 game with Ana"' in page.get_data(as_text=True)  # (Ana's and Ben's rows; not "1 games")
    assert f'data-versus="{eve}"' not in page.get_data(as_text=True)
    assert ">Evie</a>" not in re.search(r'<section class="versus".*?</section>', page.get_data(as_text=True), re.S)[0]


def test_a_rename_racing_a_new_game_never_seats_one_person_twice(app, client, monkeypatch):
    """The check before the game and a merge a moment later: as the seats are stored the person
    sits once, the other seat on the old name typed (a tester's race seated one person twice)."""
    from tracker import people

    merged_eve(client)
    monkeypatch.setattr(people, "check_seats", lambda names: None)  # as if the merge came just after it
    resp = client.post("/api/games", json={"game": "duel", "players": ["Evie", "Eve"], "first_player": 0})
    assert resp.status_code == 201  # Eve sits as Eve, the other seat keeps the old name: Eve plays once
    page = client.get("/players").get_data(as_text=True)
    assert re.search(r'>Eve</a></td>\s*<td>3 <small class="playing">\(1 in progress\)</small></td>', page)
    with app.app_context():
        from tracker.models import GamePlayer

        seats = GamePlayer.query.filter_by(game_id=resp.get_json()["id"]).order_by(GamePlayer.seat).all()
        assert len({s.player_id for s in seats}) == 2


def test_renaming_back_to_a_name_seated_in_an_imported_game_is_refused_in_words(client):
    eve = merged_eve(client)
    import_log(client, fixture_log("own-color.json", ["Eve", "Evie"], "2026-11-03T19:00:00Z"))
    resp = client.post(f"/players/{eve}/rename", data={"name": "evie"})
    assert resp.status_code == 422
    assert "Evie sits beside Eve in an imported game (one person under two names): choose another name." \
        in resp.get_data(as_text=True)
    assert client.post(f"/players/{eve}/rename", data={"name": "Evelyn"}).status_code == 303


def body_class(client, game_id: str) -> str:
    return re.search(r'<body[^>]*class="([^"]*)"', client.get(f"/games/{game_id}").get_data(as_text=True))[1]


def test_at_the_bottom_follows_the_person_through_a_rename_and_auto_is_a_name(client):
    first = client.post("/api/games", json={"game": "duel", "players": ["Bena", "auto"], "first_player": 0}).get_json()
    assert client.get(f"/settings?mine=Bena&next=/games/{first['id']}").status_code == 303
    assert "mine-0" in body_class(client, first["id"])
    bena = player_id(client, "Bena")
    assert client.post(f"/players/{bena}/rename", data={"name": "Benedict"}).status_code == 303
    second = client.post("/api/games", json={"game": "duel", "players": ["Ana", "Benedict"], "first_player": 0}).get_json()
    assert "mine-1" in body_class(client, second["id"])  # the cookie says Bena: Benedict now
    # a player named "auto" is a player like any other; the empty value is "the player to act"
    client.get(f"/settings?mine=auto&next=/games/{first['id']}")
    assert "mine-1" in body_class(client, first["id"])
    client.get(f"/settings?mine=&next=/games/{first['id']}")
    assert "mine-" not in body_class(client, first["id"])
    page = client.get(f"/games/{first['id']}").get_data(as_text=True)
    assert re.search(r'<a class="small-btn on" aria-current="true" id="mine-auto" href="/settings\?mine=&amp;', page)


def test_an_import_naming_the_old_name_first_is_stored_too(client):
    eve = merged_eve(client)
    import_log(client, fixture_log("own-color.json", ["Evie", "Eve"], "2026-11-03T19:00:00Z"))
    page = client.get("/players").get_data(as_text=True)
    assert re.search(rf'href="/players/{eve}">Eve</a></td>\s*<td>3</td>', page)


def test_the_fix_sheet_opens_on_this_phones_player(client):
    """One phone each: with "At the bottom: Ben" the Fix sheet opens on Ben's counts (it opened
    on the player to act); a seat chosen in the sheet still wins, and without the setting the
    player to act comes first as before."""
    game = new_game(client, ("Ana", "Ben"))
    gid = game["id"]

    def fixing(query: str = "") -> str:
        sheet = client.get(f"/games/{gid}/sheet/correction{query}", headers={"HX-Request": "true"}).get_data(as_text=True)
        return re.search(r'<input type="hidden" name="player" value="(\d)">', sheet).group(1)

    assert fixing() == "0"  # Ana is to act
    client.get(f"/settings?mine=Ben&next=/games/{gid}")
    assert fixing() == "1" and fixing("?p=0") == "0"
    page = client.get(f"/games/{gid}?sheet=correction").get_data(as_text=True)  # the whole page, no htmx
    assert '<input type="hidden" name="player" value="1">' in page
    client.get(f"/settings?mine=&next=/games/{gid}")
    assert fixing() == "0"
