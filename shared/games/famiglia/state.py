"""The state of a Famiglia match (the server's secret): zones, the end-of-deck record and
the per-turn flags of RULES.md §1.2, with its small queries."""
from __future__ import annotations

from dataclasses import dataclass, field

from shared.games.famiglia.cards import DECK, vp
from shared.rng import CowRandom, fork


@dataclass
class FamigliaState:
    """Full state of a match (the server's secret). Callers treat it as opaque and use
    :func:`view`. ``clone`` gives an independent copy (``apply`` never mutates).

    ``_view`` (a slot, outside ``__dict__``) caches the seat-independent part of the
    views (``views._public``): never copied by ``clone``, pickle or ``deepcopy``."""

    __slots__ = ("__dict__", "__weakref__", "_view")

    rng: CowRandom  # shared.rng: a random.Random(seed), copy-on-write across clones
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

    def __post_init__(self) -> None:
        # a state built by hand (or unpickled from before CowRandom) may hold a plain
        # random.Random: draw from it copy-on-write
        self.rng = CowRandom.adopt(self.rng)

    def clone(self) -> "FamigliaState":
        c = FamigliaState.__new__(FamigliaState)
        c.__dict__.update(self.__dict__)
        c.rng = fork(self.rng)  # copy-on-write: copied only when one side draws
        c.deck = list(self.deck)
        c.street = list(self.street)
        c.discard = list(self.discard)
        c.hands = [list(h) for h in self.hands]
        c.gangs = [list(g) for g in self.gangs]
        c.swaps = list(self.swaps)
        return c

    def __getstate__(self) -> dict:
        return self.__dict__  # the fields only: the ``_view`` cache is not part of the state

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
