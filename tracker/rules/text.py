"""Text typed at the table (player names, notes): what is accepted, shared by both games."""

from __future__ import annotations

import unicodedata
from typing import Any, Sequence

from .errors import N_, RuleError

#: Longest player name accepted at setup.
MAX_NAME = 40
#: The longest ``person_key`` a name may have (the players table's key column): a few
#: compatibility characters expand many times over ("ﷺ" is 18 letters).
MAX_KEY = 160
#: Bidirectional overrides and isolates: they can make a name read as something else.
_BIDI_CONTROLS = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
#: Format characters kept: zero-width joiner/non-joiner (emoji and some scripts need them).
_KEPT_FORMAT = {0x200C, 0x200D}


def clean_text(value: Any, max_len: int) -> str | None:
    """``value`` stripped, or None when it is not acceptable text.

    Acceptable: a ``str`` that encodes to UTF-8 (no lone surrogates), of at most ``max_len``
    characters after stripping, with no control, private-use, unassigned or bidi-override
    characters. An empty string is returned as ``""``.
    """
    if not isinstance(value, str):
        return None
    text = value.strip()
    if len(text) > max_len:
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs", "Co", "Cn") and ch not in "\n":
            return None
        if cat == "Cf" and (ord(ch) in _BIDI_CONTROLS or ord(ch) not in _KEPT_FORMAT):
            return None
    return text


def name_refusal(value: Any, max_len: int = MAX_NAME) -> str | None:
    """Why a typed name is refused, as an ``N_`` template with ``%(max)s`` (None when accepted
    by ``clean_text`` and visible): not text, too long, a line break, a character no phone can
    show, an invisible or control character, or nothing visible."""
    if not isinstance(value, str):
        return N_("A player's name is text.")
    text = value.strip()
    if any(ch in _LINE_BREAKS for ch in text):
        return N_("A name is one line.")
    if len(text) > max_len or len(person_key(text)) > MAX_KEY:
        return N_("Each player needs a name of 1 to %(max)s characters (an emoji can count as several).")
    if any(unicodedata.category(ch) in _UNSHOWABLE for ch in text):
        return N_("A name cannot hold a character no phone can show (half of an emoji, a private or unassigned code).")
    if clean_text(text, max_len) is None:
        return N_("A name cannot hold invisible or control characters (a zero-width space, a direction mark).")
    if not is_visible(text):
        return N_("Each player needs a name of 1 to %(max)s characters.")
    return None


#: Categories of what no font draws: a lone surrogate (half of an emoji's pair, from a JSON
#: escape), private use, unassigned.
_UNSHOWABLE = frozenset(("Cs", "Co", "Cn"))
#: Characters that end a line: a name is one line.
_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x85\u2028\u2029")
#: Letters that draw nothing (Hangul fillers, the blank Braille pattern): not a visible name.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Marks that join or vary what is drawn without changing the name a person reads ("Bob" and
#: "Bob" + zero-width non-joiner read the same: one person, ``person_key``).
_INVISIBLE_MARKS = dict.fromkeys([0x200C, 0x200D, 0x034F, *range(0xFE00, 0xFE10)])


def _trimmed(name: str) -> str:
    """``name`` without spaces or blank letters (``_BLANK_LETTERS``) at either end."""
    while True:
        trimmed = name.strip().strip("".join(_BLANK_LETTERS))
        if trimmed == name:
            return name
        name = trimmed


def is_visible(text: str) -> bool:
    """True when ``text`` has at least one letter, digit, punctuation mark or symbol that draws
    something (not a Hangul filler or blank Braille pattern)."""
    return any(unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK_LETTERS for ch in text)


#: ``person_key``'s table: invisible marks dropped, blank letters read as spaces.
_KEY_TABLE = {**_INVISIBLE_MARKS, **dict.fromkeys(map(ord, _BLANK_LETTERS), " ")}


def person_key(name: str) -> str:
    """The form a typed name is matched to a person on: NFKC (width, compatibility forms),
    without invisible marks (a zero-width joiner, a variation selector), blank letters (a Hangul
    filler) read as spaces, case-folded, inner spaces collapsed ("Ｋim" and "kim", "Jo  Jo" and
    "jo jo", "Bob" and "Bob" + a zero-width joiner are one). Stored keys follow it (migration
    e3a9b5c71d04)."""
    return " ".join(unicodedata.normalize("NFKC", name).translate(_KEY_TABLE).casefold().split())


def player_names(players: Any, seats: Sequence[int], rule: str) -> list[str]:
    """Validate the names entered at setup: ``seats`` lists the allowed player counts.

    Each name is visible text of 1 to ``MAX_NAME`` characters, and no two are the same
    (ignoring case, width, compatibility forms and spacing: the way people are told apart). Raises ``RuleError("bad_setup")`` naming what is wrong.
    """
    if not isinstance(players, (list, tuple)) or len(players) not in seats:
        if len(seats) == 1:
            raise RuleError("bad_setup", N_("This game is played by exactly %(n)s players."), rule, n=seats[0])
        raise RuleError("bad_setup", N_("This game is played by %(low)s to %(high)s players."), rule,
                        low=min(seats), high=max(seats))
    names = []
    for name in players:
        # "é" typed either way is one name; measured as stored (a few letters, "क़", compose to
        # two under NFC: 40 of them passed as typed, were stored as 80, and every later replay of
        # the game refused its own setup)
        if isinstance(name, str):  # (blank letters at either end dropped too: "Hana" + a pasted Hangul
            # filler showed as "Hana  's turn", a tester; one inside stays, read as a space)
            name = unicodedata.normalize("NFC", _trimmed(name))
        refusal = name_refusal(name)
        if refusal is not None:
            raise RuleError("bad_setup", refusal, rule, max=MAX_NAME)
        names.append(name)
    if len({person_key(n) for n in names}) != len(names):  # one person however typed
        raise RuleError("bad_setup", N_("Each player needs a different name."), rule)
    return names
