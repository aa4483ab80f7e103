"""Gem chips are readable without colour vision and with it: a letter on every chip, and
WCAG AA contrast (4.5:1) between each chip's letter and its background, light and dark."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).parents[2] / "tracker" / "static" / "app.css").read_text()
VARS = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})", CSS.split("@media")[0]))


def luminance(hex_color: str) -> float:
    channels = [int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("gem", ["white", "blue", "green", "red", "black", "pearl"])
def test_each_gem_chip_letter_passes_wcag_aa(gem):
    background = VARS[gem]
    foreground = VARS[f"{gem}-fg"]
    assert contrast(background, foreground) >= 4.5, (gem, background, foreground)


def test_gold_chip_letter_passes_wcag_aa():
    assert contrast(VARS["goldc"], VARS["gold-fg"]) >= 4.5


def test_the_colourless_card_letter_passes_wcag_aa():
    assert contrast(VARS["none"], "#ffffff") >= 4.5  # white "·" on a points-only card


#: The dark theme's variables: the same block for the system's dark mode and the manual switch.
DARK_BLOCKS = re.findall(r"html(?::not\(\[data-theme=light\]\)|\[data-theme=dark\]) \{([^}]*--bg[^}]*)\}", CSS)
DARK = {**VARS, **dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})", DARK_BLOCKS[0]))}
TEXT_PAIRS = [("fg", "bg"), ("fg", "card"), ("muted", "card"), ("muted", "bg"), ("accent-fg", "accent"),
              ("warn", "card"), ("warn", "bg"), ("gold", "card"), ("gold", "bg"), ("ok", "card")]


def test_both_ways_to_the_dark_theme_set_the_same_colours():
    assert len(DARK_BLOCKS) == 2 and DARK_BLOCKS[0].strip() == DARK_BLOCKS[1].replace("color-scheme: dark; ", "").strip()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("pair", TEXT_PAIRS)
def test_text_on_the_page_passes_wcag_aa(pair, theme):
    """Body text, muted text, the undo and delete buttons (warn), prestige points of nobles and
    crowns (gold), the affordable tick (ok): 4.5:1 on cards and on the page, in both themes."""
    colours = VARS if theme == "light" else DARK
    assert contrast(colours[pair[0]], colours[pair[1]]) >= 4.5, (theme, pair, colours[pair[0]], colours[pair[1]])


def test_every_chip_carries_a_letter(client):
    from helpers import new_game

    game = new_game(client)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    chips = re.findall(r'<span class="chip gem-(\w+)[^"]*"[^>]*><b>([^<]+)</b>', page)
    assert chips and all(letter.strip() for _kind, letter in chips)
    from flask_babel import refresh

    refresh()  # the test app context outlives requests; forget the English of the last one
    korean = client.get(f"/games/{game['id']}", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert re.search(r'gem-red[^>]*><b>빨</b>', korean)
    # Screen readers hear each chip by its name and count, in the reader's language.
    assert re.search(r'class="chip gem-red[^"]*" role="img" aria-label="빨간색 4"', korean)
    assert re.search(r'class="chip gem-red[^"]*" role="img" aria-label="red 4"', page)
    assert re.search(r'id="action-take" [^>]*aria-current="true"', page)  # the open entry tab is said so


@pytest.mark.parametrize("selector", [".preview", ".preview-error"])
def test_the_preview_and_refusal_boxes_pass_wcag_aa_in_both_themes(selector):
    """The "Saving will record" line and a refusal: their own colours, light and dark (dark
    boxes on a dark screen, not light ones glaring at a dim table), the same for both ways."""
    light = re.search(rf"^{re.escape(selector)} {{[^}}]*background: (#[0-9a-f]{{6}}); color: (#[0-9a-f]{{6}})", CSS, re.M)
    assert light and contrast(light[1], light[2]) >= 4.5
    dark = re.findall(rf"html(?:\[data-theme=dark\]|:not\(\[data-theme=light\]\)) {re.escape(selector)} "
                      rf"{{ background: (#[0-9a-f]{{6}}); color: (#[0-9a-f]{{6}}); }}", CSS)
    assert len(dark) == 2 and dark[0] == dark[1]
    background, text = dark[0]
    assert contrast(background, text) >= 4.5 and contrast(background, DARK["bg"]) < 2  # a dark box


def _mix(a: str, b: str, share: float) -> str:
    """``color-mix(in srgb, a share, b)`` as a hex colour."""
    channels = [round(int(a[i:i + 2], 16) * share + int(b[i:i + 2], 16) * (1 - share)) for i in (1, 3, 5)]
    return "#" + "".join(f"{c:02x}" for c in channels)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_edges_of_chips_and_fields_stand_out_3_to_1(theme):
    """A chip's shape (the colour-blind cue) and a text field are seen by their edge: 3:1 against
    the card and the page (WCAG 1.4.11; a tester measured 1.8 for a white chip's, 1.4 for the
    name fields')."""
    colours = VARS if theme == "light" else DARK
    for ground in ("card", "bg"):
        assert contrast(colours["edge"], colours[ground]) >= 3, (theme, ground)
    assert "border: 1px solid var(--edge)" in CSS.split(".chip {")[1].split("}")[0]
    assert "border: 2px solid var(--edge)" in CSS.split(".chip-btn {")[1].split("}")[0]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("gem", ["white", "blue", "green", "red", "black"])
def test_a_card_tinted_by_its_colour_keeps_its_crowns_tick_and_ability_readable(gem, theme):
    """The buy grid's cards are tinted 14 % by their colour: the crown sign (gold), the
    affordable tick (ok) and the ability (ability) keep 4.5:1 on each tint."""
    colours = VARS if theme == "light" else DARK
    tint = _mix(colours[gem], colours["card"], 0.14)
    for name in ("gold", "ok", "ability"):
        assert contrast(colours[name], tint) >= 4.5, (theme, gem, name, colours[name], tint)


@pytest.mark.parametrize("gem", ["white", "blue", "green", "red", "black"])
def test_the_buy_sheet_s_colour_filters_have_their_gem_s_shape(gem):
    """UX.md: every gem carries a shape as well as its letter: the colour filters of the Buy
    sheet take the chips' corners (they were all rounded squares) and an edge of 3:1."""
    rule = next(line for line in CSS.splitlines() if line.startswith(f".chip.gem-{gem}, .chip-btn.gem-{gem}"))
    assert f".filter.gem-{gem} {{" in rule
    assert f".gem-{gem}" in CSS.split(".filter:is(")[1].split("{")[0]
