"""Two phones in step (the version poll), near-win warnings, display settings, installable app."""

from __future__ import annotations

import html
import json
import re

import flask_babel
import pytest

from helpers import fixture_log, import_log, load_fixture, new_game, post

HX = {"HX-Request": "true"}


def test_the_poll_answers_nothing_while_the_game_has_not_moved(client):
    game = new_game(client)
    resp = client.get(f"/games/{game['id']}/poll?v=0", headers=HX)
    assert resp.status_code == 204 and resp.get_data() == b""


def test_the_poll_brings_the_other_phones_entry_with_its_alerts(client):
    game = new_game(client, ("Ana", "Ben"))
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})
    resp = client.get(f"/games/{game['id']}/poll?v=0", headers=HX)
    body = resp.get_data(as_text=True)
    assert resp.status_code == 200 and body.lstrip().startswith("<main") and 'data-version="1"' in body
    assert "Ben&#39;s turn" in body or "Ben's turn" in body
    assert json.loads(resp.headers["HX-Trigger"])["tracker:alerts"][0]["kind"] == "privilege_given"
    assert 'hx-get="/games/%s/poll?v=1&amp;n=1"' % game["id"] in body  # the next poll asks from the new version
    assert client.get(f"/games/{game['id']}/poll?v=1", headers=HX).status_code == 204


def test_an_undo_on_one_phone_reaches_the_other_as_a_notice_without_old_alerts(client):
    """Phone A undoes the entry that gave Ben a privilege: phone B's poll brings the screen with
    "Undone: Ben took 1 blue." and does not announce (vibrate for) that privilege again."""
    game = new_game(client, ("Ana", "Ben"))
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})  # Ben gains a privilege
    post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    undone = client.post(f"/games/{game['id']}/undo", data={"expected_version": "2"}, headers=HX)
    assert undone.status_code == 200 and "Undone: Ben took 1 blue." in undone.get_data(as_text=True)
    polled = client.get(f"/games/{game['id']}/poll?v=2", headers=HX)
    body = polled.get_data(as_text=True)
    assert polled.status_code == 200 and 'data-version="3"' in body and "Undone: Ben took 1 blue." in body
    assert "HX-Trigger" not in polled.headers and 'data-kind="done"' not in body


def test_a_phone_in_another_language_also_gets_the_toast_and_the_undo_notice(app, client):
    """The kept screen is per language: a Korean phone's poll draws its own, and still says what
    the English phone just recorded, or that it undid the last entry (without its old alerts)."""
    import flask_babel

    game = new_game(client, ("Ana", "Ben"))
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})  # Ben gains a privilege
    korean = app.test_client()
    korean.set_cookie("lang", "ko")
    flask_babel.refresh()
    seen = korean.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f'poll?v=1&amp;n=1"' in seen
    post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    flask_babel.refresh()
    polled = korean.get(f"/games/{game['id']}/poll?v=1&n=1", headers=HX)
    body = polled.get_data(as_text=True)
    assert polled.status_code == 200 and re.search(r'data-kind="done"><span>✓ Ben: [^<]*파란색', body), body[:400]
    client.post(f"/api/games/{game['id']}/undo", json={})
    flask_babel.refresh()
    polled = korean.get(f"/games/{game['id']}/poll?v=2&n=2", headers=HX)
    body = polled.get_data(as_text=True)
    assert polled.status_code == 200 and 'data-version="3"' in body and "alert-notice" in body
    assert 'data-kind="done"' not in body and "HX-Trigger" not in polled.headers
    flask_babel.refresh()
    # a phone that missed several writes gets the latest screen with its alerts, as before
    assert korean.get(f"/games/{game['id']}/poll?v=0&n=0", headers=HX).status_code == 200


def test_a_phone_that_missed_several_entries_is_told_each_of_them(app, client):
    """Four phones: Ben's purchase and the noble he chose came 1 s apart, and a phone whose poll
    fell across both was told nothing (the kept screen says one write; "nothing special" when
    more came). Up to three entries are told in one toast, the kept screen is used only by a
    phone that missed one write, and an undo among several writes leaves the toast out."""
    game = new_game(client, ("Ana", "Ben"))
    gid = game["id"]
    for version, event in enumerate(({"type": "take_tokens", "player": 0, "tokens": {"red": 3}},
                                     {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})):
        resp = client.post(f"/games/{gid}/events", headers=HX,
                           data={"event": json.dumps(event), "expected_version": str(version)})
        assert resp.status_code == 200
    other = app.test_client()
    other.get(f"/games/{gid}")  # its own session (a CSRF token), as a phone that opened the game
    body = other.get(f"/games/{gid}/poll?v=0&n=0", headers=HX).get_data(as_text=True)
    toast = re.search(r'data-kind="done"><span>(.*?)</span></p>', body).group(1)
    # each sentence names its seat: the phone marks its own player's as made on another phone
    assert toast == ('✓ <span data-player="0">Ana took 3 red. Ben gains a privilege from Ana&#39;s move.</span> '
                     '<span data-player="1">Ben took 1 blue.</span>'), toast
    one = other.get(f"/games/{gid}/poll?v=1&n=1", headers=HX).get_data(as_text=True)
    assert re.search(r'data-kind="done"><span>✓ Ben took 1 blue.<', one)  # one write: the kept screen's toast
    for event in ({"type": "take_tokens", "player": 0, "tokens": {"green": 1}},
                  {"type": "take_tokens", "player": 1, "tokens": {"white": 1}},
                  {"type": "take_tokens", "player": 0, "tokens": {"black": 1}}):
        post(client, gid, event)
    five = other.get(f"/games/{gid}/poll?v=1&n=1", headers=HX).get_data(as_text=True)  # four missed: the last three
    toast = re.sub(r"<[^>]+>", "", re.search(r'data-kind="done"><span>(.*?)</span></p>', five).group(1))
    assert "green" in toast and "white" in toast and "black" in toast and "blue" not in toast, toast
    # the one left out is said to be in the log (a tester: dropped unsaid, with the privilege it gave)
    assert toast.startswith("✓ 1 earlier entry is in the game log. Ana took 1 green."), toast
    client.post(f"/api/games/{gid}/undo", json={})
    after_undo = other.get(f"/games/{gid}/poll?v=4&n=4", headers=HX).get_data(as_text=True)  # an entry and an undo
    assert 'data-kind="done"' not in after_undo and 'data-version="6"' in after_undo


def test_a_poll_while_the_last_toast_is_up_tells_the_entries_since_the_screen_before_it(app, client):
    """Another phone's entries a second or two apart: the second's screen replaced the first's
    toast unread (a tester). While that toast is up the phone's poll says since when it tells
    (app.js: ``since``, ``sn``): the new toast tells both; a ``since`` no earlier than the screen,
    or more than three entries back, changes nothing."""
    game = new_game(client, ("Ana", "Ben"))
    gid = game["id"]
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    other = app.test_client()
    other.get(f"/games/{gid}")

    def toast(url: str) -> str:
        body = other.get(url, headers=HX).get_data(as_text=True)
        return re.sub(r"<[^>]+>", "", re.search(r'data-kind="done"><span>(.*?)</span></p>', body).group(1))

    assert toast(f"/games/{gid}/poll?v=1&n=1&since=0&sn=0") == "✓ Ana took 1 red. Ben took 1 blue."
    assert toast(f"/games/{gid}/poll?v=1&n=1") == "✓ Ben took 1 blue."
    for since in ("1", "2", "x", ""):  # not before the screen: as without it
        assert toast(f"/games/{gid}/poll?v=1&n=1&since={since}&sn=0") == "✓ Ben took 1 blue.", since
    assert other.get(f"/games/{gid}/poll?v=2&n=2&since=0&sn=0", headers=HX).status_code == 204  # nothing new
    for event in ({"type": "take_tokens", "player": 0, "tokens": {"green": 1}},
                  {"type": "take_tokens", "player": 1, "tokens": {"white": 1}}):
        post(client, gid, event)
    assert toast(f"/games/{gid}/poll?v=3&n=3&since=0&sn=0") == "✓ Ben took 1 white."  # four back: only the last
    # an undo since the screen: told as the undo it is, not as "entries undone 1, entered 2"
    client.post(f"/api/games/{gid}/undo", json={})
    body = other.get(f"/games/{gid}/poll?v=4&n=4&since=3&sn=3", headers=HX).get_data(as_text=True)
    assert "Undone: Ben took 1 white." in body and 'data-kind="done"' not in body


def test_an_entry_and_its_undo_within_one_poll_are_told_as_the_undo(app, client):
    """A tester: an entry undone within a poll's 2 s was told "Since this screen: entries undone
    1, entered 1" (nothing was in force). It is the undo, naming the entry taken back; an undo
    of an entry the phone showed, then a new entry, is still told as both."""
    game = new_game(client, ("Ana", "Ben"))
    gid = game["id"]
    other = app.test_client()
    other.get(f"/games/{gid}")
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"white": 1}})
    client.post(f"/api/games/{gid}/undo", json={})
    body = other.get(f"/games/{gid}/poll?v=0&n=0", headers=HX).get_data(as_text=True)
    assert "Undone: Ana took 1 white." in body and "entered" not in body and 'data-kind="done"' not in body
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})  # shown at v=3, n=1
    client.post(f"/api/games/{gid}/undo", json={})
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"blue": 1}})
    body = other.get(f"/games/{gid}/poll?v=3&n=1", headers=HX).get_data(as_text=True)
    # each named, for the table to check (a tester: "entries undone 1, entered 1" named neither)
    notice = re.search(r'<p class="alert alert-notice">([^<]*)</p>', body)[1]
    assert notice == "Since this screen, undone: Ana took 1 red. Entered: Ana took 1 blue."


def test_an_undo_and_an_entry_in_one_poll_tell_the_privileges_they_moved(app, client):
    """A tester: when one poll brought an undo and a new entry, the phone was told only "entries
    undone 1, entered 1", and Ben's privilege from Ana's 3 red (D-3) went back unsaid."""
    game = new_game(client, ("Ana", "Ben"))
    gid = game["id"]
    other = app.test_client()
    other.get(f"/games/{gid}")
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})  # Ben: 1 -> 2 privileges
    assert [p["privileges"] for p in client.get(f"/api/games/{gid}").get_json()["players"]] == [0, 2]
    client.post(f"/api/games/{gid}/undo", json={})
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"blue": 1}})
    body = other.get(f"/games/{gid}/poll?v=1&n=1", headers=HX).get_data(as_text=True)
    notice = re.search(r'<p class="alert alert-notice">([^<]*)</p>', body)[1]
    assert notice == ("Since this screen, undone: Ana took 3 red. Entered: Ana took 1 blue. "
                      "Privileges now: Ana 0, Ben 1.")
    # the other way round: the entry gives the privilege, the undo took back one that did not
    post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"white": 1}})  # v=4, n=2
    client.post(f"/api/games/{gid}/undo", json={})
    post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"pearl": 2}})  # Ana: 0 -> 1
    body = other.get(f"/games/{gid}/poll?v=4&n=2", headers=HX).get_data(as_text=True)
    notice = html.unescape(re.search(r'<p class="alert alert-notice">([^<]*)</p>', body)[1])
    assert notice == ("Since this screen, undone: Ben took 1 white. Entered: Ben took 2 pearls. "
                      "Privileges now: Ana 1, Ben 1.")  # (Ana's privilege from the pearls: a toast of its own)
    # an undo of a privilege-giving take and a new one: no count moved, but the toast says "Ana gains a
    # privilege" (a tester's table handed over a second scroll): the counts are said as they are
    version = client.get(f"/api/games/{gid}").get_json()["version"]  # shown: Ana's blue, Ben's 2 pearls
    client.post(f"/api/games/{gid}/undo", json={})
    post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"black": 3}})  # Ana: 1 again
    body = other.get(f"/games/{gid}/poll?v={version}&n=2", headers=HX).get_data(as_text=True)
    assert "gains a privilege from Ben&#39;s move." in body
    notice = re.search(r'<p class="alert alert-notice">([^<]*)</p>', body)[1]
    assert notice == ("Since this screen, undone: Ben took 2 pearls. Entered: Ben took 3 black. "
                      "Privileges now: Ana 1, Ben 1.")


def test_the_poll_of_an_unknown_game_is_404(client):
    assert client.get("/games/no-such-game/poll?v=0").status_code == 404


def test_every_game_screen_polls(client):
    game = new_game(client)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert re.search(r'id="poller"[^>]*hx-trigger="every 2s"', page)


def test_near_win_warnings_show_per_route(client):
    log = load_fixture("duel-1069.json")  # Player A wins on crowns at the last event
    body = {k: log[k] for k in ("format", "game", "players", "first_player")}
    for upto in range(len(log["events"]) - 1, 0, -1):
        state = client.post("/api/games/import", json={**body, "events": log["events"][:upto], "result": None}).get_json()
        if 8 <= state["players"][0]["crowns"] < 10:
            break
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    crowns = state["players"][0]["crowns"]
    assert f"Player A: {crowns} crowns — {10 - crowns} more to win" in page
    assert 'class="near-win"' in page


def test_a_crowns_warning_counts_only_crowns_that_can_still_come(app, client):
    """D-11.2: at 8 crowns, 2 more win; once every crowned card left is bought or reserved by the
    other player, none is announced (a tester went looking for a "1-crown card" none of which
    was left)."""
    from tracker import screen, service
    from tracker.rules import catalog, duel
    from tracker.rules.common import Reserved

    game = new_game(client)
    jewels = catalog.jewels()
    ones = [cid for cid, card in jewels.items() if card.crowns == 1]
    crowned = [cid for cid, card in jewels.items() if card.crowns]
    with app.test_request_context(f"/games/{game['id']}"):
        view = service.load(game["id"])
        ana = duel._replace(view.state.players[0], cards=tuple(duel.Owned(c, jewels[c].color) for c in ones[:8]))
        assert ana.crowns == 8

        def warnings(ben):  # type: ignore[no-untyped-def]
            state = duel._replace(view.state, players=(ana, ben))
            return screen.near_wins(service.GameView(view.row, view.events, state), 0)

        assert "Ana: 8 crowns — 2 more to win" in warnings(view.state.players[1])
        rest = [c for c in crowned if c not in ones[:8]]
        taken = duel._replace(view.state.players[1], reserved=tuple(Reserved(level=jewels[c].level, card=c) for c in rest))
        assert not [w for w in warnings(taken) if "crowns" in w]


def test_a_reserved_card_that_wins_is_the_one_warning_of_its_route(app, client):
    """A tester at 9 crowns with a 1-crown card paid for in reserve read two warnings saying the
    same ("Ana: 9 crowns — 1 more to win", "Ana can win now: buying … reaches 10 crowns"): the
    card's line is the route's one warning; without the card the count's line comes back."""
    from tracker import screen, service
    from tracker.rules import catalog, duel
    from tracker.rules.common import Reserved
    from tracker.rules.tokens import Tokens

    game = new_game(client)
    jewels = catalog.jewels()
    ones = [cid for cid, card in jewels.items() if card.crowns == 1 and not card.is_joker]
    with app.test_request_context(f"/games/{game['id']}"):
        view = service.load(game["id"])
        rich = Tokens(white=4, blue=4, green=4, red=4, black=4, pearl=1, gold=3)
        ana = duel._replace(view.state.players[0], cards=tuple(duel.Owned(c, jewels[c].color) for c in ones[:9]),
                            tokens=rich, reserved=(Reserved(level=jewels[ones[9]].level, card=ones[9]),))
        assert ana.crowns == 9

        def warnings(player):  # type: ignore[no-untyped-def]
            state = duel._replace(view.state, players=(player, view.state.players[1]))
            return screen.near_wins(service.GameView(view.row, view.events, state), 0)

        said = warnings(ana)
        assert [w for w in said if "crowns" in w] == [
            f"Ana can win now: buying {screen.narrate.card_summary(ones[9])} from the reserve reaches 10 crowns"]
        assert warnings(duel._replace(ana, reserved=())) == ["Ana: 9 crowns — 1 more to win"]


@pytest.mark.parametrize("fixture", ["duel-1102.json", "own-color.json"])
def test_a_near_win_says_how_much_more_wins(client, fixture):
    """UX.md: the warning says what would win, on each route (here the prestige or colour the
    winner was 1–2 short of a few entries before the end)."""
    log = load_fixture(fixture)
    body = {k: log[k] for k in ("format", "game", "players", "first_player")}
    found = []
    for upto in range(len(log["events"]) - 1, 0, -1):
        state = client.post("/api/games/import", json={**body, "events": log["events"][:upto], "result": None}).get_json()
        page = client.get(f"/games/{state['id']}").get_data(as_text=True)
        found = re.findall(r'<li class="near-win">⚠ ([^<]*)</li>', page)
        if found:
            break
    assert found, fixture
    for text in found:
        if "can win now" in text:
            continue  # a reserved card that wins (below)
        m = re.search(r": (\d+) (prestige|in \w+) — (\d+) more (?:in \w+ )?to win", text) or re.search(r"(\d+) crowns — (\d+) more to win", text)
        assert m, text
        if "prestige" in text:
            assert int(m[1]) + int(m[3]) == 20, text
        elif " in " in text:
            assert int(m[1]) + int(m[3]) == 10, text


def test_a_reserved_card_that_wins_now_is_named_on_the_turn_line(client):
    """A tester's player did not see that a card in their reserve, paid for with what they held,
    would win: the turn line names it and the route (duel-1102, 4 entries before the end: D2-03
    brings Player B's 10th white point). Only while it can be paid for and the game is on."""
    log = load_fixture("duel-1102.json")
    body = {k: log[k] for k in ("format", "game", "players", "first_player")}
    state = client.post("/api/games/import", json={**body, "events": log["events"][:80], "result": None}).get_json()
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    found = [t for t in re.findall(r'<li class="near-win">⚠ ([^<]*)</li>', page) if "can win now" in t]
    assert found == ["Player B can win now: buying a level-2 white card (2 prestige, take a privilege) "
                     "from the reserve reaches 10 prestige in one colour"]
    # on the other player's turn (Player A's, one entry later) it waits for Player B's own
    later = client.post("/api/games/import", json={**body, "events": log["events"][:81], "result": None}).get_json()
    page = client.get(f"/games/{later['id']}").get_data(as_text=True)
    assert [t for t in re.findall(r'<li class="near-win">⚠ ([^<]*)</li>', page) if "white card" in t] == [
        "Player B can win on their turn: buying a level-2 white card (2 prestige, take a privilege) "
        "from the reserve reaches 10 prestige in one colour"]
    flask_babel.refresh()  # the test's app context keeps the locale the earlier requests chose
    ko = client.get(f"/games/{state['id']}", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert "2레벨 흰색 보석 카드" in "".join(re.findall(r'<li class="near-win">⚠ ([^<]*)</li>', ko))
    finished = client.post("/api/games/import", json={**body, "events": log["events"], "result": log.get("result")}).get_json()
    assert finished["status"] == "finished"
    assert 'class="near-win"' not in client.get(f"/games/{finished['id']}").get_data(as_text=True)


def test_the_near_win_distance_is_configurable(app, client):
    app.config["NEAR_WIN_DISTANCE"] = 0
    state = client.post("/api/games/import", json={**load_fixture("duel-1069.json"), "result": None,
                                                   "events": load_fixture("duel-1069.json")["events"][:-1]}).get_json()
    assert 'class="near-win"' not in client.get(f"/games/{state['id']}").get_data(as_text=True)


def test_settings_are_remembered_and_go_back(client):
    game = new_game(client)
    resp = client.get(f"/settings?theme=dark&table=on&sound=on&next=/games/{game['id']}")
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{game['id']}"
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert 'data-theme="dark"' in page and 'class="table-mode"' in page and 'data-sound="on"' in page
    assert client.get("/settings?theme=neon&next=https://evil.example").headers["Location"] == "/"
    # Never another site, however the address is disguised (browsers drop tabs and newlines,
    # and read a backslash as a slash).
    for disguised in ("/%09/evil.example", "/%0a/evil.example", "//evil.example", "/%5Cevil.example",
                      "/\\evil.example", "%2F%2Fevil.example", "/%20/evil.example"):
        resp = client.get(f"/settings?table=on&next={disguised}")
        assert resp.status_code == 303 and resp.headers["Location"] == "/", disguised


def test_the_settings_say_what_the_letters_on_the_chips_mean(client):
    """A tester could not tell what U and K stood for: Settings lists each chip with its name,
    in the reader's language."""
    game = new_game(client)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    legend = re.search(r'<div class="settings-row chip-legend" id="chip-legend".*?</div>', page, re.S).group(0)
    items = re.findall(r'<span class="legend-item"><span class="chip gem-(\w+) small"[^>]*><b>([^<]+)</b></span> ([^<]+)</span>', legend)
    assert items == [("white", "W", "white"), ("blue", "U", "blue"), ("green", "G", "green"), ("red", "R", "red"),
                     ("black", "K", "black"), ("pearl", "P", "pearl"), ("gold", "★", "gold")]
    client.set_cookie("lang", "ko")
    flask_babel.refresh()
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    legend = re.search(r'<div class="settings-row chip-legend" id="chip-legend".*?</div>', page, re.S).group(0)
    assert re.search(r'<b>파</b></span> 파란색', legend) or re.search(r'<b>파</b></span> 파', legend)
    # classic Splendor has no pearl: its legend names none (a tester saw "P pearl")
    client.set_cookie("lang", "en")
    flask_babel.refresh()
    classic = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                             "nobles": ["N-01", "N-02", "N-03"]}).get_json()
    page = client.get(f"/games/{classic['id']}").get_data(as_text=True)
    legend = re.search(r'<div class="settings-row chip-legend" id="chip-legend".*?</div>', page, re.S).group(0)
    kinds = re.findall(r'<span class="legend-item"><span class="chip gem-(\w+) small"', legend)
    assert kinds == ["white", "blue", "green", "red", "black", "gold"]


def test_table_mode_on_then_off_gives_the_phone_back_to_its_player(client):
    """A tester's phone (Ana's, one phone each) turned table mode on, then off: it showed the
    player to act at the bottom (Ben's discard). Off again, the phone is Ana's as before; a
    choice made meanwhile ("the player to act", or another name) is the one kept."""
    game = new_game(client)  # Ana and Ben, Ana first

    def body() -> set[str]:
        page = client.get(f"/games/{game['id']}").get_data(as_text=True)
        return set(re.search(r'<body[^>]*\sclass="([^"]*)"', page).group(1).split())

    def choose(query: str) -> None:
        assert client.get(f"/settings?{query}&next=/games/{game['id']}").status_code == 303

    choose("mine=Ana")
    assert body() == {"mine-0"}
    choose("table=on")
    assert body() == {"table-mode"}
    choose("table=turned")  # sides swapped: still table mode
    assert body() == {"table-mode", "table-turned"}
    choose("table=off")
    assert body() == {"mine-0"}
    # "the player to act" chosen while table mode was on: off again, nobody's
    choose("table=on")
    choose("mine=")
    choose("table=off")
    assert body() == set()
    # a name chosen instead: that name (and table mode off with it)
    choose("mine=Ana")
    choose("table=on")
    choose("mine=Ben")
    assert body() == {"mine-1"}
    choose("table=off")
    assert body() == {"mine-1"}


def test_the_language_switch_is_remembered(client):
    client.get("/settings?lang=en&next=/")
    page = client.get("/", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert '<html lang="en"' in page


def test_the_app_is_installable(client):
    manifest = client.get("/manifest.webmanifest")
    data = json.loads(manifest.get_data(as_text=True))
    assert manifest.headers["Content-Type"].startswith("application/manifest+json")
    assert data["display"] == "standalone" and {i["sizes"] for i in data["icons"]} == {"192x192", "512x512"}
    for icon in data["icons"]:
        assert client.get(icon["src"].split("?")[0]).status_code == 200
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and sw.headers["Content-Type"].startswith("text/javascript")
    text = sw.get_data(as_text=True)
    assert re.search(r"/static/app(\.[0-9a-f]+)?\.css", text) and re.search(r"htmx\.min(\.[0-9a-f]+)?\.js", text)
    assert "/offline" in text
    assert client.get("/offline").status_code == 200
    assert 'rel="manifest"' in client.get("/").get_data(as_text=True)


def test_the_other_phone_on_a_finished_game_is_offered_the_next_game(client):
    """"New game, same players" on one phone: the other phone, still on the finished game, gets
    its screen redrawn by its poll (x=1 from then on) with the way to the new game."""
    finished = import_log(client, fixture_log("duel-1069.json"))
    gid = finished["id"]
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    link = re.search(r'id="same-players" href="([^"]+)"', page)[1].replace("&amp;", "&")
    assert f"after={gid}" in link
    assert client.get(f"/games/{gid}/poll?v={finished['version']}&n={finished['version']}", headers=HX).status_code == 204
    home = client.get(link).get_data(as_text=True)
    assert f'name="after" value="{gid}"' in home
    names = finished["players"]
    created = client.post("/games", data={"game": "duel", "player0": names[0]["name"], "player1": names[1]["name"],
                                          "first": "1", "after": gid})
    new_id = created.headers["Location"].rsplit("/", 1)[-1]
    polled = client.get(f"/games/{gid}/poll?v={finished['version']}&n={finished['version']}", headers=HX)
    body = polled.get_data(as_text=True)
    assert polled.status_code == 200 and f'href="/games/{new_id}"' in body and 'id="next-game"' in body
    assert f"&amp;x=1" in body  # the redrawn screen's poller says it shows the next game: quiet again
    assert 'id="same-players"' not in body  # nobody starts a second next game from the old banner
    again = re.search(r'hx-get="([^"]+/poll[^"]+)"', body)[1].replace("&amp;", "&")
    assert client.get(again, headers=HX).status_code == 204
    # A second "same players" game from the same finished game does not move the link; other
    # people's game never takes it.
    client.post("/games", data={"game": "duel", "player0": names[1]["name"], "player1": names[0]["name"],
                                "first": "0", "after": gid})
    client.post("/games", data={"game": "duel", "player0": "X", "player1": "Y", "first": "0", "after": gid})
    assert f'href="/games/{new_id}"' in client.get(f"/games/{gid}").get_data(as_text=True)
    # The next game deleted: it is not offered, and a new "same players" game takes its place.
    client.post(f"/history/{new_id}/delete")
    assert 'id="next-game"' not in client.get(f"/games/{gid}").get_data(as_text=True)
    stranger = client.post("/games", data={"game": "duel", "player0": "X", "player1": "Y", "first": "0", "after": gid})
    assert 'id="next-game"' not in client.get(f"/games/{gid}").get_data(as_text=True), stranger
    again = client.post("/games", data={"game": "duel", "player0": names[0]["name"], "player1": names[1]["name"],
                                        "first": "0", "after": gid}).headers["Location"].rsplit("/", 1)[-1]
    assert f'href="/games/{again}"' in client.get(f"/games/{gid}").get_data(as_text=True)
    # An active game names no next game, whatever a form says.
    client.post("/games", data={"game": "duel", "player0": "P", "player1": "Q", "first": "0", "after": new_id})
    assert 'id="next-game"' not in client.get(f"/games/{new_id}").get_data(as_text=True)


def test_a_tap_on_a_screen_the_other_phone_has_moved_on_brings_the_new_screen(client):
    """Phone A taps a chip on a screen at version 0 after phone B recorded Ana's move: the answer
    is the new screen (Ben's turn, the toast of Ana's entry), retargeted to #game, never a take
    sheet for Ben drawn under Ana's screen (its save would record Ben's move by mistake)."""
    game = new_game(client)
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    stale = client.get(f"/games/{game['id']}/sheet/take?t=red&t=blue&v=0&n=0", headers={"HX-Request": "true"})
    body = stale.get_data(as_text=True)
    assert stale.status_code == 200 and stale.headers["HX-Retarget"] == "#game" and stale.headers["HX-Reswap"] == "outerHTML"
    assert '<main id="game"' in body and 'data-version="1"' in body and re.search(r"Ben(&#39;|')s turn", body)
    assert re.search(r'data-kind="done"><span>✓ Ana took 1 red\.<', body)
    assert 'data-sheet="take"' in body and "Ben took" not in body  # the default sheet, nothing picked
    current = client.get(f"/games/{game['id']}/sheet/take?t=blue&v=1&n=1", headers={"HX-Request": "true"})
    assert "HX-Retarget" not in current.headers and "Ben took 1 blue" in current.get_data(as_text=True)
    # no htmx (Back to a sheet's page after a save): the game as it is, never the old pick
    plain = client.get(f"/games/{game['id']}/sheet/take?t=blue&v=0")
    assert plain.status_code == 303 and plain.headers["Location"].endswith(f"/games/{game['id']}")
    assert client.get(f"/games/{game['id']}/sheet/take?t=blue&v=1").status_code == 200


def test_without_javascript_back_after_a_save_never_offers_the_saved_pick_again(client):
    """A tester with JavaScript off: tap W, U, G (links to …/sheet/take?t=…), Take 3, Back: the
    sheet came back for the new position with the same three tokens and a live save, and saving
    it gave the next player the same take. Every sheet link says its version: Back leads to the
    game as it is."""
    game = new_game(client)
    gid = game["id"]
    page = client.get(f"/games/{gid}/sheet/take?t=white&v=0").get_data(as_text=True)
    links = re.findall(r'href="(/games/[^"]+/sheet/[^"]+)"', page)
    assert links and all(re.search(r"[?&]v=0(&|$)", link.replace("&amp;", "&")) for link in links), links
    picked = f"/games/{gid}/sheet/take?t=white&t=blue&t=green&v=0"
    form = client.get(picked).get_data(as_text=True)
    assert 'value="0"' in form  # the save's expected_version
    assert post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"white": 1, "blue": 1, "green": 1}}).status_code == 200
    back = client.get(picked)  # Back: the browser asks the sheet's address again
    assert back.status_code == 303 and back.headers["Location"].endswith(f"/games/{gid}")
    screen = client.get(f"/games/{gid}").get_data(as_text=True)
    assert "Ben&#39;s turn" in screen or "Ben's turn" in screen
    assert client.get(f"/api/games/{gid}").get_json()["players"][1]["tokens"]["white"] == 0


def test_no_player_is_warned_of_starting_the_final_round_once_it_is_on(client):
    """Classic Splendor (S-4): after Player A reaches 16, Player B at 13 is not told that "2 more
    starts the final round": it has started. Before it, the warning is there."""
    log = load_fixture("splendor-133.json")
    body = {k: log[k] for k in ("format", "game", "players", "first_player", "nobles")}
    before = client.post("/api/games/import", json={**body, "events": log["events"][:94], "result": None}).get_json()
    on = client.post("/api/games/import", json={**body, "events": log["events"][:95], "result": None}).get_json()
    assert on["final_round"] and on["status"] == "active" and on["players"][1]["prestige"] == 13
    warned = re.findall(r'<li class="near-win">⚠ ([^<]*)</li>', client.get(f"/games/{before['id']}").get_data(as_text=True))
    assert any("more starts the final round" in w for w in warned), warned
    page = client.get(f"/games/{on['id']}").get_data(as_text=True)
    assert 'class="near-win"' not in page


def test_seven_crowns_are_announced_while_the_3_crown_card_is_still_out(app, client):
    """D-11.2: one card can bring 3 crowns, so at 7 crowns a single purchase may win: the turn
    line says so while that card can still come to the player (bought or reserved by the other,
    it no longer can, and 3 more are then at least two purchases away: nothing said)."""
    from tracker import screen, service
    from tracker.rules import catalog, duel
    from tracker.rules.common import Reserved

    game = new_game(client)
    jewels = catalog.jewels()
    three = next(cid for cid, card in jewels.items() if card.crowns == 3)
    ones = [cid for cid, card in jewels.items() if card.crowns == 1][:7]
    with app.test_request_context(f"/games/{game['id']}"):
        view = service.load(game["id"])
        ana = duel._replace(view.state.players[0], cards=tuple(duel.Owned(c, jewels[c].color) for c in ones))
        assert ana.crowns == 7

        def warnings(ben):  # type: ignore[no-untyped-def]
            state = duel._replace(view.state, players=(ana, ben))
            assert duel.route_reach(state, 0)["crowns"][0] in (2, 3)
            return [w for w in screen.near_wins(service.GameView(view.row, view.events, state), 0) if "crowns" in w]

        assert warnings(view.state.players[1]) == ["Ana: 7 crowns — 3 more to win"]
        ben = duel._replace(view.state.players[1], reserved=(Reserved(level=jewels[three].level, card=three),))
        assert warnings(ben) == []


def test_a_colour_or_prestige_one_card_can_complete_is_warned_from_that_far(app, client):
    """A Korean tester's player reached 7 red with a 4-point red card still out and won with it,
    unwarned (the colour and prestige routes were said within 2 only, the crowns' from as far as
    one card brings them). D-11.3 and D-11.1 now as D-11.2: from the most points one card can
    still bring (a joker's in a colour its buyer has a bonus of), while enough points are left;
    the cards gone to the other player no longer count."""
    from tracker import screen, service
    from tracker.rules import catalog, duel
    from tracker.rules.common import Reserved

    game = new_game(client)
    jewels = catalog.jewels()
    reds = sorted((cid for cid, c in jewels.items() if c.color == "red" and c.points), key=lambda c: jewels[c].points)
    four = [cid for cid in reds if jewels[cid].points == 4]
    assert four, reds
    owned = []  # red cards worth 7 points in all, none of the 4-point ones
    for cid in reds:
        if jewels[cid].points < 4 and sum(jewels[c].points for c in owned) + jewels[cid].points <= 7:
            owned.append(cid)
    assert sum(jewels[c].points for c in owned) == 7, owned
    with app.test_request_context(f"/games/{game['id']}"):
        view = service.load(game["id"])
        ana = duel._replace(view.state.players[0], cards=tuple(duel.Owned(c, "red") for c in owned))
        assert ana.color_points["red"] == 7

        def warnings(ben):  # type: ignore[no-untyped-def]
            state = duel._replace(view.state, players=(ana, ben))
            return [w for w in screen.near_wins(service.GameView(view.row, view.events, state), 0) if " in red" in w]

        assert warnings(view.state.players[1]) == ["Ana: 7 in red — 3 more in red to win"]
        # every red card of 3 points or more, and every joker, with Ben: 3 more is two cards away
        big = tuple(Reserved(level=c.level, card=cid) for cid, c in jewels.items() if cid not in owned
                    and ((c.color == "red" and c.points >= 3) or c.is_joker))
        ben = duel._replace(view.state.players[1], reserved=big)
        assert warnings(ben) == []
        reach = duel.route_reach(duel._replace(view.state, players=(ana, ben)), 0)
        assert reach["red"][0] == max((c.points for cid, c in jewels.items() if c.color == "red" and cid not in owned
                                       and cid not in {r.card for r in big}), default=0) < 3
        # prestige: 15 with a 5-point card still out is one purchase from 20; none left, 5 are two away
        plain = sorted((cid for cid, c in jewels.items() if c.points and not c.is_joker), key=lambda c: -jewels[c].points)
        most = jewels[plain[0]].points
        assert most >= 5
        cards, total = [], 0
        for cid in reversed(plain):  # small ones first: exactly 20 - most
            if total + jewels[cid].points <= 20 - most:
                cards.append(cid)
                total += jewels[cid].points
        assert total == 20 - most, total
        rich = duel._replace(view.state.players[0], cards=tuple(duel.Owned(c, jewels[c].color) for c in cards))

        def prestige(ben):  # type: ignore[no-untyped-def]
            state = duel._replace(view.state, players=(rich, ben))
            return [w for w in screen.near_wins(service.GameView(view.row, view.events, state), 0) if "prestige" in w]

        assert prestige(view.state.players[1]) == [f"Ana: {20 - most} prestige — {most} more to win"]
        tops = tuple(Reserved(level=jewels[c].level, card=c) for c in plain if jewels[c].points == most and c not in cards)
        assert prestige(duel._replace(view.state.players[1], reserved=tops)) == []


def test_table_mode_choices_name_who_sits_across_in_a_game_of_two(client):
    """A first-time player could not tell "on" from "on, sides swapped": in a game of two the
    choices name the player across the table ("on" turns seat 1's side, the second name); away
    from a game a hint says which side each turns; a game of three names nobody."""
    duel = new_game(client, players=["Ana", "Ben"])["id"]
    page = client.get(f"/games/{duel}").get_data(as_text=True)
    assert re.search(r'id="table-on"[^>]*>on: Ben across<', page)
    assert re.search(r'id="table-turned"[^>]*>on: Ana across<', page)
    assert 'id="table-mode-hint"' in page and "on, sides swapped" not in page
    home = client.get("/").get_data(as_text=True)
    assert re.search(r'id="table-turned"[^>]*>on, sides swapped<', home)
    assert "the second name entered" in home
    trio = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben", "Cy"],
                                           "first_player": 0, "nobles": ["N-01", "N-02", "N-03", "N-04"]}).get_json()["id"]
    page = client.get(f"/games/{trio}").get_data(as_text=True)
    assert "across<" not in page and 'id="table-mode-note"' in page and 'id="table-mode-hint"' not in page
    client.set_cookie("lang", "ko")
    flask_babel.refresh()
    assert "켬: Ben 님이 맞은편" in client.get(f"/games/{duel}").get_data(as_text=True)


def _table_link(page: str) -> str:
    return re.search(r'id="table-btn" href="([^"]+)"', page)[1].replace("&amp;", "&")


def _table_said(page: str) -> str:
    """What the Table button says (its ``aria-labelledby``: drawn with the page, for this phone)."""
    assert 'id="table-btn"' not in page or 'aria-labelledby="table-said"' in page
    return re.search(r'<span class="visually-hidden" id="table-said">([^<]+)</span>', page)[1]


def test_table_mode_is_one_tap_from_a_game_of_two(client):
    """A first-time player never found table mode (under Settings, folded at the page's foot): a
    game of two has a "Table" button on its turn line, which turns it on, then off; a game of
    three, a spectator's screen and a finished game (unless to turn it off) have none."""
    duel = new_game(client, players=["Ana", "Ben"])["id"]
    page = client.get(f"/games/{duel}").get_data(as_text=True)
    assert _table_link(page) == f"/settings?table=flip&game={duel}&next=/games/{duel}"
    # it says whose side it turns (a tester: it did not say whom), by this phone's state
    assert _table_said(page) == "Table mode: off (a tap turns Ben’s side across)"
    assert client.get(_table_link(page)).status_code == 303 and client.get_cookie("table").value == "on"
    page = client.get(f"/games/{duel}").get_data(as_text=True)
    assert re.search(r'<body[^>]*\sclass="table-mode"', page)  # (the button marked on)
    assert _table_said(page) == "Table mode: on, Ben’s side turned across"
    assert client.get(_table_link(page)).status_code == 303 and client.get_cookie("table").value == "off"
    splendor2 = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                                "nobles": ["N-01", "N-02", "N-03"]}).get_json()["id"]
    assert 'id="table-btn"' in client.get(f"/games/{splendor2}").get_data(as_text=True)
    trio = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben", "Cy"],
                                           "first_player": 0, "nobles": ["N-01", "N-02", "N-03", "N-04"]}).get_json()["id"]
    assert 'id="table-btn"' not in client.get(f"/games/{trio}").get_data(as_text=True)
    done = import_log(client, fixture_log("duel-1069.json"))["id"]
    client.get(f"/settings?table=on&next=/games/{done}")
    # a finished game: the button only to turn table mode off (a tester had to find Settings)
    page = client.get(f"/games/{done}").get_data(as_text=True)
    client.get(_table_link(page))
    assert client.get_cookie("table").value == "off"
    assert 'id="table-btn"' not in client.get(f"/games/{done}").get_data(as_text=True)


def test_the_table_button_on_the_second_players_own_phone_keeps_them_at_the_bottom(client):
    """A tester's phone was Ben's own (seat 1): "Table" put Ben's panel upside down at the top
    and turned his own turns away from him. On his phone it turns Ana's side across ("turned");
    off again, the phone is Ben's again."""
    duel = new_game(client, players=["Ana", "Ben"])["id"]
    assert client.get(f"/settings?mine=Ben&next=/games/{duel}").status_code == 303
    page = client.get(f"/games/{duel}").get_data(as_text=True)
    assert re.search(r'<body[^>]*\sclass="[^"]*mine-1', page)
    assert _table_said(page) == "Table mode: off (a tap turns Ana’s side across)"
    client.get(_table_link(page))
    assert client.get_cookie("table").value == "turned"
    page = client.get(f"/games/{duel}").get_data(as_text=True)
    assert re.search(r'<body[^>]*\sclass="table-mode table-turned"', page)
    assert _table_said(page) == "Table mode: on, Ana’s side turned across"
    client.get(_table_link(page))
    assert client.get_cookie("table").value == "off"
    assert re.search(r'<body[^>]*\sclass="\s*mine-1"', client.get(f"/games/{duel}").get_data(as_text=True))
    # Ana's own phone (seat 0) turns Ben's side across, as a phone of no one's does
    assert client.get(f"/settings?mine=Ana&next=/games/{duel}").status_code == 303
    client.get(_table_link(client.get(f"/games/{duel}").get_data(as_text=True)))
    assert client.get_cookie("table").value == "on"


def test_the_table_button_of_a_screen_another_phone_drew_flips_this_phones_own_setting(app):
    """The turn line is in the screen drawn once for every phone (tracker/screens.py): a phone
    with table mode off was sent the "on" button of the phone that made the entry (its tap kept
    table mode off), and a button drawn by a poll sent the tap back to the poll's address, which
    answers 204: nothing happened. The link names no phone's state and leads to the game."""
    app.config["WTF_CSRF_ENABLED"] = False
    ana, ben = app.test_client(), app.test_client()
    duel = new_game(ana, players=["Ana", "Ben"])["id"]
    ana.get(f"/settings?table=on&next=/games/{duel}")
    ben.get(f"/settings?mine=Ben&next=/games/{duel}")
    take = {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}
    entry = ana.post(f"/games/{duel}/events", data={"event": json.dumps(take), "expected_version": "0"}, headers=HX)
    poll = ben.get(f"/games/{duel}/poll?v=0", headers=HX)
    assert poll.get_data() == entry.get_data()  # the kept screen, as drawn for Ana's phone
    assert 'id="table-said"' not in poll.get_data(as_text=True)  # (what it says is the page's, Ben's)
    assert _table_said(ben.get(f"/games/{duel}").get_data(as_text=True)) == \
        "Table mode: off (a tap turns Ana’s side across)"
    link = _table_link(poll.get_data(as_text=True))
    assert link == f"/settings?table=flip&game={duel}&next=/games/{duel}"
    flipped = ben.get(link)
    assert flipped.status_code == 303 and flipped.headers["Location"] == f"/games/{duel}"
    assert ben.get_cookie("table").value == "turned"  # Ben's phone: Ana's side across
    assert ana.get(link).status_code == 303 and ana.get_cookie("table").value == "off"
    # a game of three has no Table button: a flip crafted for it changes nothing (it turned the
    # phone's own player off, a tester)
    trio = ben.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben", "Cy"], "first_player": 0,
                                        "nobles": ["N-01", "N-02", "N-03", "N-04"]}).get_json()["id"]
    ben.get(link)
    assert ben.get_cookie("table").value == "off"
    assert ben.get(f"/settings?table=flip&game={trio}&next=/games/{trio}").status_code == 303
    assert ben.get_cookie("table").value == "off" and ben.get_cookie("mine").value == "Ben".lower()
    # a flip naming no game (or an unknown one) turns the second name's side across
    other = app.test_client()
    other.get(f"/settings?mine=Ben&next=/")
    assert other.get("/settings?table=flip&game=nope&next=/").status_code == 303
    assert other.get_cookie("table").value == "on"


def test_an_undo_notice_still_up_is_told_again_with_the_entry_after_it(app, client):
    """A tester: Ana undid her 3 red and took 2 pearls a second later; Ben's phone showed "Undone:
    Ana took 3 red. Privileges now: …" for two seconds, then the next poll's toast replaced it with
    "Ben gains a privilege. ✓ Ana took 2 pearls." and no word of the undo. A poll while that notice
    is up (since, sn) tells both, and the privileges as they are."""
    gid = new_game(client, ("Ana", "Ben"))["id"]
    other = app.test_client()
    other.get(f"/games/{gid}")
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})  # v1, n1: Ben 2 privileges
    client.post(f"/api/games/{gid}/undo", json={})  # v2, n0
    undone = other.get(f"/games/{gid}/poll?v=1&n=1", headers=HX).get_data(as_text=True)
    assert "Undone: Ana took 3 red. Privileges now: Ana 0, Ben 1." in undone
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"pearl": 2}})  # v3: Ben 2 again
    body = other.get(f"/games/{gid}/poll?v=2&n=0&since=1&sn=1", headers=HX).get_data(as_text=True)
    notice = html.unescape(re.search(r'<p class="alert alert-notice">([^<]*)</p>', body)[1])
    assert notice == ("Since this screen, undone: Ana took 3 red. Entered: Ana took 2 pearls. "
                      "Privileges now: Ana 0, Ben 2.")
