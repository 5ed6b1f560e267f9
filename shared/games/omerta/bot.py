"""The Omerta bot: plays from its own seat's view and events only (ARCHITECTURE §1).

It remembers what it has seen, as a careful player would: its initial peek, the cards
it drew and placed, Mole looks, the safe, every card revealed in public (a wrong snap or
Hitwoman, a failed Driver, a card taken from the discard pile), and it follows swaps
(Henchman) and forgets positions after a Lady's shuffle while still knowing which cards
are somewhere in that game. From that memory it estimates every stock (unknown cards
count as the mean of the cards it has not seen), keeps its stock low, snaps a bottle only
when it knows a matching card (after a human-like reaction time, never faster than the
configured floor), uses each character against the player it believes is leading, and
declares Omerta when it knows its whole game, its stock is at most 7 and it is very
likely the lowest (RULES.md §2.8).

Levels (``level``, :mod:`shared.bots.levels`): ``normal`` is the bot above. ``easy``
forgets, as a beginner does: a card it saw is gone from its memory
:data:`EASY_MEMORY_TURNS` turns later (one or two more for some slots), so it replaces
cards it once knew, misses snaps and declares later. ``hard`` keeps the perfect memory
above and reacts quicker in the races (its reaction model is chosen by its factory).

Each decision draws from a ``random.Random`` keyed by the bot's seed and the game
situation (round, turn, step, window), not from one running stream: asked twice in the
same situation -- after a reconnection, a server restart, a cancelled plan -- the bot
makes the same choice with the same reaction time, so a bot match gives the same result
with or without interruptions.
"""
from __future__ import annotations

import random
from operator import itemgetter
from typing import Any

from shared.bots.base import Decision, ReactionModel
from shared.games import omerta as om
from shared.rules import Action

_ALL_POINTS = sum(c.points for c in om.DECK)
#: turns (every player's, counted by the view's ``turn_no``) an easy bot remembers a card
EASY_MEMORY_TURNS = 8
_POINTS = itemgetter("points")


class OmertaBot:
    """Omerta player for ``seat``; ``rng`` drives its choices and reaction times,
    ``think_ms`` is the pause before turn actions (ms), ``level`` one of
    ``"easy"``, ``"normal"``, ``"hard"`` (see the module docstring)."""

    def __init__(self, seat: int, rng: random.Random, reaction: ReactionModel | None = None,
                 think_ms: float = 0.0, level: str = "normal"):
        self.seat = seat
        self.level = level
        #: easy only: turns a card stays in memory (None: for the whole round)
        self.memory_turns: int | None = EASY_MEMORY_TURNS if level == "easy" else None
        self.seen_at: dict[int, int] = {}  # slot id -> turn_no it was learnt (easy only)
        self._turn_no = 0
        self._seed = rng.getrandbits(64)
        self._rng: random.Random | None = rng
        self._rng_key: str | None = ""
        self._key_parts: tuple[dict[str, Any], Any, int] | None = None
        self.reaction = reaction or ReactionModel()
        self.think_ms = think_ms
        self._handlers = _handlers(type(self))  # event type -> method (``_on_<type>``)
        self._reset()

    @property
    def rng(self) -> random.Random:
        """This decision's generator, seeded from its situation key on first use (most
        decisions draw nothing: seeding from a string costs more than deciding)."""
        rng = self._rng
        if rng is None:
            if self._rng_key is None:  # the key of this decision, built when first needed
                assert self._key_parts is not None  # (decide sets them before any draw)
                view, window, n_legal = self._key_parts
                self._rng_key = (
                    f"{self._seed}|{view['round']}|{view['turn_no']}|{view['step']}|"
                    f"{window['window'] if window else 0}|{len(view['discard'])}|"
                    f"{view['draw_pile']}|{n_legal}")
            rng = self._rng = random.Random(self._rng_key)
        return rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    # -- memory ---------------------------------------------------------------------------
    def _reset(self) -> None:
        self.known: dict[int, dict[str, Any]] = {}  # slot id -> card seen in it
        self.pool: dict[int, list[dict[str, Any]]] = {}  # seat -> cards somewhere in its game
        self.pool_slots: dict[int, set[int]] = {}  # seat -> slots those pooled cards may be in
        self.safe: list[dict[str, Any] | None] = [None] * 4
        self.drawn: dict[str, Any] | None = None
        self.public_draw: dict[str, Any] | None = None
        self.seen_at = {}

    def _forget(self, slot: int) -> dict[str, Any] | None:
        return self.known.pop(slot, None)

    def _fade(self) -> None:
        """Easy only: drop the cards learnt too many turns ago (some slots a turn or two
        later than others, so that it does not forget a whole game at once)."""
        assert self.memory_turns is not None
        now, limit, known, seen_at = self._turn_no, self.memory_turns, self.known, self.seen_at
        for sid in [sid for sid in known if now - seen_at.get(sid, now) > limit + sid % 3]:
            del known[sid]
            seen_at.pop(sid, None)

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """Update the memory from the events this seat received (wire form)."""
        handlers = self._handlers
        if self.memory_turns is not None:
            self._turn_no = view.get("turn_no", self._turn_no)
        for e in events:
            handler = handlers.get(e["type"])
            if handler is not None:
                handler(self, e)
        # slots that no longer exist can be forgotten
        players = view.get("players", ())
        alive = _last_alive[1] if players is _last_alive[0] else _alive_slots(view)
        known = self.known
        if not alive.issuperset(known):
            for sid in [s for s in known if s not in alive]:
                del known[sid]
        if self.pool_slots:
            for seat, slots in self.pool_slots.items():
                slots &= alive
                if not slots:
                    self.pool[seat] = []
        if self.memory_turns is not None:
            self._fade()

    def _on_round_started(self, e: dict[str, Any]) -> None:
        self._reset()

    def _on_look(self, e: dict[str, Any]) -> None:
        cards = e.get("cards")
        if e["seat"] != self.seat or cards is None:
            return
        if e["reason"] == "safe":
            self.safe = list(cards)
        else:
            for sid, c in zip(e["slots"], cards):
                self._learn(sid, c)

    def _learn(self, sid: int, c: dict[str, Any]) -> None:
        self.known[sid] = c
        if self.memory_turns is not None:
            self.seen_at[sid] = self._turn_no
        for seat, slots in self.pool_slots.items():
            if sid in slots:
                slots.discard(sid)
                if c in self.pool.get(seat, []):
                    self.pool[seat].remove(c)

    def _on_draw(self, e: dict[str, Any]) -> None:
        if e["seat"] == self.seat:
            self.drawn = e.get("card")
        self.public_draw = e.get("card") if e["source"] == "discard" else None

    def _on_replace(self, e: dict[str, Any]) -> None:
        sid = e["slot"]
        self._forget(sid)
        if e["seat"] == self.seat and self.drawn is not None:
            self._learn(sid, self.drawn)
        elif e["source"] == "discard" and self.public_draw is not None:
            self._learn(sid, self.public_draw)
        self.drawn = self.public_draw = None

    def _on_discard(self, e: dict[str, Any]) -> None:
        self.drawn = None

    def _on_snap(self, e: dict[str, Any]) -> None:
        if e["success"]:
            self._forget(e["slot"])
        else:
            self._learn(e["slot"], e["card"])

    _on_counter = _on_snap

    def _on_driver(self, e: dict[str, Any]) -> None:
        for sid, c in zip(e["slots"], e["cards"]):
            if e["success"]:
                self._forget(sid)
            else:
                self._learn(sid, c)

    def _on_swap(self, e: dict[str, Any]) -> None:
        x, y = e["slots"]
        cx, cy = self.known.pop(x, None), self.known.pop(y, None)
        if cy is not None:
            self.known[x] = cy
        if cx is not None:
            self.known[y] = cx
        if self.memory_turns is not None:
            tx, ty = self.seen_at.pop(x, None), self.seen_at.pop(y, None)
            if ty is not None:
                self.seen_at[x] = ty
            if tx is not None:
                self.seen_at[y] = tx

    def _on_shuffle(self, e: dict[str, Any]) -> None:
        seat, slots = e["seat"], set(e["slots"])
        cards = [self.known.pop(sid) for sid in slots if sid in self.known]
        self.pool.setdefault(seat, []).extend(cards)
        self.pool_slots.setdefault(seat, set()).update(slots)

    def _on_safe_swap(self, e: dict[str, Any]) -> None:
        sid, index = e["slot"], e["index"]
        mine = self._forget(sid)
        came = e.get("card") or self.safe[index]
        if came is not None:
            self._learn(sid, came)
        self.safe[index] = mine

    # -- estimates ------------------------------------------------------------------------
    def _mean_unseen(self, view: dict[str, Any]) -> float:
        # points are ints: summed in any order, the same total
        discard, known = view["discard"], self.known
        seen = sum(map(_POINTS, discard)) + sum(map(_POINTS, known.values()))
        count = len(discard) + len(known)
        for cards in self.pool.values():
            seen += sum(map(_POINTS, cards))
            count += len(cards)
        for c in self.safe:
            if c is not None:
                seen += c["points"]
                count += 1
        unseen = len(om.DECK) - count
        return (_ALL_POINTS - seen) / unseen if unseen > 0 else 8.75

    def _estimate(self, view: dict[str, Any], seat: int, mean: float) -> tuple[float, int]:
        """(estimated stock, number of cards of unknown identity) of ``seat``."""
        slots = [s["slot"] for s in view["players"][seat]["slots"]]
        known = [self.known[sid]["points"] for sid in slots if sid in self.known]
        pooled = [c["points"] for c in self.pool.get(seat, [])]
        unknown = max(0, len(slots) - len(known) - len(pooled))
        return sum(known) + sum(pooled) + unknown * mean, unknown

    def _my_slots(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        return view["players"][self.seat]["slots"]

    def _slot_cost(self, sid: int, mean: float) -> float:
        c = self.known.get(sid)
        return c["points"] if c is not None else mean

    def _leader(self, view: dict[str, Any], mean: float, allowed: set[int]) -> int | None:
        """The opponent in ``allowed`` with the lowest estimated stock."""
        if not allowed:
            return None
        return min(sorted(allowed), key=lambda p: self._estimate(view, p, mean)[0])

    # -- decisions ------------------------------------------------------------------------
    def decide(self, view: dict[str, Any], legal: list[Action]) -> Decision | None:
        """Choose among ``legal`` (see the module docstring for the policy)."""
        window = view.get("window")
        self._rng = None  # random.Random(key), made by the rng property when first used
        self._rng_key = None  # the situation key, built by the rng property too
        self._key_parts = (view, window, len(legal))
        by_type: dict[str, list[Action]] = {}
        for a in legal:
            by_type.setdefault(a.TYPE, []).append(a)
        if window is not None and self.seat in window.get("pending", []):
            return self._answer_window(window, by_type)
        if "peek" in by_type:
            return self._turn(self.rng.choice(by_type["peek"]))
        mean = self._mean_unseen(view)
        step = view["step"]
        if step == "start":
            return self._turn(self._start(view, by_type, mean))
        if step == "drawn":
            return self._turn(self._resolve_drawn(view, by_type, mean))
        if step == "power":
            return self._turn(self._power(view, by_type, mean))
        if step == "safe":
            return self._turn(self._safe(view, by_type, mean))
        return self._turn(self.rng.choice(legal))

    def _turn(self, action: Action) -> Decision:
        return Decision(action, self.think_ms)

    def _answer_window(self, window: dict[str, Any], by_type: dict[str, list[Action]]) -> Decision:
        if window["kind"] == "snap":
            for a in by_type.get("snap", []):
                c = self.known.get(a.slot)  # type: ignore[attr-defined]
                if c is not None and c["kind"] == "bottle" and c["value"] == window["value"]:
                    return Decision(a, self.reaction.sample(self.rng), claim=True)
            return Decision(by_type["snap_pass"][0], min(self.think_ms, 250.0))
        for a in by_type.get("hitwoman", []):
            c = self.known.get(a.slot)  # type: ignore[attr-defined]
            if c is not None and c["name"] == "hitwoman":
                return Decision(a, self.reaction.sample(self.rng), claim=True)
        return Decision(by_type["hitwoman_pass"][0], min(self.think_ms, 250.0))

    def _start(self, view: dict[str, Any], by_type: dict[str, list[Action]], mean: float) -> Action:
        if "declare_omerta" in by_type and self._should_declare(view, mean):
            return by_type["declare_omerta"][0]
        top = view["discard"][-1] if view["discard"] else None
        if top is not None and "take_discard" in by_type:
            worst = self._worst_slot(view, mean)
            if worst is not None and top["points"] + 3 <= worst[1] and top["points"] <= 5:
                return by_type["take_discard"][0]
        for name in ("draw_deck", "end_turn", "take_discard"):
            if name in by_type:
                return by_type[name][0]
        return by_type["declare_omerta"][0]

    def _should_declare(self, view: dict[str, Any], mean: float) -> bool:
        mine, unknown = self._estimate(view, self.seat, mean)
        if unknown or mine > om.OMERTA_LIMIT:
            return False
        others = [self._estimate(view, p, mean) for p in range(view["seats"]) if p != self.seat]
        # an opponent is "safely above" when even his unknown cards at their lowest
        # plausible points (a 1 bottle) leave him above us
        for est, unk in others:
            floor = est - unk * (mean - 1.0)
            if floor < mine and est < mine + 6:
                return False
        return True

    def _worst_slot(self, view: dict[str, Any], mean: float) -> tuple[int, float] | None:
        slots = [s["slot"] for s in self._my_slots(view) if s["patrol"] is None]
        if not slots:
            return None
        cards = self.known
        costs = [(sid, c["points"] if (c := cards.get(sid)) is not None else mean)
                 for sid in slots]  # _slot_cost, inlined
        known = [c for c in costs if c[0] in self.known]
        if known:
            best_known = max(known, key=lambda c: c[1])
            if best_known[1] >= mean:
                return best_known
        unknown = [c for c in costs if c[0] not in self.known]
        if unknown:
            return unknown[0]
        return max(costs, key=lambda c: c[1])

    def _resolve_drawn(self, view: dict[str, Any], by_type: dict[str, list[Action]], mean: float) -> Action:
        drawn = (view.get("drawn") or {}).get("card") or self.drawn
        replaces = by_type.get("replace", [])
        can_discard = "discard_drawn" in by_type
        if drawn is None:
            return (by_type.get("discard_drawn") or replaces)[0]
        worst = self._worst_slot(view, mean)
        gain_replace = (worst[1] - drawn["points"]) if worst is not None else -999.0
        if drawn["kind"] == "character" and drawn["name"] in om.ACTIVE_POWERS and can_discard:
            # a power now is usually worth more than keeping a 15-20 point card
            if gain_replace < 8:
                return by_type["discard_drawn"][0]
        if can_discard and drawn["kind"] == "bottle":
            free = {s["slot"] for s in self._my_slots(view) if s["patrol"] is None}
            own_match = any(c["kind"] == "bottle" and c["value"] == drawn["value"]
                            for sid, c in self.known.items() if sid in free)
            if own_match and drawn["value"] >= gain_replace:
                return by_type["discard_drawn"][0]  # then snap our own copy
        if worst is not None and replaces and (gain_replace > 0 or not can_discard):
            for a in replaces:
                if a.slot == worst[0]:  # type: ignore[attr-defined]
                    return a
            return replaces[0]
        if can_discard:
            return by_type["discard_drawn"][0]
        return replaces[0]

    def _power(self, view: dict[str, Any], by_type: dict[str, list[Action]], mean: float) -> Action:
        decline = by_type["decline"][0]
        name = view.get("power")
        n = view["seats"]
        opponents = {p for p in range(n) if p != self.seat}
        if name == "mole":
            unknown = [a for a in by_type.get("mole", []) if a.slot not in self.known]  # type: ignore[attr-defined]
            return unknown[0] if unknown else decline
        if name == "driver":
            bottles = sorted(
                (self.known[sid]["value"], sid) for sid in
                (s["slot"] for s in self._my_slots(view) if s["patrol"] is None)
                if sid in self.known and self.known[sid]["kind"] == "bottle")
            if not bottles:
                return decline
            want = tuple(sorted(sid for _, sid in bottles[-2:]))
            for a in by_type.get("driver", []):
                if tuple(sorted(a.slots)) == want:  # type: ignore[attr-defined]
                    return a
            return decline
        if name == "safecracker":
            return by_type.get("safecracker", [decline])[0]
        if name == "henchman":
            worst = self._worst_slot(view, mean)
            if worst is None or worst[0] not in self.known or worst[1] < mean + 2:
                return decline
            leader = self._leader(view, mean, opponents)
            best: tuple[float, Action] | None = None
            for a in by_type.get("henchman", []):
                x, y = a.slots  # type: ignore[attr-defined]
                if worst[0] not in (x, y):
                    continue
                other = y if x == worst[0] else x
                theirs = self._slot_cost(other, mean)
                owner = next(p["seat"] for p in view["players"] if any(s["slot"] == other for s in p["slots"]))
                score = worst[1] - theirs + (2 if owner == leader else 0)
                if best is None or score > best[0]:
                    best = (score, a)
            return best[1] if best and best[0] > 2 else decline
        if name in ("lady", "mamma"):
            targets = {a.target for a in by_type.get(name, [])}  # type: ignore[attr-defined]
            leader = self._leader(view, mean, targets)
            for a in by_type.get(name, []):
                if a.target == leader:  # type: ignore[attr-defined]
                    return a
            return decline
        if name == "snitch":
            ok = {p for a in by_type.get("snitch", []) for p in a.recipients}  # type: ignore[attr-defined]
            leader = self._leader(view, mean, ok)
            for a in by_type.get("snitch", []):
                if tuple(a.recipients) == (leader, leader):  # type: ignore[attr-defined]
                    return a
            return by_type.get("snitch", [decline])[0]
        if name == "police_patrol":
            acts = by_type.get("police_patrol", [])
            owners = {}
            for p in view["players"]:
                for s in p["slots"]:
                    owners[s["slot"]] = p["seat"]
            leader = self._leader(view, mean, {owners[a.slot] for a in acts})  # type: ignore[attr-defined]
            mine = [a for a in acts if owners[a.slot] == leader]  # type: ignore[attr-defined]
            # block a card the leader would like to get rid of, if we know one
            mine.sort(key=lambda a: -self._slot_cost(a.slot, mean))  # type: ignore[attr-defined]
            return mine[0] if mine else decline
        return decline

    def _safe(self, view: dict[str, Any], by_type: dict[str, list[Action]], mean: float) -> Action:
        cards: list[Any] = view.get("safe_cards") or self.safe  # each a card dict, or None
        worst = self._worst_slot(view, mean)
        if worst is None or not cards:
            return by_type["decline"][0]
        index = min(range(len(cards)), key=lambda i: cards[i]["points"] if cards[i] else 99)
        if cards[index] is not None and cards[index]["points"] + 3 <= worst[1]:
            for a in by_type.get("safe_swap", []):
                if a.slot == worst[0] and a.index == index:  # type: ignore[attr-defined]
                    return a
        return by_type["decline"][0]


_HANDLERS: dict[type, dict[str, Any]] = {}


def _handlers(cls: type) -> dict[str, Any]:
    """event type -> the method of ``cls`` that learns from it (``_on_<type>``)."""
    table = _HANDLERS.get(cls)
    if table is None:
        table = _HANDLERS[cls] = {
            name[4:]: getattr(cls, name) for name in dir(cls) if name.startswith("_on_")}
    return table

#: (players list of the last view seen, its slot ids): the views of one state share their
#: ``players`` list (``views.view``), so the bots of a table compute it once per state
_last_alive: list[Any] = [None, frozenset()]


def _alive_slots(view: dict[str, Any]) -> frozenset[int]:
    """Every slot id in ``view``'s players' games."""
    players = view.get("players", ())
    if players is _last_alive[0]:
        return _last_alive[1]
    alive = frozenset([s["slot"] for p in players for s in p["slots"]])
    _last_alive[0], _last_alive[1] = players, alive
    return alive
