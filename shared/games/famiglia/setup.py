"""Setting up a Famiglia match (RULES.md §1.3, D-FAM-15): :func:`new_match` and its
config checks (see the package docstring for the config keys and the order of the random
draws)."""
from __future__ import annotations

from typing import Any, Mapping

from shared.games.famiglia.cards import DECK, STARTING_SETS, STREET_SIZE
from shared.games.famiglia.state import FamigliaState
from shared.games.famiglia.turns import _begin_turn, _draw_to_street
from shared.rng import CowRandom


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
    s = FamigliaState(rng=CowRandom(seed))
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
