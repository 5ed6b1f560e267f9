"""What the Omerta table offers now, derived from the legal actions: the prompt line and
the action buttons (the rules stay on the server; this only reads ``legal``).

:func:`prompt` returns ``(main line, second line, urgent)``; :func:`button_specs` the
buttons as ``(id, i18n key, object id, action or callback name, enabled, seat)``.
"""
from __future__ import annotations

from typing import Any

from client.games.omerta.cards import character_name
from client.i18n import tr
from client.input import default_binding

CLAIMS = ("snap", "hitwoman")
PASSES = ("snap_pass", "hitwoman_pass")
#: Buttons: action type -> (i18n key, object id), in display order.
BUTTONS = {
    "declare_omerta": ("act.declare_omerta", "#danger"),
    "draw_deck": ("act.draw_deck", "#primary"),
    "take_discard": ("act.take_discard", None),
    "end_turn": ("act.end_turn", "#primary"),
    "discard_drawn": ("act.discard_drawn", None),
    "safecracker": ("act.safecracker", "#primary"),
    "snap_pass": ("act.snap_pass", None),
    "hitwoman_pass": ("act.hitwoman_pass", None),
    "decline": ("act.decline", None),
}
#: The row (0 = the bottom of the action column) of the buttons that must keep their
#: place from turn to turn: "Declare Omerta!" never lands where "Draw a card" is, so a
#: click meant for the one never hits the other.
FIXED_ROWS = {"take_discard": 0, "draw_deck": 1, "declare_omerta": 3}
#: Choices made of several picks: they get a "Clear selection" button.
MULTI_PICK = frozenset({"peek", "henchman", "snitch", "driver", "safe_swap"})
CLAIM_BUTTONS = {"snap": ("act.snap", "#primary"), "hitwoman": ("act.hitwoman", "#danger")}


def button_specs(sc: Any) -> list[tuple[str, str, str | None, Any, bool, int | None]]:
    """The buttons of every local seat (prefixed by the seat's name in couch play)."""
    specs: list[tuple[str, str, str | None, Any, bool, int | None]] = []
    seats = sorted(sc.local_seats)
    for seat in seats:
        legal = sc.legal.get(seat, [])
        types = {a.get("type") for a in legal}
        for t in CLAIMS:
            if t in types:
                key, oid = CLAIM_BUTTONS[t]
                specs.append((f"{seat}:{t}", key, oid, "claim", sc.cursor.get(seat) is not None, seat))
        for t, (key, oid) in BUTTONS.items():
            if t not in types:
                continue
            if t == "decline":
                key = "act.keep" if sc.view.get("step") == "safe" else "act.decline_power"
            if t == "declare_omerta" and sc.declare_armed(seat):
                key = "act.declare_confirm"  # one more click declares
            action = next(a for a in legal if a.get("type") == t)
            specs.append((f"{seat}:{t}", key, oid, action, True, seat))
        picker = sc.pickers.get(seat)
        if picker is not None and picker.kind == "driver":
            specs.insert(0, (f"{seat}:confirm", "act.confirm_driver", "#primary", "confirm",
                             picker.complete() is not None, seat))
        if picker is not None and picker.kind in MULTI_PICK:  # always there: buttons never jump
            specs.append((f"{seat}:clear", "act.clear", None, "clear", bool(picker.selection), seat))
    return specs


def button_rows(specs: list[tuple]) -> list[int] | None:
    """The row of each of ``specs`` (0 at the bottom): the start-of-turn buttons at their
    fixed rows (:data:`FIXED_ROWS`, a free row between drawing and declaring), the others
    in order in the free rows; None (stacked as usual) when none of them is fixed."""
    types = [str(spec[0]).split(":", 1)[-1] for spec in specs]
    if not any(t in FIXED_ROWS for t in types):
        return None
    used = {FIXED_ROWS[t] for t in types if t in FIXED_ROWS}
    spare = max(used) - 1  # the gap below "Declare Omerta!"
    rows, nxt = [], 0
    for t in types:
        if t in FIXED_ROWS:
            rows.append(FIXED_ROWS[t])
            continue
        while nxt in used or nxt == spare:
            nxt += 1
        rows.append(nxt)
        used.add(nxt)
    return rows


def prompt(sc: Any) -> tuple[str, str, bool]:
    v = sc.view
    w = v.get("window")
    local = sorted(sc.local_seats)
    couch = len(local) > 1
    pending = [s for s in local if w and s in w.get("pending", [])]
    if w and pending:
        keys = sc.bindings.get(pending[0], default_binding()).describe()
        if couch:
            names = ", ".join(sc.roster.seat_name(s) for s in pending)
            main = tr("prompt.snap_couch", value=str(w.get("value")), names=names) if w.get("kind") == "snap" \
                else tr("prompt.counter_couch", names=names)
            return (main, tr("prompt.couch_keys"), True)
        if w.get("kind") == "snap":
            return (tr("prompt.snap", value=str(w.get("value"))),
                    tr("prompt.snap_keys", snap=keys.get("snap", "?"), passkey=keys.get("pass", "?")), True)
        attack = (w.get("attack") or {}).get("type", "")
        return (tr("prompt.counter", name=sc.roster.seat_name(int(w.get("attacker", 0))), card=character_name(attack)),
                tr("prompt.counter_keys", snap=keys.get("snap", "?"), passkey=keys.get("pass", "?")), True)
    if w:
        if w.get("kind") == "snap":
            return (tr("prompt.snap_others", value=str(w.get("value"))), "", False)
        return (tr("prompt.counter_others"), "", False)
    if v.get("phase") == "over":
        return (tr("prompt.over"), "", False)
    if v.get("phase") == "peek":
        peeking = [s for s in local if any(a.get("type") == "peek" for a in sc.legal.get(s, []))]
        if peeking and couch:
            return (tr("prompt.peek_couch", names=", ".join(sc.roster.seat_name(s) for s in peeking)),
                    tr("prompt.peek_couch_sub"), True)
        if peeking:
            return (tr("prompt.peek"), tr("prompt.peek_sub"), True)
        if not local or sc.replay:  # a spectator or a replay is not waiting for anybody
            return (tr("prompt.peek_watch"), "", False)
        return (tr("prompt.peek_wait"), "", False)
    seat = sc.turn_seat()
    if seat is None:
        return (tr("prompt.waiting", name=sc.roster.seat_name(v.get("turn", 0))), "", False)
    types = {a.get("type") for a in sc.legal.get(seat, [])}
    who = sc.roster.seat_name(seat) + " — " if couch else ""
    step = v.get("step")
    if "declare_omerta" in types and sc.declare_armed(seat):
        return (who + tr("prompt.declare_confirm"), tr("prompt.declare_confirm_sub"), True)
    if step == "start":
        if "end_turn" in types:
            return (who + tr("prompt.no_draw"), "", True)
        sub = tr("prompt.start_sub_omerta") if "declare_omerta" in types else tr("prompt.start_sub")
        return (who + tr("prompt.start"), sub, True)
    if step == "drawn":
        return (who + (tr("prompt.drawn") if "discard_drawn" in types else tr("prompt.drawn_discard")),
                tr("prompt.drawn_couch") if couch else "", True)
    if step == "power":
        power = str(v.get("power"))
        return (who + tr(f"power.{power}"), tr("prompt.power_sub", card=character_name(power)), True)
    if step == "safe":
        return (who + tr("prompt.safe"), tr("prompt.drawn_couch") if couch else "", True)
    return ("", "", False)
