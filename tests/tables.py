"""Positions several test files set up the same way (a module of its own: test files import it
by name), written against any client through three small callables."""

from __future__ import annotations

from typing import Any, Callable

#: The tokens each of three Splendor players is given so that no gem is left in the supply.
_DRY_SUPPLY = ({"white": 5, "blue": 3, "gold": 2}, {"green": 5, "red": 3, "gold": 2},
               {"black": 5, "blue": 2, "red": 2, "gold": 1})


def stuck_splendor(create: Callable[[dict], str], post: Callable[[str, dict], Any],
                   state: Callable[[str], dict], named: str | None = None) -> str:
    """A 3-player Splendor game where the player to act (Ana, seat 0) can take no action: no gem
    in the supply and 3 cards reserved (S-2 ruling: she passes). ``create(setup)`` returns the
    new game's id, ``post(game_id, event)`` posts one event (and checks it was accepted),
    ``state(game_id)`` returns the API state; ``named``: Ana's first reserve is that card, face
    up (one she may be able to pay for: then she is not stuck). Returns the game id."""
    gid = create({"game": "splendor", "players": ["Ana", "Ben", "Cho"], "first_player": 0,
                  "nobles": ["N-01", "N-02", "N-03", "N-04"]})
    for turn in range(9):  # everybody reserves 3 secret cards; the 5 golds go to the first five
        post(gid, {"type": "reserve", "player": 0, "card": named} if named and turn == 0
             else {"type": "reserve", "player": turn % 3, "level": 1})
    for seat, tokens in enumerate(_DRY_SUPPLY):
        now = state(gid)
        held = now["players"][seat]["tokens"]
        board = {k: n - tokens.get(k, 0) + held.get(k, 0) for k, n in now["board"].items()}
        post(gid, {"type": "correction", "player": seat, "set": {"tokens": tokens, "board": board}})
    return gid
