"""Famiglia (Friedemann Friese), 2 players: the rules engine of RULES.md §1.

A pure module satisfying :class:`shared.rules.Rules`: no I/O, no clock, no global random.

Zones (§1.2): ``deck`` (top = last element, bottom = index 0), ``street`` (an unordered
set kept in arrival order so that cards do not jump around on screen), ``discard`` (top =
last), and per seat a ``hand`` (hidden from the opponent, D-FAM-2) and a ``gang`` (the
play area, public). Cards never leave a player once recruited: a seat's score is the VP
of its hand + gang (§1.7).

Cards (§1.1): 60 cards, ids fixed (:data:`DECK`): family ``f`` in the order La Famiglia,
Accountants, Brutes, Mercenaries owns ids ``15 f .. 15 f + 14`` sorted by value (five 0s,
four 1s, three 2s, two 3s, one 4). Starting set "1" is the first 0 of each family (ids 0,
15, 30, 45), set "2" the second (ids 1, 16, 31, 46). Card codes (config and tests): family
letter ``F``/``A``/``B``/``M`` + printed value, e.g. ``"A3"``.

How the four phases of a turn map onto actions (§1.5). A turn is a sequence of actions
by the active seat; the engine keeps ``step`` = the last phase entered (0 at the start of
the turn), and every action may only move it forward, so phases run in order and each
optional phase is skipped simply by sending an action of a later one:

============  ===================================  ====================================
phase         actions                              allowed while
============  ===================================  ====================================
1 renew       ``renew(card)``, repeatable (P1.3)   step <= 1
2 Accountant  ``accountant(card)``, then up to v   step <= 1
              ``swap(from_gang, from_hand)``       step == 2, fewer than v swaps so far
3 Brute       ``brute(card, target, amount)``      step <= 2
4 recruit     ``take_free(card)``,                 always; ends the turn
              ``take_pair(card, to_gang, keep)``,
              ``pass``
============  ===================================  ====================================

The phase-4 action ends the turn and runs the end-of-turn step (refill, pass count, end
timing, next player). ``pass`` is always legal, so a seat is never stuck.

Events (``data`` fields; cards as :meth:`Card.to_dict`; all public except ``kept``):
``turn`` {seat, turn_no}; ``renew`` {seat, card, to: "discard" | "deck_bottom"};
``street_draw`` {card, reason: "renew" | "refill", deck}; ``reshuffle`` {deck, exhaustion};
``end_triggered`` {seat, during, turn_no, last_turn}; ``accountant`` {seat, card};
``swap`` {seat, from_gang, from_hand, swaps, max}; ``brute`` {seat, card, target, amount,
effective}; ``recruit`` {seat, card, effective, mode: "free" | "pair", to_gang} with the
secret {kept} for the recruiter only; ``pass`` {seat, passes}; ``refill`` {seat, count}
(before its draws); ``game_over`` {reason, scores, winners, decided_by, hands}.

Decisions taken here where RULES.md is silent:

* **Accountant in two steps** (§1.5 phase 2, D-FAM-3, D-FAM-7). ``accountant(card)``
  puts the Accountant into the gang; each ``swap`` then exchanges one gang card for one
  hand card, at most v swaps. A card moved by a swap of this Accountant cannot be moved
  again, and the Accountant itself cannot be taken back: the reachable results are exactly
  those of the simultaneous swap of two sets of k <= v cards (D-FAM-7), while the list of
  legal actions stays small (one swap = one gang card x one hand card, instead of every
  pair of subsets). The swaps end when the seat sends a phase-3 or phase-4 action.
* **take_pair names its cards by destination**: ``to_gang`` goes to the gang, ``keep``
  stays in the hand. The engine decides which of the two is the real card and which the
  Mercenary joker (§1.5 phase 4 "the order is irrelevant"), so every legal take is listed
  exactly once per destination choice.
* **The card kept in the hand after a take_pair** is told to its owner only (``secret``):
  the opponent learns the recruited card and the card sent to the gang. (Nothing is lost:
  a hand is already deducible from the public record; this way no id of a card that was
  never face up is ever sent to another seat.)
* **Hands are revealed at the end** (``game_over`` event and the view once the match is
  over), since the score counts them (§1.7).
* **Scores in the view**: each seat's current score is public. In a real match it is
  deducible from public information (every starting set is worth 1 VP and every recruit
  is face up), and it is what a player would count on the table.
* **Tie-break lists of different lengths** (D-FAM-12): the descending lists are compared
  as Python lists, so when one is a prefix of the other the longer one (an extra card,
  even a 0 VP one) wins.
* **Brute amount**: 1..v even if that exceeds the target's value (the value stops at 0,
  §1.5 phase 3); a Brute can target any street card.
* **Setup with a tiny deck** (test configs only): the deck must hold more than 6 cards
  after hands and gangs are dealt, so that setup never exhausts it.

Randomness (RULES.md §0.2 item 2), always the match's ``random.Random(seed)``, in this
order: ``rng.randrange(2)`` = the starting set of seat 0 (set 1 if 0, D-FAM-15), skipped
when ``hands`` is configured; ``rng.shuffle`` of the cards not stacked by ``deck`` (they go
below the stacked ones); ``rng.randrange(2)`` = the first player unless ``first_player`` is
configured; during play, ``rng.shuffle`` of the discard pile when it becomes the new deck
at the first exhaustion (§1.4).

Config keys: ``seats`` (must be 2, default 2), ``first_player`` (0 or 1, default random),
and for tests only: ``deck`` (card codes stacked on top of the deck in draw order; the
first six make the street), ``hands`` (two lists of codes replacing the starting sets) and
``gangs`` (two lists of codes put in the gangs). Unknown keys are ignored (the table may
pass options meant for other games).
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Mapping

from shared.gamedef import GameDef, Option
from shared.rules import Action, ActionSet, Event, IllegalAction, Window

NAME = "famiglia"
MIN_SEATS = 2
MAX_SEATS = 2

# ---------------------------------------------------------------------------------------
# Cards (RULES.md §1.1): data tables, easy to change (D-FAM-1).

#: (wire name, code letter) of the four families, in id order.
FAMILIES: tuple[tuple[str, str], ...] = (
    ("famiglia", "F"),
    ("accountant", "A"),
    ("brute", "B"),
    ("mercenary", "M"),
)
FAMIGLIA, ACCOUNTANT, BRUTE, MERCENARY = (name for name, _ in FAMILIES)
#: Copies per printed value 0..4, in every family.
COPIES: tuple[int, ...] = (5, 4, 3, 2, 1)
#: VP per printed value 0..4 (D-FAM-1): Accountants, Brutes, Mercenaries / La Famiglia.
VP_COMMON: tuple[int, ...] = (0, 1, 3, 6, 10)
VP_FAMIGLIA: tuple[int, ...] = (1, 3, 6, 10, 15)
#: Cards put in the street at setup and by an end-of-turn refill (§1.3, §1.5).
STREET_SIZE = 6


@dataclass(frozen=True)
class Card:
    """One physical card: ``family`` (wire name), printed ``value`` 0-4, ``vp``."""

    id: int
    family: str
    value: int
    vp: int

    @property
    def code(self) -> str:
        """Short code used by the config and the tests: ``"F3"``, ``"M0"``."""
        return dict(FAMILIES)[self.family] + str(self.value)

    def to_dict(self) -> dict[str, Any]:
        """``{"id", "code", "family", "value", "vp"}``."""
        return {"id": self.id, "code": self.code, "family": self.family,
                "value": self.value, "vp": self.vp}


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for name, _ in FAMILIES:
        table = VP_FAMIGLIA if name == FAMIGLIA else VP_COMMON
        for value, copies in enumerate(COPIES):
            for _ in range(copies):
                cards.append(Card(len(cards), name, value, table[value]))
    return tuple(cards)


#: Every card of the game, indexed by id (0..59).
DECK: tuple[Card, ...] = _build_deck()
assert len(DECK) == 60 and sum(c.vp for c in DECK) == 175
#: The two starting sets (§1.1): one 0 of each family each, ids fixed.
STARTING_SETS: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(15 * f for f in range(4)),
    tuple(15 * f + 1 for f in range(4)),
)


def card(card_id: int) -> Card:
    """The card with that id."""
    return DECK[card_id]


def vp(card_id: int) -> int:
    """Victory points of a card (§1.1 table, D-FAM-1)."""
    return DECK[card_id].vp


# ---------------------------------------------------------------------------------------
# Actions (the move vocabulary shared by the UI, the bots and the network).


@dataclass(frozen=True)
class Renew(Action):
    """Phase 1: remove street ``card`` (to the discard pile, or under the deck after the
    first exhaustion) and draw as many cards as its printed value (§1.5 phase 1)."""

    TYPE = "renew"
    card: int


@dataclass(frozen=True)
class Accountant(Action):
    """Phase 2: put Accountant ``card`` from the hand into the gang (§1.5 phase 2)."""

    TYPE = "accountant"
    card: int


@dataclass(frozen=True)
class Swap(Action):
    """Phase 2, after ``accountant``: gang card ``from_gang`` <-> hand card ``from_hand``
    (one of the at most v swaps, D-FAM-3, D-FAM-7)."""

    TYPE = "swap"
    from_gang: int
    from_hand: int


@dataclass(frozen=True)
class Brute(Action):
    """Phase 3: put Brute ``card`` into the gang and lower street card ``target`` by
    ``amount`` (1..v) for phase 4 of this turn (§1.5 phase 3, D-FAM-4)."""

    TYPE = "brute"
    card: int
    target: int
    amount: int


@dataclass(frozen=True)
class TakeFree(Action):
    """Phase 4 (a): take street ``card`` of effective value 0 into the hand."""

    TYPE = "take_free"
    card: int


@dataclass(frozen=True)
class TakePair(Action):
    """Phase 4 (b): take street ``card`` (effective value e >= 1) with two hand cards of
    value e - 1 of its family, one of which may be a Mercenary joker of value >= e;
    ``to_gang`` goes to the gang, ``keep`` stays in the hand."""

    TYPE = "take_pair"
    card: int
    to_gang: int
    keep: int


@dataclass(frozen=True)
class Pass(Action):
    """Phase 4 (c): take nothing; ends the turn (§1.5 phase 4)."""

    TYPE = "pass"


ACTIONS = ActionSet([Renew, Accountant, Swap, Brute, TakeFree, TakePair, Pass])

# ---------------------------------------------------------------------------------------
# State


@dataclass
class FamigliaState:
    """Full state of a match (the server's secret). Callers treat it as opaque and use
    :func:`view`. ``clone`` gives an independent copy (``apply`` never mutates)."""

    rng: random.Random
    first: int = 0
    turn: int = 0
    turn_no: int = 0
    phase: str = "turn"  # "turn" | "over"
    deck: list[int] = field(default_factory=list)  # top = last
    street: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)  # top = last
    hands: list[list[int]] = field(default_factory=lambda: [[], []])
    gangs: list[list[int]] = field(default_factory=lambda: [[], []])
    exhaustion: int = 0
    end_during: str | None = None  # "renew" | "refill" once the end is triggered
    end_turn_no: int | None = None  # turn in which the end was triggered
    last_turn: int | None = None  # the match ends after this turn (§1.6)
    passes: int = 0  # consecutive turns without a take (D-FAM-13)
    end_reason: str | None = None  # "deck" | "passes"
    # per-turn flags (§1.2)
    step: int = 0  # last phase entered this turn, 0..3 (phase 4 ends the turn)
    renews: int = 0
    renewed_after_exhaustion: bool = False
    accountant: int | None = None
    swaps: list[int] = field(default_factory=list)  # ids moved by this turn's Accountant
    brute: tuple[int, int, int] | None = None  # (brute card, target, amount)

    def clone(self) -> "FamigliaState":
        rng = random.Random(0)  # cheap seed, replaced at once (no urandom read per apply)
        rng.setstate(self.rng.getstate())
        c = FamigliaState.__new__(FamigliaState)
        c.__dict__.update(self.__dict__)
        c.rng = rng
        c.deck = list(self.deck)
        c.street = list(self.street)
        c.discard = list(self.discard)
        c.hands = [list(h) for h in self.hands]
        c.gangs = [list(g) for g in self.gangs]
        c.swaps = list(self.swaps)
        return c

    # -- small queries ------------------------------------------------------------------
    def effective_value(self, card_id: int) -> int:
        """Printed value, lowered by this turn's Brute on its target (§1.5 phase 3)."""
        value = DECK[card_id].value
        if self.brute is not None and self.brute[1] == card_id:
            return max(0, value - self.brute[2])
        return value

    def score(self, seat: int) -> int:
        """Σ VP of the seat's hand and gang (§1.7)."""
        return sum(vp(c) for c in self.hands[seat]) + sum(vp(c) for c in self.gangs[seat])

    @property
    def end_triggered(self) -> bool:
        return self.exhaustion >= 2


# ---------------------------------------------------------------------------------------
# Setup


def _allocate(codes: Any, free: list[int], what: str) -> list[int]:
    """Card ids for ``codes``, each the lowest free id with that code (removed from
    ``free``). Raises ``ValueError`` naming ``what``."""
    if not isinstance(codes, (list, tuple)):
        raise ValueError(f"{what} must be a list of card codes")
    out = []
    for code in codes:
        key = str(code).upper()
        cid = next((c for c in free if DECK[c].code == key), None)
        if cid is None:
            known = any(c.code == key for c in DECK)
            raise ValueError(f"{what}: {'too many copies of' if known else 'unknown card code'} {code!r}")
        free.remove(cid)
        out.append(cid)
    return out


def _pair_option(config: Mapping[str, Any], key: str) -> Any:
    value = config.get(key)
    if value is not None and (not isinstance(value, (list, tuple)) or len(value) != 2):
        raise ValueError(f"{key} must be two lists of card codes, one per seat")
    return value


def new_match(config: Mapping[str, Any], seed: int) -> FamigliaState:
    """A match ready for the first player's phase 1 (§1.3).

    ``config``: see the module docstring. Raises ``ValueError`` for a bad config.
    """
    seats = config.get("seats", 2)
    if seats != 2 or isinstance(seats, bool):
        raise ValueError("Famiglia is played by exactly 2 seats")
    first = config.get("first_player")
    if first is not None and (isinstance(first, bool) or first not in (0, 1)):
        raise ValueError("first_player must be 0 or 1")
    hands_cfg = _pair_option(config, "hands")
    gangs_cfg = _pair_option(config, "gangs")
    s = FamigliaState(rng=random.Random(seed))
    free = [c.id for c in DECK]
    if hands_cfg is None:
        k = s.rng.randrange(2)  # D-FAM-15
        s.hands = [list(STARTING_SETS[k]), list(STARTING_SETS[1 - k])]
        for cid in s.hands[0] + s.hands[1]:
            free.remove(cid)
    else:
        s.hands = [_allocate(hands_cfg[p], free, f"hands[{p}]") for p in range(2)]
    if gangs_cfg is not None:
        s.gangs = [_allocate(gangs_cfg[p], free, f"gangs[{p}]") for p in range(2)]
    stacked = _allocate(config.get("deck", ()), free, "deck")
    s.rng.shuffle(free)
    order = stacked + free  # draw order
    if len(order) <= STREET_SIZE:
        raise ValueError("the deck must hold more than 6 cards after hands and gangs are dealt")
    s.deck = list(reversed(order))
    s.first = first if first is not None else s.rng.randrange(2)
    _draw_to_street(s, STREET_SIZE, "setup", [])
    _begin_turn(s, s.first, [])
    return s


# ---------------------------------------------------------------------------------------
# Helpers used while applying


def _draw_to_street(s: FamigliaState, k: int, reason: str, events: list[Event]) -> None:
    """§1.4 ``draw_to_street(k)``: up to k cards from the top of the deck, face up."""
    for _ in range(k):
        if not s.deck:
            return
        cid = s.deck.pop()
        s.street.append(cid)
        events.append(Event("street_draw", {"card": DECK[cid].to_dict(), "reason": reason,
                                            "deck": len(s.deck)}))
        _on_deck_maybe_empty(s, reason, events)


def _on_deck_maybe_empty(s: FamigliaState, reason: str, events: list[Event]) -> None:
    """§1.4: first exhaustion = reshuffle the discard pile into a new deck; second (or a
    first one with an empty discard pile, D-FAM-8) = the end is triggered (§1.6)."""
    if s.deck or s.exhaustion >= 2:
        return
    if s.exhaustion == 0 and s.discard:
        s.deck, s.discard = s.discard, []
        s.rng.shuffle(s.deck)
        s.exhaustion = 1
        events.append(Event("reshuffle", {"deck": len(s.deck), "exhaustion": 1}))
        return
    s.exhaustion = 2
    s.end_during = reason
    s.end_turn_no = s.turn_no
    s.last_turn = _last_turn(s, reason)
    events.append(Event("end_triggered", {"seat": s.turn, "during": reason, "turn_no": s.turn_no,
                                          "last_turn": s.last_turn}))


def _last_turn(s: FamigliaState, during: str) -> int:
    """The timing table of §1.6 (D-FAM-11): the turn number after which the match ends.
    Turn numbers are odd for the starting player, even for the second player."""
    starting = s.turn == s.first
    if during == "renew":
        return s.turn_no + 1 if starting else s.turn_no
    return s.turn_no + 1 if starting else s.turn_no + 2  # "refill" (or "setup", unreachable)


def _begin_turn(s: FamigliaState, seat: int, events: list[Event]) -> None:
    s.turn = seat
    s.turn_no += 1
    s.step = 0
    s.renews = 0
    s.renewed_after_exhaustion = False
    s.accountant = None
    s.swaps = []
    s.brute = None  # D-FAM-4: the reduction lasts for one turn only
    events.append(Event("turn", {"seat": seat, "turn_no": s.turn_no}))


def _end_turn(s: FamigliaState, took: bool, events: list[Event]) -> None:
    """The end-of-turn step of §1.5: refill, pass count, end timing, next player."""
    s.brute = None
    if not s.street and s.deck:  # D-FAM-10
        at = len(events)
        _draw_to_street(s, STREET_SIZE, "refill", events)
        events.insert(at, Event("refill", {"seat": s.turn, "count": len(s.street)}))
    s.passes = 0 if took else s.passes + 1
    if s.passes >= 2:  # D-FAM-13
        _game_over(s, "passes", events)
        return
    if s.last_turn is not None and s.turn_no >= s.last_turn:
        _game_over(s, "deck", events)
        return
    _begin_turn(s, 1 - s.turn, events)


def _rank_key(s: FamigliaState, seat: int) -> tuple[int, list[int], list[int]]:
    """Score, then the D-FAM-12 tie-break lists: VPs and printed values, descending."""
    owned = s.hands[seat] + s.gangs[seat]
    return (s.score(seat), sorted((vp(c) for c in owned), reverse=True),
            sorted((DECK[c].value for c in owned), reverse=True))


def _result(s: FamigliaState) -> tuple[list[int], str | None]:
    """Winners and what decided them: ``"score"``, ``"vp"`` / ``"values"`` (D-FAM-12
    tie-break steps) or ``"draw"``."""
    a, b = _rank_key(s, 0), _rank_key(s, 1)
    if a == b:
        return [0, 1], "draw"
    winner = 0 if a > b else 1
    decided = "score" if a[0] != b[0] else ("vp" if a[1] != b[1] else "values")
    return [winner], decided


def _game_over(s: FamigliaState, reason: str, events: list[Event]) -> None:
    s.phase = "over"
    s.end_reason = reason
    s.step = 0
    winners, decided = _result(s)
    events.append(Event("game_over", {
        "reason": reason,
        "scores": [s.score(p) for p in range(2)],
        "winners": winners,
        "decided_by": decided,
        "hands": [[DECK[c].to_dict() for c in s.hands[p]] for p in range(2)],
    }))


def _in_hand(s: FamigliaState, seat: int, card_id: Any, what: str) -> Card:
    if card_id not in s.hands[seat]:
        raise IllegalAction(f"{what} is not in your hand")
    return DECK[card_id]


def _in_street(s: FamigliaState, card_id: Any) -> Card:
    if card_id not in s.street:
        raise IllegalAction("that card is not in the street")
    return DECK[card_id]


def _check_pair(s: FamigliaState, seat: int, action: TakePair) -> int:
    """Validate a take with a pair (§1.5 phase 4 (b), D-FAM-5, D-FAM-14); return the
    effective value taken."""
    c = _in_street(s, action.card)
    e = s.effective_value(action.card)
    if e == 0:
        raise IllegalAction("that card is worth 0 now: take it for free")
    if action.to_gang == action.keep:
        raise IllegalAction("a pair is two different cards")
    x = _in_hand(s, seat, action.to_gang, "the card for your gang")
    y = _in_hand(s, seat, action.keep, "the card to keep")
    if not _pair_ok(c, e, x, y):
        raise IllegalAction(
            f"to recruit a {c.family} of value {e} you need two {c.family}s of value {e - 1}, "
            f"or one of them and a Mercenary of value {e} or more")
    return e


def _pair_ok(c: Card, e: int, x: Card, y: Card) -> bool:
    """One of the two assignments (real, real-or-joker) holds; at most one joker."""
    def real(k: Card) -> bool:
        return k.family == c.family and k.value == e - 1

    def joker(k: Card) -> bool:
        return k.family == MERCENARY and k.value >= e

    return (real(x) and (real(y) or joker(y))) or (real(y) and joker(x))


# ---------------------------------------------------------------------------------------
# The Rules interface


def legal_actions(state: FamigliaState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (§1.5), in phase order: renews (phase 1, D-FAM-9),
    Accountants and swaps (phase 2, D-FAM-3, D-FAM-7), Brutes (phase 3), ``take_free``,
    ``take_pair`` (both destinations of each valid pair, D-FAM-5) and ``pass`` (phase 4).
    Empty when it is not that seat's turn or the match is over."""
    s = state
    if s.phase == "over" or seat != s.turn:
        return []
    hand = s.hands[seat]
    out: list[Action] = []
    if _renew_blocker(s) is None:
        out += [Renew(c) for c in s.street]
    if s.step <= 1:
        out += [Accountant(c) for c in hand if DECK[c].family == ACCOUNTANT and DECK[c].value >= 1]
    if s.step == 2 and s.accountant is not None and len(s.swaps) // 2 < DECK[s.accountant].value:
        out += [Swap(g, h) for g in s.gangs[seat] if g != s.accountant and g not in s.swaps
                for h in hand if h not in s.swaps]
    if s.step <= 2:
        out += [Brute(b, t, a) for b in hand if DECK[b].family == BRUTE
                for t in s.street for a in range(1, DECK[b].value + 1)]
    for c in s.street:
        e = s.effective_value(c)
        if e == 0:
            out.append(TakeFree(c))
            continue
        target = DECK[c]
        for x, y in combinations(hand, 2):
            if _pair_ok(target, e, DECK[x], DECK[y]):
                out += [TakePair(c, x, y), TakePair(c, y, x)]
    out.append(Pass())
    return out


def _renew_blocker(s: FamigliaState) -> str | None:
    """Why a renew is impossible now (a sentence), or None (§1.5 phase 1, D-FAM-9)."""
    if s.step > 1:
        return "the street can only be renewed in phase 1, before any other action"
    if s.end_triggered:
        return "the deck has run out for good: the street can no longer be renewed"
    if not s.street:
        return "the street is empty"
    if any(DECK[c].value == 0 for c in s.street):
        return "there is a 0 in the street: it cannot be renewed"
    if s.exhaustion == 1 and s.renewed_after_exhaustion:
        return "since the reshuffle the street can be renewed only once per turn"
    return None


def awaiting(state: FamigliaState) -> frozenset[int]:
    """The active seat, or nobody once the match is over."""
    return frozenset() if state.phase == "over" else frozenset({state.turn})


def apply(state: FamigliaState, seat: int | None, action: Action) -> tuple[FamigliaState, list[Event]]:
    """Check ``action`` by ``seat`` and apply it to a copy.

    Returns ``(new_state, events)``; raises :class:`IllegalAction` with a sentence for
    the player (the given state is never modified).
    """
    s = state.clone()
    events: list[Event] = []
    _dispatch(s, seat, action, events)
    return s, events


def _dispatch(s: FamigliaState, seat: int | None, action: Action, events: list[Event]) -> None:
    if s.phase == "over":
        raise IllegalAction("the match is over")
    if seat not in (0, 1):
        raise IllegalAction("no such seat")
    if seat != s.turn:
        raise IllegalAction("it is not your turn")

    if isinstance(action, Renew):  # phase 1
        why = _renew_blocker(s)
        if why is not None:
            raise IllegalAction(why)
        c = _in_street(s, action.card)
        s.street.remove(c.id)
        if s.exhaustion == 0:
            s.discard.append(c.id)
            where = "discard"
        else:
            s.deck.insert(0, c.id)  # under the deck, before the draw (§1.5 phase 1)
            s.renewed_after_exhaustion = True
            where = "deck_bottom"
        s.step = 1
        s.renews += 1
        events.append(Event("renew", {"seat": seat, "card": c.to_dict(), "to": where}))
        _draw_to_street(s, c.value, "renew", events)
        return

    if isinstance(action, Accountant):  # phase 2
        if s.step > 1:
            raise IllegalAction("the Accountant phase is over")
        a = _in_hand(s, seat, action.card, "that Accountant")
        if a.family != ACCOUNTANT or a.value < 1:
            raise IllegalAction("only an Accountant of value 1 to 4 can be played in phase 2")
        s.hands[seat].remove(a.id)
        s.gangs[seat].append(a.id)
        s.accountant = a.id
        s.step = 2
        events.append(Event("accountant", {"seat": seat, "card": a.to_dict()}))
        return

    if isinstance(action, Swap):
        if s.step != 2 or s.accountant is None:
            raise IllegalAction("swaps follow an Accountant played this turn, before any Brute or recruit")
        v = DECK[s.accountant].value
        if len(s.swaps) // 2 >= v:
            raise IllegalAction(f"your Accountant of value {v} allows only {v} swap{'s' if v > 1 else ''}")
        if action.from_gang == s.accountant:
            raise IllegalAction("the Accountant you just played cannot be taken back")
        if action.from_gang not in s.gangs[seat]:
            raise IllegalAction("that card is not in your gang")
        if action.from_gang in s.swaps or action.from_hand in s.swaps:
            raise IllegalAction("a card moved by this Accountant cannot be moved again")  # D-FAM-7
        g = DECK[action.from_gang]
        h = _in_hand(s, seat, action.from_hand, "that card")
        s.gangs[seat].remove(g.id)
        s.hands[seat].remove(h.id)
        s.hands[seat].append(g.id)
        s.gangs[seat].append(h.id)
        s.swaps += [g.id, h.id]
        events.append(Event("swap", {"seat": seat, "from_gang": g.to_dict(), "from_hand": h.to_dict(),
                                     "swaps": len(s.swaps) // 2, "max": v}))
        return

    if isinstance(action, Brute):  # phase 3
        if s.step > 2:
            raise IllegalAction("you have already used a Brute this turn")
        b = _in_hand(s, seat, action.card, "that Brute")
        if b.family != BRUTE or b.value < 1:
            raise IllegalAction("only a Brute of value 1 to 4 can be played in phase 3")
        t = _in_street(s, action.target)
        if not isinstance(action.amount, int) or not 1 <= action.amount <= b.value:
            raise IllegalAction(f"a Brute of value {b.value} lowers a card by 1 to {b.value}")
        s.hands[seat].remove(b.id)
        s.gangs[seat].append(b.id)
        s.brute = (b.id, t.id, action.amount)
        s.step = 3
        events.append(Event("brute", {"seat": seat, "card": b.to_dict(), "target": t.to_dict(),
                                      "amount": action.amount, "effective": s.effective_value(t.id)}))
        return

    if isinstance(action, TakeFree):  # phase 4 (a)
        c = _in_street(s, action.card)
        e = s.effective_value(c.id)
        if e != 0:
            raise IllegalAction(f"that card is worth {e}: recruit it with a pair")
        s.street.remove(c.id)
        s.hands[seat].append(c.id)
        events.append(Event("recruit", {"seat": seat, "card": c.to_dict(), "effective": 0,
                                        "mode": "free", "to_gang": None}))
        _end_turn(s, True, events)
        return

    if isinstance(action, TakePair):  # phase 4 (b)
        e = _check_pair(s, seat, action)
        s.street.remove(action.card)
        s.hands[seat].remove(action.to_gang)
        s.gangs[seat].append(action.to_gang)
        s.hands[seat].append(action.card)
        events.append(Event("recruit", {"seat": seat, "card": DECK[action.card].to_dict(),
                                        "effective": e, "mode": "pair",
                                        "to_gang": DECK[action.to_gang].to_dict()},
                            secret={"kept": DECK[action.keep].to_dict()}, secret_to=seat))
        _end_turn(s, True, events)
        return

    if isinstance(action, Pass):  # phase 4 (c)
        events.append(Event("pass", {"seat": seat, "passes": s.passes + 1}))
        _end_turn(s, False, events)
        return

    raise IllegalAction("that is not a Famiglia action")


def reaction_window(state: FamigliaState) -> Window | None:
    """Famiglia has no reaction windows: always None."""
    return None


def timeout_action(window: Window) -> Action:
    """Never called: Famiglia opens no window (:func:`reaction_window` is always None).
    Raises ``ValueError`` so that a misrouted timeout fails loudly."""
    raise ValueError("Famiglia has no reaction windows")


def is_over(state: FamigliaState) -> bool:
    """True once the match has ended: by the deck (§1.6, D-FAM-11) or by two passes in a
    row (§1.5 phase 4, D-FAM-13)."""
    return state.phase == "over"


def scores(state: FamigliaState) -> dict[str, Any]:
    """``{"scores": VP per seat (§1.7), "winners": seats (empty until the end),
    "decided_by": "score" | "vp" | "values" | "draw" | None (D-FAM-12), "reason": "deck" |
    "passes" | None}``. Higher is better."""
    s = state
    winners, decided = _result(s) if s.phase == "over" else ([], None)
    return {"scores": [s.score(p) for p in range(2)], "winners": winners,
            "decided_by": decided, "reason": s.end_reason}


def view(state: FamigliaState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (None = spectator), JSON-ready (D-FAM-2).

    Public: the street (each card with its ``effective`` value under this turn's Brute),
    the deck size, the discard pile (bottom to top), the gangs, hand sizes, scores, the
    turn's flags. A hand's cards: only to its owner, and to everybody once the match is
    over. Keys: ``game, seat, seats, phase, turn, first, turn_no, step, street, deck,
    discard, exhaustion, end, passes, renews, renewed_after_exhaustion, accountant,
    brute, players[{seat, hand|None, hand_count, gang, score}], result``.
    """
    s = state
    me = seat if seat in (0, 1) else None
    over = s.phase == "over"
    acc = None
    if s.accountant is not None:
        acc = {"card": DECK[s.accountant].to_dict(), "swaps": len(s.swaps) // 2,
               "max": DECK[s.accountant].value, "moved": list(s.swaps)}
    brute = None
    if s.brute is not None:
        brute = {"card": DECK[s.brute[0]].to_dict(), "target": s.brute[1], "amount": s.brute[2]}
    return {
        "game": NAME,
        "seat": me,
        "seats": 2,
        "phase": s.phase,
        "turn": s.turn,
        "first": s.first,
        "turn_no": s.turn_no,
        "step": s.step,
        "street": [{**DECK[c].to_dict(), "effective": s.effective_value(c)} for c in s.street],
        "deck": len(s.deck),
        "discard": [DECK[c].to_dict() for c in s.discard],
        "exhaustion": s.exhaustion,
        "end": (None if s.last_turn is None else
                {"during": s.end_during, "turn_no": s.end_turn_no, "last_turn": s.last_turn}),
        "passes": s.passes,
        "renews": s.renews,
        "renewed_after_exhaustion": s.renewed_after_exhaustion,
        "accountant": acc,
        "brute": brute,
        "players": [
            {
                "seat": p,
                "hand": [DECK[c].to_dict() for c in s.hands[p]] if (p == me or over) else None,
                "hand_count": len(s.hands[p]),
                "gang": [DECK[c].to_dict() for c in s.gangs[p]],
                "score": s.score(p),
            }
            for p in range(2)
        ],
        "result": scores(s) if over else None,
    }


def zones(state: FamigliaState) -> dict[str, list[int]]:
    """Every card id by zone, for conservation checks and replays: ``deck`` (top last),
    ``street``, ``discard``, ``hand_0``, ``hand_1``, ``gang_0``, ``gang_1``."""
    s = state
    return {
        "deck": list(s.deck),
        "street": list(s.street),
        "discard": list(s.discard),
        "hand_0": list(s.hands[0]),
        "hand_1": list(s.hands[1]),
        "gang_0": list(s.gangs[0]),
        "gang_1": list(s.gangs[1]),
    }


def full_view(state: FamigliaState) -> dict[str, Any]:
    """The spectator view with every card face up (both hands and the deck, top first):
    for replays of finished matches only, never sent during a match."""
    s = state
    v = view(s, None)
    for player in v["players"]:
        player["hand"] = [DECK[c].to_dict() for c in s.hands[player["seat"]]]
    v["deck_cards"] = [DECK[c].to_dict() for c in reversed(s.deck)]
    return v


def _make_bot(seat: int, rng: Any, reaction: Any, think_ms: float) -> Any:
    from shared.bots.famiglia_bot import FamigliaBot
    return FamigliaBot(seat, rng, think_ms=think_ms)


def turn_id(state: FamigliaState) -> Any:
    """The turn in progress for the turn timer: ``(None, turn_no)``."""
    return None, state.turn_no


GAME = GameDef(
    name=NAME, title="Famiglia", min_seats=MIN_SEATS, max_seats=MAX_SEATS, default_seats=2,
    rules=sys.modules[__name__], make_bot=_make_bot,
    claim_outcome=lambda events, seat: None, turn_id=turn_id,
    options=(
        Option("deck", "any", testing=True),
        Option("first_player", "int", seat_bound=True, testing=True),
    ),
)
