"""The end of a Family Business match, drawn over the table: who won (the last gang
standing, or the most living mobsters at the turn limit), why, after how many turns,
and every gang's survivors -- each player's row with the gang's emblem, its living
mobsters face up, how many survived and how many died.
"""
from __future__ import annotations

from typing import Any

import pygame

from client import text
from client.games.family_business.cards import emblem_badge
from client.i18n import tr
from client.table.results import CREAM, DIM, GOLD, ResultsOverlay, band
from client.ui.widgets import button


class FBResultsScene(ResultsOverlay):
    width_frac = 0.84

    def build_board(self, size: tuple[int, int]) -> None:
        s = self.app.ui_scale
        r = self.main_button()
        button(self, r, "results.menu", object_id="#primary", command=self.to_menu)
        r2 = pygame.Rect(0, 0, int(220 * s), int(50 * s))
        r2.bottomright = (r.left - int(16 * s), r.bottom)
        button(self, r2, tr("fb.results.see_table"), raw=True, command=self.app.pop)

    def board_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_ESCAPE) and self.t > 1.5:
            self.to_menu()  # a counter key pressed at the last moment must not dismiss it

    def outcome(self) -> dict[str, Any]:
        """``{winners, reason, turns, scores}`` from ``match_over`` and the view."""
        v = self.table.view
        res = dict(self.result or {})
        res.setdefault("winners", v.get("winners") or [])
        res.setdefault("turns", v.get("turn_no"))
        res.setdefault("scores", [p.get("alive", 0) for p in v.get("players") or []])
        return res

    def draw_board(self, surface: pygame.Surface) -> None:
        h = surface.get_height()
        b = self.draw_box(surface)
        view, res = self.table.view, self.outcome()
        name = self.table.roster.seat_name
        pad = int(b.h * 0.04)
        fs = max(14, int(h * 0.028))
        y = b.y + pad
        winners = [int(p) for p in res.get("winners") or []]
        names = ", ".join(name(p) for p in winners)
        title = tr("fb.results.title_one", names=names) if len(winners) == 1 else \
            tr("fb.results.title_many", names=names) if winners else tr("fb.results.title_none")
        img = text.render(title, text.fit_size(title, b.w - 2 * pad, int(fs * 1.7), bold=True), GOLD, bold=True,
                          shadow=True)
        surface.blit(img, img.get_rect(midtop=(b.centerx, y)))
        y += img.get_height()
        reason = res.get("reason") or "last_gang"
        line = tr("fb.results.turn_cap" if reason == "turn_cap" else "fb.results.last_gang",
                  n=str(res.get("turns") or view.get("turn_no") or "?"))
        img = text.render(line, fs, CREAM, shadow=True)
        surface.blit(img, img.get_rect(midtop=(b.centerx, y)))
        y += img.get_height() + pad // 2
        # the columns' titles
        hs = max(11, int(fs * 0.75))
        name_x, cards_x = b.x + pad, b.x + int(b.w * 0.27)
        surv_x, dead_x = b.x + int(b.w * 0.84), b.x + int(b.w * 0.93)
        for label, x in ((tr("fb.results.player"), name_x), (tr("fb.results.survivors"), surv_x),
                         (tr("fb.results.dead"), dead_x)):
            img = text.render(label, hs, DIM, bold=True)
            surface.blit(img, (x, y) if x == name_x else img.get_rect(midtop=(x, y)))
        y += int(hs * 1.6)
        players = view.get("players") or []
        bottom = b.bottom - pad - int(60 * self.app.ui_scale)
        row_h = min(int(h * 0.12), (bottom - y) // max(1, len(players)))
        ch = int(row_h * 0.84)
        cw = int(ch * 5 / 7)
        scores = res.get("scores") or []
        for i, p in enumerate(players):
            seat = int(p.get("seat", i))
            ry = y + i * row_h
            if i % 2 == 0:
                band(surface, pygame.Rect(b.x + pad // 2, ry, b.w - pad, row_h))
            d = int(row_h * 0.6)
            surface.blit(emblem_badge(self.app.art, seat, d), (name_x, ry + (row_h - d) // 2))
            won = seat in winners
            label = name(seat) + ("  " + tr("fb.results.winner") if won else "") + \
                ("  (" + tr("fb.results.out") + ")" if not p.get("in_game", True) else "")
            size = text.fit_size(label, cards_x - name_x - d - pad, fs, bold=True)
            img = text.render(label, size, GOLD if won else CREAM, bold=True)
            surface.blit(img, img.get_rect(midleft=(name_x + d + pad // 3, ry + row_h // 2)))
            alive = list(p.get("front") or []) + [m for m in view.get("hit_list") or []
                                                  if int(m.get("gang", -1)) == seat]
            room = surv_x - cards_x - cw - pad * 2
            step = min(cw + cw // 8, room / max(1, len(alive) - 1)) if len(alive) > 1 else 0
            for k, m in enumerate(alive):
                surface.blit(self.app.art.face(m, cw, ch), (int(cards_x + k * step), ry + (row_h - ch) // 2))
            score = scores[seat] if seat < len(scores) else p.get("alive", 0)
            for x, value, colour in ((surv_x, score, GOLD), (dead_x, p.get("dead", 0), CREAM)):
                img = text.render(str(value), int(fs * 1.2), colour, bold=True)
                surface.blit(img, img.get_rect(center=(x, ry + row_h // 2)))
        hint = text.render(tr("fb.results.hint"), max(11, int(fs * 0.8)), DIM)
        surface.blit(hint, hint.get_rect(bottomleft=(b.x + pad, b.bottom - pad)))
