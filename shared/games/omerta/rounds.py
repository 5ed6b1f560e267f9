"""Rounds and turns: setup and dealing (§2.3), turn order with Mamma skips (§2.4
step 0), marker expiry (D-OM-17, D-OM-18, D-OM-31), round scoring and the match
(§2.8, §2.9)."""
from __future__ import annotations

from typing import Any, Mapping

from shared.games.omerta.cards import (
    DECK, FAILED_DECLARATION_PENALTY, MAX_SEATS, MIN_SEATS, OMERTA_LIMIT)
from shared.games.omerta.state import OmertaState
from shared.rng import CowRandom
from shared.rules import Event


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
        rng=CowRandom(seed),
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
