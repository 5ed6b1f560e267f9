"""The title drawn at the top of the menus: the name, a fan of cards behind it, the
subtitle (drawing only)."""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import pygame

from client import text
from client.i18n import tr


def draw_title(surface: pygame.Surface, app: Any, t: float, top: float = 0.08,
               faces: Sequence[Mapping[str, Any] | None] = (None,) * 5) -> None:
    """The title with a fan of five cards behind it (menus share it); ``faces`` are the
    cards (None = a back), given by the screen (the registry's ``title_cards``)."""
    w, h = surface.get_size()
    art = app.art
    ch = int(h * 0.17)
    cw = int(ch * 5 / 7)
    cx, cy = w // 2, int(h * (top + 0.08))
    for i, face in enumerate(faces):
        ang = (i - 2) * 11 + 1.5 * math.sin(t * 0.8 + i)
        img = pygame.transform.rotozoom(art.surface(face, cw, ch), -ang, 1.0)
        x = cx + (i - 2) * cw * 0.55
        y = cy + abs(i - 2) * ch * 0.06
        surface.blit(img, img.get_rect(center=(int(x), int(y))))
    title = text.render(tr("title"), int(h * 0.10), (240, 207, 121), bold=True, shadow=True)
    surface.blit(title, title.get_rect(center=(w // 2, int(h * (top + 0.225)))))
    sub = text.render(tr("subtitle"), int(h * 0.03), (230, 216, 184), shadow=True)
    surface.blit(sub, sub.get_rect(center=(w // 2, int(h * (top + 0.30)))))
