"""Omerta (Helvetiq 2019), 3-5 players: the rules engine of RULES.md §2.

A pure module satisfying :class:`shared.rules.Rules`. A *match* is ``rounds`` rounds (one
per player by default, §2.9); a *round* ends when somebody declares Omerta (§2.8).

Zones (§2.2): ``draw_pile`` (top = last element), ``discard`` (top = last), ``safe`` (4
cards), each seat's ``game`` = ordered slots ``(slot_id, card_id)``, the markers
(``mamma`` on a seat, ``patrol`` on a slot), the card in the active player's hand
(``drawn``) and a Mamma/Patrol card held while its Hitwoman window is open
(``attack``). Slot ids are unique within a match and never reused, so an action or a
marker always names the same physical place even after other slots disappear.

Cards: 40 bottles (4 of each value 1-10, D-OM-2) and 20 characters from the
:data:`CHARACTERS` table (counts D-OM-1). Card ids 0..59 are fixed (:data:`DECK`); an id
is never shown to a seat while that seat may not see the card's face.

Randomness (RULES.md §0.2 item 2), always the match's ``random.Random(seed)``, in this
order: at each round start ``rng.shuffle`` of the cards not stacked by the ``deck``
option; then, in round 1 only, ``rng.randrange(n)`` for the first player (D-OM-3) unless
``first_player`` is configured; during play ``rng.shuffle`` of a Lady's target slots
(§2.6.2) and of the discard pile when it becomes the new draw pile (§2.7).

Decisions taken here where RULES.md is silent (players of the card game would do the
same):

* **Tie for the first player** (D-OM-4): "the first tied player clockwise from the
  previous round's first player" is read as in "the first player clockwise from the
  dealer": the search starts at the seat *after* the previous first player, so a tie
  rotates the start.
* **Snitch recipients** are unordered: ``(p, q)`` and ``(q, p)`` are the same action;
  ``legal_actions`` lists ``p <= q`` and cards are given to ``p`` first.
* **Mamma/Patrol card during its Hitwoman window** is held aside (``attack``), not on the
  discard pile, so a penalty draw that reshuffles the discard pile cannot lose it; if the
  attack is countered it goes onto the discard pile below the Hitwoman (D-OM-26).
* **A character with no legal target** (D-OM-5) and Witness, Alibi and Hitwoman
  discarded on one's turn (§2.6.7, §2.6.10) end the turn at once: there is nothing to
  choose.
* **Nothing to draw** (§2.7): when both piles are empty the active player may still
  declare Omerta; otherwise his only action is ``end_turn``.
* **Safecracker**: ``safecracker`` is the look (a private event with the four safe
  cards); the player then sends ``safe_swap`` or ``decline`` (D-OM-15).
* **Timeouts**: a window stays open until every eligible seat has claimed or passed, or
  until the table applies ``window_timeout`` after ``snap_timeout_ms`` (default 3000 ms,
  D-OM-6); the Hitwoman window uses ``counter_timeout_ms`` (same default).

Config keys: ``seats`` (3-5), ``rounds`` (default = seats), ``snap_timeout_ms``,
``counter_timeout_ms``, ``cap_turns_per_player`` (D-OM-25, default 40, 0 = no cap),
and for tests only ``deck`` (card codes stacked on top of round 1's deck, dealt first:
seat 0's four slots, then seat 1's ..., then the safe, then the draw pile in draw order)
and ``first_player``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Mapping

from shared.rules import Action, ActionSet, Event, IllegalAction, Window

NAME = "omerta"
MIN_SEATS = 3
MAX_SEATS = 5

# ---------------------------------------------------------------------------------------
# Cards (RULES.md §2.1): one data table, easy to change (D-OM-1, D-OM-2).

BOTTLE_VALUES = range(1, 11)
BOTTLE_COPIES = 4
#: (name, points, copies) of every character, RULES.md §2.1.
CHARACTERS: tuple[tuple[str, int, int], ...] = (
    ("henchman", 15, 3),
    ("lady", 15, 3),
    ("mole", 15, 3),
    ("snitch", 20, 2),
    ("driver", 20, 3),
    ("safecracker", 15, 1),
    ("hitwoman", 15, 1),
    ("witness", 10, 1),
    ("alibi", 0, 1),
    ("mamma", 15, 1),
    ("police_patrol", 15, 1),
)
#: Characters whose effect a Hitwoman can counter (the "(H)" of §2.6).
COUNTERABLE = frozenset({"henchman", "lady", "snitch", "mamma", "police_patrol"})
#: Characters activated by choosing targets when discarded on one's turn (§2.6).
ACTIVE_POWERS = frozenset(
    {"henchman", "lady", "mole", "snitch", "driver", "safecracker", "mamma", "police_patrol"}
)
#: Stock at or below which a declaration can succeed (§2.8).
OMERTA_LIMIT = 7
#: Points added to a failed declarer's stock (§2.8).
FAILED_DECLARATION_PENALTY = 20


@dataclass(frozen=True)
class Card:
    """One physical card. ``name`` is ``"bottle"`` or a character name; ``value`` the
    bottle value (0 for characters); ``points`` what it adds to a stock."""

    id: int
    name: str
    value: int
    points: int

    @property
    def is_bottle(self) -> bool:
        return self.name == "bottle"

    @property
    def code(self) -> str:
        """Short code used by the ``deck`` option: ``"7"`` or ``"henchman"``."""
        return str(self.value) if self.is_bottle else self.name

    def to_dict(self) -> dict[str, Any]:
        """``{"id", "kind": "bottle"|"character", "name", "value", "points"}`` (a new dict)."""
        return dict(_CARD_DICTS[self.id])


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for value in BOTTLE_VALUES:
        for _ in range(BOTTLE_COPIES):
            cards.append(Card(len(cards), "bottle", value, value))
    for name, points, copies in CHARACTERS:
        for _ in range(copies):
            cards.append(Card(len(cards), name, 0, points))
    return tuple(cards)


#: Every card of the game, indexed by id (0..59).
DECK: tuple[Card, ...] = _build_deck()
assert len(DECK) == 60
_CARD_DICTS: tuple[dict[str, Any], ...] = tuple(
    {"id": c.id, "kind": "bottle" if c.is_bottle else "character", "name": c.name,
     "value": c.value, "points": c.points}
    for c in DECK
)


def card(card_id: int) -> Card:
    """The card with that id."""
    return DECK[card_id]


# ---------------------------------------------------------------------------------------
# Actions (the move vocabulary shared by the UI, the bots and the network).


@dataclass(frozen=True)
class Peek(Action):
    """Initial look at two different own slots (§2.3 step 4)."""

    TYPE = "peek"
    slots: tuple[int, ...]


@dataclass(frozen=True)
class DeclareOmerta(Action):
    """End the round now, at the start of one's turn (§2.4 step 1)."""

    TYPE = "declare_omerta"


@dataclass(frozen=True)
class DrawDeck(Action):
    """Take the top card of the draw pile, privately (§2.4 step 2)."""

    TYPE = "draw_deck"


@dataclass(frozen=True)
class TakeDiscard(Action):
    """Take the top card of the discard pile (§2.4 step 2, D-OM-9)."""

    TYPE = "take_discard"


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn without drawing; only when both piles are empty (§2.7, D-OM-8)."""

    TYPE = "end_turn"


@dataclass(frozen=True)
class Replace(Action):
    """Put the drawn card into own slot ``slot``; its card goes face up to the discard."""

    TYPE = "replace"
    slot: int


@dataclass(frozen=True)
class DiscardDrawn(Action):
    """Discard the card drawn from the pile (§2.4 step 3)."""

    TYPE = "discard_drawn"


@dataclass(frozen=True)
class Snap(Action):
    """Claim in a snap window: reveal own ``slot`` as the same bottle (§2.5)."""

    TYPE = "snap"
    slot: int


@dataclass(frozen=True)
class SnapPass(Action):
    """Answer "no snap" in a snap window."""

    TYPE = "snap_pass"


@dataclass(frozen=True)
class Henchman(Action):
    """Swap the cards of two slots of two different players (§2.6.1)."""

    TYPE = "henchman"
    slots: tuple[int, ...]


@dataclass(frozen=True)
class Lady(Action):
    """Shuffle another player's game (§2.6.2)."""

    TYPE = "lady"
    target: int


@dataclass(frozen=True)
class Mole(Action):
    """Look at one own slot (§2.6.3)."""

    TYPE = "mole"
    slot: int


@dataclass(frozen=True)
class Snitch(Action):
    """Give the top two cards of the draw pile: ``(p, p)`` or ``(p, q)`` (§2.6.4)."""

    TYPE = "snitch"
    recipients: tuple[int, ...]


@dataclass(frozen=True)
class Driver(Action):
    """Reveal one or two own slots; all bottles -> discarded, else a penalty (§2.6.5)."""

    TYPE = "driver"
    slots: tuple[int, ...]


@dataclass(frozen=True)
class Safecracker(Action):
    """Look at the four safe cards (§2.6.6); then ``safe_swap`` or ``decline``."""

    TYPE = "safecracker"


@dataclass(frozen=True)
class SafeSwap(Action):
    """Exchange own ``slot`` (unseen) with safe card ``index`` (0-3) (§2.6.6)."""

    TYPE = "safe_swap"
    slot: int
    index: int


@dataclass(frozen=True)
class Mamma(Action):
    """Make ``target`` skip his next turn (§2.6.8)."""

    TYPE = "mamma"
    target: int


@dataclass(frozen=True)
class PolicePatrol(Action):
    """Block another player's ``slot`` for two turns of the placer (§2.6.9)."""

    TYPE = "police_patrol"
    slot: int


@dataclass(frozen=True)
class Decline(Action):
    """Do not activate the discarded character, or end a Safecracker without a swap."""

    TYPE = "decline"


@dataclass(frozen=True)
class Hitwoman(Action):
    """Claim in a Hitwoman window: reveal own ``slot`` as the Hitwoman (§2.6.7)."""

    TYPE = "hitwoman"
    slot: int


@dataclass(frozen=True)
class HitwomanPass(Action):
    """Answer "no counter" in a Hitwoman window."""

    TYPE = "hitwoman_pass"


@dataclass(frozen=True)
class WindowTimeout(Action):
    """Applied by the table (seat None) when window ``window`` reaches its time limit."""

    TYPE = "window_timeout"
    SYSTEM_ONLY = True
    window: int


ACTIONS = ActionSet(
    [
        Peek, DeclareOmerta, DrawDeck, TakeDiscard, EndTurn, Replace, DiscardDrawn,
        Snap, SnapPass, Henchman, Lady, Mole, Snitch, Driver, Safecracker, SafeSwap,
        Mamma, PolicePatrol, Decline, Hitwoman, HitwomanPass, WindowTimeout,
    ]
)

_POWER_ACTIONS: dict[str, type[Action]] = {
    "henchman": Henchman,
    "lady": Lady,
    "mole": Mole,
    "snitch": Snitch,
    "driver": Driver,
    "safecracker": Safecracker,
    "mamma": Mamma,
    "police_patrol": PolicePatrol,
}

# ---------------------------------------------------------------------------------------
# State


@dataclass
class _Window:
    id: int
    kind: str  # "snap" | "hitwoman"
    eligible: frozenset[int]
    pending: frozenset[int]
    timeout_ms: int
    value: int = 0  # snap: the bottle value
    attack: Action | None = None  # hitwoman: the attack waiting for its counter window
    attacker: int = -1
    targets: tuple[int, ...] = ()


@dataclass
class OmertaState:
    """Full state of a match (the server's secret). Callers treat it as opaque and use
    :func:`view`. ``clone`` gives an independent copy (``apply`` never mutates)."""

    n: int
    rounds: int
    rng: random.Random
    snap_timeout_ms: int
    counter_timeout_ms: int
    cap_turns: int  # 0 = no safety cap
    stacked_deck: tuple[int, ...] = ()
    round: int = 0
    phase: str = "peek"  # "peek" | "turn" | "over"
    step: str = "start"  # turn step: "start" | "drawn" | "power" | "safe" | "window"
    turn: int = 0
    first: int = 0
    turn_no: int = 0
    draw_pile: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    safe: list[int] = field(default_factory=list)
    games: list[list[tuple[int, int]]] = field(default_factory=list)
    next_slot: int = 0
    peeked: list[bool] = field(default_factory=list)
    drawn: int | None = None
    drawn_from: str | None = None
    power: str | None = None  # character waiting for its activation choice
    attack_card: int | None = None  # Mamma/Patrol held during its Hitwoman window
    mamma: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # target -> (placer, left, card)
    patrol: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)  # slot -> (placer, left, card, target)
    window: _Window | None = None
    next_window: int = 1
    totals: list[int] = field(default_factory=list)
    round_scores: list[list[int]] = field(default_factory=list)
    last_round: dict[str, Any] | None = None

    def clone(self) -> "OmertaState":
        rng = random.Random(0)  # cheap seed, replaced at once
        rng.setstate(self.rng.getstate())
        c = OmertaState.__new__(OmertaState)
        c.__dict__.update(self.__dict__)
        c.rng = rng
        c.draw_pile = list(self.draw_pile)
        c.discard = list(self.discard)
        c.safe = list(self.safe)
        c.games = [list(g) for g in self.games]
        c.peeked = list(self.peeked)
        c.mamma = dict(self.mamma)
        c.patrol = dict(self.patrol)
        c.totals = list(self.totals)
        c.round_scores = [list(r) for r in self.round_scores]
        if self.window is not None:
            w = self.window
            c.window = _Window(w.id, w.kind, w.eligible, w.pending, w.timeout_ms, w.value,
                               w.attack, w.attacker, w.targets)
        return c

    # -- small queries ------------------------------------------------------------------
    def owner(self, slot_id: int) -> int | None:
        for seat, game in enumerate(self.games):
            for sid, _ in game:
                if sid == slot_id:
                    return seat
        return None

    def card_in(self, slot_id: int) -> int:
        for game in self.games:
            for sid, cid in game:
                if sid == slot_id:
                    return cid
        raise KeyError(slot_id)

    def free_slots(self, seat: int) -> list[int]:
        """Slots of ``seat`` without a patrol marker."""
        return [sid for sid, _ in self.games[seat] if sid not in self.patrol]

    def stock(self, seat: int) -> int:
        """Σ points of the cards in the seat's slots (§2.2); markers and safe excluded."""
        return sum(DECK[cid].points for _, cid in self.games[seat])


# ---------------------------------------------------------------------------------------
# Setup


def _parse_deck(codes: Any) -> tuple[int, ...]:
    if not isinstance(codes, (list, tuple)):
        raise ValueError("deck must be a list of card codes")
    remaining: dict[str, list[int]] = {}
    for c in DECK:
        remaining.setdefault(c.code, []).append(c.id)
    out = []
    for code in codes:
        key = str(code)
        if key not in remaining:
            raise ValueError(f"deck: unknown card code {code!r}")
        if not remaining[key]:
            raise ValueError(f"deck: too many copies of {code!r}")
        out.append(remaining[key].pop(0))
    return tuple(out)


def _int_option(config: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = config.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{key} must be an integer in {lo}..{hi}")
    return value


def new_match(config: Mapping[str, Any], seed: int) -> OmertaState:
    """A match dealt for round 1, in the initial-peek phase (§2.3).

    ``config``: see the module docstring. Raises ``ValueError`` for a bad config.
    """
    n = _int_option(config, "seats", 4, MIN_SEATS, MAX_SEATS)
    s = OmertaState(
        n=n,
        rounds=_int_option(config, "rounds", n, 1, 20),
        rng=random.Random(seed),
        snap_timeout_ms=_int_option(config, "snap_timeout_ms", 3000, 1, 600_000),
        counter_timeout_ms=_int_option(
            config, "counter_timeout_ms", config.get("snap_timeout_ms", 3000), 1, 600_000),
        cap_turns=_int_option(config, "cap_turns_per_player", 40, 0, 10_000) * n,
        stacked_deck=_parse_deck(config.get("deck", ())),
        totals=[0] * n,
    )
    if len(s.stacked_deck) > len(DECK):
        raise ValueError("deck: too many cards")
    first = config.get("first_player")
    if first is not None and (not isinstance(first, int) or not 0 <= first < n):
        raise ValueError("first_player must be a seat index")
    _start_round(s, [], first)
    return s


def _start_round(s: OmertaState, events: list[Event], first: int | None = None) -> None:
    s.round += 1
    stacked = s.stacked_deck if s.round == 1 else ()
    taken = set(stacked)
    rest = [c.id for c in DECK if c.id not in taken]
    s.rng.shuffle(rest)
    order = list(stacked) + rest
    s.games = []
    for seat in range(s.n):
        game = []
        for i in range(4):
            game.append((s.next_slot, order[seat * 4 + i]))
            s.next_slot += 1
        s.games.append(game)
    k = 4 * s.n
    s.safe = order[k:k + 4]
    s.draw_pile = list(reversed(order[k + 4:]))
    s.discard = []
    s.mamma.clear()
    s.patrol.clear()
    s.peeked = [False] * s.n
    s.drawn = s.drawn_from = s.power = s.attack_card = None
    s.window = None
    s.turn_no = 0
    s.phase, s.step = "peek", "start"
    if s.round == 1:
        s.first = first if first is not None else s.rng.randrange(s.n)
    else:
        best = max(s.totals)
        prev = s.first
        s.first = next(
            (prev + k) % s.n for k in range(1, s.n + 1) if s.totals[(prev + k) % s.n] == best
        )
    s.turn = s.first
    events.append(Event("round_started", {
        "round": s.round,
        "rounds": s.rounds,
        "first": s.first,
        "slots": [[sid for sid, _ in g] for g in s.games],
        "safe": len(s.safe),
        "draw_pile": len(s.draw_pile),
    }))


# ---------------------------------------------------------------------------------------
# Helpers used while applying


def _slot_of(s: OmertaState, seat: int, slot_id: Any, what: str = "that slot") -> int:
    """Check that ``slot_id`` is one of ``seat``'s slots without a patrol marker."""
    if not any(sid == slot_id for sid, _ in s.games[seat]):
        raise IllegalAction(f"{what} is not one of your cards")
    if slot_id in s.patrol:
        raise IllegalAction(f"{what} is under a Police Patrol")
    return slot_id


def _set_card(s: OmertaState, slot_id: int, card_id: int) -> None:
    for game in s.games:
        for i, (sid, _) in enumerate(game):
            if sid == slot_id:
                game[i] = (sid, card_id)
                return
    raise KeyError(slot_id)


def _remove_slot(s: OmertaState, slot_id: int) -> int:
    for game in s.games:
        for i, (sid, cid) in enumerate(game):
            if sid == slot_id:
                del game[i]
                return cid
    raise KeyError(slot_id)


def _new_slot(s: OmertaState, seat: int, card_id: int) -> int:
    sid = s.next_slot
    s.next_slot += 1
    s.games[seat].append((sid, card_id))
    return sid


def _take_from_pile(s: OmertaState, events: list[Event]) -> int | None:
    """Top card of the draw pile, reshuffling the discard pile first if needed (§2.7);
    None when both piles are empty (D-OM-8)."""
    if not s.draw_pile:
        if not s.discard:
            return None
        s.draw_pile = s.discard
        s.discard = []
        s.rng.shuffle(s.draw_pile)
        events.append(Event("reshuffle", {"draw_pile": len(s.draw_pile)}))
    return s.draw_pile.pop()


def _penalty(s: OmertaState, seat: int, events: list[Event], reason: str) -> None:
    """One face-down card from the draw pile into a new slot, unseen (§2.5, D-OM-7)."""
    cid = _take_from_pile(s, events)
    if cid is None:
        events.append(Event("penalty", {"seat": seat, "slot": None, "reason": reason}))
        return
    sid = _new_slot(s, seat, cid)
    events.append(Event("penalty", {"seat": seat, "slot": sid, "reason": reason}))


def _reveal(s: OmertaState, seat: int, slot_id: int) -> dict[str, Any]:
    return DECK[s.card_in(slot_id)].to_dict()


def _can_draw(s: OmertaState) -> bool:
    return bool(s.draw_pile or s.discard)


def _eligible_for_snap(s: OmertaState) -> frozenset[int]:
    """§2.5: not under a Mamma and at least one slot without a patrol marker."""
    return frozenset(p for p in range(s.n) if p not in s.mamma and s.free_slots(p))


def _expire_markers(s: OmertaState, placer: int, events: list[Event]) -> None:
    """Count one turn of ``placer`` on his markers; move expired ones onto the discard
    pile (§2.4 step 2, D-OM-17, D-OM-18, D-OM-31)."""
    for target, (who, left, cid) in list(s.mamma.items()):
        if who == placer:
            if left <= 1:
                del s.mamma[target]
                s.discard.append(cid)
                events.append(Event("marker_removed", {
                    "kind": "mamma", "seat": target, "slot": None, "placer": placer,
                    "card": DECK[cid].to_dict()}))
            else:
                s.mamma[target] = (who, left - 1, cid)
    for sid, (who, left, cid, target) in list(s.patrol.items()):
        if who == placer:
            if left <= 1:
                del s.patrol[sid]
                s.discard.append(cid)
                events.append(Event("marker_removed", {
                    "kind": "police_patrol", "seat": target, "slot": sid, "placer": placer,
                    "card": DECK[cid].to_dict()}))
            else:
                s.patrol[sid] = (who, left - 1, cid, target)


def _begin_turn(s: OmertaState, seat: int, events: list[Event]) -> None:
    """Start the turn of ``seat``, skipping turns under a Mamma (§2.4 step 0) and
    applying the safety cap (D-OM-25)."""
    while True:
        if s.cap_turns and s.turn_no >= s.cap_turns:
            _end_round(s, events, declarer=None)
            return
        s.turn = seat
        s.turn_no += 1
        s.step = "start"
        s.drawn = s.drawn_from = s.power = None
        if seat in s.mamma:
            events.append(Event("turn_skipped", {"seat": seat, "reason": "mamma", "turn_no": s.turn_no}))
            _expire_markers(s, seat, events)
            seat = (seat + 1) % s.n
            continue
        events.append(Event("turn", {"seat": seat, "turn_no": s.turn_no}))
        return


def _end_turn(s: OmertaState, events: list[Event]) -> None:
    s.window = None
    s.power = None
    s.drawn = s.drawn_from = None
    _begin_turn(s, (s.turn + 1) % s.n, events)


def _end_round(s: OmertaState, events: list[Event], declarer: int | None) -> None:
    """Reveal, score (§2.8 table; D-OM-21; safety cap D-OM-25), then deal the next round
    or end the match (§2.9)."""
    stocks = [s.stock(p) for p in range(s.n)]
    scores = list(stocks)
    success = None
    if declarer is None:
        low = min(stocks)
        scores = [0 if v == low else v for v in stocks]
    else:
        d = stocks[declarer]
        others = [stocks[q] for q in range(s.n) if q != declarer]
        success = d <= OMERTA_LIMIT and all(d <= v for v in others)
        if success:
            scores[declarer] = 0
        else:
            scores[declarer] = d + FAILED_DECLARATION_PENALTY
            low = min(others)
            for q in range(s.n):
                if q != declarer and stocks[q] == low:
                    scores[q] = 0
    for p in range(s.n):
        s.totals[p] += scores[p]
    s.round_scores.append(scores)
    s.last_round = {
        "round": s.round,
        "declarer": declarer,
        "success": success,
        "capped": declarer is None,
        "stocks": stocks,
        "round_scores": scores,
        "totals": list(s.totals),
        "games": [[{"slot": sid, "card": DECK[cid].to_dict()} for sid, cid in g] for g in s.games],
    }
    events.append(Event("round_over", dict(s.last_round)))
    s.window = None
    s.drawn = s.drawn_from = s.power = None
    if s.attack_card is not None:  # cannot happen (no declaration during a window); keep cards whole
        s.discard.append(s.attack_card)
        s.attack_card = None
    if s.round >= s.rounds:
        s.phase = "over"
        s.step = "start"
        events.append(Event("match_over", {"scores": list(s.totals), "winners": _winners(s)}))
        return
    _start_round(s, events)


def _winners(s: OmertaState) -> list[int]:
    low = min(s.totals)
    return [p for p in range(s.n) if s.totals[p] == low]  # D-OM-24


# ---------------------------------------------------------------------------------------
# Step 4: triggers of the card that reached the discard pile


def _trigger(s: OmertaState, card_id: int, events: list[Event]) -> None:
    c = DECK[card_id]
    if c.is_bottle:
        _open_snap_window(s, c.value, events)
        return
    if c.name in ACTIVE_POWERS and _power_actions(s, c.name):
        s.power = c.name
        s.step = "power"
        events.append(Event("power_available", {"seat": s.turn, "card": c.name}))
        return
    _end_turn(s, events)


def _open_snap_window(s: OmertaState, value: int, events: list[Event]) -> None:
    eligible = _eligible_for_snap(s)
    if not eligible:
        _end_turn(s, events)
        return
    s.window = _Window(s.next_window, "snap", eligible, eligible, s.snap_timeout_ms, value=value)
    s.next_window += 1
    s.step = "window"
    events.append(Event("window_opened", _window_public(s.window)))


def _window_public(w: _Window) -> dict[str, Any]:
    out: dict[str, Any] = {
        "window": w.id,
        "kind": w.kind,
        "claim_types": [w.kind],  # "snap" or "hitwoman"
        "pass_type": f"{w.kind}_pass",
        "eligible": sorted(w.eligible),
        "pending": sorted(w.pending),
        "timeout_ms": w.timeout_ms,
    }
    if w.kind == "snap":
        out["value"] = w.value
    else:
        out["attack"] = w.attack.to_dict() if w.attack else None
        out["attacker"] = w.attacker
        out["targets"] = list(w.targets)
    return out


def _close_window(s: OmertaState, events: list[Event], reason: str) -> None:
    w = s.window
    assert w is not None
    s.window = None
    events.append(Event("window_closed", {"window": w.id, "kind": w.kind, "reason": reason}))
    if w.kind == "hitwoman" and reason != "countered":
        assert w.attack is not None
        _resolve_attack(s, w.attacker, w.attack, events)
    else:
        if w.kind == "hitwoman" and s.attack_card is not None:
            s.discard.insert(len(s.discard) - 1, s.attack_card)  # D-OM-26: under the Hitwoman
            s.attack_card = None
        _end_turn(s, events)


def _answered(s: OmertaState, seat: int, events: list[Event]) -> None:
    w = s.window
    assert w is not None
    w.pending = w.pending - {seat}
    if not w.pending:
        _close_window(s, events, "all_answered")


# ---------------------------------------------------------------------------------------
# Character powers (§2.6)


def _henchman_targets(s: OmertaState, a: int, slots: tuple[int, ...]) -> tuple[int, ...]:
    if len(slots) != 2 or slots[0] == slots[1]:
        raise IllegalAction("a Henchman swaps exactly two different cards")
    owners = []
    for sid in slots:
        o = s.owner(sid)
        if o is None:
            raise IllegalAction("there is no such card on the table")
        if sid in s.patrol:
            raise IllegalAction("that card is under a Police Patrol")
        owners.append(o)
    if owners[0] == owners[1]:
        raise IllegalAction("a Henchman swaps cards of two different players")
    return tuple(sorted({o for o in owners if o != a}))


def _check_power(s: OmertaState, a: int, action: Action) -> tuple[int, ...]:
    """Validate a power action of active seat ``a``; return the targeted seats other than
    ``a`` (the counter window's candidates)."""
    if isinstance(action, Henchman):
        return _henchman_targets(s, a, action.slots)
    if isinstance(action, Lady):
        t = action.target
        if not 0 <= t < s.n or t == a:
            raise IllegalAction("a Lady shuffles another player's game")
        if t in s.mamma:
            raise IllegalAction("a player under the Mamma cannot be shuffled")
        if not s.games[t]:
            raise IllegalAction("that player has no cards")
        return (t,)
    if isinstance(action, Mole):
        _slot_of(s, a, action.slot)
        return ()
    if isinstance(action, Snitch):
        r = action.recipients
        if len(r) != 2:
            raise IllegalAction("a Snitch gives exactly two cards")
        for p in r:
            if not 0 <= p < s.n or p == a:
                raise IllegalAction("a Snitch gives cards to other players")
            if p in s.mamma:
                raise IllegalAction("a player under the Mamma cannot receive cards")
        return tuple(sorted(set(r)))
    if isinstance(action, Driver):
        if not 1 <= len(action.slots) <= 2 or len(set(action.slots)) != len(action.slots):
            raise IllegalAction("a Driver discards one or two different cards of yours")
        for sid in action.slots:
            _slot_of(s, a, sid)
        return ()
    if isinstance(action, Safecracker):
        return ()
    if isinstance(action, Mamma):
        t = action.target
        if not 0 <= t < s.n or t == a:
            raise IllegalAction("the Mamma targets another player")
        if t in s.mamma:
            raise IllegalAction("that player is already under the Mamma")
        return (t,)
    if isinstance(action, PolicePatrol):
        t = s.owner(action.slot)
        if t is None:
            raise IllegalAction("there is no such card on the table")
        if t == a:
            raise IllegalAction("the Police Patrol blocks another player's card")
        if action.slot in s.patrol:
            raise IllegalAction("that card already carries a marker")
        return (t,)
    raise IllegalAction("that is not the power of the card you discarded")  # pragma: no cover


def _activate(s: OmertaState, a: int, action: Action, events: list[Event]) -> None:
    targets = _check_power(s, a, action)
    events.append(Event("power", {"seat": a, "card": s.power, "action": action.to_dict()}))
    s.power = None
    if isinstance(action, (Mamma, PolicePatrol)):
        s.attack_card = s.discard.pop()  # the character itself becomes the marker
    if action.TYPE in COUNTERABLE:
        eligible = frozenset(t for t in targets if t not in s.mamma and s.free_slots(t))
        if eligible:
            s.window = _Window(s.next_window, "hitwoman", eligible, eligible,
                               s.counter_timeout_ms, attack=action, attacker=a, targets=targets)
            s.next_window += 1
            s.step = "window"
            events.append(Event("window_opened", _window_public(s.window)))
            return
        _resolve_attack(s, a, action, events)
        return
    _resolve_own_power(s, a, action, events)


def _resolve_own_power(s: OmertaState, a: int, action: Action, events: list[Event]) -> None:
    if isinstance(action, Mole):
        events.append(Event("look", {"seat": a, "reason": "mole", "slots": [action.slot]},
                            secret={"cards": [_reveal(s, a, action.slot)]}, secret_to=a))
        _end_turn(s, events)
    elif isinstance(action, Driver):
        revealed = [DECK[s.card_in(sid)] for sid in action.slots]
        ok = all(c.is_bottle for c in revealed)
        events.append(Event("driver", {
            "seat": a, "slots": list(action.slots), "cards": [c.to_dict() for c in revealed],
            "success": ok}))
        if ok:
            for sid in action.slots:
                s.discard.append(_remove_slot(s, sid))  # no snap window (D-OM-14)
        else:
            _penalty(s, a, events, "driver")
        _end_turn(s, events)
    elif isinstance(action, Safecracker):
        s.step = "safe"
        events.append(Event("look", {"seat": a, "reason": "safe", "slots": []},
                            secret={"cards": [DECK[c].to_dict() for c in s.safe]}, secret_to=a))


def _resolve_attack(s: OmertaState, a: int, action: Action, events: list[Event]) -> None:
    """Apply a counterable power whose counter window closed without a Hitwoman."""
    if isinstance(action, Henchman):
        x, y = action.slots
        cx, cy = s.card_in(x), s.card_in(y)
        _set_card(s, x, cy)
        _set_card(s, y, cx)
        events.append(Event("swap", {"seat": a, "slots": [x, y]}))
    elif isinstance(action, Lady):
        free = s.free_slots(action.target)
        cards = [s.card_in(sid) for sid in free]
        s.rng.shuffle(cards)
        for sid, cid in zip(free, cards):
            _set_card(s, sid, cid)
        events.append(Event("shuffle", {"seat": action.target, "slots": free}))
    elif isinstance(action, Snitch):
        for p in sorted(action.recipients):
            cid = _take_from_pile(s, events)
            if cid is None:
                events.append(Event("give", {"seat": p, "slot": None}))
                continue
            events.append(Event("give", {"seat": p, "slot": _new_slot(s, p, cid)}))
    elif isinstance(action, Mamma):
        assert s.attack_card is not None
        s.mamma[action.target] = (a, 1, s.attack_card)
        s.attack_card = None
        events.append(Event("marker_placed", {"kind": "mamma", "seat": action.target,
                                              "slot": None, "placer": a}))
    elif isinstance(action, PolicePatrol):
        assert s.attack_card is not None
        target = s.owner(action.slot)
        assert target is not None
        s.patrol[action.slot] = (a, 2, s.attack_card, target)
        s.attack_card = None
        events.append(Event("marker_placed", {"kind": "police_patrol", "seat": target,
                                              "slot": action.slot, "placer": a}))
    _end_turn(s, events)


def _power_actions(s: OmertaState, name: str) -> list[Action]:
    """Every legal activation of character ``name`` by the active seat (§2.6)."""
    a = s.turn
    others = [p for p in range(s.n) if p != a]
    if name == "henchman":
        pool = [(p, sid) for p in range(s.n) for sid in s.free_slots(p)]
        # two slots of two different players: A and another, or two others (§2.6.1)
        return [Henchman((x, y)) for (p, x), (q, y) in combinations(pool, 2) if p != q]
    if name == "lady":
        return [Lady(t) for t in others if t not in s.mamma and s.games[t]]
    if name == "mole":
        return [Mole(sid) for sid in s.free_slots(a)]
    if name == "snitch":
        ok = [p for p in others if p not in s.mamma]
        return [Snitch((p, q)) for i, p in enumerate(ok) for q in ok[i:]]
    if name == "driver":
        free = s.free_slots(a)
        return [Driver((x,)) for x in free] + [Driver(pair) for pair in combinations(free, 2)]
    if name == "safecracker":
        return [Safecracker()]
    if name == "mamma":
        return [Mamma(t) for t in others if t not in s.mamma]
    if name == "police_patrol":
        return [PolicePatrol(sid) for t in others for sid, _ in s.games[t] if sid not in s.patrol]
    return []


# ---------------------------------------------------------------------------------------
# The Rules interface


def legal_actions(state: OmertaState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (turn actions, choices, window claims)."""
    s = state
    if s.phase == "over" or not 0 <= seat < s.n:
        return []
    if s.phase == "peek":
        if s.peeked[seat]:
            return []
        return [Peek(pair) for pair in combinations([sid for sid, _ in s.games[seat]], 2)]
    if s.window is not None:
        w = s.window
        if seat not in w.pending:
            return []
        if w.kind == "snap":
            return [Snap(sid) for sid in s.free_slots(seat)] + [SnapPass()]
        return [Hitwoman(sid) for sid in s.free_slots(seat)] + [HitwomanPass()]
    if seat != s.turn:
        return []
    if s.step == "start":
        out: list[Action] = []
        if not any(sid in s.patrol for sid, _ in s.games[seat]):
            out.append(DeclareOmerta())
        if _can_draw(s):
            out.append(DrawDeck())
        else:
            out.append(EndTurn())
        if s.discard and s.free_slots(seat):
            out.append(TakeDiscard())
        return out
    if s.step == "drawn":
        out = [Replace(sid) for sid in s.free_slots(seat)]
        if s.drawn_from == "deck":
            out.append(DiscardDrawn())
        return out
    if s.step == "power":
        assert s.power is not None
        return _power_actions(s, s.power) + [Decline()]
    if s.step == "safe":
        return [SafeSwap(sid, i) for sid in s.free_slots(seat) for i in range(len(s.safe))] + [Decline()]
    return []


def awaiting(state: OmertaState) -> frozenset[int]:
    """Seats whose input the match waits for: unpeeked seats, the pending claimants of
    an open window, or the active seat."""
    s = state
    if s.phase == "over":
        return frozenset()
    if s.phase == "peek":
        return frozenset(p for p in range(s.n) if not s.peeked[p])
    if s.window is not None:
        return s.window.pending
    return frozenset({s.turn})


def apply(state: OmertaState, seat: int | None, action: Action) -> tuple[OmertaState, list[Event]]:
    """Check ``action`` by ``seat`` (None = the table) and apply it to a copy.

    Returns ``(new_state, events)``; raises :class:`IllegalAction` with a sentence for
    the player (the given state is never modified).
    """
    s = state.clone()
    events: list[Event] = []
    _dispatch(s, seat, action, events)
    return s, events


def _dispatch(s: OmertaState, seat: int | None, action: Action, events: list[Event]) -> None:
    if s.phase == "over":
        raise IllegalAction("the match is over")
    if isinstance(action, WindowTimeout):
        if seat is not None:
            raise IllegalAction("only the table closes a window")
        if s.window is None or s.window.id != action.window:
            raise IllegalAction("that window is already closed")
        _close_window(s, events, "timeout")
        return
    if seat is None or not 0 <= seat < s.n:
        raise IllegalAction("no such seat")

    if s.phase == "peek":
        if not isinstance(action, Peek):
            raise IllegalAction("first look at two of your cards")
        if s.peeked[seat]:
            raise IllegalAction("you have already looked at your two cards")
        slots = action.slots
        own = {sid for sid, _ in s.games[seat]}
        if len(slots) != 2 or slots[0] == slots[1] or not set(slots) <= own:
            raise IllegalAction("choose two different cards of your own")
        s.peeked[seat] = True
        events.append(Event("look", {"seat": seat, "reason": "peek", "slots": list(slots)},
                            secret={"cards": [_reveal(s, seat, sid) for sid in slots]},
                            secret_to=seat))
        if all(s.peeked):
            s.phase = "turn"
            s.turn_no = 0
            _begin_turn(s, s.first, events)
        return

    if s.window is not None:
        _window_action(s, seat, action, events)
        return
    if isinstance(action, (Snap, SnapPass, Hitwoman, HitwomanPass)):
        raise IllegalAction("too late: no window is open")
    if seat != s.turn:
        raise IllegalAction("it is not your turn")

    if s.step == "start":
        if isinstance(action, DeclareOmerta):
            if any(sid in s.patrol for sid, _ in s.games[seat]):
                raise IllegalAction("you cannot declare Omerta while a Police Patrol blocks one of your cards")
            events.append(Event("omerta", {"seat": seat}))
            _end_round(s, events, declarer=seat)
            return
        if isinstance(action, DrawDeck):
            cid = _take_from_pile(s, events)
            if cid is None:
                raise IllegalAction("both piles are empty: end your turn")
            s.drawn, s.drawn_from, s.step = cid, "deck", "drawn"
            events.append(Event("draw", {"seat": seat, "source": "deck"},
                                secret={"card": DECK[cid].to_dict()}, secret_to=seat))
            _expire_markers(s, seat, events)
            return
        if isinstance(action, TakeDiscard):
            if not s.discard:
                raise IllegalAction("the discard pile is empty")
            if not s.free_slots(seat):
                raise IllegalAction("you have no free card to replace: draw from the pile")
            cid = s.discard.pop()
            s.drawn, s.drawn_from, s.step = cid, "discard", "drawn"
            events.append(Event("draw", {"seat": seat, "source": "discard", "card": DECK[cid].to_dict()}))
            _expire_markers(s, seat, events)
            return
        if isinstance(action, EndTurn):
            if _can_draw(s):
                raise IllegalAction("you must draw a card")
            events.append(Event("no_draw", {"seat": seat}))
            _expire_markers(s, seat, events)
            _end_turn(s, events)
            return
        raise IllegalAction("start your turn: draw a card or declare Omerta")

    if s.step == "drawn":
        assert s.drawn is not None
        if isinstance(action, Replace):
            _slot_of(s, seat, action.slot)
            x = s.card_in(action.slot)
            _set_card(s, action.slot, s.drawn)
            s.discard.append(x)
            events.append(Event("replace", {"seat": seat, "slot": action.slot,
                                            "source": s.drawn_from, "card": DECK[x].to_dict()}))
            s.drawn = s.drawn_from = None
            _trigger(s, x, events)
            return
        if isinstance(action, DiscardDrawn):
            if s.drawn_from != "deck":
                raise IllegalAction("a card taken from the discard pile must replace one of yours")
            d = s.drawn
            s.discard.append(d)
            s.drawn = s.drawn_from = None
            events.append(Event("discard", {"seat": seat, "card": DECK[d].to_dict()}))
            _trigger(s, d, events)
            return
        raise IllegalAction("replace one of your cards or discard the drawn card")

    if s.step == "power":
        if isinstance(action, Decline):
            events.append(Event("power_declined", {"seat": seat, "card": s.power}))
            _end_turn(s, events)
            return
        expected = _POWER_ACTIONS.get(s.power or "")
        if expected is None or not isinstance(action, expected):
            raise IllegalAction(f"use the {s.power} you discarded, or decline")
        _activate(s, seat, action, events)
        return

    if s.step == "safe":
        if isinstance(action, Decline):
            events.append(Event("safe_kept", {"seat": seat}))
            _end_turn(s, events)
            return
        if isinstance(action, SafeSwap):
            _slot_of(s, seat, action.slot)
            if not 0 <= action.index < len(s.safe):
                raise IllegalAction("the safe holds four cards: choose 0 to 3")
            mine = s.card_in(action.slot)
            _set_card(s, action.slot, s.safe[action.index])
            s.safe[action.index] = mine
            events.append(Event("safe_swap", {"seat": seat, "slot": action.slot, "index": action.index},
                                secret={"card": DECK[s.card_in(action.slot)].to_dict()}, secret_to=seat))
            _end_turn(s, events)
            return
        raise IllegalAction("swap a card with the safe, or decline")

    raise IllegalAction("that action is not possible now")  # pragma: no cover


def _window_action(s: OmertaState, seat: int, action: Action, events: list[Event]) -> None:
    w = s.window
    assert w is not None
    if w.kind == "snap":
        if not isinstance(action, (Snap, SnapPass)):
            raise IllegalAction("a snap window is open: snap or pass")
    elif not isinstance(action, (Hitwoman, HitwomanPass)):
        raise IllegalAction("a Hitwoman window is open: counter or pass")
    if seat not in w.eligible:
        raise IllegalAction("you may not claim in this window")
    if seat not in w.pending:
        raise IllegalAction("you have already answered in this window")
    if isinstance(action, (SnapPass, HitwomanPass)):
        events.append(Event("pass", {"seat": seat, "window": w.id}))
        _answered(s, seat, events)
        return
    slot = _slot_of(s, seat, action.slot)  # D-OM-28: no reveal, no penalty
    c = DECK[s.card_in(slot)]
    if isinstance(action, Snap):
        ok = c.is_bottle and c.value == w.value
        events.append(Event("snap", {"seat": seat, "slot": slot, "card": c.to_dict(),
                                     "success": ok, "window": w.id}))
        if ok:
            s.discard.append(_remove_slot(s, slot))
            _close_window(s, events, "snapped")
            return
        _penalty(s, seat, events, "snap")
        _answered(s, seat, events)
        return
    ok = c.name == "hitwoman"
    events.append(Event("counter", {"seat": seat, "slot": slot, "card": c.to_dict(),
                                    "success": ok, "window": w.id}))
    if ok:
        s.discard.append(_remove_slot(s, slot))
        _close_window(s, events, "countered")
        return
    _penalty(s, seat, events, "hitwoman")  # D-OM-16
    _answered(s, seat, events)


def reaction_window(state: OmertaState) -> Window | None:
    """The open snap or Hitwoman window as a :class:`Window`, else None."""
    w = state.window
    if w is None:
        return None
    if w.kind == "snap":
        return Window(w.id, "snap", w.eligible, w.pending, ("snap",), "snap_pass",
                      w.timeout_ms, {"value": w.value})
    return Window(w.id, "hitwoman", w.eligible, w.pending, ("hitwoman",), "hitwoman_pass",
                  w.timeout_ms, {"attack": w.attack.to_dict() if w.attack else None,
                                 "attacker": w.attacker})


def timeout_action(window: Window) -> Action:
    """The action the table applies (seat None) when ``window`` times out."""
    return WindowTimeout(window.id)


def is_over(state: OmertaState) -> bool:
    return state.phase == "over"


def scores(state: OmertaState) -> dict[str, Any]:
    """``{"scores": cumulative per seat, "winners": lowest total (D-OM-24), "rounds":
    rounds played, "round_scores": per round per seat}``. Lower is better."""
    played = len(state.round_scores)
    return {
        "scores": list(state.totals),
        "winners": _winners(state) if played else [],
        "rounds": played,
        "round_scores": [list(r) for r in state.round_scores],
    }


def view(state: OmertaState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (None = spectator), JSON-ready.

    Face-down cards appear as ``{"slot": id, "patrol": placer|None}`` without any card;
    the engine keeps no memory of looks (D-OM-23). Public: the discard pile (bottom to
    top), pile and safe sizes, markers, a card taken from the discard pile, the
    window, scores. Private to the active seat: the card drawn from the pile, and the
    safe's cards during its Safecracker look.
    """
    s = state
    me = seat if seat is not None and 0 <= seat < s.n else None
    drawn = None
    if s.drawn is not None:
        visible = s.drawn_from == "discard" or me == s.turn
        drawn = {"source": s.drawn_from, "card": DECK[s.drawn].to_dict() if visible else None}
    return {
        "game": NAME,
        "seat": me,
        "seats": s.n,
        "round": s.round,
        "rounds": s.rounds,
        "phase": s.phase,
        "step": s.step,
        "turn": s.turn,
        "first": s.first,
        "turn_no": s.turn_no,
        "players": [
            {
                "seat": p,
                "slots": [{"slot": sid, "patrol": s.patrol[sid][0] if sid in s.patrol else None}
                          for sid, _ in s.games[p]],
                "mamma": s.mamma[p][0] if p in s.mamma else None,
                "peeked": s.peeked[p],
                "total": s.totals[p],
            }
            for p in range(s.n)
        ],
        "draw_pile": len(s.draw_pile),
        "discard": [DECK[c].to_dict() for c in s.discard],
        "safe": len(s.safe),
        "safe_cards": ([DECK[c].to_dict() for c in s.safe]
                       if s.step == "safe" and me == s.turn and s.phase == "turn" else None),
        "drawn": drawn,
        "power": s.power,
        "attack_card": DECK[s.attack_card].to_dict() if s.attack_card is not None else None,
        "window": _window_public(s.window) if s.window is not None else None,
        "totals": list(s.totals),
        "round_scores": [list(r) for r in s.round_scores],
        "last_round": s.last_round,
        "winners": _winners(s) if s.phase == "over" else None,
    }


def zones(state: OmertaState) -> dict[str, list[int]]:
    """Every card id by zone, for conservation checks and replays: ``draw_pile``,
    ``discard``, ``safe``, ``slots``, ``markers``, ``hand`` (drawn or held attack)."""
    s = state
    return {
        "draw_pile": list(s.draw_pile),
        "discard": list(s.discard),
        "safe": list(s.safe),
        "slots": [cid for g in s.games for _, cid in g],
        "markers": [m[2] for m in s.mamma.values()] + [m[2] for m in s.patrol.values()],
        "hand": [c for c in (s.drawn, s.attack_card) if c is not None],
    }


def full_view(state: OmertaState) -> dict[str, Any]:
    """The spectator view with every card face up: each slot gains ``card``, the safe
    its ``safe_cards``, a drawn card its face. For replays of finished matches only
    (issue "replays"); never sent to a seat during a match."""
    s = state
    v = view(s, None)
    cards = {sid: cid for g in s.games for sid, cid in g}
    for player in v["players"]:
        for slot in player["slots"]:
            slot["card"] = DECK[cards[slot["slot"]]].to_dict()
    v["safe_cards"] = [DECK[c].to_dict() for c in s.safe]
    if s.drawn is not None:
        v["drawn"] = {"source": s.drawn_from, "card": DECK[s.drawn].to_dict()}
    v["draw_pile_cards"] = [DECK[c].to_dict() for c in reversed(s.draw_pile)]
    return v
