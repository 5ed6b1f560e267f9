"""Building a Family Business play from clicks, matched against the legal actions.

The server sends the seat's legal actions in every update; the table never guesses the
rules. A play is built one click at a time: first a card of the hand, then its targets
in order -- a player (``("player", seat)``: a Contract, a Pay Off), a mobster on the
table (``("mob", id)``: a Hit's victim, the mobster a Take It On the Lam saves, a
Substitution's two mobsters, a Turncoat's victim) or a dead one (``("dead", id)``: the
mobster a Turncoat brings back, chosen in the choice strip). A target is *offered* only
when some legal action of that card still fits the picks so far plus it; the play is
sent as soon as the picks spell one legal action exactly. A card with nothing to
choose (a Mob War...) waits for the Play button; every card can be voided.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

Pick = tuple[str, int]
ActionDict = Mapping[str, Any]

#: What the next pick of an action type is, by position (for the prompt).
NEEDS: dict[str, tuple[str, ...]] = {
    "contract": ("player",), "pay_off": ("player",), "hit": ("victim",), "rescue": ("listed",),
    "substitution": ("listed", "other"), "turncoat": ("turncoat", "revived"),
}


def targets(action: ActionDict) -> tuple[Pick, ...]:
    """The picks that make up ``action``, in order (empty: nothing to choose)."""
    t = action.get("type")
    if t in ("contract", "pay_off"):
        return (("player", int(action["target"])),)
    if t == "hit":
        return (("mob", int(action["victim"])),)
    if t == "rescue":
        return (("mob", int(action["mobster"])),)
    if t == "substitution":
        return (("mob", int(action["mobster"])), ("mob", int(action["other"])))
    if t == "turncoat":
        return (("mob", int(action["victim"])), ("dead", int(action["revived"])))
    return ()


class TurnChooser:
    """The play being built from a seat's legal actions on its turn."""

    def __init__(self, legal: Iterable[ActionDict]):
        self.legal = [dict(a) for a in legal]
        self.card: int | None = None
        self.picks: list[Pick] = []

    def cards(self) -> set[int]:
        """The hand cards that can be played or voided now."""
        return {int(a["card"]) for a in self.legal if "card" in a and a.get("type") not in ("counter",)}

    def options(self) -> list[dict[str, Any]]:
        """The legal plays (not voids) of the chosen card."""
        return [a for a in self.legal if a.get("card") == self.card and a.get("type") != "void"]

    def matching(self) -> list[dict[str, Any]]:
        k = len(self.picks)
        return [a for a in self.options() if list(targets(a)[:k]) == self.picks]

    def offered(self) -> set[Pick]:
        """The picks that may come next (with the other hand cards: a click changes card)."""
        k = len(self.picks)
        out = {targets(a)[k] for a in self.matching() if len(targets(a)) > k}
        return out

    def needs(self) -> str | None:
        """What the next pick is (``"player"``, ``"victim"``, ``"listed"``, ``"other"``,
        ``"turncoat"``, ``"revived"``), ``"play"`` when the card needs none, None
        without a card."""
        if self.card is None:
            return None
        k = len(self.picks)
        for a in self.matching():
            seq = NEEDS.get(str(a.get("type")), ())
            if k < len(seq):
                return seq[k]
        return "play" if self.play_now() is not None else None

    def play_now(self) -> dict[str, Any] | None:
        """The chosen card's play that needs no target (the Play button), else None."""
        return next((a for a in self.options() if not targets(a)), None)

    def void(self) -> dict[str, Any] | None:
        return next((a for a in self.legal if a.get("type") == "void" and a.get("card") == self.card), None)

    def select(self, card: int | None) -> None:
        """Choose a card of the hand (None: none); its targets start over."""
        self.card = card if card is None or card in self.cards() else None
        self.picks = []

    def clear(self) -> None:
        self.select(None)

    def click(self, pick: Pick) -> dict[str, Any] | None:
        """A click on ``pick``: a hand card (``("card", id)``) chooses it (again: drops
        it); an offered target is added. Returns the legal action the picks now spell, else None."""
        if pick[0] == "card":
            self.select(None if self.card == pick[1] else pick[1])
            return None
        if pick in self.offered():
            self.picks.append(pick)
            done = [a for a in self.matching() if len(targets(a)) == len(self.picks)]
            if done:
                return done[0]
        elif pick in self.picks:  # a click on a chosen target takes it (and what followed) back
            self.picks = self.picks[:self.picks.index(pick)]
        return None
