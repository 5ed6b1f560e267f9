"""The hint: "what would the hard bot do here?" at a table whose host allows hints.

The player asks with F2 or the Hint button of the top bar (left of Rules); the server
answers ``hint {table, seat, step, action}`` to this connection only (docs/PROTOCOL.md
"Hints"), computed from the asking seat's view. The suggested action is said in the
message column ("Hint: take the discard") and the places it names are outlined -- the
cards, the player's plate, the pile or the button -- until the player acts or the table
moves on (the action is no longer legal) or :data:`SHOW_MS` pass.

What a game names: its scene's ``HINT_FIELDS`` (an action field -> the card places it
names, e.g. ``{"card": ("hand",)}``), ``HINT_SEAT_FIELDS`` (fields naming seats: their
plates), ``HINT_SPOTS`` (an action type -> the layout attribute of the spot it uses:
``{"draw_deck": "draw_pile"}``) and its strings ``<prefix>.hint.<type>``.
"""
from __future__ import annotations

import math
from typing import Any, Iterable

import pygame

from client.i18n import NAMESPACE, tr

#: How long (ms) a hint stays on the table when nothing happens.
SHOW_MS = 12_000.0
#: The key that asks for a hint (F1 is the rules, F5-F8 the emotes).
HINT_KEY = pygame.K_F2
#: The outline's colour: the gold of the table's own highlights.
GOLD = (242, 201, 76)


def allowed(table: dict[str, Any]) -> bool:
    """Whether the host allows hints at ``table`` (a protocol ``Table``): its option
    ``hints`` (docs/PROTOCOL.md "Table options")."""
    options = table.get("options") if isinstance(table.get("options"), dict) else {}
    return options.get("hints") is True or table.get("hints") is True


def ints(value: Any) -> Iterable[int]:
    """The ints of an action field: itself, or those of a list."""
    if isinstance(value, bool):
        return ()
    if isinstance(value, int):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(v for v in value if isinstance(v, int) and not isinstance(v, bool))
    return ()


class TableHint:
    """The hint of ``scene`` (a :class:`client.table.base.TableScene`): asked, shown,
    dropped."""

    def __init__(self, scene: Any):
        self.scene = scene
        #: (seat, action, scene ms until which it shows) of the hint on the table
        self.shown: tuple[int, dict[str, Any], float] | None = None
        self.asking: set[int] = set()  # seats whose hint is on its way

    # -- asking ---------------------------------------------------------------------
    def allowed(self) -> bool:
        sc = self.scene
        return not sc.replay and bool(sc.links) and allowed(sc.roster.table_entry())

    def seat_to_ask(self) -> int | None:
        """The local seat a hint is for now: the one with legal actions (the first of
        them in couch play), else None."""
        sc = self.scene
        return next((s for s in sorted(sc.links) if sc.legal.get(s)), None)

    def ask(self) -> None:
        """Ask the server for a hint for :meth:`seat_to_ask` (F2 / the Hint button);
        says why not when hints are off or there is nothing to do."""
        sc = self.scene
        if not self.allowed():
            sc.column.say(tr("hint.off"), (255, 170, 140), 6000)
            return
        seat = self.seat_to_ask()
        if seat is None:
            sc.column.say(tr("hint.nothing"), (220, 210, 190), 4000)
            return
        if seat in self.asking:
            return
        self.asking.add(seat)
        sc.column.say(tr("hint.asking"), (220, 210, 190), 3000)
        link = sc.links[seat]

        def answered(reply: dict[str, Any]) -> None:
            self.asking.discard(seat)
            self.show(seat, reply.get("action"))

        def failed(f: Any) -> None:
            self.asking.discard(seat)
            from client.ui.errors import error_text

            sc.column.say(error_text(f.value, sc.roster.table_entry()), (255, 170, 140), 6000)

        link.request("hint", table=sc.table_id).addCallbacks(answered, failed)

    def show(self, seat: int, action: Any) -> None:
        """Put ``action`` (the server's hint for ``seat``) on the table, if it is still
        one of that seat's legal actions (the table may have moved on meanwhile)."""
        sc = self.scene
        if not isinstance(action, dict) or action not in sc.legal.get(seat, []):
            return
        self.shown = (seat, action, sc.t + SHOW_MS)
        sc.column.say(tr("hint.says", what=self.describe(action)), GOLD, 8000)

    def describe(self, action: dict[str, Any]) -> str:
        """The action in a few words of the player's language: the game's own
        ``<prefix>.hint.<type>`` string, or "the highlighted move"."""
        prefix = getattr(self.scene, "HINT_PREFIX", "")
        key = f"{prefix}hint.{action.get('type')}"
        words = tr(key)
        return tr("hint.highlighted") if words.startswith(NAMESPACE + ".") or words == key else words

    # -- what is on the table -----------------------------------------------------------
    def current(self) -> tuple[int, dict[str, Any]] | None:
        """(seat, action) of the hint shown now; a hint whose action is no longer legal
        (the player acted, the table moved on) or whose time ran out goes."""
        shown = self.shown
        if shown is None:
            return None
        seat, action, until = shown
        sc = self.scene
        if sc.t >= until or action not in sc.legal.get(seat, []):
            self.shown = None
            return None
        return seat, action

    def rects(self, seat: int, action: dict[str, Any]) -> list[pygame.Rect]:
        """Every rect (px) the hint outlines: the card places its fields name, the plates
        of the seats it names, the spot of its type, the button that plays it."""
        sc = self.scene
        out: list[pygame.Rect] = []
        fields: dict[str, tuple[str, ...]] = getattr(sc, "HINT_FIELDS", {})
        rects = sc.card_rects()
        for name, kinds in fields.items():
            for ident in ints(action.get(name)):
                for place, rect in rects.items():
                    if isinstance(place, tuple):
                        if place[1] == ident and (not kinds or place[0] in kinds):
                            out.append(rect)
                    elif place == ident and not kinds:
                        out.append(rect)
        for name in getattr(sc, "HINT_SEAT_FIELDS", ()):
            for s in ints(action.get(name)):
                plate = sc.plate_rect(s)
                if plate is not None:
                    out.append(plate)
        spot = getattr(sc, "HINT_SPOTS", {}).get(action.get("type"))
        if spot is not None:
            r = getattr(sc.layout, spot, None)
            if isinstance(r, pygame.Rect):
                out.append(r)
            elif isinstance(r, (list, tuple)):
                out += [x for x in r if isinstance(x, pygame.Rect)]
        t = action.get("type")
        for bid, b in sc.buttons.items():
            if bid in (t, f"{seat}:{t}", f"intent:{t}") and getattr(b, "rect", None) is not None:
                out.append(pygame.Rect(b.rect))
        return out

    def draw(self, surface: pygame.Surface) -> None:
        """Outline the places of the hint on the table, breathing (1 s period)."""
        cur = self.current()
        if cur is None:
            return
        sc = self.scene
        width = max(4, surface.get_height() // 180)
        pulse = 0.5 + 0.5 * math.sin(sc.t / 1000.0 * 2 * math.pi)
        colour = tuple(int(c * (0.7 + 0.3 * pulse)) for c in GOLD)
        for r in self.rects(*cur):
            pygame.draw.rect(surface, colour, r.inflate(2 * width + 4, 2 * width + 4), width,
                             border_radius=max(4, r.w // 10))
