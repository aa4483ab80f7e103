"""Text typed at the table (player names, notes): what is accepted, shared by both games."""

from __future__ import annotations

import unicodedata
from typing import Any, Sequence

from .errors import N_, RuleError

#: Longest player name accepted at setup.
MAX_NAME = 40
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
    by ``clean_text`` and visible): not text, too long, a line break, an invisible or control
    character, or nothing visible."""
    if not isinstance(value, str):
        return N_("A player's name is text.")
    text = value.strip()
    if "\n" in text or "\r" in text:
        return N_("A name is one line.")
    if len(text) > max_len:
        return N_("Each player needs a name of 1 to %(max)s characters (an emoji can count as several).")
    if clean_text(text, max_len) is None:
        return N_("A name cannot hold invisible or control characters (a zero-width space, a direction mark).")
    if not is_visible(text):
        return N_("Each player needs a name of 1 to %(max)s characters.")
    return None


def is_visible(text: str) -> bool:
    """True when ``text`` has at least one letter, digit, punctuation mark or symbol."""
    return any(unicodedata.category(ch)[0] in "LNPS" for ch in text)


def person_key(name: str) -> str:
    """The form a typed name is matched to a person on: NFKC (width, compatibility forms),
    case-folded, inner spaces collapsed ("Ｋim" and "kim", "Jo  Jo" and "jo jo" are one)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


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
        refusal = name_refusal(name)
        if refusal is not None:
            raise RuleError("bad_setup", refusal, rule, max=MAX_NAME)
        names.append(unicodedata.normalize("NFC", name.strip()))  # "é" typed either way is one name
    if len({person_key(n) for n in names}) != len(names):  # the same person however typed
        raise RuleError("bad_setup", N_("Each player needs a different name."), rule)
    return names
