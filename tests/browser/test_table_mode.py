"""Table mode (UX.md): the phone lies still between the players, so each panel keeps its side
whatever the turn: seat 1 across the table, on top and upside down; "turned" swaps the sides.
On the turn of the player across the table, the turn line, the sheet and the tabs face them."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def sides(page: Page) -> dict[int, tuple[float, bool]]:
    """Each seat's panel: its top on the screen and whether it is drawn upside down."""
    out = {}
    for seat in (0, 1):
        panel = page.locator(f"#panel-{seat}")
        box = panel.bounding_box()
        assert box
        turned = panel.evaluate("el => getComputedStyle(el).transform") not in ("none", "")
        out[seat] = (box["y"], turned)
    return out


ENTRY_PARTS = ("#turnbar", "#sheet > .sheet-body", "nav.actions")


def facing_across(page: Page) -> dict[str, bool]:
    """Whether the turn line, the open sheet and the action tabs are drawn upside down."""
    return {part: page.locator(part).evaluate("el => getComputedStyle(el).transform") not in ("none", "")
            for part in ENTRY_PARTS}


def entry(page: Page, gid: str, live_server: str, event: dict) -> None:
    assert page.request.post(f"{live_server}/api/games/{gid}/events", data=event).ok
    page.goto(f"{live_server}/games/{gid}")


@pytest.mark.parametrize("game", ["duel", "splendor"])
def test_each_panel_keeps_its_side_of_the_table_whatever_the_turn(page: Page, live_server: str, shots: Path, game: str):
    setup = {"game": game, "players": ["Ana", "Ben"], "first_player": 0}
    if game == "splendor":
        setup["nobles"] = ["N-01", "N-02", "N-03"]
    gid = page.request.post(live_server + "/api/games", data=setup).json()["id"]
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    expect(page.locator("body.table-mode")).to_have_count(1)
    for turn in range(3):  # Ana's turn, Ben's turn, Ana's again: the sides never move
        seats = sides(page)
        assert seats[1][0] < seats[0][0] and seats[1][1] and not seats[0][1], (turn, seats)
        # what the player to act reads and taps faces them: Ben's across the table
        assert facing_across(page) == {part: turn == 1 for part in ENTRY_PARTS}, turn
        if turn == 1:
            page.screenshot(path=str(shots / f"table-mode-{game}.png"))
        seat = turn % 2
        entry(page, gid, live_server, {"type": "take_tokens", "player": seat,
                                       "tokens": {"red": 1} if game == "duel" else {"red": 1, "blue": 1, "green": 1}})
    page.goto(f"{live_server}/settings?table=turned&next=/games/{gid}")
    seats = sides(page)
    assert seats[0][0] < seats[1][0] and seats[0][1] and not seats[1][1], seats
    # Ben (seat 1) to act sits at the bottom now: nothing of the entry is turned
    assert facing_across(page) == {part: False for part in ENTRY_PARTS}
    page.goto(f"{live_server}/settings?table=off&next=/games/{gid}")
    seats = sides(page)
    assert not seats[0][1] and not seats[1][1]
    assert facing_across(page) == {part: False for part in ENTRY_PARTS}
    seat_to_act = 1  # three entries made: Ben (seat 1) is to act, and off table mode sits at the bottom
    assert seats[seat_to_act][0] > seats[1 - seat_to_act][0] or game == "splendor"
