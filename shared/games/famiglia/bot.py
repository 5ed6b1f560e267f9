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
from typing import Any, Iterable, Iterator

from shared.bots.base import Decision
from shared.games import famiglia as fam
from shared.rules import Action

# A card inside the planner: (id, family, value, vp, kind). ``kind`` is the card's
# (family, value) as one int, ``5 * family index + value`` (0..19, in code order F0..M4):
# the planner's memo keys, hands, streets and tables use it instead of tuples or codes.
_Card = tuple[int, str, int, int, int]

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
_FAMILY_INDEX = {name: i for i, (name, _) in enumerate(fam.FAMILIES)}
_M0 = 5 * _FAMILY_INDEX[fam.MERCENARY]  # kind of the Mercenary 0
_B0 = 5 * _FAMILY_INDEX[fam.BRUTE]  # kind of the Brute 0
#: kind -> (family, value), VP, code, and what the card adds to a hand's potential
#: (an Accountant's or Brute's ability, a Mercenary's joker bonus; None for La Famiglia)
_KIND_FV: tuple[tuple[str, int], ...] = tuple((name, v) for name, _ in fam.FAMILIES for v in range(5))
_KIND_VP: tuple[int, ...] = tuple(_VP[_LETTER[f] + str(v)] for f, v in _KIND_FV)
_KIND_CODE: tuple[str, ...] = tuple(_LETTER[f] + str(v) for f, v in _KIND_FV)
_CODE_KIND = {code: k for k, code in enumerate(_KIND_CODE)}
_FV_KIND = {fv: k for k, fv in enumerate(_KIND_FV)}
_KIND_BONUS: tuple[float | None, ...] = tuple(
    ABILITY[f][v] if f in ABILITY else MERC_BONUS[v] if f == fam.MERCENARY else None
    for f, v in _KIND_FV)
#: copies of each kind in the deck
_ALL_KINDS: tuple[int, ...] = tuple(_ALL_CODES[code] for code in _KIND_CODE)
#: card id -> the planner's tuple of that card
_CARD_T: tuple[_Card, ...] = tuple(
    (c.id, c.family, c.value, c.vp, _FV_KIND[(c.family, c.value)]) for c in fam.DECK)


def _uncode(code: str) -> tuple[str, int]:
    """``"A2"`` -> ``("accountant", 2)``."""
    return _UNCODE[code]


def _card(d: dict[str, Any]) -> _Card:
    return _CARD_T[d["id"]]


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
            takes: list[Any] = [a for a in legal if a.TYPE in ("take_free", "take_pair")]  # with .card
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
    """What a hand (card kinds) can recruit next turn, a Brute of the hand included
    (§1.5): :meth:`best` is the best VP among the street cards (kinds) it can take, -1
    when none. Whether it takes a card of a kind is computed once."""

    __slots__ = ("counts", "merc_vals", "brutes", "known")

    def __init__(self, hand: Iterable[int], use_brute: bool = True):
        hand = list(hand)
        counts = [0] * 20
        for k in hand:
            counts[k] += 1
        self.counts = counts
        self.merc_vals = sorted((k - _M0 for k in hand if k >= _M0), reverse=True)
        self.brutes = sorted({k - _B0 for k in hand if _B0 < k < _B0 + 5}) if use_brute else []
        self.known: list[bool | None] = [None] * 20

    def best(self, street: Iterable[int]) -> float:
        best = -1.0
        known = self.known
        for k in street:
            points = _KIND_VP[k]
            if points <= best:
                continue
            ok = known[k]
            if ok is None:
                ok = known[k] = self._takes(k)
            if ok:
                best = points
        return best

    def _takes(self, kind: int) -> bool:
        printed = kind % 5
        f0 = kind - printed  # the family's kind of value 0
        if printed == 0 or self._pair(f0, printed, -1):
            return True
        for bv in self.brutes:
            for k in range(1, bv + 1):  # the Brute lowers the card by k
                if printed - k <= 0 or self._pair(f0, printed - k, _B0 + bv):
                    return True
        return False

    def _pair(self, f0: int, e: int, minus: int) -> bool:
        """A pair for a card of family ``f0`` (its value-0 kind) at effective value
        ``e`` >= 1, without the card of kind ``minus`` (a Brute spent on it, or -1)."""
        counts = self.counts
        need = f0 + e - 1
        n = counts[need] - (1 if minus == need else 0)
        if n >= 2:
            return True
        if n < 1:
            return False
        for mv in self.merc_vals:
            if mv < e:
                break
            m = _M0 + mv
            avail = counts[m] - (1 if minus == m else 0) - (1 if m == need else 0)
            if avail >= 1:
                return True
        return False


#: One :class:`_Taker` per hand (sorted kinds), for every decision of every bot: what a
#: hand can take depends on the hand alone, and hands recur (a third of them are new).
_TAKERS: dict[tuple[int, ...], _Taker] = {}
_TAKERS_MAX = 20_000  # then it starts afresh (a _Taker is about 600 bytes)


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
        # cards nobody owns: street + deck + discard, per kind (for the potential)
        owned = [0] * 20
        for c in self.hand:
            owned[c[4]] += 1
        for c in self.gang:
            owned[c[4]] += 1
        for c in self.opp_gang:
            owned[c[4]] += 1
        if self.opp_hand is not None:
            for code, n in self.opp_hand.items():
                owned[_CODE_KIND[code]] += n
        self.free = free = [max(0, _ALL_KINDS[k] - owned[k]) for k in range(20)]
        seen = [0] * 20
        for c, _ in self.street:
            seen[c[4]] += 1
        for d in view["discard"]:
            seen[_CODE_KIND[d["code"]]] += 1
        # what the deck may hold, as kinds in kind order (as Counter.elements() of codes)
        self.pool = [k for k in range(20) for _ in range(free[k] - seen[k])]
        # VP of a card of the next value (kind + 1) times its chance to be had; None if
        # none is left or the kind is a value 4
        self._worth: list[float | None] = [None] * 20
        for k in range(20):
            if k % 5 < 4:
                left = free[k + 1]
                self._worth[k] = None if left <= 0 else _KIND_VP[k + 1] * left / (left + 1.0)
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
        self._pot_memo: dict[tuple, float] = {}
        self._threat_memo: dict[tuple, float] = {}
        self._next_memo: dict[tuple, float] = {}
        self._street_cards = [c for c, _ in self.street]
        self._left: dict[int | None, tuple[list[_Card], tuple[int, ...]]] = {}
        self._opp_pairs: tuple[int, ...] | None = (
            tuple(sorted(_CODE_KIND[k] for k in self.opp_hand.elements()))
            if self.opp_hand is not None else None)

    # -- evaluation pieces ----------------------------------------------------------------
    def potential(self, hand: list[_Card], key: tuple[int, ...] | None = None) -> float:
        """Future recruiting power of a hand (see the module docstring). ``key``: the
        hand's card kinds in order, if already at hand."""
        if key is None:
            key = tuple([c[4] for c in hand])  # in order: the same float sums
        total = self._pot_memo.get(key)
        if total is None:
            total = self._pot_memo[key] = self._potential(hand, key)
        return total

    def _potential(self, hand: list[_Card], kinds: tuple[int, ...]) -> float:
        counts: dict[int, int] = {}
        for k in kinds:
            counts[k] = counts.get(k, 0) + 1
        # a Mercenary of a higher value than a card is a joker for it
        top_merc = max([c[2] for c in hand if c[1] == fam.MERCENARY], default=-1)
        worths = self._worth
        total = 0.0
        for k, n in counts.items():
            worth = worths[k]  # None for a value 4 too
            if worth is None:
                continue
            if n >= 2:
                strength = 1.0 + 0.35 * (min(n, 4) - 2)
            else:
                strength = 0.6 if top_merc > k % 5 else 0.25
            total += strength * worth
        for c in hand:
            bonus = _KIND_BONUS[c[4]]
            if bonus is not None:
                total += bonus
        return total

    @staticmethod
    def best_take_vp(hand: Iterable[tuple[str, int]], street: Iterable[tuple[str, int, int]],
                     use_brute: bool = True) -> float:
        """Best VP recruitable next from ``street`` ((family, printed, vp)) with ``hand``
        ((family, value)), a Brute of the hand included; -1 when nothing can be taken."""
        return _Taker([_FV_KIND[fv] for fv in hand], use_brute).best(
            [_FV_KIND[(f, printed)] for f, printed, _ in street])

    def take_vp(self, hand: Iterable[int], street: Iterable[int],
                hand_key: tuple[int, ...] | None = None) -> float:
        """:meth:`best_take_vp` on card kinds, memoised for this decision: one
        :class:`_Taker` per hand (as a multiset: ``hand_key`` is its sorted tuple), which
        remembers which kinds of street cards it can take."""
        if hand_key is None:
            hand_key = tuple(sorted(hand))
        taker = _TAKERS.get(hand_key)
        if taker is None:
            if len(_TAKERS) >= _TAKERS_MAX:
                _TAKERS.clear()
            taker = _TAKERS[hand_key] = _Taker(hand_key)
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
            threat = self._opp_on([c[4] for c in street])
            self._threat_memo[key] = threat
        return threat

    def my_next(self, hand: list[_Card], street: list[_Card],
                pairs: tuple[int, ...] | None = None,
                street_key: tuple[int, ...] | None = None) -> float:
        """Best VP we could recruit from ``street`` next turn if it stays (``pairs``: the
        hand's card kinds, ``street_key``: the street's ids, if at hand)."""
        if pairs is None:
            pairs = tuple([c[4] for c in hand])
        # keyed by the hand in its order: no sort when it is asked again (the answer
        # depends on the multiset only, so an order seen first computes the same)
        key = (pairs, street_key if street_key is not None else tuple([c[0] for c in street]))
        best = self._next_memo.get(key)
        if best is None:
            best = self._next_memo[key] = max(0.0, self.take_vp(
                pairs, [c[4] for c in street], tuple(sorted(pairs))))
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
        for value, plan in self.plans():
            if best is None or value > best[0] + 1e-9:
                best = (value, plan)
        assert best is not None
        return best

    def plans(self) -> Iterator[tuple[float, list[Action]]]:
        """Every complete plan for phases 2-4 from the current step, with its value."""
        for acc_actions, hand1, gang1, swaps_left, moved in self._accountant_options():
            for swap_actions, hand2, gang2 in self._swap_sets(hand1, gang1, swaps_left, moved):
                for brute_action, hand3, gang3, eff in self._brute_options(hand2, gang2):
                    prefix = acc_actions + swap_actions + brute_action
                    for final, value in self._finals(hand3, gang3, eff, bool(prefix)):
                        yield value, prefix + [final]

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

    def _swap_sets(self, hand: list[_Card], gang: list[_Card], swaps_left: int,
                   moved: set[int]) -> Iterator[tuple[list[Action], list[_Card], list[_Card]]]:
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
        street = self._street_cards
        for s in street:
            e = eff[s[0]]
            if e == 0:
                yield fam.TakeFree(s[0]), self._value(s, hand + [s], gang, street, None)
                continue
            need = s[4] - s[2] + e - 1  # the kind of s's family at value e - 1
            reals = [c for c in hand if c[4] == need]
            if not reals:
                continue
            joker = _M0 + e  # a Mercenary of value >= e: kind >= joker
            done = set()
            for x in reals:
                for y in hand:
                    if y[0] == x[0]:
                        continue
                    if y[4] != need and y[4] < joker:
                        continue  # neither real nor a joker
                    for to_gang, keep in ((x, y), (y, x)):
                        key = (to_gang[4], keep[4])
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
        if taken is None and self.passes >= 1:
            return self.result_if_over(hand, gang)  # our pass ends the match (D-FAM-13)
        if self.my_left == 0 and self.opp_left == 0:
            return self.result_if_over(hand, gang) + gain
        value = float(gain)
        pairs = tuple([c[4] for c in hand])
        taken_id = None if taken is None else taken[0]
        left_and_key = self._left.get(taken_id)
        if left_and_key is None:  # the street without the card taken, and its ids
            left = [c for c in street if taken is None or c[0] != taken[0]]
            left_and_key = self._left[taken_id] = (left, tuple([c[0] for c in left]))
        left, left_key = left_and_key
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

    def _quick(self, street: list[int], hand_pairs: list[int],
               hand_key: tuple[int, ...] | None = None) -> float:
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
        hand_pairs = [c[4] for c in self.hand]  # card kinds, as every street below
        hand_key = tuple(sorted(hand_pairs))
        street = [c[4] for c, _ in self.street]
        now = self._quick(street, hand_pairs, hand_key)
        deck = self.view["deck"]
        exhaustion = self.view["exhaustion"]
        me, them = self.scores[self.me], self.scores[1 - self.me]
        discard = [_CODE_KIND[d["code"]] for d in self.view["discard"]]
        best: tuple[float, int] | None = None
        tried = set()
        for c, _ in self.street:
            code = c[4]
            if code in tried:
                continue
            tried.add(code)
            v = c[2]
            rest = list(street)
            rest.remove(code)
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
                total += self._quick(rest + drawn, hand_pairs, hand_key)
            gain = total / RENEW_SAMPLES - now
            if ends:
                gain += 4.0 if me > them else -8.0
            if best is None or gain > best[0]:
                best = (gain, c[0])
        if best is not None and best[0] > RENEW_MARGIN:
            return fam.Renew(best[1])
        return None

    def _opp_on(self, street: list[int]) -> float:
        """Best VP the opponent could recruit from ``street`` (card kinds): with its hand
        unknown, the best card of value 0."""
        if self.opp_hand is None:
            return max([_KIND_VP[k] for k in street if k % 5 == 0], default=0.0)
        assert self._opp_pairs is not None  # (known exactly when opp_hand is)
        return max(0.0, self.take_vp(self._opp_pairs, street, self._opp_pairs))
