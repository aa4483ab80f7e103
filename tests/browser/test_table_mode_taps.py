"""Table mode: the chips of a sheet stay where they are under the finger between taps, on the
turn of the player across the table too, whose sheet is drawn upside down (a tester's quick
second tap missed: the first tap brought the preview and the save, which pushed the chips
55 px along)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from driver import Table, import_part, settled
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def chips_y(page: Page) -> dict[str, float]:
    """Each chip of the open sheet's picker: its top on the screen."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#sheet .pick-source [data-kind]')]
        .map(el => [el.dataset.kind, el.getBoundingClientRect().top]))""")


def tap_and_check(page: Page, count: int) -> list[str]:
    """Tap ``count`` chips one after another; after each, every chip is where it was."""
    tapped = []
    for i in range(count):
        chip = page.locator("#sheet .pick-source a[data-kind]").first
        kind = chip.get_attribute("data-kind")
        assert kind
        chip.scroll_into_view_if_needed()  # (as the player does; the click would, after the measure)
        before = chips_y(page)
        page.locator(f'#sheet .pick-source a[data-kind="{kind}"]').click()
        expect(page.locator("#sheet .pick-chosen .chip-btn")).to_have_count(i + 1)
        page.wait_for_timeout(150)  # (any scrolling after the swap done)
        after = chips_y(page)
        moved = {k: (before[k], y) for k, y in after.items() if abs(y - before[k]) > 2}
        assert not moved, (i, moved)
        tapped.append(kind)
    return tapped


def turned(page: Page) -> bool:
    return page.locator("#sheet > .sheet-body").evaluate("el => getComputedStyle(el).transform") != "none"


@pytest.mark.parametrize("seat", [0, 1])
def test_the_take_and_privilege_chips_stay_under_the_finger(page: Page, live_server: str, shots: Path, seat: int):
    """A new game at 390x844 (the page hardly scrolls): Ana near, Ben across the table."""
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                            "first_player": 0}).json()["id"]
    if seat == 1:
        assert page.request.post(f"{live_server}/api/games/{gid}/events", data={
            "type": "take_tokens", "player": 0, "tokens": {"red": 1}}).ok
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    expect(page.locator("body.table-mode")).to_have_count(1)
    settled(page)
    assert turned(page) == (seat == 1)
    tap_and_check(page, 3)
    page.screenshot(path=str(shots / f"table-mode-tap-{seat}.png"))
    # the save is on the screen, above the tabs, and takes the three tokens
    save = page.locator('#sheet form[data-type="take_tokens"] button.save')
    box, bar = save.bounding_box(), page.locator("nav.actions").bounding_box()
    assert box and bar and 0 <= box["y"] and box["y"] + box["height"] <= bar["y"], (box, bar)
    if seat == 1:  # Ben holds the second player's privilege: its chips stay put too
        page.locator("#action-privileges").click()
        expect(page.locator('#sheet [data-sheet="privileges"]')).to_be_visible()
        settled(page)
        tap_and_check(page, 1)
        # its save and preview came in above the tabs (room was kept for them when the sheet opened)
        bar = page.locator("nav.actions").bounding_box()
        for part in ("button.save", ".preview"):
            box = page.locator(f'#sheet form[data-type="use_privileges"] {part}').bounding_box()
            assert box and bar and box["y"] >= 0 and box["y"] + box["height"] <= bar["y"], (part, box, bar)
        page.screenshot(path=str(shots / "table-mode-tap-privilege.png"))


def test_on_a_small_phone_mid_game_the_turned_chips_stay_under_the_finger(browser, live_server: str, shots: Path):
    """360x640 in the middle of a game (the page scrolls): Ben's sheet, turned, is placed with its
    start above the tabs when it opens, and then stays where it is while he taps."""
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    for count in range(40, 80):  # the first position of the game where the player across takes tokens
        gid = import_part(page, live_server, "duel-1102.json", count, players=["Ana", "Ben"])
        state = page.request.get(f"{live_server}/api/games/{gid}").json()
        if state["current_player"] == 1 and not state.get("pending"):
            break
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    settled(page)
    assert turned(page)
    # Ben opens Take from its tab: his sheet is placed above the tabs with room for its save
    page.locator("#action-buy").click()
    expect(page.locator('#sheet [data-sheet="buy"]')).to_be_visible()
    page.locator("#action-take").click()
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    settled(page)
    available = page.locator("#sheet .pick-source a[data-kind]").count()
    assert available >= 2
    tap_and_check(page, min(3, available))
    bar = page.locator("nav.actions").bounding_box()
    for part in ("button.save", ".preview"):  # both above the tabs, none of it behind them
        box = page.locator(f'#sheet form[data-type="take_tokens"] {part}').bounding_box()
        assert box and bar and box["y"] >= 0 and box["y"] + box["height"] <= bar["y"], (part, box, bar)
    page.screenshot(path=str(shots / "table-mode-tap-small.png"))
    context.close()


def test_the_near_players_chips_stay_put_after_the_player_across_saves(browser, live_server: str, shots: Path):
    """390x844 mid-game, table mode: Ben (across) saves his move; Ana's take sheet, opened for her
    turn, is placed with its chips and the room for her save above the tabs, so her first tap
    does not scroll the page under her finger (a tester's chips moved 73 px)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    log = json.loads((Path(__file__).parents[1] / "fixtures" / "duel-1102.json").read_text())
    for count in range(40, 90):  # Ben to move, a plain take of his, then Ana's turn
        event = log["events"][count]
        if event["type"] == "take_tokens" and event["player"] == 1 and log["events"][count + 1]["player"] == 0 \
                and log["events"][count + 1]["type"] == "take_tokens":
            break
    gid = import_part(page, live_server, "duel-1102.json", count, players=["Ana", "Ben"])
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    settled(page)
    assert turned(page)
    Table(page).enter(event)
    expect(page.locator("#game")).to_have_attribute("data-current", "0")
    settled(page)
    page.wait_for_timeout(300)
    assert not turned(page)
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    # her chips are on the screen as her turn comes, no scrolling of hers needed
    bar = page.locator("nav.actions").bounding_box()
    for box in page.locator("#sheet .pick-source a[data-kind]").evaluate_all(
            "els => els.map(el => el.getBoundingClientRect().toJSON())"):
        assert bar and box["y"] >= 0 and box["y"] + box["height"] <= bar["y"], (box, bar)
    tap_and_check(page, 2)
    page.screenshot(path=str(shots / "table-mode-tap-near.png"))
    context.close()
