"""What the Famiglia table offers now, derived from the legal actions and the seat's
:class:`~client.games.famiglia.picker.Chooser`: the prompt line and the action buttons (the
rules stay on the server; this only reads ``legal`` and the view).

:func:`prompt` returns ``(main line, second line, urgent)``; :func:`button_specs` the
buttons as ``(id, i18n key, text fields, object id, what)`` where ``what`` is an action
dict to send, ``"intent:<type>"`` (the answer to "what is this card for?"),
``"amount:<n>"`` (a Brute's amount), ``"cancel"`` or ``"results"`` (show the end of
the match again).
"""
from __future__ import annotations

from typing import Any

from client.games.famiglia.narrate import card_text
from client.i18n import tr


def _card(view: dict[str, Any], pick: tuple[str, int]) -> dict[str, Any] | None:
    """The card dict of a pick (street, gang or a known hand card)."""
    kind, ident = pick
    if kind == "street":
        pool = view.get("street") or []
    else:
        pool = [c for p in view.get("players", []) for c in (p.get("gang") or []) + (p.get("hand") or [])]
    return next((c for c in pool if c.get("id") == ident), None)


def button_specs(sc: Any) -> list[tuple[str, str, dict[str, str], str | None, Any]]:
    """The buttons of the seat played on this screen, top to bottom: the intents asked
    for, the Brute's amounts, Cancel, Pass (or, once the match is over, Final scores)."""
    if sc.view.get("phase") == "over" and not sc.replay:
        return [("results", "fam.act.results", {}, "#primary", "results")]
    seat = sc.my_seat
    if seat is None:
        return []
    legal = sc.legal.get(seat, [])
    ch = sc.chooser
    specs: list[tuple[str, str, dict[str, str], str | None, Any]] = []
    if ch is not None and ch.asking is not None:
        pick, intents = ch.asking
        card = _card(sc.view, pick) or {}
        for t in intents:
            key = f"fam.intent.{t}"
            if t == "brute" and pick[0] == "hand":
                key = "fam.intent.brute_card"
            specs.append((f"intent:{t}", key, {"n": str(card.get("value", "?"))},
                          "#primary" if t.startswith("take") else None, f"intent:{t}"))
    if ch is not None:
        for n in ch.amounts():
            specs.append((f"amount:{n}", "fam.act.lower", {"n": str(n)}, "#primary", f"amount:{n}"))
        if ch.kind is not None or ch.asking is not None:
            specs.append(("cancel", "fam.act.cancel", {}, None, "cancel"))
    passing = next((a for a in legal if a.get("type") == "pass"), None)
    if passing is not None:
        specs.append(("pass", "fam.act.pass", {}, "#danger", passing))
    return specs


def prompt(sc: Any) -> tuple[str, str, bool]:
    """(main line, second line, urgent) for the banner above your cards."""
    v = sc.view
    if v.get("phase") == "over":
        return (tr("fam.prompt.over"), "", False)
    seat = sc.my_seat
    turn = int(v.get("turn", 0))
    if seat is None or not sc.legal.get(seat):
        return (tr("fam.prompt.waiting", name=sc.roster.seat_name(turn)), "", False)
    ch = sc.chooser
    types = {a.get("type") for a in sc.legal.get(seat, [])}
    if ch is not None and ch.asking is not None:
        return (tr("fam.prompt.what", card=card_text(_card(v, ch.asking[0]))), tr("fam.prompt.what_sub"), True)
    if ch is not None and ch.kind is not None:
        need = ch.needs()
        street = _card(v, ("street", ch.filled["card"])) if ch.kind == "take_pair" and "card" in ch.filled else None
        key = {
            ("brute", "card"): "fam.prompt.brute_card",
            ("brute", "target"): "fam.prompt.brute_target",
            ("brute", "amount"): "fam.prompt.brute_amount",
            ("take_pair", "to_gang"): "fam.prompt.pair_gang",
            ("take_pair", "keep"): "fam.prompt.pair_keep",
            ("swap", "from_hand"): "fam.prompt.swap_hand",
            ("swap", "from_gang"): "fam.prompt.swap_gang",
        }.get((ch.kind, need or ""), "fam.prompt.choose")
        return (tr(key, card=card_text(street)), tr("fam.prompt.cancel_sub"), True)
    step = int(v.get("step", 0))
    acc = v.get("accountant")
    if step == 2 and acc and "swap" in types:
        return (tr("fam.prompt.swaps", n=str(acc.get("swaps", 0)), max=str(acc.get("max", "?"))),
                tr("fam.prompt.swaps_sub"), True)
    options = [tr(f"fam.can.{t}") for t in ("renew", "accountant", "brute") if t in types]
    if types & {"take_free", "take_pair"}:
        options.append(tr("fam.can.recruit"))
    options.append(tr("fam.can.pass"))
    main = tr("fam.prompt.turn") if step <= 1 else tr("fam.prompt.recruit")
    return (main, tr("fam.prompt.options", options=", ".join(options)), True)
