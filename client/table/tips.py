"""Card tips, so a newcomer learns the cards while playing: what a face-up card on the table does, for the game's
``card_help`` (one line, from the game's own EN/FR rule strings), shown beside the
pointer by :meth:`CardTip.draw` while the mouse rests on
the card, or while a finger (or the mouse button) is held on it for
:data:`LONG_PRESS_MS` (a touch screen has no hover). The widgets are drawn over the
table, so the tip goes on the side of the pointer where it covers none of them (the
action buttons beside the hand, the emote bar).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

import pygame

from client.input import now_ms

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


def place_tip(box: tuple[int, int], mouse: tuple[int, int], window: pygame.Rect, offset: int,
              avoid: Iterable[pygame.Rect]) -> pygame.Rect:
    """Where a tip of ``box`` (w, h px) goes for the pointer at ``mouse``: below right of
    it, below left, above right or above left (``offset`` px away), kept inside
    ``window`` -- the first that overlaps none of ``avoid`` and fits without being
    pushed back by the window's edges, else the first that overlaps none, else the one
    that overlaps them least; never over the pointer."""
    mx, my = mouse
    w, h = box
    tries = [(mx + offset, my + offset), (mx - offset - w, my + offset),
             (mx + offset, my - offset - h), (mx - offset - w, my - offset - h)]
    avoid = list(avoid)
    ranked = []
    for i, (x, y) in enumerate(tries):
        raw = pygame.Rect(x, y, w, h)
        r = raw.clamp(window)
        if r.collidepoint(mouse):
            continue  # pushed back under the pointer: it would hide the card
        covered = sum(r.clip(a).w * r.clip(a).h for a in avoid)
        ranked.append((covered, r != raw, i, r))
    if not ranked:
        return pygame.Rect(tries[0], box).clamp(window)
    return min(ranked, key=lambda c: c[:3])[3]


class CardTip:
    """The tip of the card under ``scene``'s mouse: ``scene.card_help(card)`` for the
    card its ``hover_card_at(pos)`` finds; ``scene.mouse`` is the pointer (px) and
    ``scene.held`` the press being held, ``(pos, t_ms)``, or None."""

    def __init__(self, scene: Any):
        self.scene = scene

    def text(self) -> str | None:
        """What the card under the mouse does, or None (no card, no help, or a press
        not yet held for :data:`LONG_PRESS_MS`)."""
        sc = self.scene
        if sc.mouse is None:
            return None
        press = sc.held
        if press is not None and now_ms() - press[1] < LONG_PRESS_MS:
            return None  # a tap, not (yet) a long press
        card = sc.hover_card_at(sc.mouse)
        if card is None or sc.card_help is None:
            return None
        return sc.card_help(card)

    def draw(self, surf: pygame.Surface) -> pygame.Rect | None:
        """The tip in a box beside the pointer (kept inside ``surf``); returns the box."""
        tip = self.text()
        mouse = self.scene.mouse
        if not tip or mouse is None:
            return None
        from client import text

        w, h = surf.get_size()
        size = max(12, int(h * 0.024))
        lines = text.wrap(tip, int(w * 0.34), size)
        imgs = [text.render(line, size, (243, 232, 207)) for line in lines]
        pad = size // 2
        box = pygame.Rect(0, 0, max(i.get_width() for i in imgs) + 2 * pad,
                          sum(i.get_height() for i in imgs) + 2 * pad)
        box = place_tip(box.size, mouse, surf.get_rect(), size, self.covered())
        pygame.draw.rect(surf, (24, 16, 12), box, border_radius=pad)
        pygame.draw.rect(surf, (214, 175, 84), box, 1, border_radius=pad)
        y = box.y + pad
        for img in imgs:
            surf.blit(img, (box.x + pad, y))
            y += img.get_height()
        return box

    def covered(self) -> list[pygame.Rect]:
        """What is drawn over the tip, which must not hide it: the scene's visible
        widgets and its emote bar (px)."""
        sc = self.scene
        out = [pygame.Rect(e.rect) for e in getattr(sc, "ui", []) if getattr(e, "visible", True)]
        emotes = getattr(sc, "emotes", None)
        bar = emotes.bar_rect() if emotes is not None else None
        if bar is not None:
            out.append(bar)
        return out

    def draw_on_top(self, surf: pygame.Surface) -> None:
        """:meth:`draw`, only while the scene is the top of the app's stack."""
        app = self.scene.app
        if app.scenes and app.top is self.scene:
            self.draw(surf)
