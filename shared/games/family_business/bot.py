"""The Family Business bot: plays from its own seat's view only (ARCHITECTURE §1).

Strategy (RULES.md §3): protect its own mobsters (a counter when one of them is
attacked -- Mob Power before Family Influence, Safe House against a Vendetta; rescue
cards for its mobsters on the hit list, the nearer the wall the sooner), aim every
attack at the leader (the opponent with the most living mobsters), keep its counter
cards (they are only ever voided last), start or speed up the war when the front of the
hit list holds opponents' mobsters, and stop it with a Truce when its own are next.

Every answer to a counter window -- claim or pass -- comes after a human-like reaction
time drawn from the :class:`ReactionModel`, whether or not the bot holds a counter, so
neither its answer's timing nor its presence tells anything about its hand. Each
decision draws from a ``random.Random`` keyed by the bot's seed and the situation, so
the same situation gives the same decision and delay.
"""
from __future__ import annotations

import random
from typing import Any

from shared.bots.base import Decision, ReactionModel
from shared.rules import Action

#: How much the bot wants to keep a card in hand (the cheapest is voided).
KEEP = {"mob_power": 9.0, "family_influence": 8.0, "safe_house": 6.0, "finger": 4.0,
        "lam": 3.5, "police_protection": 3.5, "pay_off": 3.0, "substitution": 3.0,
        "federal_crackdown": 2.5, "truce": 2.5, "intrigue": 2.0, "turncoat": 2.0,
        "massacre": 2.5, "hit": 2.0, "double_cross": 3.0, "vendetta": 3.0,
        "mob_war": 1.5, "ambush": 1.5, "double_contract": 2.0, "priority_contract": 2.0,
        "contract_no_counter": 2.0, "contract_no_mp": 1.5, "contract_no_fi": 1.5,
        "contract": 1.0}


class FamilyBusinessBot:
    """Family Business player for ``seat``; ``rng`` seeds its choices and reaction
    times, ``think_ms`` is the pause before turn actions (ms)."""

    def __init__(self, seat: int, rng: random.Random, reaction: ReactionModel | None = None,
                 think_ms: float = 0.0):
        self.seat = seat
        self._seed = rng.getrandbits(64)
        self.reaction = reaction or ReactionModel()
        self.think_ms = think_ms

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """Everything the bot needs is in its view: it keeps no memory."""

    # -- helpers ----------------------------------------------------------------------------
    def _rng(self, view: dict[str, Any], tag: str) -> random.Random:
        w = view.get("window") or {}
        return random.Random(f"{self._seed}/{view.get('turn_no')}/{w.get('window')}/{tag}")

    def _alive(self, view: dict[str, Any]) -> dict[int, int]:
        return {p["seat"]: p["alive"] for p in view["players"] if p["in_game"]}

    def _leader(self, view: dict[str, Any]) -> int | None:
        alive = {p: a for p, a in self._alive(view).items() if p != self.seat}
        if not alive:
            return None
        return max(alive, key=lambda p: (alive[p], -((p - self.seat) % view["seats"])))

    # -- decisions --------------------------------------------------------------------------
    def decide(self, view: dict[str, Any], legal: list[Action]) -> Decision | None:
        """The next action among ``legal``: a window answer after a reaction time, a
        choice, or the turn's play."""
        window = view.get("window")
        if window and self.seat in window.get("pending", ()):
            return self._answer(view, window, legal)
        types = {a.TYPE for a in legal}
        if types <= {"place"}:
            return Decision(legal[0], self.think_ms)
        if types <= {"order"}:
            return Decision(self._order(view, legal), self.think_ms)
        return Decision(self._play(view, legal), self.think_ms)

    def _answer(self, view: dict[str, Any], window: dict[str, Any], legal: list[Action]) -> Decision:
        delay = self.reaction.sample(self._rng(view, "react"))
        claims: list[Any] = [a for a in legal if a.TYPE == "counter"]  # Counter: each has .card
        pass_ = next(a for a in legal if a.TYPE == "no_counter")
        if not claims:
            return Decision(pass_, delay, claim=False)
        hand = {c["id"]: c["code"] for c in view["hand"]}
        attack = window["card"]["code"]
        me = self.seat
        want = False
        if attack == "vendetta":
            mine = next(p for p in view["players"] if p["seat"] == me)
            want = bool(mine["front"])
        elif attack == "lam":
            m = window.get("mobster")
            owner = m // 9 if isinstance(m, int) else None
            want = owner is not None and owner != me and owner == self._leader(view)
        else:
            want = window.get("target") == me
        if not want:
            return Decision(pass_, delay, claim=False)
        best = max(claims, key=lambda a: 1 if hand.get(a.card) == "mob_power" else 0)
        return Decision(best, delay, claim=True)

    def _order(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """Front of the list: the leader's mobsters first, its own last."""
        alive = self._alive(view)

        def rank(a: Any) -> tuple:  # an Order: it has .mobster
            owner = a.mobster // 9
            return (owner != self.seat, alive.get(owner, 0), -a.mobster)
        return max(legal, key=rank)

    def _danger(self, view: dict[str, Any], index: int) -> float:
        """How soon a mobster at ``index`` of the hit list dies (0..4)."""
        war = view["war"]
        n_list = len(view["hit_list"])
        if war["active"]:
            turns = index // max(1, war["rate"])
            return max(0.0, 4.0 - turns)
        return 1.5 if n_list >= 5 else 0.5

    def _play(self, view: dict[str, Any], legal: list[Action]) -> Action:
        me = self.seat
        hand = {c["id"]: c["code"] for c in view["hand"]}
        alive = self._alive(view)
        leader = self._leader(view)
        hit = [m["id"] for m in view["hit_list"]]
        mine_on = [i for i, m in enumerate(hit) if m // 9 == me]
        fronts = {p["seat"]: [m["id"] for m in p["front"]] for p in view["players"]}
        war = view["war"]

        def war_value(new_rate: int) -> float:
            k = max(1, new_rate) * 2
            v = 0.0
            for i, m in enumerate(hit[:k]):
                v += -3.0 if m // 9 == me else 1.5
            return v - (0.5 if war["active"] and war["rate"] == new_rate else 0.0)

        def value(a: Any) -> float:  # the fields read are those of a.TYPE's action class
            code = hand.get(getattr(a, "card", -1), "")
            t = a.TYPE
            if t == "void":
                return -KEEP.get(code, 1.0)
            if t == "contract":
                v = 4.0 + (2.0 if a.target == leader else 0.0) + 0.2 * alive.get(a.target, 0)
                if code == "priority_contract" and war["active"]:
                    v += 2.0
                if code == "double_contract":
                    v += 2.0
                if code == "contract_no_counter":
                    v += 1.0
                return v
            if t == "hit":
                o = a.victim // 9
                if o == me:
                    return -10.0
                v = 3.0 + (2.0 if o == leader else 0.0) - 1.5 - (2.0 if war["active"] else 0.0)
                return v - (2.0 if a.victim in hit else 0.0)
            if t == "massacre":
                return sum(-3.0 if m // 9 == me else 2.0 for m in hit)
            if t == "double_cross":
                return 2.0 * sum(1 for p, f in fronts.items() if p != me and f and p in alive) + 1
            if t == "vendetta":
                return (3.0 * sum(1 for p, f in fronts.items() if p != me and f and p in alive)
                        + war_value(2))
            if t == "mob_war":
                return war_value(1)
            if t == "ambush":
                return war_value(2)
            if t == "rescue":
                if a.mobster // 9 == me:
                    return 5.0 + self._danger(view, hit.index(a.mobster))
                return -2.0
            if t == "substitution":
                i = hit.index(a.mobster)
                x_mine, y_mine = a.mobster // 9 == me, a.other // 9 == me
                if x_mine and not y_mine:
                    if a.other in hit:
                        j = hit.index(a.other)
                        return (self._danger(view, i) - self._danger(view, j)) * 1.5 + 1.0
                    return 6.0 + self._danger(view, i) + (1.0 if a.other // 9 == leader else 0.0)
                return -3.0
            if t == "intrigue":
                return 3.0 + sum(self._danger(view, i) for i in mine_on) if mine_on else 0.0
            if t == "truce":
                risk = sum(self._danger(view, i) for i in mine_on)
                return risk * 2.0 - 2.0
            if t == "pay_off":
                if a.target == me:
                    return 2.0 + sum(3.0 + self._danger(view, i) for i in mine_on)
                return -2.0
            if t == "federal_crackdown":
                return sum(3.0 + self._danger(view, i) for i in mine_on) - 1.5 * (len(hit) - len(mine_on))
            if t == "turncoat":
                if a.victim // 9 == me:
                    return -8.0
                v = 6.0 if a.revived // 9 == me else 0.5
                return v + (3.0 if a.victim // 9 == leader else 0.0)
            return 0.0

        best = max(legal, key=lambda a: (value(a), -legal.index(a)))
        return best
