"""Choosing targets by matching a partial selection against the legal actions.

The server sends the seat's legal actions in every update; the table never guesses the
rules. A choice (two slots for a Henchman, a player for a Lady, a slot and a safe card
for a Safecracker swap...) is built one click at a time: a *pick* is ``("slot", id)``,
``("player", seat)`` or ``("safe", index)``; the selection is a multiset of picks; a
pick is offered only when the selection plus it is still part of some legal action of
the kind being chosen. When the selection equals exactly one legal action's targets, the
action is complete.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping

Pick = tuple[str, int]
ActionDict = Mapping[str, Any]

#: Action types whose targets are picked on the table, and the ones that need an extra
#: "Confirm" press once complete (a Driver may reveal one card or two).
PICKED = frozenset({"peek", "replace", "mole", "police_patrol", "snap", "hitwoman",
                    "henchman", "driver", "lady", "mamma", "snitch", "safe_swap"})
NEEDS_CONFIRM = frozenset({"driver"})


def targets(action: ActionDict) -> tuple[Pick, ...]:
    """The picks that make up ``action`` (empty for a plain button action)."""
    t = action.get("type")
    if t in ("peek", "henchman", "driver"):
        return tuple(("slot", int(s)) for s in action["slots"])
    if t in ("replace", "mole", "police_patrol", "snap", "hitwoman"):
        return (("slot", int(action["slot"])),)
    if t in ("lady", "mamma"):
        return (("player", int(action["target"])),)
    if t == "snitch":
        return tuple(("player", int(p)) for p in action["recipients"])
    if t == "safe_swap":
        return (("slot", int(action["slot"])), ("safe", int(action["index"])))
    return ()


def _contains(big: Counter, small: Counter) -> bool:
    return all(big[k] >= v for k, v in small.items())


class Picker:
    """Target selection for legal actions of one ``kind`` (an action type)."""

    def __init__(self, kind: str, legal: Iterable[ActionDict]):
        self.kind = kind
        self.options = [(dict(a), Counter(targets(a))) for a in legal if a.get("type") == kind]
        self.selection: list[Pick] = []

    @property
    def pick_kinds(self) -> set[str]:
        """Which kinds of pick this choice uses (``{"slot"}``, ``{"player"}``...)."""
        return {k for _, c in self.options for k, _ in c}

    def _sel(self, extra: Pick | None = None) -> Counter:
        c = Counter(self.selection)
        if extra is not None:
            c[extra] += 1
        return c

    def candidates(self) -> list[dict[str, Any]]:
        """Legal actions still reachable from the current selection."""
        sel = self._sel()
        return [a for a, c in self.options if _contains(c, sel)]

    def offered(self) -> set[Pick]:
        """Picks that may be added now."""
        sel = self._sel()
        out: set[Pick] = set()
        for _, c in self.options:
            if _contains(c, sel):
                out.update(k for k in c if c[k] > sel[k])
        return out

    def click(self, pick: Pick) -> bool:
        """Add ``pick`` if it is offered, else remove it if selected. True if the
        selection changed."""
        if pick in self.offered():
            self.selection.append(pick)
            return True
        if pick in self.selection:
            self.selection.remove(pick)
            return True
        return False

    def clear(self) -> None:
        self.selection.clear()

    def complete(self) -> dict[str, Any] | None:
        """The legal action the selection spells exactly, else None."""
        sel = self._sel()
        if not sel:
            return None
        for a, c in self.options:
            if c == sel:
                return a
        return None

    def ready(self) -> dict[str, Any] | None:
        """The action to send without a Confirm press: complete, and no bigger legal
        action extends the selection (a Driver always waits for Confirm)."""
        action = self.complete()
        if action is None or self.kind in NEEDS_CONFIRM:
            return None
        return action if not self.offered() else None
