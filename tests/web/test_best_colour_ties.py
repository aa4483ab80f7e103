"""The best colour meter names every colour tied for the best (D-11.3 is as near in each)."""

from __future__ import annotations

import re

from helpers import fixture_log, import_log


def test_a_tie_for_the_best_colour_names_each_tied_colour(client):
    game = import_log(client, fixture_log("duel-1012.json"))
    page = client.get(f"/games/{game['id']}/review").get_data(as_text=True)
    names = re.findall(r'class="meter m-color[^"]*".*?</div>', page, re.S)
    text = " ".join(re.sub(r"<[^>]+>", "", n.split(">", 1)[1]) for n in names)  # (the text shown)
    # Player B ends with 2 points in each of white, blue and red (the example's final figures):
    # three tied are shown by their letters (named whole they took lines of a narrow column)
    assert "W/U/R" in text and text.count("W/U/R") == 1
    assert sum('class="meter m-color tied"' in n for n in names) == 1
    # read out as "2 of 10, white/blue/red" (an accessibility tester: the colour was lost)
    assert 'aria-valuetext="2 of 10, white/blue/red"' in page


def test_all_five_colours_tied_are_said_so_not_named_one_by_one(client):
    """A Korean tester's game (tests/fixtures/five-tied.json) ends with Ana at 2 points in each
    colour: "white/blue/green/red/black" filled four lines of the 320-px victory table."""
    game = import_log(client, fixture_log("five-tied.json"))
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    ana = re.search(r'id="panel-0".*?</section>', page, re.S)[0]
    assert re.search(r'class="meter m-color tied".*?best colour\s*<small>all five</small>', ana, re.S), ana
    final = re.search(r'<table class="final"[^>]*>.*?</table>', page, re.S)[0]
    assert "2 in all five" in final and "white/" not in final  # ("2 all five" read oddly: a tester)
    from flask_babel import refresh

    refresh()  # the test app context outlives requests; forget the English of the last one
    korean = client.get(f"/games/{game['id']}", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert "다섯 색 모두" in re.search(r'<table class="final"[^>]*>.*?</table>', korean, re.S)[0]


def test_three_or_four_colours_tied_are_shown_by_their_letters_and_read_out_by_name(client):
    """A tester: "best colour white/green/red/black" took three lines of the panel's narrow
    column. Three or four colours tied show their letters ("W/U/G/R"); a screen reader still
    hears each name; two tied are named as before."""
    log = fixture_log("five-tied.json")
    for count, letters, names in ((41, "W/U/G", "white/blue/green"), (52, "W/U/G/R", "white/blue/green/red")):
        part = {**{k: log[k] for k in ("format", "game", "players", "first_player", "nobles")},
                "events": log["events"][:count], "result": None}
        game = import_log(client, part)
        page = client.get(f"/games/{game['id']}").get_data(as_text=True)
        ana = re.search(r'id="panel-0".*?</section>', page, re.S)[0]
        meter = re.search(r'<div class="meter m-color tied".*?</div>', ana, re.S)[0]
        assert f'aria-valuetext="2 of 10, {names}"' in meter, meter
        assert re.search(rf"best colour\s*<small>{letters}</small>", meter), meter
