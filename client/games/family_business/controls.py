"""What the Family Business table offers now, derived from the legal actions and the
seats' choosers: the prompt line and the action buttons (the rules stay on the server;
this only reads ``legal`` and the view).

:func:`prompt` returns ``(main line, second line, urgent)``; :func:`button_specs` the
buttons as ``(id, label, object id, what, enabled, seat)`` where ``what`` is an action
dict to send, ``"claim"`` (counter with the chosen card), ``"cancel"`` or ``"results"``.

**The counter window never tells who holds a counter**: every eligible seat gets the
same prompt and the same "No counter" button whatever it holds; the "Counter!" button
(one player on a private screen only) is there for every eligible seat too, enabled once
a card that can answer is chosen. On a shared screen (couch play) there is no Counter
button at all: the seats counter with their keys.
"""
from __future__ import annotations

from typing import Any

from client.games.family_business.cards import card_name, effect_text
from client.i18n import tr, labelled
from client.input import default_binding


def _keys(sc: Any, seat: int | None) -> dict[str, str]:
    return (sc.bindings.get(seat) or default_binding()).describe()


def button_specs(sc: Any) -> list[tuple[str, str, str | None, Any, bool, int | None]]:
    if sc.view.get("phase") == "over":
        return [] if sc.replay else [("results", tr("fb.act.results"), "#primary", "results", True, None)]
    specs: list[tuple[str, str, str | None, Any, bool, int | None]] = []
    couch = len(sc.local_seats) > 1
    for seat in sorted(sc.local_seats):
        legal = sc.legal.get(seat, [])
        who = labelled(sc.roster.seat_name(seat)) if couch else ""
        no = next((a for a in legal if a.get("type") == "no_counter"), None)
        if no is not None:
            if not couch:
                card = sc.cursor.get(seat)
                ok = card is not None and {"type": "counter", "card": card} in legal
                specs.append((f"{seat}:counter", tr("fb.act.counter"), "#danger", "claim", ok, seat))
            specs.append((f"{seat}:no_counter", who + tr("fb.act.no_counter"), None, no, True, seat))
            continue
        ch = sc.choosers.get(seat)
        if ch is not None and ch.card is not None:
            card = sc.hand_card(seat, ch.card)
            now = ch.play_now()
            if now is not None:
                specs.append((f"{seat}:play", who + tr("fb.act.play", card=card_name(card)), "#primary", now, True,
                              seat))
            void = ch.void()
            if void is not None:
                specs.append((f"{seat}:void", who + tr("fb.act.void"), None, void, True, seat))
            specs.append((f"{seat}:cancel", who + tr("fb.act.cancel"), None, "cancel", True, seat))
    return specs


def prompt(sc: Any) -> tuple[str, str, bool]:
    """(main line, second line, urgent) for the banner above your cards."""
    v = sc.view
    name = sc.roster.seat_name
    local = sorted(sc.local_seats)
    couch = len(local) > 1
    if v.get("phase") == "over":
        return (tr("fb.prompt.over"), "", False)
    w = v.get("window")
    if isinstance(w, dict):
        card = card_name(w.get("card"))
        attacker = name(int(w.get("attacker", 0)))
        pending = [s for s in local if s in (w.get("pending") or [])]
        if pending:
            if couch:
                return (tr("fb.prompt.counter_couch", names=", ".join(name(s) for s in pending)),
                        tr("fb.prompt.counter_couch_sub"), True)
            keys = _keys(sc, pending[0])
            target = w.get("target")
            main = tr("fb.prompt.counter", name=attacker, card=card, target=name(int(target))) \
                if isinstance(target, int) else tr("fb.prompt.counter_any", name=attacker, card=card)
            return (main, tr("fb.prompt.counter_keys", snap=keys.get("snap", "?"), passkey=keys.get("pass", "?")),
                    True)
        return (tr("fb.prompt.counter_wait", name=attacker, card=card), "", False)
    res = v.get("resolving") or {}
    chooser = res.get("chooser")
    if isinstance(chooser, int):
        if chooser in sc.local_seats and sc.legal.get(chooser):
            who = name(chooser) + " — " if couch else ""
            choice = res.get("choice")
            remaining = int(res.get("remaining") or 1)
            if choice in ("append", "first", "collect"):
                key = f"fb.prompt.place_{choice}_{'1' if remaining == 1 else 'n'}"
                return (who + tr(key, n=str(remaining), name=name(int(res.get("player", 0)))),
                        tr("fb.prompt.place_sub"), True)
            if choice == "intrigue":
                from client.games.family_business.narrate import ordinal
                return (who + tr("fb.prompt.intrigue", place=ordinal(int(res.get("arranged") or 0) + 1)),
                        tr("fb.prompt.intrigue_sub"), True)
            return (who + tr("fb.prompt.order"), tr("fb.prompt.order_sub"), True)
        return (tr("fb.prompt.choosing", name=name(chooser)), "", False)
    turn = int(v.get("turn", 0))
    seat = sc.turn_seat()
    if seat is None:
        players = v.get("players") or []
        me = sc.me
        if me is not None and me < len(players) and not players[me].get("in_game", True):
            return (tr("fb.prompt.out"), tr("fb.prompt.waiting_sub", name=name(turn)), False)
        return (tr("fb.prompt.waiting", name=name(turn)), tr("fb.prompt.waiting_sub", name=name(turn)), False)
    ch = sc.choosers.get(seat)
    who = name(seat) + " — " if couch else ""
    if ch is not None and ch.card is not None:
        card = sc.hand_card(seat, ch.card) or {}
        main = who + tr("fb.prompt.card", card=card_name(card), effect=effect_text(str(card.get("code"))))
        need = ch.needs()
        sub = tr(f"fb.prompt.need_{need}") if need in ("player", "victim", "listed", "other", "turncoat",
                                                       "revived", "play") else tr("fb.prompt.need_play")
        return (main, sub, True)
    if couch:
        keys = _keys(sc, seat)
        return (tr("fb.prompt.turn_couch", name=name(seat)),
                tr("fb.prompt.turn_couch_sub", confirm=keys.get("confirm", "?")), True)
    return (tr("fb.prompt.turn"), tr("fb.prompt.turn_sub"), True)
