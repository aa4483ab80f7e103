"""Four-player games from the seeded generator (``splendor_autoplay``), checked independently of the engine.

The generator deals real shuffled decks the engine never sees; the test recomputes prestige,
turns and the winner from the event log and the catalogue, and compares.
"""

import json

import pytest

from tracker.rules import catalog, splendor, splendor_autoplay
from tracker.rules.events import Discard, Purchase, Reserve, TakeNoble, TakeTokens, event_to_dict, parse_event
from tracker.rules.tokens import GEM_COLORS

#: Seeds whose games between them cover a shared win, a noble choice, a bought secret reserve, discards.
SEEDS = [4, 15, 17]
ACTIONS = (TakeTokens, Reserve, Purchase)


def _expected_winner(prestige: list[int], cards: list[int]) -> dict:
    """S-4 by hand: most prestige, then fewest cards, then everyone still tied."""
    best = max(prestige)
    fewest = min(c for p, c in zip(prestige, cards) if p == best)
    seats = [s for s in range(len(prestige)) if prestige[s] == best and cards[s] == fewest]
    return {"players": seats, "prestige": best, "cards": fewest}


@pytest.mark.parametrize("seed", SEEDS)
def test_a_four_player_game_runs_to_a_complete_final_round(seed):
    deck_checks = []

    def on_step(event, state, table):
        for level in splendor.LEVEL_SIZES:
            # The engine's count of cards on the table matches the physical table's.
            assert state.cards_on_table(level) == table.cards_on_table(level)
            if table.decks[level]:
                assert state.deck_left(level) == len(table.decks[level])
            else:
                assert state.deck_left(level) <= 0
        deck_checks.append(event)

    setup, events, state = splendor_autoplay.play(seed, players=4, on_step=on_step)
    assert len(deck_checks) == len(events)
    assert state.status == "finished", "the generator plays every game to its end"
    assert len(state.players) == 4 and len(setup["nobles"]) == 5

    # Turns: one action per turn, the start player first, everyone the same number of times.
    actors = [e.player for e in events if isinstance(e, ACTIONS)]
    assert len(actors) == state.turn
    assert actors[0] == setup["first_player"]
    assert all(b == (a + 1) % 4 for a, b in zip(actors, actors[1:])), "clockwise"
    assert len(actors) % 4 == 0 and actors[-1] == (setup["first_player"] - 1) % 4

    # Prestige from the log and the catalogue: printed points of the cards bought, 3 per noble.
    bought = [[e.card for e in events if isinstance(e, Purchase) and e.player == s] for s in range(4)]
    cards = catalog.development_cards()
    prestige = []
    for seat, player in enumerate(state.players):
        assert sorted(player.cards) == sorted(bought[seat])
        bonuses = {c: sum(1 for b in bought[seat] if cards[b].color == c) for c in GEM_COLORS}
        for noble in player.nobles:
            assert all(bonuses[c] >= catalog.nobles()[noble].requires.get(c) for c in GEM_COLORS)
        prestige.append(sum(cards[b].points for b in bought[seat]) + 3 * len(player.nobles))
        assert player.prestige == prestige[-1]
    assert max(prestige) >= splendor.PRESTIGE_TO_END
    assert sorted(setup["nobles"]) == sorted(list(state.nobles_available) + [n for p in state.players for n in p.nobles])

    expected = _expected_winner(prestige, [len(b) for b in bought])
    assert state.winner.to_json() == expected
    assert splendor.to_json(state)["winner"] == expected


@pytest.mark.parametrize("seed", SEEDS[:1])
def test_a_generated_game_replays_from_its_exported_log(seed):
    setup, events, state = splendor_autoplay.play(seed, players=4)
    exported = json.loads(json.dumps([event_to_dict(e) for e in events]))
    assert [parse_event(d, 4) for d in exported] == events
    assert splendor.replay(json.loads(json.dumps(setup)), exported) == state


def test_the_final_round_starts_at_the_first_turn_ending_with_fifteen():
    setup, events, state = splendor_autoplay.play(SEEDS[0], players=4)
    started = None
    for event, before, after in splendor.steps(setup, events):
        if after.final_round and not before.final_round:
            started = before.current_player
            assert after.players[started].prestige >= splendor.PRESTIGE_TO_END
            assert "final_round" in [a.kind for a in after.alerts]
        if not after.final_round and after.turn != before.turn:
            assert all(p.prestige < splendor.PRESTIGE_TO_END for p in after.players)
    assert started is not None


def test_the_chosen_seeds_cover_the_rare_situations():
    seen = set()
    for seed in SEEDS:
        setup, events, state = splendor_autoplay.play(seed, players=4)
        if len(state.winner.players) > 1:
            seen.add("shared win")
        for event, before, after in splendor.steps(setup, events):
            if isinstance(event, TakeNoble):
                seen.add("noble choice")
            if isinstance(event, Discard):
                seen.add("discard")
            if isinstance(event, Purchase) and event.from_reserve:
                if all(r.card != event.card for r in before.players[event.player].reserved):
                    seen.add("secret reserve bought")
    assert seen == {"shared win", "noble choice", "discard", "secret reserve bought"}
