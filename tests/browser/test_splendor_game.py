"""A 3-player classic Splendor game tapped through the phone screen to the final ranking."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from driver import Table
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).parents[1] / "fixtures"


def test_a_three_player_game_is_tapped_to_the_final_ranking(page: Page, live_server: str, shots: Path):
    log = json.loads((FIXTURES / "splendor-133.json").read_text())
    page.goto(live_server + "/")
    page.locator('input[name="game"][value="splendor"]').check()
    for i, name in enumerate(log["players"]):
        page.fill(f"#player{i}", name)
    page.locator(f'input[name="first"][value="{log["first_player"]}"]').check()
    for noble in log["nobles"]:
        page.locator(f'input[name="noble"][value="{noble}"]').check()
    page.screenshot(path=str(shots / "s01-setup.png"), full_page=True)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#game.splendor")).to_be_visible()
    expect(page.locator(".spanel")).to_have_count(3)
    table = Table(page)
    final_round_seen = False
    for n, event in enumerate(log["events"], start=1):
        table.enter(event)
        if not final_round_seen and page.locator("#final-round").count():
            final_round_seen = True
            expect(page.locator("#final-round")).to_contain_text("still to play")
            page.screenshot(path=str(shots / "s02-final-round.png"))
    assert final_round_seen
    banner = page.locator("#victory")
    expect(banner).to_be_visible()
    winner = log["players"][log["result"]["winner"]["players"][0]]
    expect(banner.locator("h2")).to_have_text(f"{winner} wins!")
    expect(banner.locator("#ranking li").first).to_contain_text(winner)
    expect(banner.locator("#ranking li")).to_have_count(3)
    page.screenshot(path=str(shots / "s03-ranking.png"))
