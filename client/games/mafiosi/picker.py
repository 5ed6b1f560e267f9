"""What a Mafiosi seat may pick now, from its legal actions: every action names one card
(``choose_bouncer``, ``play`` or ``keep_point_card`` with ``card``), so a click on a card
is exactly one legal action or none. The rules stay on the server; this only reads
``legal`` (the view's per-card ``reason`` says why a card is not offered)."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

#: The action types of Mafiosi and the card place each is picked on.
KINDS = {"choose_bouncer": "hand", "play": "hand", "keep_point_card": "point"}


def choices(legal: Iterable[Mapping[str, Any]]) -> dict[int, dict[str, Any]]:
    """``{card id: action}`` for every legal action naming a card."""
    out: dict[int, dict[str, Any]] = {}
    for a in legal:
        if a.get("type") in KINDS and isinstance(a.get("card"), int):
            out[int(a["card"])] = dict(a)
    return out


def kind(legal: Iterable[Mapping[str, Any]]) -> str | None:
    """The action type being chosen now (None: nothing to choose)."""
    return next((str(a.get("type")) for a in legal if a.get("type") in KINDS), None)


def offered(legal: Iterable[Mapping[str, Any]]) -> set[tuple[str, int]]:
    """The card places a click may pick: ``("hand", id)`` or ``("point", id)``."""
    return {(KINDS[str(a["type"])], int(a["card"])) for a in legal
            if a.get("type") in KINDS and isinstance(a.get("card"), int)}


def action_for(legal: Iterable[Mapping[str, Any]], place: tuple[str, int]) -> dict[str, Any] | None:
    """The legal action a click on ``place`` makes, None when it makes none."""
    for a in legal:
        if a.get("type") in KINDS and KINDS[str(a["type"])] == place[0] and a.get("card") == place[1]:
            return dict(a)
    return None
