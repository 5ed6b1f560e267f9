"""The end of a Famiglia match, drawn over the table.

Both players' cards face up (the hands are revealed at the end, RULES.md §1.7): gang
and hand of each seat, each card with its victory points, the total, the winner, why
the match ended (the deck ran out, or both players passed) and, when the scores were
equal, how the tie was broken (the most valuable cards, then the highest values; D-FAM-12).
"""
from __future__ import annotations

from typing import Any

import pygame

from client import text
from client.games.famiglia.layout import FAMILY_ORDER
from client.i18n import tr
from client.table.results import CREAM, DIM, GOLD, ResultsOverlay, band
from client.ui.widgets import button


def _sorted(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """By VP, most first (as the tie-break compares them), then family."""
    return sorted(cards, key=lambda c: (-int(c.get("vp", 0)), FAMILY_ORDER.index(c["family"])
                                        if c.get("family") in FAMILY_ORDER else 9, int(c.get("id", 0))))


class FamigliaResultsScene(ResultsOverlay):
    def build_board(self, size: tuple[int, int]) -> None:
        s = self.app.ui_scale
        r = self.main_button()
        button(self, r, "results.menu", object_id="#primary", command=self.to_menu)
        r2 = pygame.Rect(0, 0, int(200 * s), int(50 * s))
        r2.bottomright = (r.left - int(16 * s), r.bottom)
        button(self, r2, "fam.results.see_table", command=self.app.pop)

    def board_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_ESCAPE) and self.t > 1.0:
            self.to_menu()

    def outcome(self) -> dict[str, Any]:
        """``{scores, winners, decided_by, reason}`` from the view (or ``match_over``)."""
        res = dict(self.table.view.get("result") or {})
        for k, v in (self.result or {}).items():
            res.setdefault(k, v)
        return res

    def draw_board(self, surface: pygame.Surface) -> None:
        h = surface.get_height()
        b = self.draw_box(surface)
        view, res = self.table.view, self.outcome()
        name = self.table.roster.seat_name
        pad = int(b.h * 0.04)
        fs = max(14, int(h * 0.028))
        y = b.y + pad
        winners = list(res.get("winners") or [])
        if res.get("decided_by") == "draw" or len(winners) > 1:
            title = tr("fam.results.draw")
        elif winners:
            title = tr("fam.results.winner", name=name(winners[0]))
        else:
            title = tr("results.final")
        img = text.render(title, int(fs * 1.6), GOLD, bold=True, shadow=True)
        surface.blit(img, img.get_rect(midtop=(b.centerx, y)))
        y += img.get_height()
        lines = [tr("fam.results.passes") if res.get("reason") == "passes" else tr("fam.results.deck")]
        scores = list(res.get("scores") or [p.get("score", 0) for p in view.get("players", [])])
        if res.get("decided_by") in ("vp", "values"):
            lines.append(tr(f"fam.results.tie_{res['decided_by']}", n=str(scores[0] if scores else "?")))
        for line in lines:
            img = text.render(line, fs, CREAM, shadow=True)
            surface.blit(img, img.get_rect(midtop=(b.centerx, y)))
            y += img.get_height()
        y += pad // 2
        bottom = b.bottom - pad - int(60 * self.app.ui_scale)
        players = view.get("players", [])
        row_h = (bottom - y) // max(1, len(players))
        for i, p in enumerate(players):
            self._row(surface, pygame.Rect(b.x + pad, y + i * row_h, b.w - 2 * pad, row_h), p,
                      p.get("seat") in winners, fs, scores)

    def _row(self, surf: pygame.Surface, r: pygame.Rect, player: dict[str, Any], winner: bool, fs: int,
             scores: list[int]) -> None:
        seat = int(player.get("seat", 0))
        if seat % 2 == 0:
            band(surf, r)
        label = self.table.roster.seat_name(seat) + ("  " + tr("results.winner") if winner else "")
        name_w = int(r.w * 0.18)
        size = text.fit_size(label, name_w, fs, bold=True)
        img = text.render(label, size, GOLD if winner else CREAM, bold=True)
        surf.blit(img, img.get_rect(topleft=(r.x, r.y + fs // 2)))
        total = scores[seat] if seat < len(scores) else player.get("score", 0)
        tot = text.render(tr("fam.vp", n=str(total)), int(fs * 1.4), GOLD, bold=True)
        surf.blit(tot, tot.get_rect(midright=(r.right, r.centery)))
        cards_x, cards_w = r.x + name_w + fs, r.w - name_w - fs - tot.get_width() - 2 * fs
        groups = [(tr("fam.results.gang"), _sorted(list(player.get("gang") or []))),
                  (tr("fam.results.hand"), _sorted(list(player.get("hand") or [])))]
        n = sum(len(g) for _, g in groups)
        ch = int(min(r.h * 0.70, r.h - 2.2 * fs))
        cw = int(ch * 5 / 7)
        gap = fs
        step = min(cw * 0.72, (cards_w - gap - cw * 2) / max(1, n - 2)) if n > 2 else cw * 0.72
        x = cards_x
        cy = r.y + int(fs * 1.2)
        for title, cards in groups:
            lab = text.render(title, max(10, int(fs * 0.75)), DIM, bold=True)
            surf.blit(lab, (int(x), r.y + 2))
            for i, c in enumerate(cards):
                surf.blit(self.app.art.face(c, cw, ch), (int(x + i * step), cy))
            x += max(lab.get_width(), (len(cards) - 1) * step + cw if cards else 0) + gap * 2
