"""What each seat may see (RULES.md §0.2 item 4, D-OM-23), the open window, the
scores, and every card by zone."""
from __future__ import annotations

from typing import Any

from shared.games.omerta.actions import WindowTimeout
from shared.games.omerta.cards import _CARD_DICTS, DECK, NAME
from shared.games.omerta.rounds import _winners
from shared.games.omerta.state import OmertaState
from shared.rules import Action
from shared.windows import Window


def reaction_window(state: OmertaState) -> Window | None:
    """The open snap or Hitwoman window (:class:`shared.windows.Window`), else None."""
    return state.window


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

    The seat-independent part is built once per state (:func:`_public`); every call
    returns a new top-level dict, but its nested values are shared between the views of
    one state, and ``players``, ``discard``, ``totals``, ``round_scores`` and ``window``
    also with the views of the states that follow while they are unchanged: read them, do not mutate them.
    """
    s = state
    return _own_into(dict(getattr(s, "_view", None) or _public(s)), s, seat)


def own_view(state: OmertaState, seat: int | None) -> dict[str, Any]:
    """The part of :func:`view` that depends on ``seat`` (``GameDef.own_view``):
    ``{"seat", "drawn", "safe_cards"}``, the rest being the spectator's."""
    return _own_into({"seat": None, "drawn": None, "safe_cards": None}, state, seat)


def _own_into(v: dict[str, Any], s: OmertaState, seat: int | None) -> dict[str, Any]:
    """Set ``seat``'s own keys in ``v`` (whose ``seat``, ``drawn`` and ``safe_cards``
    are the spectator's: None) and return it. The drawn card shows its face to the
    active seat, or to all when it came from the discard pile; the safe's cards show to
    the active seat during its Safecracker look."""
    me = seat if seat is not None and 0 <= seat < s.n else None
    v["seat"] = me
    if s.drawn is not None:
        visible = s.drawn_from == "discard" or me == s.turn
        v["drawn"] = {"source": s.drawn_from, "card": DECK[s.drawn].to_dict() if visible else None}
    if me is not None and me == s.turn and s.step == "safe" and s.phase == "turn":
        v["safe_cards"] = [DECK[c].to_dict() for c in s.safe]
    return v


def _public(s: OmertaState) -> dict[str, Any]:
    """The view of a spectator before its per-seat fields, built once per state and
    kept in the state's ``_view`` slot (outside ``__dict__``: not copied by ``clone``,
    not pickled, not compared). A state is never changed once ``apply`` has returned
    it, so the cache stays true."""
    v = getattr(s, "_view", None)  # unset until the first view of this state
    if v is not None:
        return v
    # ``players``, ``discard``, ``totals`` and ``round_scores``: the lists of the state
    # this one was cloned from when they were built from equal data (most actions change
    # none of them), else new ones. ``parts`` keeps copies of that data next to what the
    # view shows, so a state changed by hand is never mistaken: (games, patrol, mamma,
    # peeked, totals, players, totals shown), (discard, discard shown), (round_scores,
    # round_scores shown), (window, window shown).
    prev = getattr(s, "_prev", None)
    games, patrol, mamma, peeked, totals = s.games, s.patrol, s.mamma, s.peeked, s.totals
    if (prev is not None and prev[0] == games and prev[1] == patrol and prev[2] == mamma
            and prev[3] == peeked and prev[4] == totals):
        parts = prev[:7]
    else:
        parts = ([g[:] for g in games], dict(patrol), dict(mamma), peeked[:], totals[:],
                 _players(s, prev), totals[:] if prev is None or prev[4] != totals else prev[6])
    if prev is not None and prev[7] == s.discard:
        parts += prev[7:9]
    else:
        parts += (s.discard[:], [dict(_CARD_DICTS[c]) for c in s.discard])  # DECK[c].to_dict()
    if prev is not None and prev[9] == s.round_scores:
        parts += prev[9:11]
    else:
        parts += ([list(r) for r in s.round_scores], [list(r) for r in s.round_scores])
    w = s.window  # a frozen Window: the same object has the same public form
    if prev is not None and prev[11] is w:
        parts += prev[11:]
    else:
        parts += (w, w.public() if w is not None else None)
    s._parts, s._prev = parts, None
    v = {
        "game": NAME,
        "seat": None,
        "seats": s.n,
        "round": s.round,
        "rounds": s.rounds,
        "phase": s.phase,
        "step": s.step,
        "turn": s.turn,
        "first": s.first,
        "turn_no": s.turn_no,
        "players": parts[5],
        "draw_pile": len(s.draw_pile),
        "discard": parts[8],
        "safe": len(s.safe),
        "safe_cards": None,
        "drawn": None,
        "power": s.power,
        "attack_card": DECK[s.attack_card].to_dict() if s.attack_card is not None else None,
        "window": parts[12],
        "totals": parts[6],
        "round_scores": parts[10],
        "last_round": s.last_round,
        "winners": _winners(s) if s.phase == "over" else None,
    }
    s._view = v  # type: ignore[attr-defined]  # a __slots__ cache, not a dataclass field
    return v


def _players(s: OmertaState, prev: tuple[Any, ...] | None = None) -> list[dict[str, Any]]:
    """The view's ``players``: each seat's slots (with their patrol marker's placer),
    Mamma placer, peek flag and total.

    ``prev``: the ``_parts`` of the state ``s`` was cloned from (see :func:`_public`),
    or None. A seat whose slot ids, patrol markers, Mamma placer, peek flag and total
    show as there keeps that state's dict (its slot list too when only those changed),
    and when no seat changed the list itself is that state's: most actions change one
    seat's cards at most, and a card changing under a slot shows nothing (the views
    then share objects, which :func:`server.match.delivery.view_delta` skips unseen)."""
    patrol, mamma, peeked, totals = s.patrol, s.mamma, s.peeked, s.totals
    old = prev[5] if prev is not None and len(prev[5]) == len(s.games) else None
    same_marks = old is not None and prev[1] == patrol  # type: ignore[index]
    out = []
    changed = old is None
    for p, game in enumerate(s.games):
        o = old[p] if old is not None else None
        if o is not None and same_marks and (prev[0][p] == game  # type: ignore[index]
                                              or [sid for sid, _ in prev[0][p]] == [sid for sid, _ in game]):  # type: ignore[index]
            slots = o["slots"]
        elif patrol:
            slots = [{"slot": sid, "patrol": patrol[sid][0] if sid in patrol else None} for sid, _ in game]
        else:
            slots = [{"slot": sid, "patrol": None} for sid, _ in game]
        m = mamma[p][0] if p in mamma else None
        if (o is not None and slots is o["slots"] and o["mamma"] == m and o["peeked"] is peeked[p]
                and o["total"] == totals[p]):
            out.append(o)
            continue
        changed = True
        out.append({"seat": p, "slots": slots, "mamma": m, "peeked": peeked[p], "total": totals[p]})
    return out if changed else old  # type: ignore[return-value]


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
    (their cards are no secret any more); never sent to a seat during a match."""
    s = state
    v = view(s, None)
    cards = {sid: cid for g in s.games for sid, cid in g}
    # new player and slot dicts: the spectator view's are shared (see view)
    v["players"] = [dict(player, slots=[dict(slot, card=DECK[cards[slot["slot"]]].to_dict())
                                        for slot in player["slots"]])
                    for player in v["players"]]
    v["safe_cards"] = [DECK[c].to_dict() for c in s.safe]
    if s.drawn is not None:
        v["drawn"] = {"source": s.drawn_from, "card": DECK[s.drawn].to_dict()}
    v["draw_pile_cards"] = [DECK[c].to_dict() for c in reversed(s.draw_pile)]
    return v
