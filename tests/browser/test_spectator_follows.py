"""A spectator's screen (a club's, on a wall: nobody to tap) follows its table to the next game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).parents[1] / "fixtures"


def test_the_watch_screen_moves_to_the_tables_next_game_by_itself(browser, live_server: str):
    log = json.loads((FIXTURES / "duel-1102.json").read_text())
    log = {k: v for k, v in log.items() if k not in ("expected", "checkpoints", "source", "id")}
    wall = browser.new_context(viewport={"width": 1920, "height": 1080})
    wall.clock.install()
    screen = wall.new_page()
    finished = screen.request.post(live_server + "/api/games/import", data=log).json()
    share = screen.request.get(f"{live_server}/games/{finished['id']}/share").text()
    watch = re.search(r'id="watch-link">[^<]*(/watch/[A-Za-z0-9_-]+)<', share).group(1)
    screen.goto(live_server + watch)
    expect(screen.locator("#victory")).to_be_visible()
    # a player's phone starts "New game, same players"
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{live_server}/?player0=Player+A&player1=Player+B&after={finished['id']}")
    phone.locator("form.new-game button[type=submit]").first.click()
    phone.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    next_id = phone.url.rsplit("/", 1)[-1]
    assert next_id != finished["id"]
    screen.clock.run_for(3000)  # the next poll tells the screen
    expect(screen.locator("#next-game")).to_have_text("Watch the next game")
    screen.clock.run_for(30_000)
    assert screen.url == live_server + watch  # the result stays a while for whoever watches
    screen.clock.run_for(31_000)  # a minute later it follows by itself
    screen.wait_for_url(lambda url: url != live_server + watch)
    assert re.search(r"/watch/[A-Za-z0-9_-]+$", screen.url) and next_id not in screen.url
    expect(screen.locator("#game.watching")).to_be_visible()
    expect(screen.locator("#turnbar")).to_contain_text("turn 1")
    wall.close()


def test_a_watch_screen_is_told_when_the_table_makes_a_new_spectator_link(browser, live_server: str, shots):
    wall = browser.new_context(viewport={"width": 390, "height": 844})
    wall.clock.install()
    screen = wall.new_page()
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(live_server + "/")
    phone.fill("input[name=player0]", "Ana")
    phone.fill("input[name=player1]", "Ben")
    phone.locator("form.new-game button[type=submit]").first.click()
    phone.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    phone.click("#share-btn")
    watch = phone.locator("#watch-link").get_attribute("href")
    screen.goto(watch)
    expect(screen.locator("#turnbar")).to_contain_text("Ana")
    phone.click("#renew-watch")
    expect(phone.locator("#watch-renewed")).to_be_visible()
    assert phone.locator("#watch-link").get_attribute("href") != watch
    phone.screenshot(path=str(shots / "share-new-watch-link.png"), full_page=True)
    screen.clock.run_for(3000)  # the old link's next poll
    expect(screen.locator("#watch-gone")).to_contain_text("no longer shows the game")
    screen.screenshot(path=str(shots / "watch-link-gone.png"))
    expect(screen.locator("#turnbar")).to_have_count(0)
    wall.close()
