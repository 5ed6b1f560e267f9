"""Typing the room code of a private table, over the Join screen.

A private table lets nobody sit or watch without its room code (docs/PROTOCOL.md
"Private tables"); its host sees the code beside his lobby. Return or the Join button
hands the code (upper case, spaces and dashes dropped) to ``on_code``; Esc or Back goes
back to the list.
"""
from __future__ import annotations

from typing import Any, Callable

import pygame
import pygame_gui

from client import text
from client.i18n import tr
from client.ui.scene import Scene
from client.ui.widgets import button, entry, label

GOLD = (240, 207, 121)

#: Longest code accepted in the field (a code is five letters; a typed dash or space fits).
MAX_CODE = 12


def typed_code(text: str) -> str:
    """What the player typed as a room code: letters only, upper case."""
    return "".join(c for c in text.upper() if c.isalpha())


class RoomCodeScene(Scene):
    """``table_name``: the private table's name (shown in the question); ``on_code``:
    called with the typed code once this dialog is gone."""

    overlay = True

    def __init__(self, app: Any, table_name: str, on_code: Callable[[str], Any]):
        super().__init__(app)
        self.table_name = table_name
        self.on_code = on_code
        self.code = ""

    def box(self) -> pygame.Rect:
        """The dialog (px): the title and the question are drawn in its top part."""
        w, h = self.app.size
        s = self.app.ui_scale
        r = pygame.Rect(0, 0, int(w * 0.56), int(280 * s))
        r.center = (w // 2, h // 2)
        return r

    def _question(self) -> list[str]:
        b = self.box()
        size = self._text_size()
        return text.wrap(tr("join.code_prompt", table=self.table_name), int(b.w * 0.9), size)[:3]

    def _text_size(self) -> int:
        return max(13, int(18 * self.app.ui_scale))

    def build(self, size: tuple[int, int]) -> None:
        s = self.app.ui_scale
        box = self.box()
        pad, rh = int(20 * s), int(40 * s)
        y = box.y + pad + rh + len(self._question()) * int(self._text_size() * 1.3) + pad
        lw = int(box.w * 0.40)
        label(self, pygame.Rect(box.x + pad, y, lw, rh), "join.code_label")
        self.e_code = entry(self, pygame.Rect(box.x + pad + lw, y, box.w - 2 * pad - lw, rh), self.code)
        self.e_code.set_text_length_limit(MAX_CODE)
        self.e_code.focus()
        bw, bh = int(160 * s), int(46 * s)
        by = box.bottom - pad - bh
        button(self, pygame.Rect(box.x + pad, by, bw, bh), "common.back", command=self.app.pop)
        button(self, pygame.Rect(box.right - pad - bw, by, bw, bh), "join.code_ok", object_id="#primary",
               command=self.ok)

    def ok(self) -> None:
        code = typed_code(self.e_code.get_text() if getattr(self, "e_code", None) else self.code)
        if not code:
            return
        if self.app.scenes and self.app.top is self:
            self.app.pop()
        self.on_code(code)

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is getattr(self, "e_code", None):
            self.ok()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        veil = pygame.Surface((w, h), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 140))
        surface.blit(veil, (0, 0))
        b = self.box()
        s = self.app.ui_scale
        pygame.draw.rect(surface, (28, 18, 14), b, border_radius=max(6, b.h // 16))
        pygame.draw.rect(surface, GOLD, b, 2, border_radius=max(6, b.h // 16))
        title = text.render(tr("join.code_title"), max(16, int(26 * s)), GOLD, bold=True)
        surface.blit(title, title.get_rect(midtop=(b.centerx, b.y + int(20 * s))))
        y = b.y + int(20 * s) + int(40 * s)
        size = self._text_size()
        for line in self._question():
            img = text.render(line, size, (243, 232, 207))
            surface.blit(img, img.get_rect(midtop=(b.centerx, y)))
            y += int(size * 1.3)
