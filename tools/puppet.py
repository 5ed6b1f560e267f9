"""A real ``mafia-table`` process that a benchmark drives from outside, as a person
would: input goes in as pygame events (a mouse moved to a button and clicked, a key
pressed) through the client's own event loop; what is on screen comes back as plain
facts. For ``benchmarks/evening.py``; not part of the game.

    python -m tools.puppet --control PORT -- <mafia-table arguments>

The client runs as ``mafia-table`` does (its window, or ``SDL_VIDEODRIVER=dummy``);
besides, it listens on ``127.0.0.1:PORT`` for one JSON object per line and answers each
with one JSON line:

* ``{"op": "state"}`` -> ``{"scene": name of the top scene, "scenes": [...], "buttons":
  [{"text", "x", "y", "w", "h", "enabled"}], "table": id | null, "me": seat | null,
  "game": str | null, "over": bool, "rejoin": text of the menu's Rejoin entry | null,
  "notice": the last notification, "rss_mb": float, "legal": n}``
* ``{"op": "click", "text": T}`` (or ``"contains": T``): the visible button whose text is
  ``T`` (contains ``T``): the mouse moves onto its centre, then button 1 goes down and
  up. ``{"ok": false}`` when there is no such button.
* ``{"op": "key", "key": NAME}``: ``pygame.key.key_code(NAME)`` pressed and released.
* ``{"op": "choose", "dropdown": i, "text": T}``: the ``i``-th visible drop-down opens
  (a click) and its option ``T`` is clicked.
* ``{"op": "set_entry", "text": T, "index": i}``: the ``i``-th visible text entry is
  clicked, its text selected (Ctrl+A) and ``T`` typed over it (``TEXTINPUT``).
* ``{"op": "table_options", "options": {...}}``: in the host's lobby, the request the
  Options dialog sends (``set_options``), so a benchmark can ask for short matches.
* ``{"op": "autoplay", "on": bool, "seed": n, "think_s": s}``: while on, whenever the
  table asks this player to act, :class:`AutoPlayer` answers ``think_s`` seconds later
  through the table scene, as its buttons do; with ``"claims": false`` it passes every
  reaction window at once. This stands for a player who knows what
  to do; the clicks a benchmark counts are the scripted ones above.
* ``{"op": "census", "top": n}``: the most numerous object types and the pygame
  surfaces alive (:func:`census`), to find what a long evening piles up.
* ``{"op": "tracemalloc", "action": "start" | "mark" | "diff", "top": n}``: Python
  allocations traced, marked, and the call sites that grew since the mark.
* ``{"op": "memray", "action": "start", "path": P}`` / ``{"op": "memray", "action": "stop"}``:
  every allocation (native ones too) between the two recorded in ``P`` (memray).
* ``{"op": "quit"}``: the window is closed as by its close button (``pygame.QUIT``).
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (the benchmark's private data dir, or its own)
import argparse
import json
import random
import resource
import sys
from typing import Any

import pygame
from twisted.internet import protocol
from twisted.protocols.basic import LineReceiver

#: Seconds between two looks at the table for :class:`AutoPlayer`.
AUTOPLAY_PERIOD_S = 0.25


def rss_mb() -> float:
    """This process's resident set (MB), from ``/proc`` (peak RSS elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return round(pages * resource.getpagesize() / 2**20, 1)
    except OSError:
        return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def visible_buttons(app: Any) -> list[Any]:
    from pygame_gui.elements import UIButton

    if app.manager is None:
        return []
    return [el for el in app.manager.get_sprite_group().sprites()
            if isinstance(el, UIButton) and el.visible and el.alive()]


def visible_centre(el: Any) -> tuple[int, int]:
    """The centre (px) of the part of ``el`` its containers let show: a row half scrolled
    out of a list is clicked where a person would click it, not at its hidden centre."""
    rect = pygame.Rect(el.rect)
    container = getattr(el, "ui_container", None)
    while container is not None:
        inner = container.get_container() if hasattr(container, "get_container") else container
        rect = rect.clip(inner.get_rect())
        parent = getattr(inner, "ui_container", None)
        container = None if parent is None or parent is inner else parent
    return rect.center if rect.w and rect.h else el.rect.center


def button_text(el: Any) -> str:
    from pygame_gui.core.utility import translate

    return str(translate(el.text, **(el.text_kwargs or {})))


def state(app: Any) -> dict[str, Any]:
    top = app.top if app.scenes else None
    notice = getattr(app.display, "notice", None)
    rejoin = getattr(top, "b_rejoin", None)
    table_id = getattr(top, "table_id", None)
    me = None
    legal = 0
    if table_id is not None:
        try:
            me = top.me
        except Exception:  # a scene between two states
            me = None
        legal = sum(len(v) for v in getattr(top, "legal", {}).values())
    return {
        "scene": type(top).__name__ if top is not None else None,
        "scenes": [type(s).__name__ for s in app.scenes],
        "buttons": [{"text": button_text(b), "x": b.rect.x, "y": b.rect.y, "w": b.rect.w, "h": b.rect.h,
                     "enabled": bool(getattr(b, "is_enabled", True))} for b in visible_buttons(app)],
        "table": table_id, "me": me,
        "game": getattr(top, "game", None) if table_id is not None else None,
        "over": getattr(top, "match_result", None) is not None,
        "rejoin": button_text(rejoin) if rejoin is not None and rejoin.alive() else None,
        "notice": str(notice[0]) if notice else None,
        "rss_mb": rss_mb(), "legal": legal,
        "picked": getattr(top, "selected_table", None),
        "board": ({"final": bool(getattr(top, "final", False)), "queue": [list(q) for q in top.queue],
                   "round": getattr(top, "round_no", None)} if isinstance(getattr(top, "queue", None), list)
                  else None),
    }


def census(app: Any, top: int = 15) -> dict[str, Any]:
    """What the process holds: the ``top`` most numerous Python object types, and the
    pixel bytes (MB) of the client's surface caches -- the card art
    (:class:`client.cards.CardArt`) and the text cache (:mod:`client.text`). Surfaces
    live outside Python's allocator and are not tracked by the garbage collector, so
    neither ``tracemalloc`` nor ``gc.get_objects`` sees them."""
    import gc
    from collections import Counter

    import client.text as text

    def size(v: Any) -> int:
        srf = v[0] if isinstance(v, tuple) else v
        try:
            return int(srf.get_width() * srf.get_height() * srf.get_bytesize())
        except (AttributeError, pygame.error):
            return 0

    gc.collect()
    objs = gc.get_objects()
    kinds = Counter(type(o).__name__ for o in objs)
    art = getattr(getattr(app, "art", None), "_cache", {})
    return {"objects": len(objs), "types": kinds.most_common(top),
            "art_surfaces": len(art), "art_mb": round(sum(size(v) for v in list(art.values())) / 2**20, 1),
            "text_surfaces": len(text._cache), "text_mb": round(text._cache_bytes / 2**20, 1),
            "fonts": len(text._faces), "gui_fonts": _gui_fonts(app),
            "rss_mb": rss_mb()}


def _gui_fonts(app: Any) -> int | None:
    """How many fonts pygame_gui's theme holds open (each its own copy of the file)."""
    try:
        return len(app.manager.get_theme().get_font_dictionary().loaded_fonts)
    except AttributeError:
        return None


def post_click(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def post_key(name: str) -> None:
    code = pygame.key.key_code(name)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode=name if len(name) == 1 else "",
                                         scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code, mod=0, unicode="", scancode=0))


def digest(view: dict[str, Any]) -> str:
    """A short fingerprint of ``view`` (its JSON, keys sorted): the same match state
    gives the same one in every run."""
    import hashlib

    return hashlib.sha1(json.dumps(view, sort_keys=True, default=str).encode()).hexdigest()[:16]


class AutoPlayer:
    """Plays the player's seats as a person who knows the game would: the game's own bot
    (:func:`shared.bots.make_bot`, ``smart``) chooses among the legal actions the table
    shows, at most once per view, ``think_s`` seconds after that view appeared; the
    action goes out through the table's own sending path (:meth:`TableFeed.send_now`)."""

    def __init__(self, app: Any, seed: int, think_s: float = 0.8):
        self.app = app
        self.seed = seed
        self.think_s = think_s
        #: False: a player who never races -- he passes every reaction window at once, so
        #: his seat's play does not hang on his reaction times (a result that the seed alone fixes)
        self.claims = True
        self.call: Any = None
        self.seen: dict[int, tuple[int, float]] = {}  # seat -> (id of the view, reactor s it appeared)
        self.sent: dict[int, int] = {}  # seat -> id of the view last acted on

    def start(self) -> None:
        if self.call is None:
            self.call = self.app.reactor.callLater(AUTOPLAY_PERIOD_S, self.tick)

    def stop(self) -> None:
        if self.call is not None and self.call.active():
            self.call.cancel()
        self.call = None

    def tick(self) -> None:
        self.call = self.app.reactor.callLater(AUTOPLAY_PERIOD_S, self.tick)
        # a round's results while the match goes on: the player reads them and goes back to
        # the table (its main button), as he must before the next round's board comes
        from client.table.results import ResultsOverlay

        board = self.app.top if self.app.scenes else None
        if (isinstance(board, ResultsOverlay) and not getattr(board, "final", False) and board.result is None
                and board.t >= self.think_s):
            board.close()
            return
        # the table scene, under any other overlay (a dialog): a player who knows the game
        # answers what the table asks
        top = next((s for s in reversed(self.app.scenes) if isinstance(getattr(s, "legal", None), dict)), None)
        legal_of = getattr(top, "legal", None)
        feed = getattr(top, "feed", None)
        if not isinstance(legal_of, dict) or feed is None or getattr(top, "replay", False):
            return
        now = float(self.app.reactor.seconds())
        view = getattr(top, "view", None)
        for seat, legal in legal_of.items():
            if seat is None or not legal or not isinstance(view, dict):
                continue
            key = id(view)
            if self.seen.get(seat, (None, 0.0))[0] != key:
                self.seen[seat] = (key, now)
            waited = now - self.seen[seat][1]
            again = self.sent.get(seat) == key
            if waited < self.think_s or (again and waited < self.think_s + 2.0):
                continue
            link = top.links.get(seat)
            if link is None or link.conn is None:
                continue
            # the same view 2 s after an answer: it was refused (the bot misread the view): any legal one
            action = random.Random(f"{self.seed}/{seat}/{digest(view)}/again").choice(legal) if again \
                else self.passing(view, seat, legal) or self.choose(top, seat, view, legal)
            if action is None:
                continue
            self.sent[seat] = key
            self.seen[seat] = (key, now) if again else self.seen[seat]
            feed.send_now(seat, link, action, quiet=True)
            return

    def passing(self, view: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The pass of an open reaction window ``seat`` may answer, when this player never claims."""
        window = view.get("window")
        if self.claims or not isinstance(window, dict) or seat not in window.get("pending", ()):
            return None
        return next((a for a in legal if a.get("type") == window.get("pass_type")), None)

    def choose(self, top: Any, seat: int, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        from shared.bots import make_bot
        from shared.games import get_game

        game = get_game(top.game)
        # a bot of its own for each decision, seeded by the view: the same view gets the
        # same answer however many views a busy machine let this player see before it
        # (a bot kept across views draws from its generator once per view it is asked about)
        bot = make_bot(top.game, seat, seed=f"{self.seed}/{seat}/{digest(view)}")
        try:
            parsed = [game.ACTIONS.parse(a, from_client=False) for a in legal]
            bot.observe([], view)
            decision = bot.decide(view, parsed)
        except Exception:  # a bot that cannot read this view (it learns from events it did not get)
            decision = None
        if decision is None:  # ... or waits for one: any legal action, as a person would
            return random.Random(f"{self.seed}/{seat}/{digest(view)}").choice(legal)
        return decision.action.to_dict()


class Control(LineReceiver):
    delimiter = b"\n"
    MAX_LENGTH = 65536

    def __init__(self, app: Any, autoplayer: AutoPlayer):
        self.app = app
        self.autoplayer = autoplayer

    def lineReceived(self, line: bytes) -> None:
        try:
            cmd = json.loads(line)
            reply = self.run(cmd)
        except Exception as e:  # a benchmark's typo must not kill the client
            reply = {"ok": False, "error": repr(e)}
        self.sendLine(json.dumps(reply).encode())

    def run(self, cmd: dict[str, Any]) -> dict[str, Any]:
        app = self.app
        op = cmd.get("op")
        app.pacer.wake()
        if op == "state":
            return {"ok": True, **state(app)}
        if op == "click":
            for b in visible_buttons(app):
                text = button_text(b)
                if ("text" in cmd and text == cmd["text"]) or ("contains" in cmd and cmd["contains"] in text):
                    post_click(visible_centre(b))
                    return {"ok": True, "text": text}
            return {"ok": False, "error": "no such button"}
        if op == "key":
            post_key(str(cmd["key"]))
            return {"ok": True}
        if op == "choose":
            from pygame_gui.elements import UIDropDownMenu

            menus = [el for el in app.manager.get_sprite_group().sprites() if isinstance(el, UIDropDownMenu)]
            menus.sort(key=lambda m: (m.rect.y, m.rect.x))
            menu = menus[int(cmd.get("dropdown", 0))]
            post_click(menu.rect.center)
            app.reactor.callLater(0.3, self._pick, menu, str(cmd["text"]))
            return {"ok": True}
        if op == "set_entry":
            from pygame_gui.elements import UITextEntryLine

            entries = [el for el in app.manager.get_sprite_group().sprites()
                       if isinstance(el, UITextEntryLine) and el.visible]
            if not entries:
                return {"ok": False, "error": "no text entry"}
            entries.sort(key=lambda e: (e.rect.y, e.rect.x))
            target = entries[int(cmd.get("index", 0))]
            post_click(target.rect.center)  # focus it, then select all and type over
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=pygame.KMOD_CTRL,
                                                 unicode="", scancode=0))
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_a, mod=pygame.KMOD_CTRL,
                                                 unicode="", scancode=0))
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=str(cmd["text"])))
            return {"ok": True}
        if op == "table_options":
            top = app.top
            if not hasattr(top, "_host_request"):
                return {"ok": False, "error": "not a host's lobby"}
            top._host_request("set_options", options=dict(cmd["options"]))  # what the Options dialog sends
            return {"ok": True}
        if op == "autoplay":
            if cmd.get("on", True):
                self.autoplayer.seed = int(cmd.get("seed", 0))
                self.autoplayer.think_s = float(cmd.get("think_s", self.autoplayer.think_s))
                self.autoplayer.claims = bool(cmd.get("claims", True))
                self.autoplayer.start()
            else:
                self.autoplayer.stop()
            return {"ok": True}
        if op == "census":
            return {"ok": True, **census(app, int(cmd.get("top", 15)))}
        if op == "trim":  # how much of the RSS is memory freed but kept by the C allocator
            import ctypes

            before = rss_mb()
            ctypes.CDLL("libc.so.6").malloc_trim(0)
            return {"ok": True, "before_mb": before, "after_mb": rss_mb()}
        if op == "tracemalloc":
            return {"ok": True, **self._tracemalloc(str(cmd.get("action", "start")), int(cmd.get("top", 25)))}
        if op == "memray":  # native allocations too: what surfaces and fonts hold
            import memray

            if cmd.get("action") == "start":
                Control._tracker = memray.Tracker(str(cmd["path"]), native_traces=True)
                Control._tracker.__enter__()
            elif Control._tracker is not None:
                Control._tracker.__exit__(None, None, None)
                Control._tracker = None
            return {"ok": True}
        if op == "quit":
            pygame.event.post(pygame.event.Event(pygame.QUIT))
            return {"ok": True}
        return {"ok": False, "error": f"unknown op {op!r}"}

    _snapshot: Any = None
    _tracker: Any = None

    def _tracemalloc(self, action: str, top: int) -> dict[str, Any]:
        """``start`` tracing (10 frames); ``mark`` the allocations alive now; ``diff``: the
        ``top`` call sites whose live bytes grew most since the mark (KB)."""
        import gc
        import tracemalloc

        if action == "start":
            tracemalloc.start(10)
            return {}
        gc.collect()
        snap = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>")])
        if action == "mark" or Control._snapshot is None:
            Control._snapshot = snap
            return {"traced_mb": round(tracemalloc.get_traced_memory()[0] / 2**20, 1)}
        stats = snap.compare_to(Control._snapshot, "traceback")[:top]
        return {"traced_mb": round(tracemalloc.get_traced_memory()[0] / 2**20, 1),
                "grew": [{"kb": round(st.size_diff / 1024, 1), "count": st.count_diff,
                          "where": [f"{f.filename.rsplit('site-packages/', 1)[-1]}:{f.lineno}"
                                    for f in list(st.traceback)[-8:]]} for st in stats]}

    def _pick(self, menu: Any, text: str) -> None:
        for b in visible_buttons(self.app):
            if button_text(b) == text and b.rect.y != menu.rect.y:
                post_click(b.rect.center)
                return


class ControlFactory(protocol.ServerFactory):
    def __init__(self, app: Any):
        self.app = app
        self.autoplayer = AutoPlayer(app, 0)

    def buildProtocol(self, addr: Any) -> Control:
        return Control(self.app, self.autoplayer)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    split = args.index("--") if "--" in args else len(args)
    p = argparse.ArgumentParser(prog="tools.puppet")
    p.add_argument("--control", type=int, required=True, help="the localhost TCP port to listen on")
    opts = p.parse_args(args[:split])
    client_argv = args[split + 1:]

    import client.app as app_mod

    real_start = app_mod.App.start_loops

    def start_loops(self: Any) -> None:
        real_start(self)
        self.reactor.listenTCP(opts.control, ControlFactory(self), interface="127.0.0.1")

    app_mod.App.start_loops = start_loops  # type: ignore[method-assign]
    return app_mod.main(client_argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
