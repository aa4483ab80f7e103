"""Enter GAME-LOG.md events on the game screen the way a player would: by tapping.

Every entry goes through the visible controls (tabs, token chips, card grid, payment buttons,
joker and steal choices, the save button) and waits until the screen shows the new version.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Error, Page, Route

GEM_AND_PEARL = ("white", "blue", "green", "red", "black", "pearl")

#: The phones' device pixel ratio: 1 (the same CSS pixels to lay out, a quarter of the pixels to
#: paint: the browser tests wait on Chromium's CPU), 2 when the README's screenshots are retaken
#: (``TRACKER_DOCS_SHOTS=1``, as a phone shows them).
SCALE = 2 if os.environ.get("TRACKER_DOCS_SHOTS") == "1" else 1


_SETTLED = ("document.body !== null && !document.body.classList.contains('just-redrawn')"
            " && !document.body.classList.contains('just-saved')")


def settled(page: Page) -> None:
    """Wait until a tap counts: not within the moment after a poll (or this phone's own save)
    redrew the screen."""
    page.wait_for_function(f"() => {_SETTLED}")


FIXTURES = Path(__file__).parents[1] / "fixtures"


def duel_via_api(page: Page, live_server: str, players: tuple[str, str] = ("Ana", "Ben"), first_player: int = 0) -> str:
    """A new Duel made through the API (``players``, ``first_player`` to start); its id."""
    resp = page.request.post(live_server + "/api/games", data={"game": "duel", "players": list(players),
                                                               "first_player": first_player})
    assert resp.status == 201, resp.text()
    return resp.json()["id"]


def import_part(page: Page, live_server: str, name: str, count: int | None = None, **fields: Any) -> str:
    """Import the fixture ``name`` through the API: its first ``count`` entries, still in play
    (all of it, with its recorded result, when None), ``fields`` in place of the log's (other
    ``players`` names, say); the new game's id."""
    log = json.loads((FIXTURES / name).read_text())
    part = {**{k: v for k, v in log.items() if k != "id"}, **fields}
    if count is not None:
        part.update(events=log["events"][:count], result=None)
    resp = page.request.post(live_server + "/api/games/import", data=part)
    assert resp.status == 201, resp.text()
    return resp.json()["id"]


def first_prompt(name: str, kind: str) -> tuple[int, Any]:
    """The Duel fixture ``name``'s first ``kind`` prompt ("discard", "royal"): how many of its
    entries make it due, and the state then (its ``pending`` says what is owed)."""
    from tracker.rules import duel

    log = json.loads((FIXTURES / name).read_text())
    setup = {"players": log["players"], "first_player": log["first_player"]}
    for n in range(1, len(log["events"]) + 1):
        state = duel.replay(setup, log["events"][:n])
        if state.pending is not None and state.pending.kind == kind:
            return n, state
    raise AssertionError(f"no {kind} prompt in {name}")


def open_new_game(page: Page, base: str, names: tuple[str, ...] = ("Ana", "Ben"), first: int = 0, *,
                  via_home: bool = False) -> None:
    """Start a Duel between ``names``, ``first`` to play, and open its screen on this phone.

    By default this phone's home-page form is sent as the page sends it (its session and CSRF
    token) and the game is the first page the phone draws (drawing the home page too cost each test
    about a second). ``via_home``: the home page drawn, the names typed and the start tapped, as a
    table does (Back then leads home; the service worker registered there controls the game page
    at once)."""
    if via_home:
        page.goto(base + "/")
        page.fill("#player0", names[0])
        page.fill("#player1", names[1])
        page.locator(f'input[name="first"][value="{first}"]').check()
        page.get_by_role("button", name="Start the game").click()
    else:
        home = page.request.get(base + "/")
        token = re.search(r'name="csrf_token" value="([^"]+)"', home.text())
        assert token, "no CSRF token on the home page"
        made = page.request.post(base + "/games", max_redirects=0, form={
            "csrf_token": token.group(1), "game": "duel", "player0": names[0], "player1": names[1],
            "first": str(first)})
        assert made.status == 303, made.text()
        page.goto(base + made.headers["location"].removeprefix(base))
    page.locator("#game").wait_for(state="visible")


def late(page: Page, ms: int):  # type: ignore[no-untyped-def]
    """A route handler for a slow network: each request goes on ``ms`` milliseconds late. A
    request still waiting when the test unroutes it has gone on already (Playwright lets it
    through): the late ``continue_`` then has nothing to do."""
    def handler(route: Route) -> None:
        page.wait_for_timeout(ms)
        try:
            route.continue_()
        except Error as error:
            if "already handled" not in str(error):
                raise
    return handler


class Table:
    """A game screen open in ``page``; ``version`` follows the game's write counter."""

    def __init__(self, page: Page, *, quick: bool = True) -> None:
        """``quick`` (the default): the entries do not sit out the 0.3–0.4 s after each save or
        redraw in which taps do nothing (app.js): the driver ends that moment at once, as waiting
        it out would, and then taps (about a third of every tapped entry's time). The tests of
        that moment itself pass ``quick=False``, or tap without the driver."""
        self.page = page
        self.quick = quick
        # A tap before htmx and app.js run would post a plain form (a page load, not a swap):
        # on a cold first visit the deferred scripts can still be loading when #game shows.
        page.wait_for_load_state("load")
        page.wait_for_function("() => window.htmx !== undefined")

    @property
    def version(self) -> int:
        return int(self.page.locator("#game").get_attribute("data-version"))

    def _saved(self, before: int) -> None:
        """Wait until the screen shows a version after ``before`` and the moment after this phone's
        own save (which redraws the screen too) is over, in one look at the page."""
        self.page.wait_for_function(
            "([v, quick]) => { const game = document.querySelector('#game');"
            " if (!game || Number(game.dataset.version) <= v) return false;"
            " if (quick) document.body.classList.remove('just-redrawn', 'just-saved');"
            f" return {_SETTLED}; }}",
            arg=[before, self.quick],
        )

    def _sheet_ready(self, name: str) -> None:
        # wait_for_function looks at every animation frame; expect() looks again only after 100 ms,
        # then 250 ms, which a whole game tapped through paid on almost every tap.
        self.page.wait_for_function(
            "name => { const sheet = document.querySelector(`#sheet [data-sheet=\"${name}\"]`);"
            " return sheet !== null && sheet.checkVisibility(); }", arg=name)

    def settled(self) -> None:
        """Wait out the moment after the other phone's entry redrew the screen, when a tap is
        taken as aimed at the screen before and does nothing (app.js)."""
        if self.quick:
            self.page.evaluate("() => document.body.classList.remove('just-redrawn', 'just-saved')")
        else:
            settled(self.page)

    def open(self, action: str, *, settle: bool = True) -> None:
        """Tap an entry tab (take, buy, reserve, privileges, correction); ``settle=False`` when
        the caller has just waited out the moment after a redraw."""
        if settle:
            self.settled()
        self.page.locator(f"#action-{action}").click()
        self._sheet_ready(action)
        # the tab of the sheet already shown asks for it again: answered before the caller goes on
        # (a test that went offline at once saw that request fail, "That tap did nothing")
        self.page.wait_for_function("() => !document.querySelector('nav.actions .htmx-request')")

    def _tap_chips(self, tokens: dict[str, int]) -> None:
        count = self.page.locator(".pick-chosen .chip-btn").count()
        for kind, n in tokens.items():
            for _ in range(n):
                self.page.locator(f'.pick-source a[data-kind="{kind}"]').click()
                count += 1
                self.page.wait_for_function(
                    "n => document.querySelectorAll('.pick-chosen .chip-btn').length === n", arg=count)

    def tap_save(self, event_type: str, extra: str = "") -> None:
        """Tap the open sheet's save for ``event_type`` once a tap counts (not in the moment after a
        redraw, when it would do nothing), without waiting for an answer (a network test's may
        never come)."""
        self.settled()
        self.page.locator(f'#sheet form[data-type="{event_type}"]{extra} button.save').click()

    def _save(self, event_type: str, extra: str = "") -> None:
        before = self.version
        self.tap_save(event_type, extra)
        self._saved(before)

    def _tap(self, selector: str) -> None:
        """Tap a link that re-renders the sheet and wait until it is marked chosen or replaced."""
        # The answer arriving is not enough: htmx swaps it in a moment later, and a look at the
        # sheet in between sees the old one. Mark the old sheet and wait until it is gone.
        self.page.evaluate(
            "() => { for (const el of document.querySelectorAll('#sheet > *')) el.dataset.beforeTap = '1'; }"
        )
        with self.page.expect_response(lambda r: "/sheet/" in r.url):
            self.page.locator(selector).first.click()
        self.page.wait_for_function(
            "() => !document.querySelector('#sheet > [data-before-tap]')"
            " && !document.querySelector('#sheet .htmx-settling, #sheet.htmx-settling')"
        )

    def enter(self, event: dict) -> None:
        """Enter one event by tapping; raises if the screen refuses it."""
        self.settled()
        kind = event["type"]
        if kind == "take_tokens":
            self.open("take", settle=False)
            self._tap_chips(event["tokens"])
            self._save("take_tokens")
        elif kind == "use_privileges":
            self.open("privileges", settle=False)
            self._tap_chips(event["tokens"])
            self._save("use_privileges")
        elif kind == "replenish":
            self.open("privileges", settle=False)
            self._save("replenish")
        elif kind == "reserve":
            self.open("reserve", settle=False)
            if "card" in event:
                level = event["card"][1]
                self._tap(f'.tabs a[data-tab="{level}"]')
                self._tap(f'.grid a[data-card="{event["card"]}"]')
            else:
                self._tap(f"#secret-{event['level']}")
            self._save("reserve")
        elif kind == "purchase":
            self._purchase(event)
        elif kind == "take_royal":
            self._sheet_ready("royal")
            if "steal" in event:
                self._tap(f'a[data-royal="{event["royal"]}"]')
                self._tap(f'a[data-steal="{event["steal"]}"]')  # the token, then the save under its preview
                self._save("take_royal", f'[data-steal="{event["steal"]}"]')
            else:
                before = self.version
                self.page.locator(f'[data-royal="{event["royal"]}"] button.save').click()
                self._saved(before)
        elif kind == "take_noble":
            self._sheet_ready("noble")
            before = self.version
            self.page.locator(f'[data-noble="{event["noble"]}"] button.save').click()
            self._saved(before)
        elif kind == "discard":
            self._sheet_ready("discard")
            self._tap_chips(event["tokens"])
            self._save("discard")
        else:
            raise AssertionError(f"no UI path for {kind}")

    def _purchase(self, event: dict) -> None:
        card = event["card"]
        self.open("buy", settle=False)
        if event.get("from_reserve"):
            self._tap('.tabs a[data-tab="reserve"]')
            named = self.page.locator(f'.grid a[data-card="{card}"]')
            if named.count() == 0:
                self._tap(f'a[data-reveal="{card[1]}"]')
        else:
            self._tap(f'.tabs a[data-tab="{card[1]}"]')
        self._tap(f'.grid a[data-card="{card}"]')
        if "wild_color" in event:
            self._tap(f'a[data-wild="{event["wild_color"]}"]')
        if "steal" in event:
            self._tap(f'a[data-steal="{event["steal"]}"]')
        # The payment is pre-filled with own tokens first; move units to gold where the table did.
        for _ in range(event["payment"].get("gold", 0)):
            prefilled = self._prefilled_payment()
            if prefilled.get("gold", 0) >= event["payment"].get("gold", 0):
                break
            kind = next(k for k in GEM_AND_PEARL if prefilled.get(k, 0) > event["payment"].get(k, 0))
            self._tap(f'a[data-gold-for="{kind}"]')
        assert self._prefilled_payment() == {k: v for k, v in event["payment"].items() if v}, card
        self._save("purchase")

    def _prefilled_payment(self) -> dict[str, int]:
        import json

        raw = self.page.locator('#sheet form[data-type="purchase"] input[name="event"]').get_attribute("value")
        return json.loads(raw)["payment"]
