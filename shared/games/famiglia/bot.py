"""A Famiglia bot that plays to win (RULES.md §1), from its seat's view and events only.

What it knows: its own hand (view), the public street, gangs, discard pile, counts and
scores, and the opponent's hand *by code*, rebuilt from the public events (the starting set
is one 0 of each family; every recruit is public; a hand card that goes to the gang is
public, D-FAM-2). If that bookkeeping ever disagrees with the hand count in the view, the
bot forgets it and plays as if the opponent's hand were unknown.

How it decides, afresh before every action (the whole turn is planned each time and its
first action sent; the renew samples use a ``random.Random`` keyed by the bot's seed and
the situation, so the bot asked again in the same situation chooses the same):

* **Phases 2-4 as one plan** (§1.5): every Accountant (with a few useful swap sets:
  pull the gang cards that complete a pair or are jokers / Brutes, push the least useful
  hand cards), every Brute reduction that enables a take, every take and the pass are
  combined, and each complete plan is scored:
  ``VP recruited + W_POT x hand potential - W_OPP x best VP the opponent can recruit
  next from the street we leave + W_NEXT x our own next recruit``.
  Hand potential values pairs (and single cards with a Mercenary joker) by the VP of the
  card they can recruit and how many copies of it are still to be had, plus the Brutes,
  Accountants and Mercenaries kept for later.
* **Phase 1** (renew): the current street is compared with sampled streets after a
  renew (the drawn cards are drawn from the cards the bot has not seen); the bot renews
  when the expected gain beats staying, and it takes the end-game trigger into account
  (a renew that empties the deck for the second time ends the match soon: wanted only
  when ahead).
* **End-game timing** (§1.6, D-FAM-13): after the opponent's pass, passing ends the
  match: the bot does it when it wins then (tie-break D-FAM-12 included) and avoids it
  otherwise; on its last turn only VP count, and the opponent's threat is ignored when
  the opponent has no turn left.
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any, Iterable

from shared.bots.base import Decision
from shared.games import famiglia as fam
from shared.rules import Action

# A card inside the planner: (id, family, value, vp).
_Card = tuple[int, str, int, int]

W_POT = 0.5
W_OPP = 0.7
W_NEXT = 0.3
ABILITY = {fam.ACCOUNTANT: (0.0, 0.8, 1.2, 1.6, 2.0), fam.BRUTE: (0.0, 1.4, 2.2, 2.8, 3.2)}
MERC_BONUS = (0.0, 0.3, 0.6, 0.8, 1.0)
RENEW_SAMPLES = 8
RENEW_MARGIN = 0.25
WIN = 1000.0
_ALL_CODES = Counter(c.code for c in fam.DECK)
_VP = {c.code: c.vp for c in fam.DECK}
_STARTING_SET = Counter(fam.DECK[c].code for c in fam.STARTING_SETS[0])
_LETTER = dict(fam.FAMILIES)
_FAMILY = {letter: name for name, letter in fam.FAMILIES}
_UNCODE = {c.code: (c.family, c.value) for c in fam.DECK}
_DRAWN = {c.code: (c.family, c.value, c.vp) for c in fam.DECK}


def _code(f: str, v: int) -> str:
    return _LETTER[f] + str(v)


def _uncode(code: str) -> tuple[str, int]:
    """``"A2"`` -> ``("accountant", 2)``."""
    return _UNCODE[code]


def _card(d: dict[str, Any]) -> _Card:
    return (d["id"], d["family"], d["value"], d["vp"])


class FamigliaBot:
    """The Famiglia bot of ``seat``: ``rng`` (its own) samples renew outcomes and breaks
    exact ties; every decision waits ``think_ms``."""

    def __init__(self, seat: int, rng: random.Random, think_ms: float = 0.0):
        self.seat = seat
        self._seed = rng.getrandbits(64)
        self.rng = rng
        self.think_ms = think_ms
        self.opp_hand: Counter[str] | None = Counter(_STARTING_SET)
        self._started = False

    # -- Bot interface ------------------------------------------------------------------
    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """Track the opponent's hand (by code) from the public events."""
        opp = 1 - self.seat
        if not self._started:
            self._started = True
            p = view["players"][opp]
            if not events and (p["gang"] or view["turn_no"] > 2):
                self.opp_hand = None  # joined a match under way: the history is unknown
        if self.opp_hand is not None:
            for e in events:
                if e.get("seat") != opp:
                    continue
                t = e["type"]
                if t == "recruit":
                    self.opp_hand[e["card"]["code"]] += 1
                    if e.get("to_gang"):
                        self._opp_lose(e["to_gang"]["code"])
                elif t in ("accountant", "brute"):
                    self._opp_lose(e["card"]["code"])
                elif t == "swap":
                    self.opp_hand[e["from_gang"]["code"]] += 1
                    self._opp_lose(e["from_hand"]["code"])
            if self.opp_hand is not None and (
                    sum(self.opp_hand.values()) != view["players"][opp]["hand_count"]):
                self.opp_hand = None

    def _opp_lose(self, code: str) -> None:
        if self.opp_hand is None:
            return
        if self.opp_hand[code] <= 0:
            self.opp_hand = None
            return
        self.opp_hand[code] -= 1

    def decide(self, view: dict[str, Any], legal: list[Action]) -> Decision | None:
        """The best action among ``legal`` for this seat's turn."""
        if not legal:
            return None
        action = self._choose(view, legal)
        if action not in legal:  # never send an illegal action, whatever the planner says
            takes = [a for a in legal if a.TYPE in ("take_free", "take_pair")]
            action = max(takes, key=lambda a: fam.card(a.card).vp) if takes else legal[-1]
        return Decision(action, self.think_ms)

    # -- decision -----------------------------------------------------------------------
    def _choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        # keyed by the situation, not a running stream: asked again in the same situation
        # (reconnection, server restart) the bot makes the same choice
        self.rng = random.Random(f"{self._seed}|{view['turn_no']}|{view['step']}|{view['renews']}|"
                                 f"{view['deck']}|{len(view['street'])}|{len(legal)}")
        ctx = _Context(self, view)
        value, plan = ctx.best_plan()
        if any(a.TYPE == "renew" for a in legal):
            renew = ctx.best_renew(value, self.rng)
            if renew is not None:
                return renew
        return plan[0]


class _Taker:
    """What a hand ((family, value) pairs) can recruit next turn, a Brute of the hand
    included (§1.5): :meth:`best` is the best VP among the street cards it can take, -1
    when none. Whether it takes a card ``(family, printed)`` is computed once."""

    __slots__ = ("counts", "merc_vals", "brutes", "known")

    def __init__(self, hand: Iterable[tuple[str, int]], use_brute: bool = True):
        hand = list(hand)
        counts: dict[tuple[str, int], int] = {}
        for fv in hand:
            counts[fv] = counts.get(fv, 0) + 1
        self.counts = counts
        self.merc_vals = sorted((v for f, v in hand if f == fam.MERCENARY), reverse=True)
        self.brutes = sorted({v for f, v in hand if f == fam.BRUTE and v >= 1}) if use_brute else []
        self.known: dict[tuple[str, int], bool] = {}

    def best(self, street: Iterable[tuple[str, int, int]]) -> float:
        best = -1.0
        known = self.known
        for f, printed, points in street:
            if points <= best:
                continue
            ok = known.get((f, printed))
            if ok is None:
                ok = known[(f, printed)] = self._takes(f, printed)
            if ok:
                best = points
        return best

    def _takes(self, f: str, printed: int) -> bool:
        if printed == 0 or self._pair(f, printed, None):
            return True
        for bv in self.brutes:
            if any(max(0, printed - k) == 0 or self._pair(f, printed - k, (fam.BRUTE, bv))
                   for k in range(1, bv + 1)):
                return True
        return False

    def _pair(self, f: str, e: int, minus: tuple[str, int] | None) -> bool:
        counts = self.counts
        need = (f, e - 1)
        n = counts.get(need, 0) - (1 if minus == need else 0)
        if n >= 2:
            return True
        if n < 1:
            return False
        for mv in self.merc_vals:
            if mv < e:
                break
            m = (fam.MERCENARY, mv)
            avail = counts.get(m, 0) - (1 if minus == m else 0) - (1 if m == need else 0)
            if avail >= 1:
                return True
        return False


class _Context:
    """One decision: the bot's picture of the table and the planner over it."""

    def __init__(self, bot: FamigliaBot, view: dict[str, Any]):
        me = bot.seat
        self.view = view
        self.me = me
        players = view["players"]
        self.hand: list[_Card] = [_card(d) for d in players[me]["hand"] or []]
        self.gang: list[_Card] = [_card(d) for d in players[me]["gang"]]
        self.street: list[tuple[_Card, int]] = [(_card(d), d["effective"]) for d in view["street"]]
        self.opp_gang = [_card(d) for d in players[1 - me]["gang"]]
        self.opp_hand = bot.opp_hand
        self.scores = [p["score"] for p in players]
        self.step = view["step"]
        acc = view.get("accountant")
        self.acc_id = acc["card"]["id"] if acc else None
        self.swaps_left = (acc["max"] - acc["swaps"]) if acc else 0
        self.moved = set(acc["moved"]) if acc else set()
        # cards nobody owns: street + deck + discard, by code (for the potential)
        owned = Counter(_code(c[1], c[2]) for c in self.hand + self.gang + self.opp_gang)
        owned += self.opp_hand if self.opp_hand is not None else Counter()
        self.free_codes = _ALL_CODES - owned
        seen = Counter(_code(c[1], c[2]) for c, _ in self.street)
        seen += Counter(d["code"] for d in view["discard"])
        self.pool = list((self.free_codes - seen).elements())  # what the deck may hold
        # end-game timing (§1.6): how many turns each side still has after this one
        end = view.get("end")
        turn_no = view["turn_no"]
        if end is None:
            self.my_left, self.opp_left = 99, 99
        else:
            later = range(turn_no + 1, end["last_turn"] + 1)
            self.opp_left = sum(1 for t in later if (t - turn_no) % 2 == 1)
            self.my_left = sum(1 for t in later if (t - turn_no) % 2 == 0)
        self.w_pot = W_POT if self.my_left > 0 else 0.0
        self.w_next = W_NEXT if self.my_left > 0 else 0.0
        self.w_opp = W_OPP if self.opp_left > 0 else 0.0
        self.passes = view["passes"]
        # per-decision memos: the planner asks the same questions many times (about 80
        # best-take computations per decision); each answer depends only on its key
        self._take_memo: dict[tuple, _Taker] = {}
        self._pot_memo: dict[tuple, float] = {}
        self._threat_memo: dict[tuple, float] = {}
        self._next_memo: dict[tuple, float] = {}
        self._worth: dict[tuple[str, int], float | None] = {}
        self._opp_pairs: tuple[tuple[str, int], ...] | None = (
            tuple(sorted(_UNCODE[k] for k in self.opp_hand.elements()))
            if self.opp_hand is not None else None)

    # -- evaluation pieces ----------------------------------------------------------------
    def potential(self, hand: list[_Card], key: tuple[tuple[str, int], ...] | None = None) -> float:
        """Future recruiting power of a hand (see the module docstring). ``key``: the
        hand's (family, value) pairs in order, if already at hand."""
        if key is None:
            key = tuple([(c[1], c[2]) for c in hand])  # in order: the same float sums
        total = self._pot_memo.get(key)
        if total is None:
            total = self._pot_memo[key] = self._potential(hand, key)
        return total

    def _next_worth(self, f: str, v: int) -> float | None:
        """VP of a card ``(f, v + 1)`` times its chance to be had; None if none is left."""
        try:
            return self._worth[(f, v)]
        except KeyError:
            pass
        left = self.free_codes[_code(f, v + 1)]
        worth = None if left <= 0 else _VP[_code(f, v + 1)] * left / (left + 1.0)
        self._worth[(f, v)] = worth
        return worth

    def _potential(self, hand: list[_Card], pairs: tuple[tuple[str, int], ...]) -> float:
        counts: dict[tuple[str, int], int] = {}
        for fv in pairs:
            counts[fv] = counts.get(fv, 0) + 1
        mercs = [c for c in hand if c[1] == fam.MERCENARY]
        total = 0.0
        for (f, v), n in counts.items():
            if v >= 4:
                continue
            worth = self._next_worth(f, v)
            if worth is None:
                continue
            if n >= 2:
                strength = 1.0 + 0.35 * (min(n, 4) - 2)
            elif any(m[2] >= v + 1 and not (f == fam.MERCENARY and m[2] == v) for m in mercs):
                strength = 0.6
            else:
                strength = 0.25
            total += strength * worth
        for c in hand:
            if c[1] in ABILITY:
                total += ABILITY[c[1]][c[2]]
            elif c[1] == fam.MERCENARY:
                total += MERC_BONUS[c[2]]
        return total

    @staticmethod
    def best_take_vp(hand: Iterable[tuple[str, int]], street: Iterable[tuple[str, int, int]],
                     use_brute: bool = True) -> float:
        """Best VP recruitable next from ``street`` ((family, printed, vp)) with ``hand``
        ((family, value)), a Brute of the hand included; -1 when nothing can be taken."""
        return _Taker(list(hand), use_brute).best(street)

    def take_vp(self, hand: Iterable[tuple[str, int]], street: Iterable[tuple[str, int, int]],
                hand_key: tuple[tuple[str, int], ...] | None = None) -> float:
        """:meth:`best_take_vp` memoised for this decision: one :class:`_Taker` per hand
        (as a multiset: ``hand_key`` is its sorted tuple), which remembers which street
        cards it can take."""
        if hand_key is None:
            hand_key = tuple(sorted(hand))
        taker = self._take_memo.get(hand_key)
        if taker is None:
            taker = self._take_memo[hand_key] = _Taker(hand_key)
        return taker.best(street)

    def opp_threat(self, street: list[_Card], key: tuple[int, ...] | None = None) -> float:
        """Best VP the opponent could recruit from ``street`` on its next turn (``key``:
        the street's card ids, if already at hand)."""
        if not street:
            return 2.0  # a fresh street of six unknown cards
        if key is None:
            key = tuple([c[0] for c in street])
        threat = self._threat_memo.get(key)
        if threat is None:
            cards = [(c[1], c[2], c[3]) for c in street]
            if self.opp_hand is None:
                threat = max([p for f, v, p in cards if v == 0], default=0.0)
            else:
                threat = self._opp_on(cards)
            self._threat_memo[key] = threat
        return threat

    def my_next(self, hand: list[_Card], street: list[_Card],
                pairs: tuple[tuple[str, int], ...] | None = None,
                street_key: tuple[int, ...] | None = None) -> float:
        """Best VP we could recruit from ``street`` next turn if it stays (``pairs``: the
        hand's (family, value) pairs, ``street_key``: the street's ids, if at hand)."""
        if pairs is None:
            pairs = tuple([(c[1], c[2]) for c in hand])
        hand_key = tuple(sorted(pairs))
        key = (hand_key, street_key if street_key is not None else tuple([c[0] for c in street]))
        best = self._next_memo.get(key)
        if best is None:
            best = self._next_memo[key] = max(0.0, self.take_vp(
                pairs, [(c[1], c[2], c[3]) for c in street], hand_key))
        return best

    def result_if_over(self, hand: list[_Card], gang: list[_Card]) -> float:
        """+WIN / 0 / -WIN for a match that ends with these cards (§1.7, D-FAM-12)."""
        mine = [c for c in hand + gang]
        my_key = (sum(c[3] for c in mine), sorted((c[3] for c in mine), reverse=True),
                  sorted((c[2] for c in mine), reverse=True))
        if self.opp_hand is None:
            theirs_score = self.scores[1 - self.me]
            if my_key[0] != theirs_score:
                return WIN if my_key[0] > theirs_score else -WIN
            return -WIN  # unknown tie-break: do not gamble
        theirs = [(c[3], c[2]) for c in self.opp_gang]
        theirs += [(_VP[k], _uncode(k)[1]) for k in self.opp_hand.elements()]
        th_key = (sum(p for p, _ in theirs), sorted((p for p, _ in theirs), reverse=True),
                  sorted((v for _, v in theirs), reverse=True))
        if my_key == th_key:
            return 0.0
        return WIN if my_key > th_key else -WIN

    # -- the planner ----------------------------------------------------------------------
    def best_plan(self) -> tuple[float, list[Action]]:
        """The best complete plan for phases 2-4 from the current step."""
        best: tuple[float, list[Action]] | None = None
        for acc_actions, hand1, gang1, swaps_left, moved in self._accountant_options():
            for swap_actions, hand2, gang2 in self._swap_sets(hand1, gang1, swaps_left, moved):
                for brute_action, hand3, gang3, eff in self._brute_options(hand2, gang2):
                    prefix = acc_actions + swap_actions + brute_action
                    for final, value in self._finals(hand3, gang3, eff, bool(prefix)):
                        if best is None or value > best[0] + 1e-9:
                            best = (value, prefix + [final])
        assert best is not None
        return best

    def _accountant_options(self):
        hand, gang = self.hand, self.gang
        if self.step == 2:  # the Accountant is down: it cannot be swapped back (§1.5 phase 2)
            yield [], hand, gang, self.swaps_left, self.moved | {self.acc_id}
            return
        yield [], hand, gang, 0, set()
        if self.step <= 1:
            seen = set()
            for c in hand:
                if c[1] == fam.ACCOUNTANT and c[2] >= 1 and c[2] not in seen:
                    seen.add(c[2])
                    h = [k for k in hand if k[0] != c[0]]
                    yield [fam.Accountant(c[0])], h, gang + [c], c[2], {c[0]}

    def _swap_sets(self, hand, gang, swaps_left, moved):
        yield [], hand, gang
        if swaps_left <= 0:
            return
        pulls_ok = [c for c in gang if c[0] not in moved]
        push_ok = [c for c in hand if c[0] not in moved]
        if not pulls_ok or not push_ok:
            return
        street = [c for c, _ in self.street]
        brute_phase = self.step <= 2

        def relevance(c: _Card) -> float:
            r = 0.0
            for s in street:
                if s[1] == c[1] and s[2] >= c[2] + 1:
                    r = max(r, s[3] * (1.0 if s[2] == c[2] + 1 else 0.6))
                if c[1] == fam.MERCENARY and 1 <= s[2] <= c[2]:
                    r = max(r, s[3] * 0.8)
            if c[1] == fam.BRUTE and c[2] >= 1 and brute_phase:
                r = max(r, 2.0 + c[2])
            return r

        ranked = sorted(((relevance(c), c) for c in pulls_ok), key=lambda t: (-t[0], t[1][0]))
        cands: list[_Card] = []
        per_type: Counter = Counter()
        for r, c in ranked:
            if r <= 0 or len(cands) >= 6:
                break
            if per_type[(c[1], c[2])] < 2:
                per_type[(c[1], c[2])] += 1
                cands.append(c)
        if not cands:
            return
        base = self.potential(push_ok)
        loss = sorted(push_ok, key=lambda c: (base - self.potential([k for k in push_ok if k[0] != c[0]]), c[0]))
        seen = set()
        for k in range(1, min(swaps_left, 3, len(push_ok)) + 1):
            pushes = loss[:k]
            for pulls in combinations(cands, k):
                key = tuple(sorted((c[1], c[2]) for c in pulls))
                if key in seen:
                    continue
                seen.add(key)
                pull_ids = {c[0] for c in pulls}
                push_ids = {c[0] for c in pushes}
                h = [c for c in hand if c[0] not in push_ids] + list(pulls)
                g = [c for c in gang if c[0] not in pull_ids] + list(pushes)
                yield [fam.Swap(a[0], b[0]) for a, b in zip(pulls, pushes)], h, g

    def _brute_options(self, hand, gang):
        eff = {c[0]: e for c, e in self.street}
        yield [], hand, gang, eff
        if self.step > 2:
            return
        seen = set()
        hand_pairs = Counter((c[1], c[2]) for c in hand)
        for b in hand:
            if b[1] != fam.BRUTE or b[2] < 1 or b[2] in seen:
                continue
            seen.add(b[2])
            rest = [c for c in hand if c[0] != b[0]]
            rest_counts = hand_pairs - Counter({(b[1], b[2]): 1})
            for s, e in self.street:
                done = set()
                for amount in range(1, b[2] + 1):
                    ne = max(0, e - amount)
                    if ne in done:
                        continue
                    done.add(ne)
                    if ne > 0 and rest_counts[(s[1], ne - 1)] < 1:
                        continue  # no real card of value ne - 1: no take possible
                    new_eff = dict(eff)
                    new_eff[s[0]] = ne
                    yield [fam.Brute(b[0], s[0], amount)], rest, gang + [b], new_eff

    def _finals(self, hand, gang, eff, used_something: bool):
        street = [c for c, _ in self.street]
        for s in street:
            e = eff[s[0]]
            if e == 0:
                yield fam.TakeFree(s[0]), self._value(s, hand + [s], gang, street, None)
                continue
            reals = [c for c in hand if c[1] == s[1] and c[2] == e - 1]
            if not reals:
                continue
            done = set()
            for x in reals:
                for y in hand:
                    if y[0] == x[0]:
                        continue
                    real_y = y[1] == s[1] and y[2] == e - 1
                    if not real_y and not (y[1] == fam.MERCENARY and y[2] >= e):
                        continue
                    for to_gang, keep in ((x, y), (y, x)):
                        key = ((to_gang[1], to_gang[2]), (keep[1], keep[2]))
                        if key in done:
                            continue
                        done.add(key)
                        h = [c for c in hand if c[0] != to_gang[0]] + [s]
                        yield (fam.TakePair(s[0], to_gang[0], keep[0]),
                               self._value(s, h, gang + [to_gang], street, to_gang))
        value = self._value(None, hand, gang, street, None)
        if used_something:
            value -= 0.01  # the same pass without spending cards is better
        yield fam.Pass(), value

    def _value(self, taken: _Card | None, hand, gang, street, to_gang) -> float:
        """Score of the position after a complete plan (see the module docstring)."""
        gain = taken[3] if taken is not None else 0
        left = [c for c in street if taken is None or c[0] != taken[0]]
        if taken is None and self.passes >= 1:
            return self.result_if_over(hand, gang)  # our pass ends the match (D-FAM-13)
        if self.my_left == 0 and self.opp_left == 0:
            return self.result_if_over(hand, gang) + gain
        value = float(gain)
        pairs = tuple([(c[1], c[2]) for c in hand])
        left_key = tuple([c[0] for c in left])
        value += self.w_pot * self.potential(hand, pairs)
        value += self.w_next * self.my_next(hand, left, pairs, left_key)
        value -= self.w_opp * self.opp_threat(left, left_key)
        if taken is None:
            me, them = self.scores[self.me], self.scores[1 - self.me]
            value -= 3.0 if me <= them else 0.5  # a pass lets the opponent end the match
        return value

    # -- phase 1 --------------------------------------------------------------------------
    def _pass_cost(self) -> float:
        """What passing costs, on the scale of :meth:`_quick`."""
        me, them = self.scores[self.me], self.scores[1 - self.me]
        if self.passes >= 1:
            return 50.0  # our pass would end the match, and it does not win (else no renew)
        return 3.0 if me <= them else 0.5

    def _quick(self, street: list[tuple[str, int, int]], hand_pairs: list[tuple[str, int]],
               hand_key: tuple[tuple[str, int], ...] | None = None) -> float:
        """Rough value of a street for this turn: the best VP we can recruit from it (or
        the cost of passing), minus half the opponent's best recruit."""
        mine = self.take_vp(hand_pairs, street, hand_key)
        return (mine if mine >= 0 else -self._pass_cost()) - 0.5 * self._opp_on(street)

    def best_renew(self, plan_value: float, rng: random.Random) -> Action | None:
        """A renew worth more than staying with the best plan, or None (§1.5 phase 1):
        the expected :meth:`_quick` value of the street after renewing each card, drawn
        from the cards not seen, against the current street's."""
        if self.step > 1 or not self.street or plan_value >= WIN / 2:
            return None
        hand_pairs = [(c[1], c[2]) for c in self.hand]
        hand_key = tuple(sorted(hand_pairs))
        street = [(c[1], c[2], c[3]) for c, _ in self.street]
        now = self._quick(street, hand_pairs, hand_key)
        deck = self.view["deck"]
        exhaustion = self.view["exhaustion"]
        me, them = self.scores[self.me], self.scores[1 - self.me]
        discard = [d["code"] for d in self.view["discard"]]
        best: tuple[float, int] | None = None
        tried = set()
        for c, _ in self.street:
            code = _code(c[1], c[2])
            if code in tried:
                continue
            tried.add(code)
            v = c[2]
            rest = list(street)
            rest.remove((c[1], c[2], c[3]))
            ends = exhaustion == 1 and deck + 1 <= v  # this renew empties the deck for good
            if exhaustion == 0 and deck < v:
                source = self.pool + discard + [code]  # the reshuffle happens mid-draw
            elif exhaustion == 1 and deck < v:
                source = self.pool + [code]
            else:
                source = self.pool
            total = 0.0
            for _ in range(RENEW_SAMPLES):
                drawn = rng.sample(source, min(v, len(source))) if source else []
                total += self._quick(rest + [_DRAWN[d] for d in drawn], hand_pairs, hand_key)
            gain = total / RENEW_SAMPLES - now
            if ends:
                gain += 4.0 if me > them else -8.0
            if best is None or gain > best[0]:
                best = (gain, c[0])
        if best is not None and best[0] > RENEW_MARGIN:
            return fam.Renew(best[1])
        return None

    def _opp_on(self, street: list[tuple[str, int, int]]) -> float:
        if self.opp_hand is None:
            return max([p for f, v, p in street if v == 0], default=0.0)
        return max(0.0, self.take_vp(self._opp_pairs, street, self._opp_pairs))
