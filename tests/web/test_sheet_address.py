"""A sheet's state lives in the address bar: a reload (or a phone woken from sleep, its tab
reloaded) opens the same sheet with the same card chosen and tokens picked, while the game is
still where the sheet was drawn; once the game has moved on, the page shows it as it is."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from helpers import new_game, post

HX = {"HX-Request": "true"}


def _replaced(resp) -> tuple[str, dict[str, list[str]]]:
    address = urlsplit(resp.headers["HX-Replace-Url"])
    return address.path, parse_qs(address.query)


def test_a_tap_inside_a_sheet_puts_the_sheet_and_its_version_in_the_address(client):
    game = new_game(client)
    gid = game["id"]
    resp = client.get(f"/games/{gid}/sheet/take?t=red&t=blue&v=0&n=0", headers=HX)
    assert resp.status_code == 200
    path, query = _replaced(resp)
    assert path == f"/games/{gid}"
    assert query == {"t": ["red", "blue"], "v": ["0"]}  # take is the game's own sheet: no sheet=, no n
    resp = client.get(f"/games/{gid}/sheet/buy?src=1&card=D1-04&v=0&n=0", headers=HX)
    path, query = _replaced(resp)
    assert query == {"sheet": ["buy"], "src": ["1"], "card": ["D1-04"], "v": ["0"]}


def test_a_sheet_opened_from_the_plain_game_screen_is_a_step_back_closes(client):
    """A reserved card tapped in the panel opens its purchase from the game's plain address: the
    address is pushed (Back closes the sheet, as after a tab); from inside a sheet it is replaced,
    and a prompt the rules raised (a royal card) is never a step of its own."""
    gid = new_game(client)["id"]
    plain = {**HX, "HX-Current-URL": f"http://localhost/games/{gid}"}
    resp = client.get(f"/games/{gid}/sheet/buy?src=reserve&card=D1-04&v=0&n=0", headers={**plain, "HX-Trigger": "reserved-1"})
    assert "HX-Push-Url" in resp.headers and "HX-Replace-Url" not in resp.headers
    # app.js reopening a browsed sheet after the other phone's entry made the address plain: no new step
    resp = client.get(f"/games/{gid}/sheet/buy?src=2&v=0&n=0", headers=plain)
    assert "HX-Replace-Url" in resp.headers and "HX-Push-Url" not in resp.headers
    inside = {**HX, "HX-Current-URL": f"http://localhost/games/{gid}?sheet=buy", "HX-Trigger": "reserved-1"}
    resp = client.get(f"/games/{gid}/sheet/buy?src=reserve&card=D1-04&v=0&n=0", headers=inside)
    assert "HX-Replace-Url" in resp.headers and "HX-Push-Url" not in resp.headers
    # the first token picked on the game's own sheet is a step (Back puts the picks down), the next
    # replaces it, and the last put down names the game's plain address
    resp = client.get(f"/games/{gid}/sheet/take?t=red&v=0&n=0", headers={**plain, "HX-Trigger": "add-red"})
    assert resp.headers["HX-Push-Url"] == f"/games/{gid}?t=red&v=0" and "HX-Replace-Url" not in resp.headers
    # app.js opening the picks again on a screen the other phone's Fix redrew (the address made
    # plain by that answer): no step of its own, the picks' step is there already (a tester)
    resp = client.get(f"/games/{gid}/sheet/take?t=red&v=0&n=0", headers=plain)
    assert resp.headers["HX-Replace-Url"] == f"/games/{gid}?t=red&v=0" and "HX-Push-Url" not in resp.headers
    picking = {**HX, "HX-Current-URL": f"http://localhost/games/{gid}?t=red&v=0"}
    resp = client.get(f"/games/{gid}/sheet/take?t=red&t=blue&v=0&n=0", headers=picking)
    assert resp.headers["HX-Replace-Url"] == f"/games/{gid}?t=red&t=blue&v=0" and "HX-Push-Url" not in resp.headers
    resp = client.get(f"/games/{gid}/sheet/take?v=0&n=0", headers=picking)
    assert resp.headers["HX-Replace-Url"] == f"/games/{gid}" and "HX-Push-Url" not in resp.headers
    # an address the browser could not have sent (a security tester's "http://[") is no plain one: no 500
    broken = {**HX, "HX-Current-URL": "http://[", "HX-Trigger": "reserved-1"}
    resp = client.get(f"/games/{gid}/sheet/buy?src=reserve&card=D1-04&v=0&n=0", headers=broken)
    assert resp.status_code == 200 and "HX-Replace-Url" in resp.headers


def test_opening_a_sheet_by_its_tab_leaves_the_address_to_the_tab(client):
    """A tab's own hx-push-url / hx-replace-url decides (Back closes a sheet once): no header."""
    gid = new_game(client)["id"]
    resp = client.get(f"/games/{gid}/sheet/buy?v=0&n=0", headers=HX)
    assert resp.status_code == 200 and "HX-Replace-Url" not in resp.headers


def test_reloading_that_address_opens_the_same_sheet_in_the_same_state(client):
    gid = new_game(client)["id"]
    page = client.get(f"/games/{gid}?t=red&t=blue&v=0").get_data(as_text=True)
    assert "Saving will record: Ana took 1 blue, 1 red." in page
    page = client.get(f"/games/{gid}?sheet=buy&src=1&card=D1-04&v=0").get_data(as_text=True)
    assert 'class="selected-card' in page and 'data-card="D1-04"' in page


def test_an_address_kept_from_an_earlier_position_shows_the_game_as_it_is(client):
    """The other phone recorded an entry since the sheet was drawn (version 0 → 1): the reload
    leads to the game's own address, with the default sheet for the player now to act, not a
    half-made entry for the old turn (and no stale address for Back to step through)."""
    gid = new_game(client)["id"]
    assert post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"green": 1}}).status_code == 200
    for stale in (f"/games/{gid}?t=red&t=blue&v=0", f"/games/{gid}?sheet=buy&src=1&card=D1-04&v=0"):
        resp = client.get(stale)
        assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/games/{gid}")
    page = client.get(f"/games/{gid}?sheet=buy&src=1&card=D1-04&v=0", follow_redirects=True).get_data(as_text=True)
    assert 'class="selected-card' not in page and 'data-sheet="take"' in page and "Saving will record" not in page
    # at the version it was drawn for, the same address still restores
    page = client.get(f"/games/{gid}?t=red&v=1").get_data(as_text=True)
    assert "Saving will record" in page
