"""What every scene is (Tuxemon-style states on a stack, ARCHITECTURE §6).

A scene gets stamped input through :meth:`Scene.handle_event` (``t_ms`` = client ms of
the 2 ms poll that found the event), advances in :meth:`Scene.update` (``dt`` in
**seconds**, as pygame_gui), and paints in :meth:`Scene.draw`, which must never change
state. Pushed network messages reach every scene on the stack through
:meth:`Scene.on_message`. pygame_gui widgets a scene creates are listed in ``self.ui``
and killed when it leaves; :meth:`build` (re)creates them for the window size.

A rebuild asked for while a mouse button is held waits for its release
(:attr:`Scene.rebuild_due`, run by the app after the release went to the widgets):
pygame_gui acts on a button when the release reaches the same widget the press did, so a
table pushed by the server between the two would otherwise swallow the click.
"""
from __future__ import annotations

from typing import Any

import pygame


class Scene:
    #: True when the scene is drawn over the one below it (a dialog, the results).
    overlay = False

    def __init__(self, app: Any):
        """``app`` is the :class:`client.app.App` that runs the stack (not imported here:
        the app sits on top of every scene)."""
        self.app = app
        self.ui: list[Any] = []
        #: A :meth:`rebuild` waits for the mouse button held now to be released.
        self.rebuild_due = False

    # -- life cycle -------------------------------------------------------------------
    def enter(self) -> None:
        """Pushed on the stack (or uncovered): build the widgets."""
        self.rebuild_due = False
        self.build(self.app.size)

    def leave(self) -> None:
        """Popped or covered: remove the widgets."""
        self.clear_ui()

    def dispose(self) -> None:
        """Removed from the stack for good."""

    def build(self, size: tuple[int, int]) -> None:
        """Create the widgets for a ``size`` = (w, h) px window."""

    def clear_ui(self) -> None:
        for element in self.ui:
            element.kill()
        self.ui.clear()

    def on_resize(self, size: tuple[int, int]) -> None:
        """The window changed size (px); widgets are rebuilt separately by :meth:`build`."""

    def rebuild(self) -> None:
        """Recreate this scene's widgets (after its own state changed); while a mouse
        button is held (``app.pressing``), once it is released."""
        if getattr(self.app, "pressing", False):
            self.rebuild_due = True
            return
        self.rebuild_due = False
        self.clear_ui()
        self.build(self.app.size)

    def rebuild_soon(self) -> None:
        """Recreate this scene's widgets before the next frame is drawn: the pushes of
        one burst (a host filling four seats with bots sends eight table summaries) cost
        one rebuild, not eight. A rebuild creates every panel and button anew, several MB
        of surfaces each."""
        self.rebuild_due = True

    def add(self, element: Any) -> Any:
        self.ui.append(element)
        return element

    # -- per frame ----------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        pass

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        pass

    def freezes_below(self) -> bool:
        """An overlay that hides the scenes under it well enough (a dark veil, a big box)
        that they need not move: while True, the app draws them once into a still
        picture and shows that, and their animations no longer keep the frame rate up
        (they still advance in time)."""
        return False

    def draw_partial(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        """Repaint only what changed since the frame this scene drew last (the app asks
        only when that frame is still on screen, untouched by anything else) and return
        the regions repainted (px; ``[]``: nothing), or None to be drawn whole by
        :meth:`draw`. The default: always whole."""
        return None

    def animating(self) -> bool:
        """Whether something on this scene moves by itself now (an animation, a
        countdown bar): the app then draws at the full frame rate. A still scene returns
        False and is redrawn a few times a second (and at once on input or a message)."""
        return False

    def precise_input(self) -> bool:
        """Whether input must be stamped within ~2 ms even while nothing moves (a local
        player may press a key against the clock)."""
        return False

    def presented(self, t_ms: float) -> None:
        """Called right after the frame this scene drew reached the screen (client ms)."""

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        """A message pushed by a server (``link`` says which connection)."""
