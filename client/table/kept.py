"""What a table's drawing keeps between its frames, let go when the table is left.

A game's table draws from module-level caches: its base frame and layers (whole-window
surfaces: 3.5 MB each at 1280x720, 8 MB at 1920x1080), panels, badges and the places
derived from the last view. Module-level, they would outlive the table: after an evening
of the four games, a dozen whole-window surfaces of tables long closed. Each such cache
is declared here, and :func:`release` (called by :meth:`client.app.App.reset`, when the
screens are cleared down to a new one) empties them all; the next table fills them again.

* :func:`lru_cache` -- ``functools.lru_cache`` whose entries :func:`release` clears.
* :func:`state` -- a module's cache dict, put back to its first contents.
* :func:`frame` -- an object with ``release()`` (a :class:`client.table.draw.BaseFrame`),
  held weakly.
"""
from __future__ import annotations

import functools
import weakref
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_clears: list[Callable[[], None]] = []
_frames: "weakref.WeakSet[Any]" = weakref.WeakSet()


def lru_cache(maxsize: int) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)``, emptied by :func:`release`."""
    def wrap(fn: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        _clears.append(cached.cache_clear)
        return cached  # type: ignore[return-value]
    return wrap


def state(initial: dict[str, Any]) -> dict[str, Any]:
    """``initial`` itself, put back to a copy of these contents by :func:`release`."""
    first = dict(initial)

    def reset() -> None:
        initial.clear()
        initial.update({k: (dict(v) if isinstance(v, dict) else v) for k, v in first.items()})

    _clears.append(reset)
    return initial


def frame(obj: Any) -> Any:
    """``obj`` (with a ``release()`` method), released by :func:`release` while it lives."""
    _frames.add(obj)
    return obj


def release() -> None:
    """Empty every table cache: the surfaces go back to the allocator."""
    for clear in _clears:
        clear()
    for obj in list(_frames):
        obj.release()
