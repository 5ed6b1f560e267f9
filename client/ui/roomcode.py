"""The room-code panel of the TV and the host's lobby: the address phones open, the
table's room code and a QR code of the address, so a phone joins without typing an
address (docs/PROTOCOL.md "Web controller"). The code is the table's ``room``, which
the server sends only to the table's own people (its ``table`` messages): a screen that
has none shows no panel.

The QR code is made by ``segno`` (pure Python) and drawn onto a pygame ``Surface``
module by module; it encodes ``http://HOST:WEB_PORT/?room=CODE``
(:func:`server.web.rooms.join_url`). ``WEB_PORT`` comes from the server's ``welcome``
(``web_port``; absent: the server serves no phone page and no panel is drawn); ``HOST``
is the server's address as others reach it, given by the screen (the lobby's address
line: this machine's LAN address for the embedded server).
"""
from __future__ import annotations

import socket
from functools import lru_cache
from typing import Any

import pygame

from client import text
from client.i18n import tr
from server.web.rooms import join_url

#: Colours: dark modules on a light card, so every phone camera reads them.
DARK = (16, 24, 18)
LIGHT = (244, 236, 216)
GOLD = (217, 181, 74)
INK = (240, 235, 220)
#: The quiet zone around the symbol, in modules (the standard asks for 4).
QUIET = 4


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses others may reach, the likely LAN one first
    (:func:`shared.addresses.lan_addresses`: VPN and container adapters last); the
    default route's address when the interfaces cannot be listed."""
    from shared.addresses import lan_addresses as ranked

    return [a for a in ranked() if ":" not in a] or [_route_address()]


def lan_address() -> str:
    """This machine's likely LAN IPv4 address (the first of :func:`lan_addresses`)."""
    return lan_addresses()[0]


def _route_address() -> str:
    """The address of the default route's interface (no traffic sent), else the host
    name's, else loopback."""
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        finally:
            s.close()
    except OSError:
        try:
            return socket.gethostbyname(socket.gethostname())
        except OSError:
            return "127.0.0.1"


def phone_url(link: Any, table: dict[str, Any], host: str | None = None) -> tuple[str, str] | None:
    """``(url, room code)`` for ``table`` (wire Table) on ``link``'s server (a
    :class:`client.app.Link` or a :class:`client.net.ClientProtocol`: its ``welcome``), or
    None when the server serves no phone page (no ``web_port`` in its welcome) or did
    not tell this screen the table's code (no ``room``). ``host``: the server's address
    as the others reach it (default: the one ``link`` reached)."""
    welcome = getattr(link, "welcome", None) or getattr(getattr(link, "conn", None), "welcome", None) or {}
    web_port = welcome.get("web_port")
    code = table.get("room")
    if not isinstance(web_port, int) or not isinstance(code, str) or not code:
        return None
    if not host:
        host = str(getattr(link, "address", ("127.0.0.1", 0))[0])
    return join_url(host, web_port, code), code


@lru_cache(maxsize=8)
def qr_surface(data: str, size: int) -> pygame.Surface:
    """A square QR code of ``data``, at most ``size`` px wide (whole pixels per module,
    quiet zone included), dark on light. Cached."""
    import segno

    qr = segno.make(data, error="m", micro=False)
    matrix = qr.matrix
    n = len(matrix) + 2 * QUIET
    px = max(1, size // n)
    surf = pygame.Surface((n * px, n * px))
    surf.fill(LIGHT)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                surf.fill(DARK, ((x + QUIET) * px, (y + QUIET) * px, px, px))
    return surf


def draw_panel(surface: pygame.Surface, rect: pygame.Rect, url: str, code: str, scale: float = 1.0) -> None:
    """The panel in ``rect`` (px): a title, the QR code, the room code in big letters
    and the address. A wide ``rect`` has the QR code left of the code and address, a
    tall one above them. Everything is fitted to ``rect``."""
    s = max(0.5, scale)
    rect = rect.inflate(-int(12 * s), -int(12 * s))  # as the dialogs' panels sit in their rects
    pad = int(12 * s)
    bg = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(bg, (10, 26, 16, 225), bg.get_rect(), border_radius=int(14 * s))
    pygame.draw.rect(bg, GOLD, bg.get_rect(), max(1, int(2 * s)), border_radius=int(14 * s))
    surface.blit(bg, rect.topleft)
    inner = rect.inflate(-2 * pad, -2 * pad)
    title = _fit(tr("phone.title"), int(22 * s), inner.w, GOLD, bold=True)
    surface.blit(title, title.get_rect(midtop=(inner.centerx, inner.y)))
    body = pygame.Rect(inner.x, inner.y + title.get_height() + int(8 * s), inner.w,
                       inner.bottom - inner.y - title.get_height() - int(8 * s))
    wide = body.w >= body.h * 1.5
    if wide:
        side = max(40, min(body.h, int(body.w * 0.48)))
        qr = qr_surface(url, side)
        surface.blit(qr, qr.get_rect(midleft=(body.x, body.centery)))
        text_box = pygame.Rect(body.x + qr.get_width() + pad, body.y, body.w - qr.get_width() - pad, body.h)
    else:
        code_block = int(40 * s) + int(18 * s) * 3 + int(10 * s)
        side = max(40, min(body.w, body.h - code_block))
        qr = qr_surface(url, side)
        surface.blit(qr, qr.get_rect(midtop=(body.centerx, body.y)))
        text_box = pygame.Rect(body.x, body.y + qr.get_height() + int(6 * s), body.w,
                               body.h - qr.get_height() - int(6 * s))
    address = url.replace("http://", "").split("/?")[0]  # the page asks for the code
    lines = [(tr("phone.code"), int(16 * s), INK, False), (code, int(44 * s), GOLD, True),
             (tr("phone.scan"), int(15 * s), INK, False), (address, int(17 * s), INK, True)]
    imgs = [_fit(line, size, text_box.w, colour, bold) for line, size, colour, bold in lines]
    gaps = [0, int(8 * s), 0]
    total = sum(i.get_height() for i in imgs) + sum(gaps)
    y = text_box.centery - total // 2 if wide else text_box.y
    for i, img in enumerate(imgs):
        if y + img.get_height() > rect.bottom:
            break
        surface.blit(img, img.get_rect(midtop=(text_box.centerx, y)))
        y += img.get_height() + (gaps[i] if i < len(gaps) else 0)


def corner_rect(size: tuple[int, int]) -> pygame.Rect:
    """Where the TV keeps the panel over a running table: the bottom right corner of a
    screen of ``size`` px (the message column holds the bottom left), about a quarter
    of the screen's height wide, below the side players' boxes."""
    w, h = size
    pw = max(140, int(min(w * 0.16, h * 0.24)))
    ph = int(pw * 1.32)
    return pygame.Rect(w - pw - 4, h - ph - 4, pw, ph)


def draw_for(surface: pygame.Surface, rect: pygame.Rect, link: Any, table: dict[str, Any],
             scale: float = 1.0, host: str | None = None) -> bool:
    """:func:`draw_panel` for ``table`` on ``link``'s server (reached by others at
    ``host``, see :func:`phone_url`) when it serves phones and ``rect`` is big enough;
    returns whether something was drawn."""
    info = phone_url(link, table, host)
    if info is None or rect.w < 80 or rect.h < 120:
        return False
    draw_panel(surface, rect, info[0], info[1], scale)
    return True


def _fit(line: str, size: int, width: int, colour: tuple[int, int, int], bold: bool = False) -> pygame.Surface:
    """``line`` rendered at ``size`` px, smaller until it fits ``width``."""
    size = max(8, size)
    img = text.render(line, size, colour, bold=bold)
    while img.get_width() > width and size > 8:
        size -= 1
        img = text.render(line, size, colour, bold=bold)
    return img
