"""A yes/no question over the current screen: quitting while a match of the player runs
(his seat, or friends playing on his embedded server), and the like: one stray key must not
end a match for everyone at the table.

Return or the yes button does it; Esc or the no button goes back. The question is
wrapped to the box; both labels are the caller's (already translated) strings.
"""
from __future__ import annotations

from typing import Any, Callable

import pygame

from client import text
from client.ui.scene import Scene
from client.ui.widgets import button

GOLD = (240, 207, 121)


class ConfirmScene(Scene):
    """``message``: the question; ``yes``/``no``: the buttons' labels; ``on_yes``:
    called after the dialog is gone; ``tag`` names the question (the app asks each
    once)."""

    overlay = True

    def __init__(self, app: Any, message: str, yes: str, no: str, on_yes: Callable[[], Any],
                 tag: str = "", on_no: Callable[[], Any] | None = None):
        super().__init__(app)
        self.message = message
        self.yes_label, self.no_label = yes, no
        self.on_yes, self.on_no = on_yes, on_no
        self.tag = tag

    def box(self) -> pygame.Rect:
        w, h = self.app.size
        r = pygame.Rect(0, 0, int(w * 0.56), int(h * 0.34))
        r.center = (w // 2, h // 2)
        return r

    def build(self, size: tuple[int, int]) -> None:
        s = self.app.ui_scale
        b = self.box()
        bw, bh = int(min(b.w * 0.42, 250 * s)), int(46 * s)
        y = b.bottom - bh - int(18 * s)
        self.b_yes = button(self, pygame.Rect(b.centerx - bw - int(10 * s), y, bw, bh), self.yes_label, raw=True,
                            object_id="#danger", command=self.yes)
        self.b_no = button(self, pygame.Rect(b.centerx + int(10 * s), y, bw, bh), self.no_label, raw=True,
                           object_id="#primary", command=self.no)

    def yes(self) -> None:
        if self.app.scenes and self.app.top is self:
            self.app.pop()
        self.on_yes()

    def no(self) -> None:
        if self.app.scenes and self.app.top is self:
            self.app.pop()
        if self.on_no is not None:
            self.on_no()

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.yes()
            elif event.key == pygame.K_ESCAPE:
                self.no()

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        veil = pygame.Surface((w, h), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 150))
        surface.blit(veil, (0, 0))
        b = self.box()
        pygame.draw.rect(surface, (28, 18, 14), b, border_radius=max(6, b.h // 16))
        pygame.draw.rect(surface, GOLD, b, 2, border_radius=max(6, b.h // 16))
        size = max(14, int(h * 0.030))
        lines = text.wrap(self.message, int(b.w * 0.9), size)
        y = b.top + int(size * 1.2)
        for line in lines:
            img = text.render(line, size, (243, 232, 207), shadow=True)
            surface.blit(img, img.get_rect(midtop=(b.centerx, y)))
            y += img.get_height()
