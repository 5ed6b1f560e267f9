"""Mafiosi's card faces, drawn by code: a standard 54-card deck.

A Mafiosi card is the wire dict ``{"id", "kind": "card", "rank": "A".."10"|"J"|"Q"|"K"|
"joker", "suit": "hearts"|"diamonds"|"spades"|"clubs"|None, "strength", "value",
"code"}``. Every face shows its rank and a **suit shape** in the top-left corner (the
part that stays visible in a fan) and again upside down in the bottom-right corner;
muscles show their pips, face cards a framed portrait letter with a crown, Jokers a star
and the word JOKER. Colour is never the only cue: the four suits differ by shape.

Colours: hearts and diamonds red, spades and clubs black; with the
``display.four_colour_suits`` setting (``art.four_colour_suits``, set by the table from
the player's settings; the art cache is cleared when it changes) diamonds are blue and
clubs green. :data:`FACES` is the game's face painter for :class:`client.cards.CardArt`.
"""
from __future__ import annotations

from typing import Any, Mapping

import pygame

from client import text
from client.cards import GOLD, INK, PAPER, CardArt, Colour
from client.cards import mix as _mix, rounded as _rounded, star as _star
from client.i18n import tr

SUITS = ("hearts", "diamonds", "spades", "clubs")
RED: Colour = (196, 28, 40)
BLACK: Colour = (30, 26, 28)
BLUE: Colour = (28, 84, 196)
GREEN: Colour = (22, 128, 58)
TWO_COLOURS: dict[str, Colour] = {"hearts": RED, "diamonds": RED, "spades": BLACK, "clubs": BLACK}
FOUR_COLOURS: dict[str, Colour] = {"hearts": RED, "diamonds": BLUE, "spades": BLACK, "clubs": GREEN}
#: Where the pips of a muscle sit: (x, y) fractions of the pip box.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.0), (0.5, 1.0)),
    3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    4: ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),
    5: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 1.0)),
    6: ((0.0, 0.0), (1.0, 0.0), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    7: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    8: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.5, 0.75), (0.0, 1.0), (1.0, 1.0)),
    9: ((0.0, 0.0), (1.0, 0.0), (0.0, 1 / 3), (1.0, 1 / 3), (0.5, 0.5), (0.0, 2 / 3), (1.0, 2 / 3),
        (0.0, 1.0), (1.0, 1.0)),
    10: ((0.0, 0.0), (1.0, 0.0), (0.5, 1 / 6), (0.0, 1 / 3), (1.0, 1 / 3), (0.0, 2 / 3), (1.0, 2 / 3),
         (0.5, 5 / 6), (0.0, 1.0), (1.0, 1.0)),
}
RANK_NUMBER = {"A": 1, "J": 11, "Q": 12, "K": 13}


def is_mafiosi_card(card: Any) -> bool:
    return isinstance(card, Mapping) and card.get("kind") == "card" and "rank" in card and "code" in card


def card_key(card: Mapping[str, Any]) -> str | None:
    """Short identity of a Mafiosi face: ``"maf:QH"``; None for another game's card."""
    if not is_mafiosi_card(card):
        return None
    return f"maf:{card.get('code')}"


def suit_colour(suit: str | None, four: bool = False) -> Colour:
    """The ink of a suit (four-colour when ``four``); a Joker's (None) is gold-brown."""
    if suit is None:
        return (150, 96, 20)
    return (FOUR_COLOURS if four else TWO_COLOURS).get(suit, BLACK)


def four_colour(art: Any) -> bool:
    return bool(getattr(art, "four_colour_suits", False))


def draw_suit(s: pygame.Surface, suit: str | None, centre: tuple[float, float], size: float,
              colour: Colour, upside_down: bool = False) -> None:
    """A suit's shape ``size`` px tall centred on ``centre`` (a star for a Joker)."""
    cx, cy = centre
    k = size
    flip = -1.0 if upside_down else 1.0

    def pt(dx: float, dy: float) -> tuple[float, float]:
        return (cx + dx * k, cy + dy * k * flip)

    def circle(dx: float, dy: float, r: float) -> None:
        x, y = pt(dx, dy)
        pygame.draw.circle(s, colour, (int(x), int(y)), max(1, int(r * k)))

    if suit == "diamonds":
        pygame.draw.polygon(s, colour, [pt(0, -0.5), pt(0.37, 0), pt(0, 0.5), pt(-0.37, 0)])
    elif suit == "hearts":
        circle(-0.215, -0.17, 0.245)
        circle(0.215, -0.17, 0.245)
        pygame.draw.polygon(s, colour, [pt(-0.455, -0.09), pt(0.455, -0.09), pt(0, 0.47)])
    elif suit == "spades":
        circle(-0.215, 0.07, 0.235)
        circle(0.215, 0.07, 0.235)
        pygame.draw.polygon(s, colour, [pt(-0.445, -0.0), pt(0.445, -0.0), pt(0, -0.5)])
        pygame.draw.polygon(s, colour, [pt(0, 0.05), pt(-0.17, 0.5), pt(0.17, 0.5)])
    elif suit == "clubs":
        circle(0, -0.24, 0.205)
        circle(-0.225, 0.06, 0.205)
        circle(0.225, 0.06, 0.205)
        circle(0, -0.02, 0.12)
        pygame.draw.polygon(s, colour, [pt(0, -0.05), pt(-0.17, 0.5), pt(0.17, 0.5)])
    else:
        pygame.draw.polygon(s, colour, _star((cx, cy), k * 0.5, 5, 0.45))


def suit_badge(art: CardArt, suit: str | None, size: int) -> pygame.Surface:
    """A suit shape on a paper disc (readable on the dark felt and plates)."""
    size = max(8, int(size))
    col = suit_colour(suit, four_colour(art))

    def paint(s: pygame.Surface) -> None:
        r = s.get_width() // 2
        pygame.draw.circle(s, PAPER, (r, r), r)
        pygame.draw.circle(s, _mix(col, INK, 0.3), (r, r), r, max(2, r // 8))
        draw_suit(s, suit, (r, r * 1.02), r * 1.15, col)

    return art.cached(("maf-badge", suit, size, col), (size, size), paint)


def paint_face(art: CardArt, s: pygame.Surface, card: Mapping[str, Any]) -> None:
    w, h = s.get_size()
    four = four_colour(art)
    rank = str(card.get("rank"))
    suit = card.get("suit")
    joker = rank == "joker"
    if joker:
        col = RED if str(card.get("code")) == "JK1" else BLACK
    else:
        col = suit_colour(suit, four)
    art.frame(s, PAPER)
    # the corner index (top-left), then the same upside down (bottom-right)
    corner = pygame.Surface((int(w * 0.24), int(h * 0.30)), pygame.SRCALPHA)
    _index(corner, rank, suit, col, joker)
    s.blit(corner, (int(w * 0.035), int(h * 0.03)))
    s.blit(pygame.transform.rotate(corner, 180), (w - int(w * 0.035) - corner.get_width(),
                                                   h - int(h * 0.03) - corner.get_height()))
    if joker:
        _joker(s, col)
    elif rank in ("J", "Q", "K"):
        _court(s, rank, suit, col)
    else:
        n = RANK_NUMBER.get(rank) or int(rank)
        _pips(s, n, suit, col)


def _index(c: pygame.Surface, rank: str, suit: str | None, col: Colour, joker: bool) -> None:
    cw, ch = c.get_size()
    label = "JK" if joker else rank
    size = int(ch * (0.40 if len(label) < 2 else 0.36))
    img = text.font(size, True).render(label, True, col)
    if img.get_width() > cw:
        img = pygame.transform.smoothscale(img, (cw, int(img.get_height() * cw / img.get_width())))
    c.blit(img, img.get_rect(midtop=(cw // 2, 0)))
    draw_suit(c, None if joker else suit, (cw / 2, ch * 0.70), min(cw * 0.78, ch * 0.40), col)


def _pips(s: pygame.Surface, n: int, suit: str | None, col: Colour) -> None:
    w, h = s.get_size()
    if n == 1:  # the ace: one big suit
        draw_suit(s, suit, (w / 2, h / 2), w * 0.50, col)
        return
    box = pygame.Rect(int(w * 0.34), int(h * 0.20), int(w * 0.32), int(h * 0.60))
    size = w * (0.20 if n <= 8 else 0.18)
    for fx, fy in PIPS[n]:
        draw_suit(s, suit, (box.x + fx * box.w, box.y + fy * box.h), size, col, upside_down=fy > 0.55)


def _court(s: pygame.Surface, rank: str, suit: str | None, col: Colour) -> None:
    w, h = s.get_size()
    inner = pygame.Rect(int(w * 0.24), int(h * 0.14), int(w * 0.52), int(h * 0.72))
    _rounded(s, inner, _mix(PAPER, col, 0.16), max(4, w // 20))
    _rounded(s, inner, col, max(4, w // 20), width=max(2, w // 45))
    # a crown (three points for a King, two for a Queen, a cap for a Jack)
    cx = inner.centerx
    top = inner.y + inner.h * 0.10
    cwid = inner.w * 0.62
    base = top + inner.h * 0.17
    if rank == "K":
        pts = [(cx - cwid / 2, base), (cx - cwid / 2, top + inner.h * 0.04), (cx - cwid / 4, top + inner.h * 0.10),
               (cx, top - inner.h * 0.02), (cx + cwid / 4, top + inner.h * 0.10),
               (cx + cwid / 2, top + inner.h * 0.04), (cx + cwid / 2, base)]
    elif rank == "Q":
        pts = [(cx - cwid / 2, base), (cx - cwid / 2.6, top + inner.h * 0.03), (cx, top + inner.h * 0.11),
               (cx + cwid / 2.6, top + inner.h * 0.03), (cx + cwid / 2, base)]
    else:
        pts = [(cx - cwid / 2, base), (cx - cwid / 2.4, top + inner.h * 0.06), (cx + cwid / 2.4, top + inner.h * 0.06),
               (cx + cwid / 2, base)]
    pygame.draw.polygon(s, GOLD, pts)
    pygame.draw.polygon(s, _mix(GOLD, INK, 0.5), pts, max(1, w // 80))
    big = text.font(int(inner.h * 0.42), True).render(rank, True, col)
    s.blit(big, big.get_rect(center=(cx, int(inner.y + inner.h * 0.52))))
    draw_suit(s, suit, (cx, inner.y + inner.h * 0.84), inner.w * 0.36, col)


def _joker(s: pygame.Surface, col: Colour) -> None:
    w, h = s.get_size()
    cx, cy = w / 2, h * 0.44
    pygame.draw.polygon(s, GOLD, _star((cx, cy), w * 0.30, 5, 0.45))
    pygame.draw.polygon(s, col, _star((cx, cy), w * 0.30, 5, 0.45), max(2, w // 40))
    word = "JOKER"
    size = text.fit_size(word, int(w * 0.56), int(h * 0.11), bold=True)
    img = text.font(size, True).render(word, True, col)
    s.blit(img, img.get_rect(center=(int(cx), int(h * 0.74))))


def card_name(card: Any) -> str:
    """How a card is named in messages: "the Queen of hearts", "a Joker"."""
    if not isinstance(card, Mapping):
        return "?"
    rank = str(card.get("rank"))
    if rank == "joker":
        return tr("maf.card.joker")
    suit = tr(f"maf.of.{card.get('suit')}")
    if rank in ("A", "J", "Q", "K"):
        return tr(f"maf.card.{rank.lower()}", suit=suit)
    return tr("maf.card.n", rank=rank, suit=suit)


FACES = (card_key, paint_face)
