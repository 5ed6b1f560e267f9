"""The full state of a Family Business match (the server's secret) and the small
queries the rules are written with (RULES.md §3.3)."""
from __future__ import annotations

from dataclasses import dataclass, field

from shared.games.family_business.cards import GANG_SIZE
from shared.rng import CowRandom, fork
from shared.windows import Window


@dataclass
class Resolution:
    """The card being resolved in the current turn (§3.5 T3-T4).

    * ``code``/``card`` -- the played card; ``player`` -- who played it; ``target`` -- a
      target seat (contracts, Pay Off) or None; ``mobster`` -- the named mobster (Hit
      victim, rescued, substituted, Turncoat victim); ``other`` -- Substitution's other
      mobster or Turncoat's revived one.
    * ``tasks`` -- owners' placements still due, in order: ``[owner, count, mode]`` with
      mode ``"append"``, ``"first"`` or ``"collect"`` (D-FB-14).
    * ``collected`` -- mobsters collected by a Double Cross / Vendetta, waiting for the
      player's ``order`` picks; ``ordering`` -- ``"collect"``, ``"intrigue"`` or None;
      ``arranged`` -- Intrigue: how many list places are already fixed.
    * ``after`` -- ``"vendetta_war"`` once the collection is done; ``exempt`` -- the
      Safe House player; ``countered`` -- the counter code that answered it, if any;
      ``counterer`` -- who played it, still owed his draw back to 5.
    """

    code: str
    card: int
    player: int
    target: int | None = None
    mobster: int | None = None
    other: int | None = None
    tasks: list[list] = field(default_factory=list)
    collected: list[int] = field(default_factory=list)
    ordering: str | None = None
    arranged: int = 0
    after: str | None = None
    exempt: int | None = None
    countered: str | None = None
    counterer: int | None = None

    def clone(self) -> "Resolution":
        c = Resolution.__new__(Resolution)
        c.__dict__.update(self.__dict__)
        c.tasks = [list(t) for t in self.tasks]
        c.collected = list(self.collected)
        return c


@dataclass
class FBState:
    """Full state of a match. Callers treat it as opaque and use ``view``; ``clone``
    gives an independent deep copy (``apply`` never mutates its input).

    Zones: ``fronts[p]`` (mobster ids), ``hit_list`` (index 0 = against the wall),
    ``cemetery`` (in order of death), ``unused`` (gangs put away), ``hands[p]``,
    ``draw_pile`` (top = last), ``discard`` (top = last), ``res.collected``."""

    n: int
    rng: CowRandom  # shared.rng: a random.Random(seed), copy-on-write across clones
    variant: str
    counter_timeout_ms: int
    cap_turns: int
    fronts: list[list[int]] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    in_game: list[bool] = field(default_factory=list)
    hit_list: list[int] = field(default_factory=list)
    cemetery: list[int] = field(default_factory=list)
    unused: list[int] = field(default_factory=list)
    draw_pile: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    war: bool = False
    rate: int = 1
    phase: str = "play"  # "play" | "resolve" | "over"
    turn: int = 0
    turn_no: int = 0
    first: int = 0
    res: Resolution | None = None
    window: Window | None = None
    next_window: int = 1
    next_turn: int | None = None  # the counterer (§3.5 T6, D-FB-13)
    winners: list[int] = field(default_factory=list)
    end_reason: str | None = None

    def __post_init__(self) -> None:
        # a state built by hand (or unpickled from before CowRandom) may hold a plain
        # random.Random: draw from it copy-on-write
        self.rng = CowRandom.adopt(self.rng)

    def clone(self) -> "FBState":
        c = FBState.__new__(FBState)
        c.__dict__.update(self.__dict__)
        c.rng = fork(self.rng)  # copy-on-write: copied only when one side draws
        c.fronts = [list(f) for f in self.fronts]
        c.hands = [list(h) for h in self.hands]
        c.in_game = list(self.in_game)
        c.hit_list = list(self.hit_list)
        c.cemetery = list(self.cemetery)
        c.unused = list(self.unused)
        c.draw_pile = list(self.draw_pile)
        c.discard = list(self.discard)
        c.winners = list(self.winners)
        c.res = self.res.clone() if self.res is not None else None
        return c  # Window is frozen

    # -- queries (§3.3) -----------------------------------------------------------------
    def owner(self, mobster_id: int) -> int:
        """Seat owning a mobster (seat p plays gang p)."""
        return mobster_id // GANG_SIZE

    def alive(self, p: int) -> int:
        """Mobsters of ``p`` in play: front + hit list (+ collected in transit)."""
        extra = sum(1 for m in self.hit_list if m // GANG_SIZE == p)
        if self.res is not None:
            extra += sum(1 for m in self.res.collected if m // GANG_SIZE == p)
        return len(self.fronts[p]) + extra

    def alive_total(self) -> int:
        return sum(self.alive(p) for p in range(self.n))

    def in_play(self) -> list[int]:
        """Every mobster in a front or on the hit list."""
        return [m for f in self.fronts for m in f] + list(self.hit_list)

    def players_in(self) -> list[int]:
        return [p for p in range(self.n) if self.in_game[p]]

    def next_in_game(self, p: int) -> int:
        """The next seat clockwise from ``p`` that is still in game (§0.2 item 1)."""
        for k in range(1, self.n + 1):
            q = (p + k) % self.n
            if self.in_game[q]:
                return q
        return p

    def permanent_war(self) -> bool:
        """§3.8: with six or fewer living mobsters the war cannot stop."""
        return self.alive_total() <= 6
