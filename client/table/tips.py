"""Card tips, so a newcomer learns the cards while playing: what a face-up card on the table does, for the game's
``card_help`` (one line, from the game's own EN/FR rule strings), shown beside the
pointer by :meth:`client.table.base.TableScene.draw_card_tip` while the mouse rests on
the card, or while a finger (or the mouse button) is held on it for
:data:`LONG_PRESS_MS` (a touch screen has no hover).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

#: A press held this long (ms) on a card shows its tip.
LONG_PRESS_MS = 450.0


def find_card(view: Any, ident: Any, accept: Callable[[Mapping[str, Any]], bool]) -> Mapping[str, Any] | None:
    """The first card dict anywhere in ``view`` (nested dicts and lists) whose ``id``
    is ``ident`` and that ``accept`` takes (a face the game can explain), else None."""
    stack: list[Any] = [view]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            if node.get("id") == ident and accept(node):
                return node
            stack.extend(v for v in node.values() if isinstance(v, (Mapping, list, tuple)))
        elif isinstance(node, (list, tuple)):
            stack.extend(v for v in node if isinstance(v, (Mapping, list, tuple)))
    return None


def hover_card(scene: Any, pos: tuple[int, int], places: Iterable[str],
               piles: Mapping[str, str] | None = None) -> Mapping[str, Any] | None:
    """The face-up card of ``scene`` at ``pos`` that its ``card_help`` explains: the
    layout's place there when its kind is one of ``places`` (``("hand", id)``...), or,
    for a place kind of ``piles`` (e.g. ``{"discard": "discard"}``), the last card of
    that list of the view."""
    help_ = scene.card_help
    if help_ is None:
        return None
    pick = scene.layout.hit(pos)
    if pick is None:
        return None
    kind, ident = pick[0], pick[1]

    def accept(card: Mapping[str, Any]) -> bool:
        return bool(help_(card))

    if piles and kind in piles:
        pile = scene.view.get(piles[kind])
        if isinstance(pile, list) and pile and isinstance(pile[-1], Mapping) and accept(pile[-1]):
            return pile[-1]
        return None
    if kind not in places:
        return None
    return find_card(scene.view, ident, accept)
