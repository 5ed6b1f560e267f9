"""The full state of a Mafiosi match (the server's secret) and its small queries
(RULES.md §4.2 zones)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from shared.rng import CowRandom, fork



@dataclass
class MafiosiState:
    """Full state of a match. Callers treat it as opaque and use ``view``; ``clone``
    gives an independent deep copy (``apply`` never mutates its input).

    Phases: ``"bouncer"`` (simultaneous hidden choice), ``"play"`` (tricks),
    ``"point"`` (round winners keep a point card), ``"over"``.
    """

    n: int
    rounds: int
    rng: CowRandom  # shared.rng: a random.Random(seed), copy-on-write across clones
    stacked: tuple[int, ...] = ()  # round 1 only (test option ``deck``)
    forced_first: int | None = None  # test option ``first_player`` (round 1 only)
    round: int = 0
    phase: str = "bouncer"
    hand_size: int = 0
    deck_size: int = 0
    hands: list[list[int]] = field(default_factory=list)
    bouncer: list[int | None] = field(default_factory=list)  # None: not chosen / no legal card
    chosen: list[bool] = field(default_factory=list)
    revealed: bool = False
    shown: list[int | None] = field(default_factory=list)  # bouncers as revealed (public)
    clans: list[str | None] = field(default_factory=list)  # per seat, once revealed
    aside: list[int] = field(default_factory=list)  # top = index 0
    aside_revealed: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) this round
    won: list[list[int]] = field(default_factory=list)
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) in play order
    leader: int = 0
    turn: int = 0
    trick_no: int = 0  # 1-based within the round
    ace_suit: str | None = None
    jack_needed: bool = False
    points: list[list[int]] = field(default_factory=list)
    point_pending: list[int] = field(default_factory=list)  # round winners still to choose
    round_results: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        # a state built by hand (or unpickled from before CowRandom) may hold a plain
        # random.Random: draw from it copy-on-write
        self.rng = CowRandom.adopt(self.rng)

    def clone(self) -> "MafiosiState":
        c = MafiosiState.__new__(MafiosiState)
        c.__dict__.update(self.__dict__)
        c.rng = fork(self.rng)  # copy-on-write: copied only when one side draws
        c.hands = [list(h) for h in self.hands]
        c.bouncer = list(self.bouncer)
        c.chosen = list(self.chosen)
        c.shown = list(self.shown)
        c.clans = list(self.clans)
        c.aside = list(self.aside)
        c.aside_revealed = list(self.aside_revealed)
        c.won = [list(w) for w in self.won]
        c.trick = list(self.trick)
        c.points = [list(p) for p in self.points]
        c.point_pending = list(self.point_pending)
        c.round_results = [_deep(r) for r in self.round_results]
        c.final = _deep(self.final)
        return c

    # -- queries ------------------------------------------------------------------------
    def clan(self, seat: int) -> str | None:
        """Suit of the seat's bouncer once revealed (§4.3 step 3), else None."""
        return self.clans[seat] if self.revealed else None

    def scoring_cards(self, seat: int) -> list[int]:
        """W(p): the seat's won cards plus its bouncer (§4.2)."""
        b = self.bouncer[seat]
        return self.won[seat] + ([b] if b is not None else [])


def _deep(obj: Any) -> Any:
    """Copy of nested dicts/lists of JSON values."""
    if isinstance(obj, dict):
        return {k: _deep(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_deep(v) for v in obj]
    return obj
