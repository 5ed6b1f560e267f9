"""Building a Famiglia action from clicks, matched against the server's legal actions.

The server sends the seat's ``legal`` list in every update; the table never guesses the
rules (PROTOCOL.md appendix: ``renew {card}``, ``accountant {card}``, ``swap {from_gang,
from_hand}``, ``brute {card, target, amount}``, ``take_free {card}``, ``take_pair {card,
to_gang, keep}``, ``pass``).

A *pick* is ``("street", id)``, ``("hand", id)``, ``("gang", id)`` (a card clicked on the
table) or ``("amount", n)`` (a Brute's amount, from a button). Each action type has
*fields*, each filled by one kind of pick (:data:`FIELDS`). :class:`Chooser` works like
this:

* with nothing chosen, a click on a card looks for the action types that card can start
  (:data:`STARTS`: a recruit with a pair starts from the street card, a Brute from the
  Brute or from its target, a swap from either card...). One type: it is chosen. Several
  (a street card may be renewed, recruited or hit by a Brute): the chooser *asks*, and
  :meth:`Chooser.choose` takes the player's answer. With ``always_ask`` (the default)
  it asks even when the card has one use, so a single click never acts;
* then each click fills the first open field of that type whose pick kind matches and
  that some legal action still allows; a field every remaining legal action agrees on is
  filled by itself (one Brute in hand, the one card left to keep...);
* when the fields spell exactly one legal action, :meth:`Chooser.click` returns it: the
  scene sends it. A click on a chosen card un-chooses it; a click that fits nothing starts
  over from that card.

Pure: no pygame, so the logic is tested without a display.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

Pick = tuple[str, int]
ActionDict = Mapping[str, Any]

#: Action type -> its fields in the order they are asked for, with the pick kind of each.
FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "renew": (("card", "street"),),
    "accountant": (("card", "hand"),),
    "swap": (("from_gang", "gang"), ("from_hand", "hand")),
    "brute": (("card", "hand"), ("target", "street"), ("amount", "amount")),
    "take_free": (("card", "street"),),
    "take_pair": (("card", "street"), ("to_gang", "hand"), ("keep", "hand")),
    "pass": (),
}
#: The fields a first click may fill (default: every field but an amount).
STARTS: dict[str, tuple[str, ...]] = {
    "take_pair": ("card",),
    "brute": ("card", "target"),
    "swap": ("from_gang", "from_hand"),
}
#: The order intents are offered in (the order of the phases).
INTENT_ORDER = ("renew", "accountant", "swap", "brute", "take_free", "take_pair")


class Chooser:
    """Target selection for one seat's Famiglia turn, from its ``legal`` actions
    (wire dicts). ``kind`` is the action type being built (None: nothing chosen),
    ``filled`` its fields so far, ``asking`` ``(pick, [types])`` while the player must say
    what a clicked card is for."""

    def __init__(self, legal: Iterable[ActionDict], always_ask: bool = True):
        self.legal = [dict(a) for a in legal]
        #: A first click on a card always asks what it is for, even with one answer
        #: (clicking a street card must not renew the street at once).
        self.always_ask = always_ask
        self.kind: str | None = None
        self.filled: dict[str, int] = {}
        self.asking: tuple[Pick, list[str]] | None = None

    # -- queries --------------------------------------------------------------------------
    def types(self) -> set[str]:
        return {str(a.get("type")) for a in self.legal}

    def candidates(self) -> list[dict[str, Any]]:
        """Legal actions of the chosen type that agree with every filled field."""
        if self.kind is None:
            return []
        return [a for a in self.legal if a.get("type") == self.kind and
                all(a.get(f) == v for f, v in self.filled.items())]

    def open_fields(self) -> list[tuple[str, str]]:
        """The chosen type's fields still to fill, in order."""
        if self.kind is None:
            return []
        return [(f, k) for f, k in FIELDS[self.kind] if f not in self.filled]

    def needs(self) -> str | None:
        """The next field to fill (``"target"``, ``"keep"``...), None when nothing is
        being built or it is complete."""
        fields = self.open_fields()
        return fields[0][0] if fields else None

    def selection(self) -> set[Pick]:
        """The picks chosen so far (to outline them on the table)."""
        if self.kind is None:
            return {self.asking[0]} if self.asking else set()
        kinds = dict(FIELDS[self.kind])
        return {(kinds[f], v) for f, v in self.filled.items()}

    def offered(self) -> set[Pick]:
        """Picks a click may add now: any card that starts an action when nothing is
        chosen; else the picks some remaining legal action still allows."""
        if self.asking is not None:
            return set()
        if self.kind is None:
            out: set[Pick] = set()
            for a in self.legal:
                t = str(a.get("type"))
                for f, k in FIELDS.get(t, ()):
                    if f in STARTS.get(t, tuple(x for x, kk in FIELDS[t] if kk != "amount")):
                        out.add((k, int(a[f])))
            return out
        out = set()
        cands = self.candidates()
        for f, k in self.open_fields():
            out |= {(k, int(a[f])) for a in cands}
        return out

    def amounts(self) -> list[int]:
        """The Brute amounts to offer as buttons (when the amount is the next field)."""
        if self.kind != "brute" or self.needs() != "amount":
            return []
        return sorted({int(a["amount"]) for a in self.candidates()})

    def intents(self, pick: Pick) -> list[str]:
        """The action types a first click on ``pick`` may start, in phase order."""
        kind, ident = pick
        found = []
        for t in INTENT_ORDER:
            starts = STARTS.get(t, tuple(f for f, k in FIELDS[t] if k != "amount"))
            fields = [f for f, k in FIELDS[t] if k == kind and f in starts]
            if any(a.get("type") == t and any(a.get(f) == ident for f in fields) for a in self.legal):
                found.append(t)
        return found

    def complete(self) -> dict[str, Any] | None:
        """The legal action spelled exactly by the filled fields, else None."""
        if self.kind is None or self.open_fields():
            return None
        cands = self.candidates()
        return dict(cands[0]) if len(cands) == 1 else None

    # -- changes --------------------------------------------------------------------------
    def clear(self) -> None:
        self.kind = None
        self.filled = {}
        self.asking = None

    def click(self, pick: Pick) -> dict[str, Any] | None:
        """A click on ``pick``. Returns the action to send when complete, else None
        (check :attr:`asking`: the player must then :meth:`choose` an intent)."""
        if self.asking is not None:
            self.asking = None
            if pick not in self.offered():
                return self._start(pick)
        if self.kind is not None:
            if pick in self.selection():
                self._unfill(pick)
                return None
            if self._fill(pick):
                return self._settle()
        return self._start(pick)

    def choose(self, intent: str) -> dict[str, Any] | None:
        """The player's answer to :attr:`asking`: build a ``intent`` action with the
        asked card. Returns the action when that already completes it."""
        if self.asking is None:
            return None
        pick, intents = self.asking
        self.asking = None
        if intent not in intents:
            return None
        self.kind, self.filled = intent, {}
        self._fill(pick, starting=True)
        return self._settle()

    def _start(self, pick: Pick) -> dict[str, Any] | None:
        self.clear()
        intents = self.intents(pick)
        if not intents:
            return None
        # never act on a single click: a card with two uses must not be spent on the wrong one
        if len(intents) > 1 or self.always_ask:
            self.asking = (pick, intents)
            return None
        self.kind = intents[0]
        self._fill(pick, starting=True)
        return self._settle()

    def _fill(self, pick: Pick, starting: bool = False) -> bool:
        kind, ident = pick
        cands = self.candidates()
        starts = STARTS.get(self.kind or "", None)
        for f, k in self.open_fields():
            if k != kind or (starting and starts is not None and f not in starts):
                continue
            if any(a.get(f) == ident for a in cands):
                self.filled[f] = ident
                return True
        return False

    def _unfill(self, pick: Pick) -> None:
        """Un-choose ``pick`` and every field asked after it."""
        fields = FIELDS[self.kind or "pass"]
        hit = next((i for i, (f, k) in enumerate(fields) if self.filled.get(f) == pick[1] and k == pick[0]), None)
        if hit is not None:
            for f, _ in fields[hit:]:
                self.filled.pop(f, None)
        if not self.filled:
            self.kind = None

    def _settle(self) -> dict[str, Any] | None:
        """Fill every field the remaining legal actions agree on; the action if complete."""
        changed = True
        while changed and self.kind is not None:
            changed = False
            cands = self.candidates()
            if not cands:
                break
            for f, _ in self.open_fields():
                values = {a.get(f) for a in cands}
                if len(values) == 1:
                    self.filled[f] = values.pop()
                    changed = True
                    break
        return self.complete()
