"""A table's emotes: the badges beside the senders' plates and the emote bar of a seated
player's screen (drawing and chips in :mod:`client.ui.emotes`)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping, Protocol

import pygame

from client.i18n import current as current_language, tr
from client.input import EMOTE_KEYS, key_label
from client.narrate import BAD, NOTE
from client.table.layout import emote_bar_size
from client.ui import emotes as emote_art
from client.ui.emotes import EMOTES, EmoteBar, EmoteBoard


class EmoteOwner(Protocol):
    """What the emotes read of their table scene."""

    app: Any
    table_id: Any
    replay: bool
    links: dict[int, Any]
    layout: Any
    t: float  # scene clock, ms
    mouse: tuple[int, int] | None
    column: Any  # the message column (``say``)


class TableEmotes:
    """The badges by seat (:attr:`board`) and the bar (:attr:`bar`) of ``owner``'s table."""

    def __init__(self, owner: EmoteOwner):
        self.owner = owner
        self.board = EmoteBoard()
        self.bar = EmoteBar()
        self._bar_at: tuple[tuple, pygame.Rect] | None = None  # (layout key, rect) of the last bar_rect

    def plate_rect(self, seat: int) -> pygame.Rect | None:
        """The name plate of ``seat`` in the layout (``seats[seat].plate`` or
        ``plates[seat]``), None when the layout has none."""
        layout = self.owner.layout
        plates = getattr(layout, "plates", None)
        if isinstance(plates, Mapping) and isinstance(plates.get(seat), pygame.Rect):
            return plates[seat]
        area = (getattr(layout, "seats", None) or {}).get(seat) \
            if isinstance(getattr(layout, "seats", None), Mapping) else None
        plate = getattr(area, "plate", None)
        return plate if isinstance(plate, pygame.Rect) else None

    @property
    def link(self) -> Any:
        """The connection an emote is sent on: the one local seat's (None: no emote bar,
        as for a spectator, a replay, or couch play where the players share the screen)."""
        if self.owner.replay or len(self.owner.links) != 1:
            return None
        return next(iter(self.owner.links.values()))

    def bar_rect(self) -> pygame.Rect | None:
        """Where the emote bar goes: just above the message column when nothing of the
        layout is there (its rects, the strips its labels are written in included), else
        the top of the column (px); None without a bar."""
        layout = self.owner.layout
        info = getattr(layout, "info", None)
        if self.link is None or not isinstance(info, pygame.Rect):
            return None
        size = tuple(self.owner.app.size)
        key = (layout, size, tuple(info))
        cached = self._bar_at
        if cached is not None and cached[0][0] is key[0] and cached[0][1:] == key[1:]:
            return cached[1]  # asked every frame: the layout's rects are walked once per layout
        h, gap = emote_bar_size(size)
        above = pygame.Rect(info.x, info.top - gap - h, info.w, h)
        if above.top > getattr(getattr(layout, "top_bar", None), "bottom", 0) and \
                not _layout_covers(layout, above, skip=("info", "size")):
            rect = above
        else:
            rect = pygame.Rect(info.x, info.top, info.w, h)
        self._bar_at = (key, rect)
        return rect

    def message_box(self, info: pygame.Rect) -> pygame.Rect:
        """The part of the message column ``info`` (px) the messages may use: all of
        it, or below the emote bar when the bar had to sit at the column's top."""
        bar = self.bar_rect()
        if bar is None or not bar.colliderect(info):
            return info
        top = min(info.bottom, bar.bottom + max(2, bar.h // 8))
        return pygame.Rect(info.x, top, info.w, info.bottom - top)

    def show(self, msg: Mapping[str, Any]) -> None:
        """A pushed ``emote {table, seat, name, emote, t_server}``: the badge beside the
        sender's name for ``client.ui.emotes.SHOW_MS``; an unknown emote is ignored."""
        seat, emote = msg.get("seat"), msg.get("emote")
        if isinstance(seat, int) and emote in EMOTES:
            self.board.add(seat, str(emote), self.owner.t)

    def send(self, emote: str) -> None:
        """Send ``emote`` for this screen's seat; it shows when the server pushes it back.
        Too many in a row (``too_many_emotes``) is said quietly in the message column."""
        link = self.link
        if link is None or getattr(link, "conn", None) is None:
            return
        owner = self.owner

        def failed(f: Any) -> None:
            code = getattr(f.value, "code", "")
            if code == "too_many_emotes":
                owner.column.say(tr("emote.too_many"), NOTE, 2500)
            elif code != "disconnected":
                owner.column.say(tr("error.action", reason=getattr(f.value, "message", str(f.value))), BAD, 4000)

        def replied(reply: Any) -> None:
            if isinstance(reply, Mapping) and reply.get("type") == "emote":
                self.show(reply)  # a server that answers the sender with the push itself

        link.request("emote", table=owner.table_id, emote=emote).addCallbacks(replied, failed)

    def handle_input(self, event: pygame.event.Event) -> bool:
        """F5-F8 (``client.input.EMOTE_KEYS``) or a click on the emote bar: an emote
        is sent; True when the event was that."""
        if self.link is None:
            return False
        if event.type == pygame.KEYDOWN and event.key in EMOTE_KEYS:
            self.send(EMOTE_KEYS[event.key])
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1:
            r = self.bar_rect()
            if r is not None and r.collidepoint(event.pos):
                self.bar.place(r)
                emote = self.bar.hit(event.pos)
                if emote is not None:
                    self.send(emote)
                return True
        return False

    def draw(self, surf: pygame.Surface) -> None:
        """The emote badges beside the senders' plates, and the emote bar (a seated
        player's screen, on top of the stack); painted over the game's own drawing."""
        owner = self.owner
        for seat, (emote, age) in self.board.active(owner.t).items():
            plate = self.plate_rect(seat)
            if plate is not None:
                emote_art.draw_badge(surf, emote, age, plate)
        r = self.bar_rect()
        if r is not None and owner.app.scenes and owner.app.top is owner:
            self.bar.place(r)
            self.bar.draw(surf, owner.mouse, _emote_key_names(current_language()))

    def busy(self) -> bool:
        """An emote badge is up (it pops in and fades out: the app draws at full pace)."""
        return any(until > self.owner.t for _e, _t0, until in self.board.shown.values())


@lru_cache(maxsize=4)
def _emote_key_names(language: str) -> dict[str, str]:
    """Emote -> the name of its key ("F5") in ``language`` (the current one): the bar
    writes them on every frame."""
    return {e: key_label(k) for k, e in EMOTE_KEYS.items()}


def _layout_covers(layout: Any, rect: pygame.Rect, skip: tuple[str, ...] = ()) -> bool:
    """Whether a rect a game layout holds (its fields, their dicts, lists and areas, one
    level down; not the fields named in ``skip``) meets ``rect`` (px): where the emote bar
    must not go. Asked once per layout, and a table makes a new layout with every update:
    it stops at the first rect met."""
    def covers(v: Any, depth: int) -> bool:
        if isinstance(v, pygame.Rect):
            return bool(v.colliderect(rect))
        if depth <= 0:
            return False
        if isinstance(v, dict):
            return any(covers(x, depth - 1) for x in v.values())
        if isinstance(v, (list, tuple)):
            return any(covers(x, depth - 1) for x in v)
        if isinstance(v, (int, float, str, bool)) or v is None:
            return False
        if hasattr(v, "__dict__"):
            return any(covers(x, depth - 1) for x in vars(v).values())
        if isinstance(v, Mapping):
            return any(covers(x, depth - 1) for x in v.values())
        return False

    fields = vars(layout) if hasattr(layout, "__dict__") else {}
    return any(covers(v, 2) for name, v in fields.items() if name not in skip)
