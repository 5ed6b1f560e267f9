"""What the Mafiosi table offers now, derived from the legal actions and the view: the
prompt line and the action buttons (the rules stay on the server).

:func:`prompt` returns ``(main line, second line, urgent)``; :func:`duty_line` the
trick's duty in words; :func:`button_specs` the buttons as ``(id, i18n key, text
fields, object id, what, seat)`` where ``what`` is ``"won"`` (your won cards),
``"board"`` (the scores again), ``"hand"`` (a couch seat's hand-over screen) or
``"bouncer"`` (place the card selected as your bouncer).
"""
from __future__ import annotations

from typing import Any

from client.games.mafiosi import picker
from client.games.mafiosi.cards import card_name
from client.i18n import tr


def duty_line(view: dict[str, Any]) -> str:
    """The current trick's duty: an ace's suit to follow, a Jack owed to a Queen."""
    if view.get("phase") != "play":
        return ""
    ace = view.get("ace_suit")
    if ace in ("hearts", "diamonds", "spades", "clubs"):
        return tr(f"maf.duty.ace_{ace}")
    if view.get("jack_needed"):
        return tr("maf.duty.jack")
    if not view.get("trick"):
        return tr("maf.duty.lead")
    return tr("maf.duty.free")


def button_specs(sc: Any) -> list[tuple[str, str, dict[str, str], str | None, str, int | None]]:
    specs: list[tuple[str, str, dict[str, str], str | None, str, int | None]] = []
    v = sc.view
    couch = len(sc.links) > 1 or (sc.public and sc.links)
    if couch:
        for seat in sorted(sc.links):
            if picker.kind(sc.legal.get(seat, [])):
                specs.append((f"hand:{seat}", "maf.act.hand", {"name": sc.roster.seat_name(seat)}, "#primary", "hand", seat))
    elif sc.me is not None:
        player = v["players"][sc.me] if sc.me < len(v.get("players", [])) else {}
        if sc.me in sc.bouncer_pick:
            specs.append(("bouncer", "maf.act.confirm_bouncer", {}, "#primary", "bouncer", sc.me))
        specs.append(("won", "maf.act.won", {"n": str(player.get("won_count", 0))}, None, "won", sc.me))
    if v.get("round_results") and not sc.replay:
        key = "maf.act.final" if v.get("phase") == "over" else "maf.act.scores"
        specs.append(("board", key, {}, "#primary" if v.get("phase") == "over" else None, "board", None))
    return specs


def prompt(sc: Any) -> tuple[str, str, bool]:
    v = sc.view
    phase = v.get("phase")
    local = sorted(sc.links)
    couch = len(local) > 1 or (sc.public and local)
    if phase == "over":
        return (tr("maf.prompt.over"), tr("maf.prompt.over_sub") if not sc.replay else "", False)
    waiting = [s for s in local if picker.kind(sc.legal.get(s, []))]
    if phase == "bouncer":
        pending = [p["seat"] for p in v.get("players", []) if not p.get("has_chosen")]
        if couch and waiting:
            return (tr("maf.prompt.bouncer_couch", names=", ".join(sc.roster.seat_name(s) for s in waiting)),
                    tr("maf.prompt.couch_keys", keys=sc.reveal_keys(waiting)), True)
        picked = next((c for c in sc.hand_of(waiting[0]) if c.get("id") == sc.bouncer_pick.get(waiting[0])),
                      None) if waiting else None
        if picked is not None:
            return (tr("maf.prompt.bouncer_confirm", card=card_name(picked)), tr("maf.prompt.bouncer_confirm_sub"),
                    True)
        if waiting:
            return (tr("maf.prompt.bouncer"), tr("maf.prompt.bouncer_sub"), True)
        return (tr("maf.prompt.bouncer_wait", names=", ".join(sc.roster.seat_name(s) for s in pending)),
                tr("maf.prompt.bouncer_hidden"), False)
    if phase == "play":
        duty = duty_line(v)
        if couch and waiting:
            return (tr("maf.prompt.turn_couch", name=sc.roster.seat_name(waiting[0])),
                    tr("maf.prompt.couch_keys", keys=sc.reveal_keys(waiting)) + " · " + duty, True)
        if waiting:
            return (tr("maf.prompt.turn"), duty, True)
        turn = v.get("turn", -1)
        name = sc.roster.seat_name(turn) if isinstance(turn, int) and turn >= 0 else "?"
        return (tr("maf.prompt.waiting", name=name), duty, False)
    if phase == "point":
        if couch and waiting:
            return (tr("maf.prompt.point_couch", names=", ".join(sc.roster.seat_name(s) for s in waiting)),
                    tr("maf.prompt.couch_keys", keys=sc.reveal_keys(waiting)), True)
        if waiting:
            return (tr("maf.prompt.point"), tr("maf.prompt.point_sub"), True)
        pending = v.get("point_pending") or []
        return (tr("maf.prompt.point_wait", names=", ".join(sc.roster.seat_name(s) for s in pending)), "", False)
    return ("", "", False)
