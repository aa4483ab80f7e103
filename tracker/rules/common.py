"""Pieces of game state both engines share: a reserved card and an alert."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .errors import N_, RuleError
from .tokens import GOLD, Tokens, suggest_payment


@dataclass(frozen=True)
class Reserved:
    """A reserved card: named (``card``) or secret (``card is None``, only its ``level`` known)."""

    level: int
    card: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"card": id}`` or, for a secret card, ``{"level": n}`` (GAME-LOG.md)."""
        return {"card": self.card} if self.card else {"level": self.level}


@dataclass(frozen=True)
class Alert:
    """Something the table must notice, raised by the last event.

    ``kind`` is one of GAME-LOG.md's alert kinds (``privilege_gained`` … ``victory``, and in
    Splendor ``noble_visit``, ``noble_due``, ``final_round``); ``template``/``params`` make its
    message (translated by the web layer).
    """

    kind: str
    player: int
    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """The English message."""
        return self.template % dict(self.params)


#: Each player's ``(name, bought card ids, reserved cards)``, in seat order.
Holders = Iterable[tuple[str, Iterable[str], Iterable[Reserved]]]


def card_holder(holders: Holders, card_id: str) -> tuple[int, str, bool] | None:
    """Who holds the named card ``card_id`` (D-6, D-7, S-2.3, S-2.4): ``(seat, name, bought)``,
    ``bought`` False for a card in their reserve; None when no player holds it."""
    for seat, (name, bought, reserved) in enumerate(holders):
        if card_id in bought:
            return seat, name, True
        if any(r.card == card_id for r in reserved):
            return seat, name, False
    return None


def card_taken(holders: Holders, card_id: str, rule: str, buyer: int | None = None) -> RuleError:
    """The refusal of a card named from the table that a player already holds (D-6, D-7, S-2.3,
    S-2.4): ``holders`` as ``card_holder``'s; the sentence says who bought it or whose reserve
    holds it. ``buyer``: the seat of a purchase named from the table, told to buy it from the
    reserve when the card is in their own. Returns (never raises) a
    ``RuleError("card_unavailable")`` with ``rule``."""
    held = card_holder(holders, card_id)
    if held is None:
        return RuleError("card_unavailable", N_("This card is already bought or reserved: %(card)s."), rule, card=card_id)
    seat, name, bought = held
    if bought:
        return RuleError("card_unavailable", N_("%(name)s already bought this card: %(card)s."), rule,
                         name=name, card=card_id)
    if seat == buyer:
        return RuleError("card_unavailable", N_("This card is in %(name)s's own reserve: buy it from the reserve: "
                                                "%(card)s."), rule, name=name, card=card_id)
    return RuleError("card_unavailable", N_("This card is in %(name)s's reserve: %(card)s."), rule,
                     name=name, card=card_id)


def require_affordable(name: str, owed: Tokens, held: Tokens, rule: str) -> None:
    """For a payment that is not the cost: refuse a purchase the buyer could pay no way (D-7,
    S-2.4) by saying so. ``owed`` is the cost after bonuses, ``held`` the buyer's tokens, gold
    standing in for any other one.

    Raises ``RuleError("wrong_payment")`` (GAME-LOG.md: the payment is not the cost) whose
    sentence names what the buyer is short of before gold: a player who cannot afford the card
    is told that, not which payment would be exact. Returns when the card is affordable.
    """
    if suggest_payment(owed, held)[1]:
        return
    short = Tokens(**{k: max(0, n - held.get(k)) for k, n in owed.items() if k != GOLD})
    if held.gold:
        raise RuleError(
            "wrong_payment", N_("%(name)s cannot pay for this card: it costs %(owed)s after bonuses; %(name)s is "
                                "short of %(short)s, with only %(gold)s gold to stand in."),
            rule, name=name, owed=owed, short=short, gold=held.gold,
        )
    raise RuleError(
        "wrong_payment", N_("%(name)s cannot pay for this card: it costs %(owed)s after bonuses; %(name)s is "
                            "short of %(short)s."), rule, name=name, owed=owed, short=short,
    )


#: What a take or a privilege use names and the board (Duel) or supply (Splendor) has none of:
#: one, two or three kinds (a take names three at most).
NONE_LEFT = {
    False: (N_("The board has no %(kind)s left."), N_("The board has no %(kind)s and no %(kind2)s left."),
            N_("The board has no %(kind)s, %(kind2)s or %(kind3)s left.")),
    True: (N_("The supply has no %(kind)s left."), N_("The supply has no %(kind)s and no %(kind2)s left."),
           N_("The supply has no %(kind)s, %(kind2)s or %(kind3)s left.")),
}


def require_in_supply(board: Tokens, tokens: Tokens, rule: str, *, splendor: bool = False) -> None:
    """Refuse taking ``tokens`` the board (Duel: D-3.1, D-5) or the supply (``splendor``: S-2.1)
    lacks. Raises ``RuleError("not_enough_tokens", rule=rule)`` naming the kinds it has none of
    ("The board has no white left.": it said "is 1 white short of 1 white, 1 red", two testers),
    else what is short ("The board is 1 pearl short of 3 pearls."); returns ``None`` when it
    holds them all."""
    if board.covers(tokens):
        return
    gone = [kind for kind, n in tokens.items() if n and not board.get(kind)][:3]
    rest = Tokens.of({kind: n for kind, n in tokens.items() if n and kind not in gone})
    if gone and rest and not board.covers(rest):  # (one gone, two of another asked: three at most)
        template = (N_("The supply has no %(kind)s left and is %(short)s short of %(tokens)s.") if splendor
                    else N_("The board has no %(kind)s left and is %(short)s short of %(tokens)s."))
        raise RuleError("not_enough_tokens", template, rule, kind=gone[0], short=board.lacking(rest), tokens=rest)
    if gone:
        params = dict(zip(("kind", "kind2", "kind3"), gone))
        raise RuleError("not_enough_tokens", NONE_LEFT[splendor][len(gone) - 1], rule, **params)
    template = (N_("The supply is %(short)s short of %(tokens)s.") if splendor
                else N_("The board is %(short)s short of %(tokens)s."))
    raise RuleError("not_enough_tokens", template, rule, tokens=tokens, short=board.lacking(tokens))


def require_held(name: str, held: Tokens, tokens: Tokens, rule: str, *, returning: bool = False) -> None:
    """Refuse moving ``tokens`` from a player who holds fewer: a payment (D-7, S-2.4), or tokens
    given back (``returning``: a discard, D-10, S-3.1); ``held`` is what the player named
    ``name`` holds.

    Raises ``RuleError("not_enough_tokens")`` saying what is short ("Ana cannot pay 2 red, 2 gold:
    1 red, 2 gold short"; "Ana cannot return 3 red: 1 red short"), or that the player holds none
    of them (the list said once, not twice; "Ana holds no gold" for one kind).
    """
    if held.covers(tokens):
        return
    short = held.lacking(tokens)
    if short == tokens:
        kinds = [kind for kind, n in tokens.items() if n]
        if len(kinds) == 1:  # "Ana holds no gold.", not "none of 1 gold"
            raise RuleError("not_enough_tokens", N_("%(name)s holds no %(kind)s."), rule, name=name, kind=kinds[0])
        raise RuleError("not_enough_tokens", N_("%(name)s holds none of %(tokens)s."), rule, name=name, tokens=tokens)
    # (it said "Cid is 2 gold short of 1 blue, 2 gold": a tester read it twice)
    if returning:
        raise RuleError("not_enough_tokens", N_("%(name)s cannot return %(tokens)s: %(short)s short."), rule,
                        name=name, tokens=tokens, short=short)
    raise RuleError("not_enough_tokens", N_("%(name)s cannot pay %(tokens)s: %(short)s short."), rule,
                    name=name, tokens=tokens, short=short)


def balancing_counts(typed: Mapping[str, Tokens | None], now: Mapping[str, Tokens], elsewhere: Iterable[Tokens],
                     totals: Tokens, kinds: Iterable[str]) -> list[tuple[str, str, int, int]]:
    """D-12, S-1: for a correction whose counts break a token total, the single counts that would
    restore it. ``typed``: each part a correction may set (``"tokens"`` of the corrected player,
    ``"board"``, ``"bag"``) to its new counts, ``None`` where the table left it alone; ``now``:
    the same parts' counts before it; ``elsewhere``: the other players' tokens; ``totals``: each
    kind's total in the game. Returns ``[(part, kind, count now, count that balances)]``, kinds
    in ``kinds`` order, parts in ``typed`` order, only counts not retyped (what was typed is what
    the table saw: a part left alone, or a kind a part set for another kind's sake leaves as it
    was, as the board an earlier tap of this offer set for white, a Korean tester's pearls; a
    part set whole as it was is the table's count) and never below 0; empty when every total
    holds. Pure: the Fix sheet offers each as one tap."""
    held = list(elsewhere)
    out = []
    for kind in kinds:
        count = sum((now[part] if bag is None else bag).get(kind) for part, bag in typed.items())
        off = totals.get(kind) - count - sum(t.get(kind) for t in held)
        if not off:
            continue
        for part, bag in typed.items():
            current = now[part].get(kind)
            if (bag is None or (bag.get(kind) == current and bag != now[part])) and current + off >= 0:
                out.append((part, kind, current, current + off))
    return out


def refuse_unchanged_correction(state: Any, ev: Any, rule: str) -> None:
    """D-12 / S-1 (``rule``, the game's): a new correction must change something. ``ev`` is a
    ``Correction`` (its ``player``, a seat of the game, ``tokens``, ``privileges``, ``board``,
    ``bag``); ``state`` a Duel or Splendor state before it. Raises ``RuleError("bad_event")`` when
    every part it sets already holds those counts (an adversarial tester: a fix to the privileges
    already held was recorded, a version and a log line for nothing). Judged on new entries only,
    never in a replay: a stored game keeps whatever it recorded."""
    player = state.players[ev.player]
    parts = ((ev.tokens, player.tokens), (ev.privileges, getattr(player, "privileges", None)),
             (ev.board, state.board), (ev.bag, getattr(state, "bag", None)))
    if all(new is None or new == now for new, now in parts):
        raise RuleError("bad_event", N_("Nothing to correct: the game already has these counts."), rule)

