"""What each seat may see (RULES.md §0.2 item 4, D-MAF-15), the scores, every card by
zone, and the helpers the conformance tests use (:func:`visible_cards`,
:func:`wire_cards`)."""
from __future__ import annotations

from typing import Any, Iterable

from shared.games.mafiosi.cards import DECK, NAME
from shared.games.mafiosi.engine import illegal_reasons
from shared.games.mafiosi.scoring import point_total
from shared.games.mafiosi.state import MafiosiState
from shared.rules import Action, Event, card_faces
from shared.windows import Window


def reaction_window(state: MafiosiState) -> Window | None:
    """Mafiosi has no reaction windows: always None."""
    return None


def timeout_action(window: Window) -> Action:
    """Never called (:func:`reaction_window` is always None); raises ``ValueError`` so
    that a misrouted timeout fails loudly."""
    raise ValueError("Mafiosi has no reaction windows")


def is_over(state: MafiosiState) -> bool:
    return state.phase == "over"


def scores(state: MafiosiState) -> dict[str, Any]:
    """``{"scores": point-card total per seat (§4.6), "winners": seats sharing the
    victory ([] before the end), "rounds": rounds scored, "round_scores": per round per
    seat, "round_winners": per round}``. Final once :func:`is_over`; before that the
    totals are secret (server side only)."""
    s = state
    return {
        "scores": [point_total(p) for p in s.points],
        "winners": list(s.final["winners"]) if s.final else [],
        "rounds": len(s.round_results),
        "round_scores": [list(r["scores"]) for r in s.round_results],
        "round_winners": [list(r["winners"]) for r in s.round_results],
    }


def _card(cid: int | None) -> dict[str, Any] | None:
    return DECK[cid].to_dict() if cid is not None else None


def view(state: MafiosiState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None = spectator) may see, JSON-ready. Cards are
    ``{"id", "kind": "card", "rank", "suit", "strength", "value", "code"}``.

    * ``hand`` (own seat only): cards with ``playable`` and ``reason`` (why not, or null);
    * ``players[p]``: ``hand_count``, ``has_chosen`` (never *what* before the reveal),
      ``bouncer`` and ``clan`` once revealed (own bouncer at once), ``won_count``,
      ``won`` (own seat only, else null), ``point_count``, ``point_cards`` (own seat, or
      everybody's after the final reveal, else null), ``round_score`` of the last round;
    * ``trick``: ``[{"seat", "card"}]`` in play order, with ``ace_suit`` and
      ``jack_needed``; ``turn`` (-1 outside trick play), ``leader``, ``trick_no``;
    * ``aside_revealed``: leader tie-break cards of this round; ``round_results``: the
      public scoring of every round; ``point_pending``; ``final`` once over.
    """
    s = state
    me = seat if isinstance(seat, int) and 0 <= seat < s.n else None
    reasons = illegal_reasons(s, me) if me is not None else {}
    hand = None
    if me is not None:
        hand = [{**DECK[c].to_dict(), "playable": c not in reasons and s.phase in ("bouncer", "play"),
                 "reason": reasons.get(c)} for c in s.hands[me]]
    over = s.phase == "over"
    last = s.round_results[-1] if s.round_results and s.phase in ("point", "over") else None
    players = []
    for p in range(s.n):
        if s.revealed:
            bouncer = _card(s.shown[p])
        elif p == me:
            bouncer = _card(s.bouncer[p])
        else:
            bouncer = None
        players.append({
            "seat": p,
            "hand_count": len(s.hands[p]),
            "has_chosen": s.chosen[p],
            "bouncer": bouncer,
            "clan": s.clans[p] if s.revealed else None,
            "won_count": len(s.won[p]),
            "won": [DECK[c].to_dict() for c in s.won[p]] if p == me else None,
            "point_count": len(s.points[p]),
            "point_cards": [DECK[c].to_dict() for c in s.points[p]] if (p == me or over) else None,
            "round_score": last["scores"][p] if last else None,
        })
    return {
        "game": NAME,
        "seat": me,
        "seats": s.n,
        "round": s.round,
        "rounds": s.rounds,
        "phase": s.phase,
        "hand_size": s.hand_size,
        "deck_size": s.deck_size,
        "aside_count": len(s.aside),
        "revealed": s.revealed,
        "turn": s.turn if s.phase == "play" else -1,
        "leader": s.leader,
        "trick_no": s.trick_no,
        "tricks_per_round": max(0, s.hand_size - 1),
        "trick": [{"seat": p, "card": DECK[c].to_dict()} for p, c in s.trick],
        "ace_suit": s.ace_suit,
        "jack_needed": s.jack_needed,
        "hand": hand,
        "players": players,
        "aside_revealed": [{"seat": p, "card": DECK[c].to_dict()} for p, c in s.aside_revealed],
        "round_results": [dict(r) for r in s.round_results],
        "point_pending": list(s.point_pending),
        "final": ({"point_cards": [[DECK[c].to_dict() for c in p] for p in s.points],
                   "totals": list(s.final["totals"]), "winners": list(s.final["winners"])}
                  if s.final else None),
    }


def full_view(state: MafiosiState) -> dict[str, Any]:
    """The spectator view with every card face up (replays of finished matches only):
    each player gains ``hand``, ``bouncer``, ``won`` and ``point_cards``; plus
    ``aside_cards`` (top first)."""
    s = state
    v = view(s, None)
    for p, player in enumerate(v["players"]):
        player["hand"] = [DECK[c].to_dict() for c in s.hands[p]]
        player["bouncer"] = _card(s.shown[p] if s.revealed else s.bouncer[p])
        player["won"] = [DECK[c].to_dict() for c in s.won[p]]
        player["point_cards"] = [DECK[c].to_dict() for c in s.points[p]]
    v["aside_cards"] = [DECK[c].to_dict() for c in s.aside]
    return v


def zones(state: MafiosiState) -> dict[str, list[int]]:
    """Every card id in exactly one zone: ``hand_p``, ``bouncer_p``, ``won_p``,
    ``points_p`` per seat, ``trick``, ``aside``."""
    s = state
    out: dict[str, list[int]] = {}
    for p in range(s.n):
        out[f"hand_{p}"] = list(s.hands[p])
        bouncer = s.bouncer[p]
        out[f"bouncer_{p}"] = [bouncer] if bouncer is not None else []
        out[f"won_{p}"] = list(s.won[p])
        out[f"points_{p}"] = list(s.points[p])
    out["trick"] = [c for _, c in s.trick]
    out["aside"] = list(s.aside)
    return out


#: Public events whose card faces everybody may know.
_PUBLIC_CARD_EVENTS = frozenset({"play", "trick_won", "bouncers_revealed", "leader", "match_over"})


def visible_cards(state: MafiosiState, seat: int | None, events: Iterable[Event]) -> set[int]:
    """Ids of the cards whose face ``seat`` (None = spectator) may know after ``events``
    (the events of the last ``apply``): the trick, the revealed bouncers, the revealed
    aside cards, the cards of the public card events (plays, tricks taken, the final
    reveal) and, for a seat, its own hand, bouncer, won cards and point cards."""
    s = state
    ids = {c for _, c in s.trick} | {c for _, c in s.aside_revealed}
    if s.revealed:
        ids |= {c for c in s.shown if c is not None}
    if s.phase == "over":
        ids |= {c for p in s.points for c in p}
    if seat is not None and 0 <= seat < s.n:
        ids |= set(s.hands[seat]) | set(s.won[seat]) | set(s.points[seat])
        bouncer = s.bouncer[seat]
        if bouncer is not None:
            ids.add(bouncer)
    for e in events:
        if e.to is None and e.type in _PUBLIC_CARD_EVENTS:
            ids |= wire_cards(dict(e.data))
    return ids


def wire_cards(obj: Any) -> set[int]:
    """Ids of every card face named inside a JSON view or event object (a dict with
    ``"id"`` and ``"kind"`` keys)."""
    return card_faces(obj)
