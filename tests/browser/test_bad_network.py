"""A bad network, as a tester on a slow, failing connection found it: a request that never
answers, a proxy's 502, a Wi-Fi login page answering a poll, an undo whose answer is lost, an
entry waiting to be sent when a later tap works, and a reload with no network at all."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from driver import Table
from playwright.sync_api import Browser, Locator, Page, Route, expect
from test_two_phones import phone, start

pytestmark = pytest.mark.browser


def _game_id(page: Page) -> str:
    return page.url.split("?")[0].rsplit("/", 1)[-1]


def _version(page: Page, live_server: str) -> int:
    return page.request.get(f"{live_server}/api/games/{_game_id(page)}").json()["version"]


def pass_seconds(page: Page, seconds: int, real_ms: int = 250) -> None:
    """Let ``seconds`` of the page's clock pass (``page.clock.install()`` before its first load), a
    second at a time so that each timer due fires (polls, the slow line, a retry), with ``real_ms``
    of real time after each for the requests they send to be answered: a wait of seconds that
    costs a fraction of them."""
    for _ in range(seconds):
        page.clock.run_for(1000)
        page.wait_for_timeout(real_ms)


def pass_seconds_until(page: Page, locator: Locator, seconds: int) -> None:
    """``pass_seconds`` a second at a time until ``locator`` is visible, at most ``seconds``."""
    for _ in range(seconds):
        pass_seconds(page, 1)
        if locator.is_visible():
            return
    expect(locator).to_be_visible()


def offline_ready(browser: Browser, live_server: str) -> tuple[Page, Table]:
    """A phone on a new game whose service worker controls the page (installed by the first visit,
    in charge from the next load): a reload without network shows the copy it keeps."""
    page = phone(browser)
    start(page, live_server, via_home=True)
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=10000)
    page.reload()
    return page, Table(page)


def test_a_save_that_never_answers_times_out_into_the_banner_and_is_sent_once(browser: Browser, live_server: str):
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    page.evaluate("() => { htmx.config.timeout = 1500; }")  # the page's 12 s, shortened for the test
    held: list[Route] = []
    page.route("**/events", lambda route: held.append(route))  # the save hangs: no answer ever comes
    table._tap_chips({"red": 1})
    table.tap_save("take_tokens")
    # (1.5 s of timeout, then the banner: 10 s leave room for a machine busy with other browsers)
    expect(page.locator("#connection .for-entry")).to_be_visible(timeout=10000)
    page.unroute("**/events")
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '1'", timeout=10000)
    expect(page.locator("#connection")).to_be_hidden()
    state = page.request.get(f"{live_server}/api/games/{_game_id(page)}").json()
    assert state["version"] == 1 and state["players"][0]["tokens"]["red"] == 1


def test_an_entry_sent_again_when_the_network_returns_is_sent_once_more_only(browser: Browser, live_server: str):
    """A tester's save on a dropped connection reached the server three times once the network
    came back: the entry sent again was answered, and its copy kept for a reload went too (htmx
    names the page's body, not the form its answer swapped away, as that answer's element). It
    was stored once; now the answered entry is sent no more."""
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    seen: list[str] = []  # the saves sent and answered, in order
    page.on("request", lambda r: seen.append("sent") if r.method == "POST" and r.url.endswith("/events") else None)
    page.on("response", lambda r: seen.append("answered") if r.request.method == "POST" and r.url.endswith("/events") else None)
    down = [True]
    page.route("**/events", lambda route: route.abort("internetdisconnected") if down[0] else route.continue_())
    table._tap_chips({"red": 1})
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-entry")).to_be_visible()
    down[0] = False
    page.context.set_offline(True)
    page.context.set_offline(False)  # the phone's "online": the waiting entry goes at once
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '1'", timeout=10000)
    page.wait_for_timeout(4000)  # past the next retry (every 3 s)
    assert seen.count("answered") == 1 and seen[-1] == "answered", seen  # nothing sent after the answer
    assert _version(page, live_server) == 1
    assert page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('tracker:unsent')).length") == 0


def test_an_entry_waiting_when_the_tab_is_closed_is_sent_from_the_game_opened_again(browser: Browser, live_server: str):
    """A tester: an entry saved offline, the tab closed (the phone killed the app; its home-screen
    icon opens a new session), the game opened again online: the entry, kept per tab, was lost
    unsaid. It is kept on the phone and the game's page, in any tab, sends it once."""
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    game_url = page.url.split("?")[0]
    table._tap_chips({"red": 1, "green": 1, "blue": 1})
    page.context.set_offline(True)
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-entry")).to_be_visible()
    expect(page.locator("#connection-entry")).to_have_text(re.compile(r"^ Waiting: Ana took 1 \w+, 1 \w+, 1 \w+\.?$"))
    # (the closed tab sends nothing more, whatever it still hears while closing: "online")
    page.context.route("**/events", lambda route: route.abort() if route.request.frame.page == page else route.fallback())
    page.close(run_before_unload=False)
    page.context.set_offline(False)
    # (the browser restarted meanwhile: its session cookie gone, the token kept with the entry
    # belongs to no session; it was refused and the entry dropped, a tester)
    page.context.clear_cookies()
    again = page.context.new_page()
    again.goto(game_url)
    again.wait_for_function("() => document.querySelector('#game').dataset.version === '1'", timeout=10000)
    expect(again.locator(".whose-turn")).to_have_text("Ben's turn")
    log = again.request.get(f"{live_server}/api/games/{game_url.rsplit('/', 1)[-1]}/log").json()["events"]
    assert log == [{"type": "take_tokens", "player": 0, "tokens": {"blue": 1, "green": 1, "red": 1}}]
    again.reload()  # answered: nothing kept to send a second time
    again.wait_for_function("() => window.htmx !== undefined")
    again.wait_for_timeout(500)
    assert _version(again, live_server) == 1
    assert again.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('tracker:unsent')).length") == 0
    again.context.close()


def test_a_proxy_s_502_on_a_save_is_said_and_the_entry_sent_again(browser: Browser, live_server: str):
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    page.route("**/events", lambda route: route.fulfill(status=502, body="Bad gateway"))
    table._tap_chips({"green": 1, "red": 1})
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-entry")).to_be_visible()
    assert _version(page, live_server) == 0
    page.unroute("**/events")
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '1'", timeout=10000)
    expect(page.locator("#connection")).to_be_hidden()
    assert page.request.get(f"{live_server}/api/games/{_game_id(page)}/log").json()["events"][0]["tokens"] == {"green": 1, "red": 1}


def test_a_wifi_login_page_answering_the_poll_never_replaces_the_game(browser: Browser, live_server: str):
    page = phone(browser)
    start(page, live_server)
    portal = "<html><body><h1>Hotel WiFi: please log in</h1></body></html>"
    page.route("**/poll*", lambda route: route.fulfill(status=200, body=portal, content_type="text/html"))
    expect(page.locator("#connection .for-poll")).to_be_visible(timeout=5000)
    expect(page.locator("#game")).to_be_visible()
    assert "Hotel WiFi" not in page.content()
    page.unroute("**/poll*")
    assert page.request.post(f"{live_server}/api/games/{_game_id(page)}/events",
                             data={"type": "take_tokens", "player": 0, "tokens": {"blue": 1}}).ok
    expect(page.locator(".whose-turn")).to_have_text("Ben's turn", timeout=5000)  # polling went on
    expect(page.locator("#connection")).to_be_hidden()


def test_an_undo_whose_answer_is_lost_says_it_may_have_been_made(browser: Browser, live_server: str):
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    table.enter({"type": "take_tokens", "player": 0, "tokens": {"white": 1}})

    def made_but_lost(route: Route) -> None:  # the server undoes; its answer never arrives
        route.fetch()
        route.abort()

    page.route("**/undo", made_but_lost)
    page.locator("#undo").click()
    page.locator("#undo-dialog-yes").click()
    expect(page.locator("#connection .for-undo")).to_be_visible()
    expect(page.locator("#connection .for-tap")).to_be_hidden()
    assert _version(page, live_server) == 2  # it was made
    page.unroute("**/undo")
    expect(page.locator("#connection")).to_be_hidden(timeout=5000)  # the next poll shows it
    expect(page.locator(".whose-turn")).to_have_text("Ana's turn")
    # this phone's own undo, not another phone's (a tester read "On another phone: Undone: …")
    notice = page.locator("#alerts .alert-notice")
    expect(notice).to_contain_text("Undone: Ana took 1 white.")
    expect(notice.locator(".other-phone")).to_have_count(0)


def test_undo_waits_for_an_entry_of_this_phone_still_on_its_way(browser: Browser, live_server: str):
    """A tester: Ben's entry stored but its answer lost, then Undo confirmed: the undo, judged
    before the entry was sent again, was refused and nothing said it (or, the entry never having
    got through, it took back Ana's entry, told as another phone's undo). Undo waits for it."""
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    table.enter({"type": "take_tokens", "player": 0, "tokens": {"white": 1}})
    lost = [True]

    def made_but_lost(route: Route) -> None:  # the server stores the entry; its answer never arrives
        if not lost[0]:
            route.continue_()
            return
        route.fetch()
        route.abort()

    page.route("**/events", made_but_lost)
    undos: list[str] = []
    page.on("request", lambda r: undos.append(r.url) if r.url.endswith("/undo") else None)
    table._tap_chips({"blue": 1})
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-entry")).to_be_visible()
    assert _version(page, live_server) == 2
    page.locator("#undo").click()
    expect(page.locator("#alerts .alert-undo-wait")).to_have_text(
        "Nothing was undone: your last entry is still on its way. Tap Undo again once it is recorded.")
    expect(page.locator("#undo-dialog")).not_to_be_visible()
    assert undos == [] and _version(page, live_server) == 2
    lost[0] = False  # the network answers again: the entry goes (stored once), then Undo works
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '2'", timeout=10000)
    expect(page.locator("#connection")).to_be_hidden()
    table.settled()
    page.locator("#undo").click()
    page.locator("#undo-dialog-yes").click()
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '3'", timeout=10000)
    log = page.request.get(f"{live_server}/api/games/{_game_id(page)}/log").json()["events"]
    assert log == [{"type": "take_tokens", "player": 0, "tokens": {"white": 1}}]  # Ben's entry, once, undone
    expect(page.locator(".whose-turn")).to_have_text("Ben's turn")


def test_an_entry_waiting_to_be_sent_goes_when_a_later_tap_gets_through(browser: Browser, live_server: str):
    """The save failed (the banner says it will be sent again); the network comes back and the
    player taps a chip before the 3-second retry: the entry is sent then (it was dropped, and came
    back much later as "another phone recorded an entry first")."""
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    table._tap_chips({"red": 1, "green": 1})
    page.route("**/events", lambda route: route.abort())
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-entry")).to_be_visible()
    page.unroute("**/events")
    page.locator('.pick-source a[data-kind="blue"]').click()
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '1'", timeout=10000)
    log = page.request.get(f"{live_server}/api/games/{_game_id(page)}/log").json()["events"]
    assert [e["tokens"] for e in log] == [{"green": 1, "red": 1}]
    assert page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('tracker:unsent')).length") == 0


def test_a_reload_without_network_shows_the_last_screen_and_says_it_may_be_old(browser: Browser, live_server: str):
    """A reload without network shows the service worker's copy: the screen as this phone last
    showed it (it was the copy of the page's first load, turn 1 after a whole evening), and the
    banner says at once that the game may have moved on since (nothing was said for 2 s)."""
    page, table = offline_ready(browser, live_server)
    expect(page.locator("#connection")).to_be_hidden()
    table.enter({"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    table.enter({"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    page.wait_for_timeout(1800)  # the redrawn page is handed to the service worker a second after
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#connection .for-stale")).to_be_visible(timeout=1500)
    assert page.locator("#game").get_attribute("data-version") == "2"  # the last screen, not the first
    expect(page.locator(".whose-turn")).to_have_text("Ana's turn")
    expect(page.locator("body.just-redrawn, body.sheet-busy")).to_have_count(0)
    page.context.set_offline(False)
    expect(page.locator("#connection")).to_be_hidden(timeout=6000)  # the first poll back answers
    table = Table(page)
    table.enter({"type": "take_tokens", "player": 0, "tokens": {"green": 1}})  # taps work on it
    assert _version(page, live_server) == 3


def test_counts_typed_into_the_fix_sheet_are_in_the_offline_copy(browser: Browser, live_server: str):
    """A reload without network shows the Fix sheet with the counts typed into it (the copy had
    the sheet as first drawn: the typing was lost with the network)."""
    page, table = offline_ready(browser, live_server)
    table.open("correction")
    field = page.locator('#sheet input[name$="-red"]').first
    name = field.get_attribute("name")
    field.fill("3")
    page.locator('#sheet input[name="note"]').fill("red tokens miscounted")
    page.wait_for_timeout(1800)  # kept a second after the last keystroke
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#connection .for-stale")).to_be_visible(timeout=1500)
    assert page.locator(f'#sheet input[name="{name}"]').input_value() == "3"
    assert page.locator('#sheet input[name="note"]').input_value() == "red tokens miscounted"
    page.context.set_offline(False)


def test_the_server_s_own_error_is_said_and_not_sent_again_by_itself(browser: Browser, live_server: str):
    """A 500 (the server's own failure, not a gateway's) is said; the phone does not keep sending
    the entry every 3 s (that loop would also stop the screen's polls); a later tap works."""
    page = phone(browser, offline_copy=False)
    page.clock.install()
    table = start(page, live_server)
    calls: list[str] = []

    def broken(route: Route) -> None:
        calls.append(route.request.url)
        route.fulfill(status=500, body="Internal Server Error")

    page.route("**/events", broken)
    table._tap_chips({"black": 1})
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-server")).to_be_visible()
    pass_seconds(page, 7)  # two rounds of the 3 s resending
    assert len(calls) == 1
    page.unroute("**/events")
    table._save("take_tokens")
    expect(page.locator("#connection")).to_be_hidden()
    assert _version(page, live_server) == 1


def test_a_poll_s_or_a_chip_s_server_error_is_not_said_as_a_save_that_may_be_lost(browser: Browser, live_server: str):
    """A tester: one background poll answered 500 put up "so it may not have been recorded. Check
    the screen and try again", with nobody having tapped, and it stayed over ten polls that got
    through; a chip's 500 said the same. A poll's is the screen maybe behind, gone with the next
    poll; a chip's says the tap recorded nothing."""
    page = phone(browser, offline_copy=False)
    start(page, live_server)
    failures = [1]

    def once(route: Route) -> None:
        if failures[0]:
            failures[0] -= 1
            route.fulfill(status=500, body="Internal Server Error")
        else:
            route.fallback()

    page.route("**/poll*", once)
    expect(page.locator("#connection .for-poll-server")).to_have_text(
        "The server failed to answer (an error on its side): the screen may be behind the table. It catches up by itself.",
        timeout=5000)
    expect(page.locator("#connection .for-server")).to_be_hidden()
    expect(page.locator("#connection")).to_be_hidden(timeout=6000)  # the next poll gets through
    page.unroute("**/poll*")
    page.route("**/sheet/take*", lambda route: route.fulfill(status=500, body="Internal Server Error"))
    page.locator('.pick-source a[data-kind="red"]').click()
    expect(page.locator("#connection .for-server-tap")).to_have_text(
        "The server failed to answer that tap (an error on its side): nothing was recorded. Tap again.")
    page.unroute("**/sheet/take*")
    page.locator('.pick-source a[data-kind="red"]').click()  # the next tap clears it, and works
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(1)
    expect(page.locator("#connection")).to_be_hidden()


def test_a_login_page_answering_a_tap_leaves_the_sheet_working(browser: Browser, live_server: str):
    """One chip tap answered by a Wi-Fi login page: the tap did nothing (said), and the next taps
    and the save work (they had all been held back behind the tap that never got its sheet)."""
    page = phone(browser)
    table = start(page, live_server)
    portal = "<html><body><h1>Please log in to the Wi-Fi</h1></body></html>"
    page.route("**/sheet/**", lambda route: route.fulfill(status=200, body=portal, content_type="text/html"), times=1)
    page.locator('.pick-source a[data-kind="blue"]').click()
    expect(page.locator("#connection .for-tap")).to_be_visible()
    expect(page.locator("body.sheet-busy")).to_have_count(0)
    table._tap_chips({"red": 1})
    table._save("take_tokens")
    assert page.request.get(f"{live_server}/api/games/{_game_id(page)}/log").json()["events"][0]["tokens"] == {"red": 1}


def test_an_entry_refused_when_sent_again_is_said_until_the_next_tap(browser: Browser, live_server: str):
    """The save hung, the other phone recorded meanwhile, the network came back: the notice that
    this entry was not stored stays (it faded after 4 s, unseen by a player looking at the table)."""
    page = phone(browser)
    page.clock.install()
    table = start(page, live_server, via_home=True)
    page.evaluate("() => { htmx.config.timeout = 1500; }")
    held: list[Route] = []
    page.route("**/events", lambda route: held.append(route))
    table._tap_chips({"red": 1})
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-entry")).to_be_visible(timeout=5000)
    assert page.request.post(f"{live_server}/api/games/{_game_id(page)}/events",
                             data={"type": "take_tokens", "player": 0, "tokens": {"green": 1}}).ok
    page.unroute("**/events")
    notice = page.locator("#alerts .alert-notice")
    expect(notice).to_contain_text("another phone recorded an entry first: Ana took 1 green.", timeout=10000)
    pass_seconds(page, 6)  # (a toast fades after 4 s)
    expect(notice).to_be_visible()
    assert _version(page, live_server) == 1


def _controlled(page: Page) -> Table:
    """The page reloaded until the service worker (installed by the first visit) controls it."""
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=10000)
    page.reload()
    return Table(page)


def test_the_offline_copy_is_the_latest_whatever_address_and_never_a_502_page(browser: Browser, live_server: str):
    """One copy per page, the latest: a sheet's address (even one redirected since) and a proxy's
    502 page answering a reload never stand in for it (the browser's error page, an older screen
    or "502 Bad Gateway" were shown offline)."""
    page = phone(browser)
    start(page, live_server, via_home=True)
    table = _controlled(page)
    gid = _game_id(page)
    table.open("buy")
    table._tap('#sheet .grid a[data-card="D1-04"]')
    page.reload()  # a full load at the sheet's address (?sheet=buy&…&v=0)
    assert page.request.post(f"{live_server}/api/games/{gid}/events",
                             data={"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).ok
    page.reload()  # v=0 is old now: 303 to the game's own address
    table = Table(page)
    assert page.url.endswith(f"/games/{gid}")
    table.enter({"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    table.open("buy")
    table._tap('#sheet .grid a[data-card="D1-09"]')
    page.wait_for_timeout(1500)
    # the service worker's own fetch of the page: routed through the context (Chromium)
    page_address = re.compile(rf".*/games/{gid}(\?.*)?$")
    page.context.route(page_address, lambda route: route.fulfill(status=502, body="<h1>502 Bad Gateway</h1>",
                                                                 content_type="text/html"))
    page.reload()
    expect(page.locator("h1")).to_have_text("502 Bad Gateway")
    page.context.unroute(page_address)
    page.context.set_offline(True)
    page.goto(f"{live_server}/games/{gid}?sheet=buy&src=1&card=D1-09&v=2")
    expect(page.locator("#connection .for-stale")).to_be_visible(timeout=3000)
    assert page.locator("#game").get_attribute("data-version") == "2"
    page.context.set_offline(False)


def test_a_tap_s_failure_stays_said_until_the_next_tap(browser: Browser, live_server: str):
    """The server's own error (500) on a save, and a gateway's 502 on a chip tap, stayed on screen
    until the next poll got through (half a second to two): they stay until the next tap."""
    page = phone(browser, offline_copy=False)
    page.clock.install()  # (the page's timers jumped forward: the seconds waited pass at once)
    table = start(page, live_server)
    page.route("**/events", lambda route: route.fulfill(status=500, body="oops"))
    table._tap_chips({"red": 1})
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-server")).to_be_visible()
    polls: list[int] = []
    page.on("response", lambda response: polls.append(response.status) if "/poll" in response.url else None)
    pass_seconds(page, 5)
    assert len(polls) >= 2  # two polls answered meanwhile
    expect(page.locator("#connection .for-server")).to_be_visible()
    page.unroute("**/events")
    page.route("**/sheet/**", lambda route: route.fulfill(status=502, body="bad gateway"), times=1)
    page.locator('.pick-source a[data-kind="blue"]').click()
    expect(page.locator("#connection .for-tap")).to_be_visible()
    # the polls get through: the server answers again, and the tap is still to make (a busy
    # machine may answer a poll only after the next second has passed)
    pass_seconds_until(page, page.locator("#connection .for-back"), 8)
    table._tap_chips({"green": 1})  # the next tap ends it, and works
    expect(page.locator("#connection")).to_be_hidden()
    table._save("take_tokens")
    assert _version(page, live_server) == 1


def test_a_save_still_on_its_way_after_3_s_says_the_network_is_slow(browser: Browser, live_server: str):
    """A stalled network (connected, nothing getting through) failed nothing for 12 s: the save
    only looked dimmed. After 3 s it says it is still sending; once through, nothing is said."""
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    held: list[Route] = []
    page.route("**/events", lambda route: held.append(route))
    table._tap_chips({"red": 1})
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-slow")).to_be_hidden(timeout=1000)
    expect(page.locator("#connection .for-slow")).to_be_visible(timeout=4000)
    with page.expect_response("**/poll**", timeout=5000):  # a poll getting through leaves it said
        pass
    page.wait_for_timeout(100)
    expect(page.locator("#connection .for-slow")).to_be_visible(timeout=100)
    held[0].continue_()
    page.unroute("**/events")
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '1'", timeout=10000)
    expect(page.locator("#connection")).to_be_hidden()
    assert _version(page, live_server) == 1


def test_a_phone_whose_first_visit_is_the_game_has_its_offline_copy(browser: Browser, live_server: str):
    """The second phone opens the game's link first: the service worker, installed by that very
    load, keeps the page once active, so a reload without network shows the game, not the
    "No connection" page (nothing was kept until the next full load)."""
    first = phone(browser)
    start(first, live_server)
    game_url = first.url
    second = phone(browser)
    second.goto(game_url)
    second.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                             timeout=10000)
    second.wait_for_timeout(1500)  # the worker's fetch of the open page
    second.context.set_offline(True)
    second.reload()
    expect(second.locator("#game")).to_be_visible()
    expect(second.locator("#connection .for-stale")).to_be_visible(timeout=1500)
    second.context.set_offline(False)


def test_a_fix_preview_that_never_answers_says_nothing_and_sends_nothing(browser: Browser, live_server: str):
    """Counts typed into Fix ask for a preview from inside the correction form: on a stalled
    network that preview is no entry. It raised the slow line, then the "will be sent again"
    banner, and the unsaved correction was sent by itself once the network came back."""
    page = phone(browser)
    page.clock.install()  # (the page's timers jumped forward: the seconds waited pass at once)
    table = start(page, live_server)
    page.evaluate("() => { htmx.config.timeout = 1500; }")  # the page's 12 s, shortened for the test
    table.open("correction")
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    page.route("**/fix-preview*", lambda route: None)  # the preview hangs: no answer ever comes
    page.locator('#sheet input[name$="-red"]').first.fill("1")
    pass_seconds(page, 4, real_ms=500)  # (2 s of real time: the request's own 1.5 s timeout is the browser's)
    expect(page.locator("#connection .for-slow")).to_be_hidden()
    expect(page.locator("#connection .for-entry")).to_be_hidden()
    page.unroute("**/fix-preview*")
    pass_seconds(page, 4)  # a retry would have gone by now
    assert posts == [] and _version(page, live_server) == 0


def test_a_phone_whose_session_ended_saves_at_once_and_is_told_to_tap_undo_again(browser: Browser, live_server: str,
                                                                                    shots: Path):
    """A tester cleared a phone's session cookie with its game page open (a browser that forgets
    its session cookies): Undo and a royal card's save failed with a silent 400 until a reload.
    The refusal brings a fresh token: a save is sent again by itself and stored once; an undo
    (which asks its question first) says to tap again, and the next tap works."""
    page = phone(browser, offline_copy=False)
    start(page, live_server)
    page.context.clear_cookies(name="session")
    page.locator('.pick-source a[data-kind="red"]').click()
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(1)
    page.locator('#sheet form[data-type="take_tokens"] button.save').click()
    expect(page.locator("#game")).to_have_attribute("data-version", "1", timeout=8000)
    expect(page.locator("#alerts .alert-done")).to_contain_text("Ana took 1 red")
    assert _version(page, live_server) == 1
    page.context.clear_cookies(name="session")
    page.locator("#undo").click()
    page.locator("#undo-dialog-yes").click()
    expect(page.locator("#connection .for-session")).to_be_visible(timeout=5000)
    page.screenshot(path=str(shots / "session-renewed.png"))
    assert _version(page, live_server) == 1
    page.locator("#undo").click()  # the tap clears the banner and asks again
    expect(page.locator("#connection")).to_be_hidden()
    page.locator("#undo-dialog-yes").click()
    expect(page.locator("#game")).to_have_attribute("data-version", "2", timeout=8000)
    assert _version(page, live_server) == 2
    log = page.request.get(f"{live_server}/api/games/{_game_id(page)}/log").json()["events"]
    assert log == []  # the take, then its undo: stored once, undone once


@pytest.mark.poll_seconds(2)  # as served: the count below is of a 2 s poll
def test_the_poll_backs_off_while_the_server_is_down_and_comes_back_at_once_with_a_tap(browser: Browser,
                                                                                      live_server: str):
    """The server down (a restart): the poll asked every 2 s, from every phone of every table,
    without end. It waits longer after each failure, up to every 30 s, and goes back to every 2 s
    once anything gets through."""
    page = phone(browser, offline_copy=False)
    page.clock.install()
    start(page, live_server)
    sent: list[str] = []

    def down(route: Route) -> None:
        sent.append(route.request.url)
        route.abort("connectionrefused")

    page.route("**/poll*", down)
    pass_seconds(page, 90, real_ms=60)
    expect(page.locator("#connection .for-poll")).to_be_visible()
    # every 2 s it would have been 45; backing off (0, 4, 8, 16, 30 s, each ±20 %) it is at most 8
    assert 4 <= len(sent) <= 8, len(sent)
    # the server is back: a tap brings the poll back to every 2 s, and the other phone's entry in
    page.unroute("**/poll*")
    assert page.request.post(f"{live_server}/api/games/{_game_id(page)}/events",
                             data={"type": "take_tokens", "player": 0, "tokens": {"blue": 1}}).ok
    page.locator("#turnbar").click()
    pass_seconds(page, 3)
    expect(page.locator(".whose-turn")).to_have_text("Ben's turn", timeout=3000)
    expect(page.locator("#connection")).to_be_hidden()


def test_the_offline_page_speaks_the_language_chosen_after_the_worker_was_installed(browser: Browser, live_server: str):
    """The offline page is kept when the service worker installs: a phone that chose Korean later
    was still told "No connection" in English when the network was gone (a tester)."""
    page = phone(browser)
    page.goto(live_server + "/")
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=10000)
    page.wait_for_function("() => localStorage.getItem('tracker-offline-lang') === 'en'", timeout=10000)
    page.goto(live_server + "/settings?lang=ko&next=/")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    page.wait_for_function("() => localStorage.getItem('tracker-offline-lang') === 'ko'", timeout=10000)
    page.wait_for_timeout(1000)  # the worker's fetch of the page in Korean
    page.context.set_offline(True)
    page.goto(live_server + "/players")  # never opened on this phone: no copy of its own
    expect(page.locator("h1")).to_have_text("연결 끊김")
    page.context.set_offline(False)


def test_the_offline_page_loads_the_address_asked_for_once_the_network_is_back(browser: Browser, live_server: str):
    """A tester: a game this phone never opened, asked for offline, showed "No connection ... The
    game reopens as soon as the network is back", and it never did; "Try again" led home."""
    page = phone(browser)
    page.goto(live_server + "/")
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=10000)
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                             "first_player": 0}).json()["id"]
    page.context.set_offline(True)
    page.goto(f"{live_server}/games/{gid}")
    expect(page.locator("h1")).to_have_text("No connection")
    assert page.locator("#offline-again").get_attribute("href") == f"{live_server}/games/{gid}"
    page.context.set_offline(False)
    expect(page.locator("#game")).to_be_visible(timeout=10000)  # by itself, within a few seconds
    assert page.url == f"{live_server}/games/{gid}"


def test_the_undo_question_is_answered_offline(browser: Browser, live_server: str):
    """A tester: offline, the Undo question's "Keep it" and "Undo it" were held as a form sent
    without network ("That tap did nothing"), and the question stayed up over the game."""
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    table.enter({"type": "take_tokens", "player": 0, "tokens": {"white": 1}})
    page.context.set_offline(True)
    page.locator("#undo").click()
    page.locator("#undo-dialog-no").click()
    expect(page.locator("#undo-dialog")).not_to_be_visible()
    expect(page.locator("#connection .for-tap")).to_be_hidden()
    page.locator("#undo").click()
    page.locator("#undo-dialog-yes").click()
    expect(page.locator("#undo-dialog")).not_to_be_visible()
    expect(page.locator("#connection .for-undo")).to_be_visible()  # sent, and said to be in doubt
    page.context.set_offline(False)
    assert _version(page, live_server) == 1  # it never reached the server


def test_a_form_sent_offline_stays_with_what_was_typed(browser: Browser, live_server: str):
    """A tester: "Start the game" tapped offline showed the browser's error page, and Back found
    the names emptied. The form stays as typed and the banner says to tap again."""
    page = phone(browser, offline_copy=False)
    page.goto(live_server + "/")
    page.fill('input[name="player0"]', "Ana")
    page.fill('input[name="player1"]', "Ben")
    page.context.set_offline(True)
    page.locator('form button[type="submit"].primary', has_text="Start").first.click()
    expect(page.locator("#connection .for-tap")).to_be_visible()
    assert page.url == live_server + "/"
    assert page.input_value('input[name="player0"]') == "Ana" and page.input_value('input[name="player1"]') == "Ben"
    page.context.set_offline(False)
    page.locator('form button[type="submit"].primary', has_text="Start").first.click()
    page.wait_for_url(re.compile(r".*/games/[^/?]+$"))
    expect(page.locator(".whose-turn")).to_contain_text("turn")


def test_a_form_sent_while_the_server_is_down_stays_with_what_was_typed(browser: Browser, live_server: str):
    """The re-tester: with the phone online and the server down (connection refused, or a proxy's
    502), "Start the game" still showed the browser's error page and lost the names. The form asks
    the server first; it stays as typed, the banner says to tap again, and no game is started."""
    page = phone(browser, offline_copy=False)
    page.goto(live_server + "/")
    page.fill('input[name="player0"]', "Ana")
    page.fill('input[name="player1"]', "Ben")
    before = page.request.get(f"{live_server}/api/games").json()
    start_button = page.locator('form button[type="submit"].primary', has_text="Start").first
    page.route(f"{live_server}/games", lambda route: route.abort("connectionrefused"))
    start_button.click()
    expect(page.locator("#connection .for-tap")).to_be_visible()
    assert page.url == live_server + "/"
    assert page.input_value('input[name="player0"]') == "Ana" and page.input_value('input[name="player1"]') == "Ben"
    page.unroute(f"{live_server}/games")
    page.route(f"{live_server}/games", lambda route: route.fulfill(status=502, body="Bad Gateway"))
    start_button.click()
    expect(page.locator("#connection .for-server-tap")).to_be_visible()  # (the server's failure, as a tap's)
    assert page.url == live_server + "/"
    assert page.request.get(f"{live_server}/api/games").json() == before
    page.unroute(f"{live_server}/games")
    start_button.click()
    page.wait_for_url(re.compile(r".*/games/[^/?]+$"))
    expect(page.locator(".whose-turn")).to_contain_text("Ana")
    expect(page.locator("#connection")).to_be_hidden()


def test_a_page_loading_form_sent_is_not_sent_again_by_a_second_tap(browser: Browser, live_server: str):
    """A tester tapped Import twice during a 12 s restore: the second request's answer, "Nothing
    new: all 438 games are already stored", replaced the first's. Once sent, a page-loading form
    says it is busy and a second tap sends nothing until its page comes (or the page is shown
    again, Back)."""
    page = phone(browser, offline_copy=False)
    page.goto(live_server + "/")
    page.fill('input[name="player0"]', "Ana")
    page.fill('input[name="player1"]', "Ben")
    # (the browser's own sending, counted and held after the app's handlers: the page stays to be read)
    page.evaluate("""() => { window.sent = 0; window.addEventListener("submit", (e) => {
        if (!e.defaultPrevented) { window.sent += 1; e.preventDefault(); } }); }""")
    form = page.locator("form.new-game")
    start_button = page.locator('form button[type="submit"].primary', has_text="Start").first
    start_button.click()
    expect(form).to_have_attribute("aria-busy", "true")
    start_button.click()
    start_button.click()
    page.wait_for_timeout(300)
    assert page.evaluate("window.sent") == 1
    page.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }))")  # Back to it
    expect(form).not_to_have_attribute("aria-busy", "true")
    start_button.click()
    page.wait_for_function("window.sent === 2")


def test_history_without_network_says_the_page_may_be_old_and_loads_again_when_back(browser: Browser, live_server: str):
    """A tester: History reopened without network said "the game may have moved on since" over a
    list of games, and that it catches up (nothing on History polls). It says the page may be out
    of date, and loads it again once the phone is back online."""
    page = phone(browser)
    start(page, live_server, via_home=True)
    page.goto(live_server + "/history")
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=10000)
    page.reload()  # (kept by the service worker for offline use)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#connection .for-stale-page")).to_be_visible(timeout=1500)
    expect(page.locator("#connection .for-stale")).to_be_hidden()
    page.context.set_offline(False)
    # (the first reload can still be handed the kept copy while Chromium's service worker catches
    # up with the network; app.js then waits 10 s before it reloads again: CI saw that once)
    expect(page.locator("#connection")).to_be_hidden(timeout=16000)
    assert page.evaluate("() => document.body.hasAttribute('data-stale')") is False  # the server's own page


def test_on_a_slow_network_each_retry_waits_longer_until_the_answer_comes(browser: Browser, live_server: str):
    """A tester's network came back slow (6 s to answer): every retry was cut off at 5 s and sent
    again, for ever, the screen stuck on "No connection" while the other phone played on. Each
    retry now waits twice as long as the one before (here from the page's timeout, shortened to
    1 s: 1 s, 2 s…), and none is sent while one is on its way: the answer comes, once."""
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    page.evaluate("() => { htmx.config.timeout = 1000; }")
    down, held = [True], []
    sent: list[float] = []

    def slow(route: Route) -> None:
        sent.append(time.monotonic())
        if down[0]:
            route.abort("internetdisconnected")
        else:
            held.append((time.monotonic(), route))  # answered 1.5 s later, below

    page.route("**/events", slow)
    table._tap_chips({"red": 1})
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-entry")).to_be_visible()
    down[0] = False
    answered = 0
    deadline = time.monotonic() + 20
    while page.evaluate("() => document.querySelector('#game').dataset.version") != "1":
        assert time.monotonic() < deadline, (len(sent), answered)
        page.wait_for_timeout(100)
        while held and time.monotonic() - held[0][0] >= 1.5:
            _at, route = held.pop(0)
            try:
                route.fulfill(response=route.fetch())
                answered += 1
            except Exception:  # noqa: BLE001 - the page gave that try up (its timeout): nobody waits
                pass
    expect(page.locator("#connection")).to_be_hidden()
    after = len(sent)
    page.wait_for_timeout(3500)  # past the next retry (every 3 s): nothing more is sent
    assert len(sent) == after and 3 <= after <= 5, sent  # the failure, a try cut off at 1 s, the one answered
    assert _version(page, live_server) == 1
    assert page.request.get(f"{live_server}/api/games/{_game_id(page)}/log").json()["events"][0]["tokens"] == {"red": 1}


def test_a_poll_that_comes_back_after_a_lost_save_does_not_redraw_the_entry_waiting(browser: Browser, live_server: str):
    """The save reached the server, its answer was lost; a poll sent before it came back after,
    with the new screen, while the entry still waited to be sent again: a tester's phone showed
    Ben's turn with Ana's take under "No connection: your entry will be sent again" and "another
    phone's entry changed the game: choose again" (only one phone played). That poll's screen is
    dropped: the entry waiting stays as it was, and its own answer, once it gets through, brings
    the screen, told as this phone's entry."""
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    polls: list[Route] = []
    page.route("**/poll*", lambda route: polls.append(route))  # the polls hang on the way
    page.wait_for_timeout(1500)  # (a poll every second in the tests: one leaves, and waits)
    assert polls
    saves = {"made": False, "down": True}

    def made_but_lost(route: Route) -> None:
        if not saves["made"]:
            saves["made"] = True
            route.fetch()  # stored by the server; its answer never arrives
            route.abort("internetdisconnected")
        elif saves["down"]:
            route.abort("internetdisconnected")  # the retries fail too, for now
        else:
            route.continue_()

    page.route("**/events", made_but_lost)
    table._tap_chips({"red": 1, "blue": 1})
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-entry")).to_be_visible()
    assert _version(page, live_server) == 1
    page.unroute("**/poll*")
    for route in polls:  # the poll that left before the save comes back now, with the new screen
        route.continue_()
    page.wait_for_timeout(1000)
    assert page.evaluate("() => document.querySelector('#game').dataset.version") == "0"
    expect(page.locator("#connection .for-entry")).to_be_visible()
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(2)
    saves["down"] = False
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '1'", timeout=10000)
    expect(page.locator("#connection")).to_be_hidden()
    assert page.locator("#alerts .alert-picks-gone").count() == 0
    expect(page.locator("#alerts .alert-done")).to_contain_text("Ana took 1 blue, 1 red.")
    assert _version(page, live_server) == 1


def test_an_undo_that_never_reached_the_server_is_said_once_the_polls_get_through(browser: Browser, live_server: str):
    """An undo lost on its way (the network down): "the undo may or may not have reached it",
    then the network came back and the banner went with no word, read as done (a tester). The
    next poll finds the game unchanged: the phone says nothing was undone."""
    page = phone(browser, offline_copy=False)
    table = start(page, live_server)
    table.enter({"type": "take_tokens", "player": 0, "tokens": {"white": 1}})
    page.route("**/undo", lambda route: route.abort("internetdisconnected"))
    page.locator("#undo").click()
    page.locator("#undo-dialog-yes").click()
    expect(page.locator("#connection .for-undo")).to_be_visible()
    page.unroute("**/undo")
    notice = page.locator("#alerts .alert-undo-lost")
    expect(notice).to_have_text("The undo did not reach the server: nothing was undone. Tap Undo again if it is "
                                "still needed.", timeout=10000)
    expect(page.locator("#connection")).to_be_hidden()
    assert _version(page, live_server) == 1
    expect(page.locator(".whose-turn")).to_have_text("Ben's turn")
    # again, with the other phone's entry made meanwhile: the poll brings it, and no undo with it
    page.route("**/undo", lambda route: route.abort("internetdisconnected"))
    page.route("**/poll*", lambda route: route.abort("internetdisconnected"))
    page.locator("#undo").click()
    page.locator("#undo-dialog-yes").click()
    expect(page.locator("#connection .for-undo")).to_be_visible()
    assert page.request.post(f"{live_server}/api/games/{_game_id(page)}/events",
                             data={"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}).ok
    page.unroute("**/undo")
    page.unroute("**/poll*")
    expect(page.locator(".whose-turn")).to_have_text("Ana's turn", timeout=10000)
    expect(page.locator("#alerts .alert-undo-lost")).to_be_visible(timeout=5000)
    expect(page.locator("#announcer")).to_contain_text("The undo did not reach the server")
    assert _version(page, live_server) == 2


def test_a_reload_without_network_names_the_entry_waiting_to_be_sent(browser: Browser, live_server: str):
    """A tester saved a take offline and reloaded, still offline: the kept copy of the screen, its
    Take sheet empty, and only "your entry will be sent again" (which one?): the same move could be
    entered again. The banner names it; back online it is stored once."""
    page, table = offline_ready(browser, live_server)
    table._tap_chips({"red": 1, "blue": 1})
    page.context.set_offline(True)
    table.tap_save("take_tokens")
    expect(page.locator("#connection .for-entry")).to_be_visible()
    page.reload()
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#connection .for-entry")).to_be_visible(timeout=6000)
    expect(page.locator("#connection-entry")).to_have_text(re.compile(r"^ Waiting: Ana took 1 (red|blue), 1 (red|blue)\.?$"))
    page.context.set_offline(False)
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '1'", timeout=15000)
    assert _version(page, live_server) == 1

