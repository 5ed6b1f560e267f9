"""Cards gliding to their places: every card of a table's layout has a follower (where
it is drawn now, px) that eases towards the card's rect when the layout changes."""
from __future__ import annotations

from typing import Any, Mapping

import pygame

from client.tween import Follower


class CardMotion:
    """Card key -> its :class:`~client.tween.Follower`; :attr:`gliding` while one moves."""

    def __init__(self) -> None:
        self.pos: dict[Any, Follower] = {}
        #: A card is still on its way (the app draws at full pace then).
        self.gliding = True

    def sync(self, rects: Mapping[Any, pygame.Rect]) -> None:
        """A follower for every card of ``rects`` (starting at its place), none for the others."""
        for key, r in rects.items():
            if key not in self.pos:
                self.pos[key] = Follower(r.x, r.y, half_life_ms=55.0)
        for key in list(self.pos):
            if key not in rects:
                del self.pos[key]

    def step(self, rects: Mapping[Any, pygame.Rect], dt_ms: float) -> None:
        """Move every follower ``dt_ms`` ms towards its card's rect."""
        moving = False
        for key, f in self.pos.items():
            r = rects.get(key)
            if r is not None and (f.x != r.x or f.y != r.y):  # most cards rest: no easing to compute
                f.step(r.x, r.y, dt_ms)
                moving = moving or f.x != r.x or f.y != r.y
        self.gliding = moving

    def card_pos(self, key: Any, rect: pygame.Rect) -> tuple[float, float]:
        """Where a card is drawn now (px; its place ``rect`` when it has no follower)."""
        f = self.pos.get(key)
        return (f.x, f.y) if f is not None else rect.topleft

    def shown_at(self, key: Any, rect: pygame.Rect | None) -> pygame.Rect | None:
        """``rect``'s size at where card ``key`` is drawn now; None when ``rect`` is None
        or the card has no place on screen yet."""
        f = self.pos.get(key)
        if rect is None or f is None:
            return None
        return pygame.Rect(int(f.x), int(f.y), rect.w, rect.h)
