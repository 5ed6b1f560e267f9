"""The round-end board and the final reveal of Mafiosi, drawn over the table.

After each round (``round_scored``): every player's clan, score explained line by line
(the muscles of the clan, each King with or without its Jack, Queens, Jokers), face
cards (the tie-break), who is eliminated and why, and who won the round; a round winner
is then sent back to the table to keep a point card. The lines come from the cards
this screen saw taken (``trick_won`` events are public, the bouncers were revealed),
scored with the rules' own :mod:`shared.games.mafiosi.scoring`; a screen that joined
mid-round shows the public totals only.

At the end (``match_over``): every player's point cards face up, their totals, the
winners (ties share the victory) and each round's winners.
"""
from __future__ import annotations

from typing import Any, Mapping

import pygame

from client import text
from client.games.mafiosi.cards import suit_badge
from client.games.mafiosi.narrate import clan_name
from client.i18n import tr, labelled
from client.narrate import BAD, GOOD
from client.table.results import CREAM, DIM, GOLD, ResultsOverlay, band
from client.ui.widgets import button
from shared.games.mafiosi.cards import DECK, JACK, KING, QUEEN, suit_card
from shared.games.mafiosi.scoring import (JOKER_POINTS, OTHER_KING_POINTS, OWN_KING_POINTS, OWN_MUSCLE_POINTS,
                                          QUEEN_POINTS, round_score)


def _ids(cards: Any) -> list[int]:
    return [int(c["id"]) for c in cards or [] if isinstance(c, Mapping) and isinstance(c.get("id"), int)]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("\u2212" + str(-n) if n < 0 else "0")


def _rank(cid: int) -> str:
    c = DECK[cid]
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(c.rank, str(c.rank))


def breakdown(w: list[int], clan: str | None) -> list[tuple[str, int]]:
    """A player's round score as lines ``(text, points)`` from W(p) (card ids: won cards
    plus bouncer) and the clan (RULES §4.5)."""
    lines: list[tuple[str, int]] = []
    muscles = sorted((c for c in w if DECK[c].is_muscle and DECK[c].suit == clan), key=lambda c: DECK[c].rank)
    if muscles:
        lines.append((tr("maf.board.muscles", cards=" ".join(_rank(c) for c in muscles), n=str(len(muscles))),
                      OWN_MUSCLE_POINTS * len(muscles)))
    for c in sorted((c for c in w if DECK[c].rank == KING), key=lambda c: DECK[c].id):
        suit = DECK[c].suit or ""
        if suit_card(suit, JACK) in w:
            lines.append((tr("maf.board.king_jack", suit=tr(f"maf.of.{suit}")), 0))
        elif suit == clan:
            lines.append((tr("maf.board.king_own", suit=tr(f"maf.of.{suit}")), OWN_KING_POINTS))
        else:
            lines.append((tr("maf.board.king", suit=tr(f"maf.of.{suit}")), OTHER_KING_POINTS))
    queens = [c for c in w if DECK[c].rank == QUEEN]
    if queens:
        lines.append((tr("maf.board.queens", n=str(len(queens))), QUEEN_POINTS * len(queens)))
    jokers = [c for c in w if DECK[c].is_joker]
    if jokers:
        lines.append((tr("maf.board.jokers", n=str(len(jokers))), JOKER_POINTS * len(jokers)))
    if not lines:
        lines.append((tr("maf.board.nothing"), 0))
    return lines


def elimination_owner(clan: str | None, piles: Mapping[int, list[int]]) -> int | None:
    """The seat whose W(q) holds both the King and the Jack of ``clan`` (None: nobody)."""
    if clan is None:
        return None
    king, jack = suit_card(clan, KING), suit_card(clan, JACK)
    return next((s for s, w in piles.items() if king in w and jack in w), None)


class MafiosiBoard(ResultsOverlay):
    """Round ``round_no``'s board, or the final reveal (``final``). More boards asked for
    while one is shown wait in :attr:`queue`."""

    width_frac = 0.90
    #: Round results on a spectator's screen (the TV view) close by themselves.
    spectator_close_s = 12.0

    def __init__(self, app: Any, table: Any, round_no: int | None, final: bool = False):
        super().__init__(app, table)
        self.round_no = round_no
        self.final = final
        self.queue: list[tuple[int | None, bool]] = []

    def again(self, round_no: int | None, final: bool = False) -> None:
        """Another board asked for while this one is up: it waits its turn (the final
        reveal behind this board changes its button: no round comes next)."""
        self.queue.append((round_no, final))
        if final:
            self.rebuild_soon()

    # -- what it shows --------------------------------------------------------------------
    def round_result(self) -> dict[str, Any]:
        for r in self.table.view.get("round_results") or []:
            if r.get("round") == self.round_no:
                return r
        return {}

    def details(self) -> dict[str, Any] | None:
        d = self.table.round_details.get(self.round_no)
        return d if d and d.get("ok") else None

    def piles(self) -> dict[int, list[int]] | None:
        """Each seat's W(p) (won cards + bouncer) of this round, None when unknown."""
        d = self.details()
        if d is None:
            return None
        n = int(self.table.view.get("seats", 0))
        bouncers = d.get("bouncers") or []
        out = {}
        for s in range(n):
            w = _ids(d["piles"].get(s))
            b = bouncers[s] if s < len(bouncers) else None
            if isinstance(b, Mapping):
                w.append(int(b["id"]))
            out[s] = w
        return out

    def must_keep(self) -> bool:
        v = self.table.view
        seat = self.table.single
        return (not self.final and v.get("phase") == "point" and seat is not None
                and seat in (v.get("point_pending") or []) and v.get("round") == self.round_no)

    # -- buttons ------------------------------------------------------------------------
    def build_board(self, size: tuple[int, int]) -> None:
        r = self.main_button()
        if self.final:
            button(self, r, "results.menu", object_id="#primary", command=self.to_menu)
            s = self.app.ui_scale
            r2 = pygame.Rect(0, 0, int(200 * s), r.h)
            r2.bottomright = (r.left - int(16 * s), r.bottom)
            button(self, r2, "maf.board.see_table", command=self.close)
        elif self.must_keep():
            button(self, r, "maf.board.keep", object_id="#primary", command=self.close)
        elif (self.queue[0][1] if self.queue else self.table.view.get("phase") == "over"):
            # the match's last round: what comes next is the final reveal, not a round
            button(self, r, "maf.board.to_final", object_id="#primary", command=self.close)
        else:
            button(self, r, "results.next", object_id="#primary", command=self.close)

    def close(self) -> None:
        self.app.pop()
        if self.queue:
            round_no, final = self.queue.pop(0)
            board = MafiosiBoard(self.app, self.table, round_no, final)
            board.queue = self.queue
            self.app.push(board)

    def board_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_ESCAPE):
            if self.t > 1.0:  # a key pressed at the last moment of play must not dismiss it
                self.close() if not self.final or event.key == pygame.K_ESCAPE else self.to_menu()

    # -- drawing --------------------------------------------------------------------------
    def draw_board(self, surface: pygame.Surface) -> None:
        b = self.draw_box(surface)
        if self.final:
            self._draw_final(surface, b)
        else:
            self._draw_round(surface, b)

    def _title(self, surface: pygame.Surface, b: pygame.Rect, title: str, sub: str, fs: int) -> int:
        y = b.y + int(fs * 0.8)
        img = text.render(title, int(fs * 1.6), GOLD, bold=True, shadow=True)
        surface.blit(img, img.get_rect(midtop=(b.centerx, y)))
        y += img.get_height()
        if sub:
            img = text.render(sub, fs, CREAM, shadow=True)
            surface.blit(img, img.get_rect(midtop=(b.centerx, y)))
            y += img.get_height()
        return y + fs // 2

    def _draw_round(self, surface: pygame.Surface, b: pygame.Rect) -> None:
        h = surface.get_height()
        fs = max(14, int(h * 0.026))
        res = self.round_result()
        v = self.table.view
        name = self.table.roster.seat_name
        winners = [w for w in res.get("winners") or [] if isinstance(w, int)]
        if winners:
            sub = tr("maf.board.winners", names=", ".join(name(w) for w in winners))
        else:
            sub = tr("maf.board.no_winner")
        y = self._title(surface, b, tr("maf.board.title", round=str(self.round_no), rounds=str(v.get("rounds", "?"))),
                        sub, fs)
        piles = self.piles()
        n = int(v.get("seats", len(res.get("scores") or [])))
        pad = int(b.w * 0.02)
        bottom = b.bottom - int(80 * self.app.ui_scale)
        row_h = (bottom - y) // max(1, n)
        x_name, x_lines = b.x + pad, b.x + int(b.w * 0.24)
        x_faces, x_score = b.x + int(b.w * 0.84), b.x + int(b.w * 0.94)
        hs = max(11, int(fs * 0.75))
        for label, x in ((tr("maf.board.faces"), x_faces), (tr("maf.board.score"), x_score)):
            img = text.render(label, hs, DIM, bold=True)
            surface.blit(img, img.get_rect(midbottom=(x, y)))
        clans = res.get("clans") or []
        scores = res.get("scores") or []
        faces = res.get("faces") or []
        gone = res.get("eliminated") or []
        for p in range(n):
            r = pygame.Rect(b.x + pad, y + p * row_h, b.w - 2 * pad, row_h)
            if p % 2 == 0:
                band(surface, r)
            clan = clans[p] if p < len(clans) else None
            win = p in winners
            out = bool(gone[p]) if p < len(gone) else False
            label = name(p)
            colour = GOLD if win else ((170, 150, 140) if out else CREAM)
            size = text.fit_size(label, x_lines - x_name - pad, fs, bold=True)
            img = text.render(label, size, colour, bold=True)
            surface.blit(img, (x_name, r.y + fs // 3))
            cy = r.y + fs // 3 + img.get_height() + 2
            badge = suit_badge(self.app.art, clan, int(fs * 1.2))
            if clan:
                surface.blit(badge, (x_name, cy))
            cl = text.render(tr("maf.board.clan", clan=clan_name(clan)), int(fs * 0.85), CREAM)
            surface.blit(cl, (x_name + (badge.get_width() + 6 if clan else 0),
                              cy + (badge.get_height() - cl.get_height()) // 2))
            tag = tr("maf.board.win_tag") if win else (tr("maf.board.out_tag") if out else "")
            if tag:
                t_img = text.render(tag, int(fs * 0.85), GOOD if win else BAD, bold=True)
                surface.blit(t_img, (x_name, cy + badge.get_height() + 2))
            # the lines
            ls = max(12, int(fs * 0.82))
            lines: list[tuple[str, tuple[int, int, int]]] = []
            if piles is not None:
                w = piles.get(p, [])
                for text_, pts in breakdown(w, clan):
                    lines.append((labelled(text_, _signed(pts)), CREAM))
                if round_score(w, clan) != (scores[p] if p < len(scores) else None):
                    lines = [(tr("maf.board.total_only"), DIM)]
            else:
                lines.append((tr("maf.board.total_only"), DIM))
            if out:
                owner = elimination_owner(clan, piles) if piles is not None else None
                if owner is not None:
                    why = tr("maf.board.out_why_who", clan=clan_name(clan), name=name(owner))
                else:
                    why = tr("maf.board.out_why", clan=clan_name(clan))
                lines.append((why, BAD))
            self._lines(surface, pygame.Rect(x_lines, r.y + 3, x_faces - x_lines - pad * 3, r.h - 6), lines, ls)
            if p < len(faces):
                img = text.render(str(faces[p]), fs, CREAM)
                surface.blit(img, img.get_rect(center=(x_faces, r.centery)))
            if p < len(scores):
                img = text.render(_signed(int(scores[p])), int(fs * 1.3), GOLD if win else CREAM, bold=True)
                surface.blit(img, img.get_rect(center=(x_score, r.centery)))
        hint = tr("maf.board.keep_hint") if self.must_keep() else tr("maf.board.hint")
        img = text.render(hint, max(12, int(fs * 0.8)), DIM)
        surface.blit(img, img.get_rect(bottomleft=(b.x + pad, b.bottom - int(28 * self.app.ui_scale))))

    def _lines(self, surface: pygame.Surface, r: pygame.Rect, lines: list[tuple[str, Any]], size: int) -> None:
        """The elimination first across the whole width, then the score lines, in two
        columns when one is not enough (as many as fit)."""
        lh = text.font(size).get_linesize()
        bad = [x for x in lines if x[1] == BAD]
        lines = [x for x in lines if x[1] != BAD]
        for line, colour in bad:
            img = text.render(text.elide(line, r.w, size), size, colour, bold=True)
            surface.blit(img, r.topleft)
            r = pygame.Rect(r.x, r.y + lh, r.w, r.h - lh)
        per_col = max(1, r.h // lh)
        cols = 1 if len(lines) <= per_col else 2
        cw = r.w // cols
        for i, (line, colour) in enumerate(lines[:per_col * cols]):
            c, k = divmod(i, per_col)
            img = text.render(text.elide(line, cw - 8, size), size, colour)
            surface.blit(img, (r.x + c * cw, r.y + k * lh))

    def _draw_final(self, surface: pygame.Surface, b: pygame.Rect) -> None:
        h = surface.get_height()
        fs = max(14, int(h * 0.026))
        v = self.table.view
        final = v.get("final") or {}
        res = self.result or {}
        totals = final.get("totals") or res.get("scores") or []
        winners = [w for w in (final.get("winners") or res.get("winners") or []) if isinstance(w, int)]
        name = self.table.roster.seat_name
        if len(winners) > 1:
            title = tr("maf.board.final_shared", names=", ".join(name(w) for w in winners))
        elif winners:
            title = tr("maf.board.final_winner", name=name(winners[0]))
        else:
            title = tr("results.final")
        y = self._title(surface, b, title, tr("maf.board.final_sub"), fs)
        rounds = v.get("round_results") or []
        n = int(v.get("seats", len(totals)))
        pad = int(b.w * 0.02)
        bottom = b.bottom - int(80 * self.app.ui_scale)
        row_h = (bottom - y) // max(1, n)
        points = final.get("point_cards") or [p.get("point_cards") or [] for p in v.get("players", [])]
        x_cards, x_rounds, x_total = b.x + int(b.w * 0.22), b.x + int(b.w * 0.62), b.x + int(b.w * 0.93)
        for p in range(n):
            r = pygame.Rect(b.x + pad, y + p * row_h, b.w - 2 * pad, row_h)
            if p % 2 == 0:
                band(surface, r)
            win = p in winners
            label = name(p) + ("  " + tr("results.winner") if win else "")
            size = text.fit_size(label, x_cards - r.x - pad, fs, bold=True)
            img = text.render(label, size, GOLD if win else CREAM, bold=True)
            surface.blit(img, img.get_rect(midleft=(r.x + 4, r.centery)))
            cards = points[p] if p < len(points) else []
            ch = int(r.h * 0.84)
            cw = int(ch * 5 / 7)
            step = min(cw + cw // 8, (x_rounds - x_cards - cw - pad) / max(1, len(cards) - 1)) if len(cards) > 1 else 0
            for i, c in enumerate(cards):
                surface.blit(self.app.art.face(c, cw, ch), (int(x_cards + i * step), r.y + (r.h - ch) // 2))
            if not cards:
                img = text.render(tr("maf.board.no_points"), int(fs * 0.85), DIM)
                surface.blit(img, img.get_rect(midleft=(x_cards, r.centery)))
            won_rounds = [str(rr.get("round")) for rr in rounds if p in (rr.get("winners") or [])]
            line = tr("maf.board.rounds_won", rounds=", ".join(won_rounds)) if won_rounds else tr("maf.board.rounds_none")
            scores = ", ".join(_signed(int((rr.get("scores") or [0] * n)[p])) for rr in rounds)
            for k, (t_, col) in enumerate(((line, CREAM), (tr("maf.board.round_scores", scores=scores), DIM))):
                ls = max(12, int(fs * 0.8))
                img = text.render(text.elide(t_, x_total - x_rounds - 2 * fs, ls), ls, col)
                surface.blit(img, (x_rounds, r.centery - img.get_height() + k * (img.get_height() + 2)))
            if p < len(totals):
                img = text.render(tr("maf.board.points", n=str(totals[p])), int(fs * 1.3), GOLD if win else CREAM,
                                  bold=True)
                surface.blit(img, img.get_rect(center=(x_total, r.centery)))
        img = text.render(tr("maf.board.final_hint"), max(12, int(fs * 0.8)), DIM)
        surface.blit(img, img.get_rect(bottomleft=(b.x + pad, b.bottom - int(28 * self.app.ui_scale))))
