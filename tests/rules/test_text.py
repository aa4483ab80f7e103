"""``person_key``: how a typed name is matched to a person (no Flask)."""

from __future__ import annotations

import pytest

from tracker.rules.text import person_key


@pytest.mark.parametrize(("one", "other"), [
    ("Kim", "ｋｉｍ"),              # width
    ("Jo  Jo", "jo jo"),           # spacing
    ("Bob", "Bob\u200d"),          # a zero-width joiner pasted from a messenger
    ("Bob", "B\u200cob"),          # a zero-width non-joiner
    ("Ann", "Ann\ufe0f"),          # a variation selector
    ("Kim", "Kim\u3164"),          # a Hangul filler read as a space (NFKC makes it U+1160)
    ("Jo Jo", "Jo\uffa0Jo"),       # a halfwidth Hangul filler between two words
    ("Jo Jo", "Jo\u2800Jo"),       # the blank Braille pattern
    ("Zoë", "Zoe\u0308"),          # composed or not
])
def test_names_that_read_the_same_are_one_person(one, other):
    assert person_key(one) == person_key(other)


@pytest.mark.parametrize(("one", "other"), [("Jo Jo", "JoJo"), ("김민", "김 민"), ("Ana", "Anna")])
def test_names_that_read_differently_are_two(one, other):
    assert person_key(one) != person_key(other)


def test_a_key_is_its_own_key():
    for name in ("Bob\u200d", "Kim\u3164", "Ｋim  LEE", "👩\u200d👩\u200d👧"):
        assert person_key(person_key(name)) == person_key(name)


def test_a_new_game_id_starts_with_a_letter_or_digit():
    """An id starting with "-" was quoted in the CSV export as a formula would be (a flaky test
    found it one run in 32) and reads as an option on a command line."""
    from tracker import service

    ids = [service.new_id() for _ in range(2000)]
    assert all(i[0].isalnum() and len(i) == 32 for i in ids) and len(set(ids)) == 2000


def test_a_name_whose_key_outgrows_the_players_key_is_too_long():
    """Nine "ﷺ" are nine characters but 162 once matched (NFKC spells each out in 18 letters):
    refused as too long, as a name over 40 characters is (PostgreSQL's key column holds 160)."""
    from tracker.rules.text import MAX_KEY, name_refusal, person_key

    assert len(person_key("ﷺ" * 9)) == 162 > MAX_KEY and len(person_key("ﷺ" * 8)) == 144
    assert name_refusal("ﷺ" * 9) == name_refusal("x" * 41) and name_refusal("ﷺ" * 8) is None


def test_blank_letters_at_either_end_of_a_name_are_dropped_one_inside_stays():
    """A tester pasted "Hana" + a Hangul filler: the game showed "Hana  's turn" (the filler drawn
    as a blank). Dropped at either end, as spaces are; one between two words stays."""
    from tracker.rules.text import player_names

    assert player_names(["Hana\u3164", " \u3164 Kim \u3164\u2800 "], (2,), "D-1") == ["Hana", "Kim"]
    assert player_names(["Jo\uffa0Jo", "\u115fAna"], (2,), "D-1") == ["Jo\uffa0Jo", "Ana"]
