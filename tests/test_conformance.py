"""One conformance suite for every registered game (in the spirit of OpenSpiel's
``random_sim_test``): a game gets all of it by registering in ``shared.games``.

Parametrised over :data:`shared.games.DEFS` (plus the fake game of ``tests/fakegame``,
registered by a fixture), every seat count from ``min_seats`` to ``max_seats`` and a
few seeds, it plays seeded random matches (random legal actions of any seat, window
claims and passes, and now and then the table's ``timeout_action`` while a window is
open) and bot matches (the game's ``make_bot`` through :func:`shared.sim.play_match`),
and checks after every action (:class:`MatchChecker`):

* every legal action of every seat applies on the pre-action state (a seeded sample of
  at most :data:`SAMPLE_LEGAL`), and so does the table's timeout of an open window;
* a sample of illegal actions -- legal actions of other seats and earlier steps, field
  values mutated, system actions from a seat, seat actions from the table -- raise
  :class:`IllegalAction` (no other exception) and leave the state unchanged;
* ``apply`` never mutates its input (``pickle`` snapshot of the whole state, its
  ``random.Random`` included, before and after) -- this catches a field ``clone()``
  forgot to copy -- and is deterministic (applied again: same state, same events);
* every card is in exactly one zone (the game's ``zones``), and the multiset of card
  ids never changes;
* no seat's view or events (``events_for``) name a card that seat may not see
  (the game's ``wire_cards(...) <= visible_cards(state, seat, events)``), nor does a
  spectator's (seat None);
* windows: ``pending`` ⊆ ``eligible``, ids strictly increase within a match, the
  awaited seats include the pending ones, the claim and pass types belong to the game;
  within a window ``eligible`` is fixed, ``pending`` only shrinks, and a seat that
  claimed or passed is no longer pending;
* every awaited seat has a legal action; a finished match awaits nobody;
* every view, event wire form, window, score and legal action is JSON
  (``allow_nan=False``) and round-trips through ``json``; actions through
  ``ACTIONS.parse``;
* the match log ``(seat, action)`` replays to the same final state (``full_view``,
  ``zones``) and the same ``scores``.

The three ``test_suite_catches_*`` tests plant a bug (by monkeypatching) and assert the
checker fails: a ``clone()`` sharing a list, a view showing a face-down card, and a
``legal_actions`` offering an action ``apply`` refuses.

A game module provides ``zones(state)``, ``visible_cards(state, seat, events)`` and
``wire_cards(obj)`` (or a ``visibility`` submodule with the last two).
"""
from __future__ import annotations

import dataclasses
import gc
import importlib
import json
import pickle
import random
import weakref
from collections import Counter
from typing import Any, Callable, Iterator

import pytest

from shared import games as registry
from shared.bots.base import ReactionModel
from shared.gamedef import GameDef
from shared.rules import Action, Event, IllegalAction, events_for
from shared.sim import play_match, replay
from tests.fakegame import rules as fake

#: Legal actions applied per step (a seeded sample when there are more).
SAMPLE_LEGAL = 15
#: Illegal actions tried per step.
SAMPLE_ILLEGAL = 8
#: Random matches stop after this many actions (the checks still run; replays too).
MAX_RANDOM_ACTIONS = 400
#: Chance that the random player lets an open window time out.
TIMEOUT_P = 0.15
#: Chance that the random player accepts a move that ends the match (it draws again
#: otherwise, up to 8 times), so that random matches get long.
END_P = 0.05
#: Random-match seeds per seat count.
SEEDS = (1, 2, 3, 4)
#: Bot-match seeds per seat count.
BOT_SEEDS = (7, 8)
#: Actions kept as material for illegal candidates.
POOL_SIZE = 200


# -- the game's card functions ------------------------------------------------------------


def card_api(rules: Any) -> tuple[Callable | None, Callable | None, Callable | None]:
    """``(zones, visible_cards, wire_cards)`` of a rules module (None when missing); the
    last two may live in a ``visibility`` submodule."""
    zones = getattr(rules, "zones", None)
    visible = getattr(rules, "visible_cards", None)
    wire = getattr(rules, "wire_cards", None)
    if (visible is None or wire is None) and getattr(rules, "__path__", None):
        try:
            sub = importlib.import_module(f"{rules.__name__}.visibility")
        except ModuleNotFoundError:
            sub = None
        if sub is not None:
            visible = visible or getattr(sub, "visible_cards", None)
            wire = wire or getattr(sub, "wire_cards", None)
    return zones, visible, wire


def match_config(gd: GameDef, seats: int) -> dict[str, Any]:
    """A cheap config: the seat count, the fewest rounds when the game has a ``rounds``
    option, and the game's own ``extra["conformance_config"]`` if any."""
    config: dict[str, Any] = {"seats": seats}
    rounds = gd.option("rounds")
    if rounds is not None and rounds.kind == "int":
        config["rounds"] = max(1, rounds.lo)
    config.update(gd.extra.get("conformance_config", {}))
    return config


# -- small helpers --------------------------------------------------------------------------


def snapshot(state: Any) -> dict[str, bytes]:
    """Everything in ``state``, its ``random.Random`` state included: each attribute
    pickled (the whole object when it has no ``__dict__``)."""
    fields = getattr(state, "__dict__", None)
    if fields is None:
        return {"": pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)}
    return {k: pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL) for k, v in fields.items()}


def assert_unchanged(state: Any, before: dict[str, bytes], what: str) -> None:
    """``state`` still matches its :func:`snapshot` ``before``; else names the fields."""
    now = snapshot(state)
    if now != before:
        fields = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
        raise AssertionError(f"{what}: field(s) {fields} changed")


def assert_json(obj: Any, what: str) -> None:
    """``obj`` is JSON (no NaN/inf) and comes back equal from ``json``."""
    try:
        text = json.dumps(obj, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise AssertionError(f"{what} is not JSON-serialisable: {e}: {obj!r}") from None
    assert json.loads(text) == obj, f"{what} does not round-trip through JSON (tuple? non-str key?): {obj!r}"


def action_key(action: Action) -> tuple:
    """Identity of an action up to the order inside tuple fields (a Henchman's two
    slots, a Snitch's recipients, a Peek's pair name the same move in any order)."""
    values = []
    for f in dataclasses.fields(action):
        v = getattr(action, f.name)
        values.append(tuple(sorted(v, key=repr)) if isinstance(v, tuple) else v)
    return (action.TYPE, *values)


def mutations(action: Action, rng: random.Random, pool: list[Action]) -> list[Action]:
    """Variants of ``action`` with one field value changed."""
    out: list[Action] = []
    fields = dataclasses.fields(action)
    for f in fields:
        v = getattr(action, f.name)
        same = [getattr(a, f.name) for a in pool if type(a) is type(action)]
        new: list[Any] = []
        if isinstance(v, bool):
            new = [not v]
        elif isinstance(v, int):
            new = [v + 1, v - 1, rng.randrange(-1, 100)] + ([rng.choice(same)] if same else [])
        elif isinstance(v, tuple):
            if v:
                i = rng.randrange(len(v))
                if isinstance(v[i], int):
                    new.append(v[:i] + (v[i] + rng.choice((-1, 1, 7)),) + v[i + 1:])
                new.append(v[:i] + v[i + 1:])
                new.append(v + (v[i],))
            if same:
                new.append(rng.choice(same))
        elif isinstance(v, str):
            new = [v + "x"]
        for value in new:
            try:
                out.append(dataclasses.replace(action, **{f.name: value}))
            except (TypeError, ValueError):  # pragma: no cover - a validating __post_init__
                pass
    return out


# -- the checker ------------------------------------------------------------------------------


class MatchChecker:
    """Follows one match action by action (:meth:`on_apply`, the ``on_apply`` hook of
    :func:`shared.sim.play_match`) and checks every invariant of the module docstring;
    :meth:`finish` checks the replay. Raises AssertionError on the first violation."""

    def __init__(self, gd: GameDef, config: dict[str, Any], seed: int):
        self.gd, self.rules = gd, gd.rules
        self.config, self.seed = config, seed
        self.n = int(config["seats"])
        self.zones, self.visible, self.wire = card_api(self.rules)
        assert self.zones is not None, f"{gd.name} has no zones(state)"
        self.rng = random.Random(f"check/{gd.name}/{seed}")
        self.state = self.rules.new_match(config, seed)
        self.snap = snapshot(self.state)
        self.log: list[tuple[int | None, Action]] = []
        self.pool: list[Action] = []
        self._pool_keys: set[tuple] = set()
        self.max_window = 0
        self.open_window: int | None = None
        self.last_window: Any = None
        self.windows = 0
        self.cards = self._cards(self.state)
        twice = sorted(c for c, k in self.cards.items() if k > 1)
        assert not twice, f"new match: card(s) {twice} in two zones: {self.zones(self.state)}"
        self._check_state(self.state, [], None)

    # -- per action ----------------------------------------------------------------------
    def on_apply(self, state: Any, seat: int | None, action: Action, events: list[Event]) -> None:
        """``action`` by ``seat`` turned the previous state into ``state`` with ``events``."""
        pre = self.state
        step = f"step {len(self.log) + 1} ({seat}, {action})"
        assert_unchanged(pre, self.snap, f"{step}: apply mutated its input state")
        self._check_moves(pre, step)
        again, events2 = self.rules.apply(pre, seat, action)
        assert self.rules.full_view(again) == self.rules.full_view(state), f"{step}: apply is not deterministic"
        for p in self._audience():
            assert events_for(events2, p) == events_for(events, p), f"{step}: events differ when applied again"
        assert_unchanged(pre, self.snap, f"{step}: apply mutated its input state")
        self._check_answer(pre, state, seat, action, step)
        self.log.append((seat, action))
        self.state, self.snap = state, snapshot(state)
        self._check_state(state, events, step)

    def _check_answer(self, pre: Any, state: Any, seat: int | None, action: Action, step: str) -> None:
        """Within one window ``eligible`` is fixed and ``pending`` only shrinks; a seat
        that claimed or passed is no longer pending."""
        before, after = self.rules.reaction_window(pre), self.rules.reaction_window(state)
        if before is None or after is None or before.id != after.id:
            return
        assert after.eligible == before.eligible, f"{step}: window {after.id}'s eligible seats changed"
        assert after.pending <= before.pending, f"{step}: window {after.id}'s pending seats grew"
        if seat is not None and (action.TYPE == before.pass_type or action.TYPE in before.claim_types):
            assert seat not in after.pending, f"{step}: seat {seat} answered window {after.id} but is still pending"

    def _audience(self) -> list[int | None]:
        return [None, *range(self.n)]

    def _cards(self, state: Any) -> Counter:
        return Counter(c for zone in self.zones(state).values() for c in zone)

    # -- moves on the pre-action state -----------------------------------------------------
    def _check_moves(self, pre: Any, step: str) -> None:
        rules = self.rules
        legal = {p: rules.legal_actions(pre, p) for p in range(self.n)}
        for p, actions in legal.items():
            for a in actions:
                wire = a.to_dict()
                assert_json(wire, f"{step}: legal action {a} of seat {p}")
                assert not a.SYSTEM_ONLY, f"{step}: seat {p} is offered the system action {a}"
                assert rules.ACTIONS.parse(wire) == a, f"{step}: {a} does not parse back from {wire}"
        moves: list[tuple[int | None, Action]] = [(p, a) for p, actions in legal.items() for a in actions]
        window = rules.reaction_window(pre)
        if window is not None:
            moves.append((None, rules.timeout_action(window)))
        for p, a in self.rng.sample(moves, min(SAMPLE_LEGAL, len(moves))):
            try:
                rules.apply(pre, p, a)
            except IllegalAction as e:
                raise AssertionError(f"before {step}: legal action {a} of seat {p} refused by apply: "
                                     f"{e.reason}") from None
            assert_unchanged(pre, self.snap, f"before {step}: apply({p}, {a}) mutated its input state")
        for p, a in self._illegal_candidates(pre, legal, window):
            try:
                rules.apply(pre, p, a)
            except IllegalAction:
                pass
            except Exception as e:
                raise AssertionError(f"before {step}: apply({p}, {a}) raised {type(e).__name__} "
                                     f"instead of IllegalAction: {e}") from e
            else:
                raise AssertionError(f"before {step}: unlisted action {a} of seat {p} applied "
                                     f"(legal: {legal.get(p, [])})")
            assert_unchanged(pre, self.snap, f"before {step}: refused apply({p}, {a}) mutated its input state")
        for actions in legal.values():
            for a in actions:
                k = action_key(a)
                if k not in self._pool_keys:
                    self._pool_keys.add(k)
                    self.pool.append(a)
        if len(self.pool) > POOL_SIZE:
            self.rng.shuffle(self.pool)
            del self.pool[POOL_SIZE:]
            self._pool_keys = {action_key(a) for a in self.pool}

    def _illegal_candidates(self, pre: Any, legal: dict[int, list[Action]],
                            window: Any) -> Iterator[tuple[int | None, Action]]:
        rng = self.rng
        out: list[tuple[int | None, Action]] = []
        everything = [a for actions in legal.values() for a in actions]
        for p in range(self.n):
            mine = legal[p]
            keys = {action_key(a) for a in mine}
            material = list(self.pool) + [a for q in legal if q != p for a in legal[q]]
            for a in rng.sample(mine, min(5, len(mine))):
                material += mutations(a, rng, self.pool)
            for a in rng.sample(material, min(6, len(material))):
                if action_key(a) not in keys:
                    out.append((p, a))
            if window is not None:
                out.append((p, self.rules.timeout_action(window)))  # a seat may not time out
        if everything:
            out.append((None, rng.choice(everything)))  # the table plays no seat's move
        if window is not None:
            stale = self.rules.timeout_action(window)
            for f in dataclasses.fields(stale):
                if isinstance(getattr(stale, f.name), int):
                    out.append((None, dataclasses.replace(stale, **{f.name: getattr(stale, f.name) - 1})))
        if self.last_window is not None and (window is None or window.id != self.last_window.id):
            out.append((None, self.rules.timeout_action(self.last_window)))  # a closed window
        rng.shuffle(out)
        return iter(out[:SAMPLE_ILLEGAL])

    # -- the state after an action -----------------------------------------------------------
    def _check_state(self, state: Any, events: list[Event], step: str | None) -> None:
        rules, where = self.rules, step or "new match"
        # cards: each in exactly one zone, none created or lost
        cards = self._cards(state)
        assert cards == self.cards, (f"{where}: card ids changed: gained {dict(cards - self.cards)}, "
                                     f"lost {dict(self.cards - cards)} (zones {self.zones(state)})")
        # whose turn
        over = rules.is_over(state)
        awaited = rules.awaiting(state)
        legal = {p: rules.legal_actions(state, p) for p in range(self.n)}
        window = rules.reaction_window(state)
        if over:
            assert not awaited, f"{where}: a finished match awaits {set(awaited)}"
            assert not any(legal.values()), f"{where}: legal actions after the end: {legal}"
        else:
            assert awaited or window is not None, f"{where}: nobody is awaited and no window is open"
            for p in awaited:
                assert 0 <= p < self.n, f"{where}: awaiting seat {p}"
                assert legal[p], f"{where}: seat {p} is awaited but has no legal action"
        for p in range(self.n):  # the server and the simulator ask only the awaited seats
            assert p in awaited or not legal[p], f"{where}: seat {p} is not awaited but has legal actions"
        # windows
        if window is not None:
            assert window.pending <= window.eligible, \
                f"{where}: pending {set(window.pending)} ⊄ eligible {set(window.eligible)}"
            assert window.pending <= awaited, f"{where}: pending {set(window.pending)} not all awaited ({set(awaited)})"
            for t in (*window.claim_types, window.pass_type):
                assert t in rules.ACTIONS, f"{where}: window action type {t!r} is not in the game's vocabulary"
            if window.id != self.open_window:
                assert window.id > self.max_window, (f"{where}: window id {window.id} after "
                                                     f"{self.max_window}: ids must increase")
                self.max_window = window.id
                self.windows += 1
            assert_json(window.to_dict(), f"{where}: window")
            timeout = rules.timeout_action(window)
            assert timeout.SYSTEM_ONLY, f"{where}: timeout action {timeout} is not SYSTEM_ONLY"
            assert rules.ACTIONS.parse(timeout.to_dict(), from_client=False) == timeout
            assert isinstance(window.timeout_ms, int) and window.timeout_ms > 0
            self.last_window = window
        self.open_window = window.id if window is not None else None
        # what each seat and a spectator receive
        public = rules.view(state, None)
        for p in self._audience():
            who = "spectator" if p is None else f"seat {p}"
            v = rules.view(state, p)
            if self.gd.seat_keys is not None and p is not None:  # GameDef.seat_keys
                mine = {k: x for k, x in v.items() if k not in self.gd.seat_keys}
                theirs = {k: x for k, x in public.items() if k not in self.gd.seat_keys}
                differ = sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))
                assert mine == theirs, f"{where}: {who}'s view differs from the spectator's outside seat_keys: {differ}"
                if self.gd.own_view is not None:  # GameDef.own_view: the seat_keys part, exactly
                    own = self.gd.own_view(state, p)
                    expected = {k: x for k, x in v.items() if k in self.gd.seat_keys}
                    wrong = sorted(k for k in own.keys() | expected.keys()
                                   if k not in own or k not in expected or own[k] != expected[k])
                    assert own == expected, f"{where}: {who}'s own_view is not its view's seat_keys part: {wrong}"
            wire_events = events_for(events, p)
            assert_json(v, f"{where}: view of {who}")
            assert_json(wire_events, f"{where}: events of {who}")
            if self.visible is not None and self.wire is not None:
                shown = self.wire(v) | self.wire(wire_events)
                allowed = self.visible(state, p, events)
                leaked = shown - allowed
                assert not leaked, f"{where}: {who} is shown hidden card(s) {sorted(leaked)}"
        assert_json(rules.scores(state), f"{where}: scores")
        assert_json(rules.full_view(state), f"{where}: full_view")

    # -- the end -------------------------------------------------------------------------------
    def finish(self) -> None:
        """The log replays to the same final state and scores."""
        rules = self.rules
        try:
            again = replay(rules, self.config, self.seed, self.log)
        except IllegalAction as e:
            raise AssertionError(f"the match log does not replay: {e.reason}") from None
        assert rules.full_view(again) == rules.full_view(self.state), "the replay ends in another state"
        assert self.zones(again) == self.zones(self.state), "the replay ends with other zones"
        assert rules.scores(again) == rules.scores(self.state), "the replay ends with other scores"
        if rules.is_over(self.state):
            result = rules.scores(self.state)
            assert len(result["scores"]) == self.n, result
            assert set(result["winners"]) <= set(range(self.n)), result


# -- policies --------------------------------------------------------------------------------


def play_random(checker: MatchChecker, max_actions: int = MAX_RANDOM_ACTIONS) -> None:
    """Random legal actions of any seat, claims and passes included; now and then the
    table's timeout of an open window. A move that would end the match is usually
    drawn again, so that matches get long (until ``max_actions``)."""
    rules = checker.rules
    rng = random.Random(f"policy/{checker.gd.name}/{checker.seed}")
    while not rules.is_over(checker.state) and len(checker.log) < max_actions:
        state = checker.state
        window = rules.reaction_window(state)
        legal = {p: rules.legal_actions(state, p) for p in range(checker.n)}
        seats = [p for p, actions in legal.items() if actions]
        if window is not None and (not seats or rng.random() < TIMEOUT_P):
            seat, action = None, rules.timeout_action(window)
            new, events = rules.apply(state, seat, action)
        else:
            assert seats, f"step {len(checker.log) + 1}: no seat can act and no window is open"
            for attempt in range(8):
                seat = rng.choice(seats)
                by_type: dict[str, list[Action]] = {}
                for a in legal[seat]:
                    by_type.setdefault(a.TYPE, []).append(a)
                action = rng.choice(by_type[rng.choice(sorted(by_type))])
                try:
                    new, events = rules.apply(state, seat, action)
                except IllegalAction as e:
                    raise AssertionError(f"step {len(checker.log) + 1}: legal action {action} "
                                         f"of seat {seat} refused by apply: {e.reason}") from None
                if not rules.is_over(new) or rng.random() < END_P:
                    break
        checker.on_apply(new, seat, action, events)


def play_bots(checker: MatchChecker) -> None:
    """The game's own bots, through :func:`shared.sim.play_match` on virtual time."""
    gd = checker.gd
    bots = [gd.make_bot(p, random.Random(f"{checker.seed}/{p}"), ReactionModel(), 0.0)
            for p in range(checker.n)]
    try:
        record = play_match(checker.rules, checker.config, checker.seed, bots,
                            on_apply=checker.on_apply, max_applies=20_000)
    except IllegalAction as e:
        raise AssertionError(f"a bot's legal action was refused by apply: {e.reason}") from None
    assert record.log == checker.log
    assert checker.rules.is_over(record.state)


POLICIES = {"random": play_random, "bots": play_bots}


def check_match(gd: GameDef, seats: int, seed: int, policy: str = "random") -> MatchChecker:
    """Play one checked match of ``gd`` (``policy`` ``"random"`` or ``"bots"``);
    returns the checker. Raises AssertionError on the first broken invariant."""
    checker = MatchChecker(gd, match_config(gd, seats), seed)
    POLICIES[policy](checker)
    checker.finish()
    return checker


# -- parametrisation -------------------------------------------------------------------------


def _defs() -> dict[str, GameDef]:
    """The registered games, and the fake game (registered by the ``game`` fixture)."""
    return {**registry.DEFS, fake.NAME: fake.GAME}


def _every_seat_count() -> list[Any]:
    return [pytest.param(name, n, seed, id=f"{name}-{n}p-s{seed}")
            for name, gd in _defs().items()
            for n in range(gd.min_seats, gd.max_seats + 1) for seed in SEEDS]


def _bot_cases() -> list[Any]:
    return [pytest.param(name, n, seed, id=f"{name}-{n}p-s{seed}")
            for name, gd in _defs().items()
            for n in range(gd.min_seats, gd.max_seats + 1) for seed in BOT_SEEDS]


@pytest.fixture
def game(request: pytest.FixtureRequest) -> Iterator[GameDef]:
    """The GameDef called ``request.param``; the fake game is registered for the test."""
    name = request.param
    if name != fake.NAME:
        yield registry.DEFS[name]
        return
    before = registry.DEFS.get(name)
    fake.register()
    try:
        yield registry.DEFS[name]
    finally:
        if before is None:
            fake.unregister()
        else:
            registry.register(before)


@pytest.mark.parametrize("game, seats, seed", _every_seat_count(), indirect=["game"])
def test_random_matches_keep_every_invariant(game: GameDef, seats: int, seed: int) -> None:
    checker = check_match(game, seats, seed, "random")
    assert checker.log


@pytest.mark.parametrize("game, seats, seed", _bot_cases(), indirect=["game"])
def test_bot_matches_keep_every_invariant(game: GameDef, seats: int, seed: int) -> None:
    checker = check_match(game, seats, seed, "bots")
    assert game.rules.is_over(checker.state)


@pytest.mark.parametrize("game", list(_defs()), indirect=True)
def test_a_finished_bot_match_goes_without_the_collector(game: GameDef) -> None:
    """:func:`shared.sim.play_match` leaves no reference cycle behind: the record of a
    bot match -- every state and event -- goes as soon as it is dropped, with the
    collector off (cycles left for it cost a tenth of Omerta's self-play time)."""
    n = game.default_seats
    bots = [game.make_bot(p, random.Random(f"7/{p}"), ReactionModel(), 0.0) for p in range(n)]
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        record = play_match(game.rules, {"seats": n}, 7, bots, max_applies=20_000)
        assert game.rules.is_over(record.state)
        gone = weakref.ref(record)
        del record
        assert gone() is None
    finally:
        if enabled:
            gc.enable()


@pytest.mark.parametrize("game", list(_defs()), indirect=True)
def test_game_declares_its_cards(game: GameDef) -> None:
    """``zones``, ``visible_cards`` and ``wire_cards`` exist (the visibility check of the
    match tests needs the last two)."""
    zones, visible, wire = card_api(game.rules)
    assert zones is not None, f"{game.name} has no zones(state)"
    if visible is None or wire is None:
        pytest.skip(f"{game.name} has no visible_cards/wire_cards yet: its matches are "
                    f"checked without the visibility check")


@pytest.mark.parametrize("game", list(_defs()), indirect=True)
def test_declaration_is_consistent(game: GameDef) -> None:
    rules = game.rules
    assert registry.get_game(game.name) is rules
    assert rules.NAME == game.name
    assert (rules.MIN_SEATS, rules.MAX_SEATS) == (game.min_seats, game.max_seats)
    assert game.min_seats <= game.default_seats <= game.max_seats
    for n in (game.min_seats - 1, game.max_seats + 1):
        with pytest.raises(ValueError):
            rules.new_match({"seats": n}, 1)


# -- the planted bugs ------------------------------------------------------------------------
# Each test plants one bug in a game by monkeypatching and asserts the checker fails.


def _plant_shared_clone(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``clone()`` forgets to copy the discard pile (shares the list)."""
    if name == "omerta":
        from shared.games.omerta import OmertaState as cls
    else:
        cls = fake.SnapState
    original = cls.clone

    def clone(self: Any) -> Any:
        c = original(self)
        c.discard = self.discard
        return c

    monkeypatch.setattr(cls, "clone", clone)


def _plant_view_leak(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``view`` shows another seat's face-down card."""
    rules = registry.DEFS[name].rules
    original = rules.view

    def view(state: Any, seat: int | None) -> dict[str, Any]:
        v = original(state, seat)
        other = 1 if seat == 0 else 0
        if name == "omerta":
            if state.games[other]:
                from shared.games.omerta import DECK
                v["players"][other]["slots"][0]["card"] = DECK[state.games[other][0][1]].to_dict()
        elif state.hands[other]:
            v["players"][other]["hand"] = [fake.wire_card(c) for c in state.hands[other]]
        return v

    monkeypatch.setattr(rules, "view", view)


def _plant_bad_legal_action(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``legal_actions`` offers an action that ``apply`` refuses."""
    rules = registry.DEFS[name].rules
    original = rules.legal_actions
    if name == "omerta":
        from shared.games.omerta import Replace
        bogus: Action = Replace(10_000)
    else:
        bogus = fake.Claim(10_000)

    def legal_actions(state: Any, seat: int) -> list[Action]:
        out = original(state, seat)
        return out + [bogus] if out else out

    monkeypatch.setattr(rules, "legal_actions", legal_actions)


PLANTED = ["omerta", fake.NAME]


def test_suite_catches_a_seat_key_left_undeclared() -> None:
    """Omerta's view of the active seat shows its drawn card: ``drawn`` must be declared."""
    import dataclasses
    gd = registry.DEFS["omerta"]
    narrower = dataclasses.replace(gd, seat_keys=frozenset({"seat", "safe_cards"}), own_view=None)
    with pytest.raises(AssertionError, match="outside seat_keys: \\['drawn'\\]"):
        check_match(narrower, 3, 1, "random")


def test_suite_catches_an_own_view_that_is_not_the_views_seat_part() -> None:
    """``GameDef.own_view`` must give exactly the ``seat_keys`` part of the seat's view:
    one that leaves a key out, or shows the drawn card's face to every seat, is caught."""
    import dataclasses
    gd = registry.DEFS["omerta"]
    own = gd.own_view

    def without_drawn(state: Any, seat: Any) -> dict[str, Any]:
        return {k: v for k, v in own(state, seat).items() if k != "drawn"}

    with pytest.raises(AssertionError, match="own_view is not its view's seat_keys part: \\['drawn'\\]"):
        check_match(dataclasses.replace(gd, own_view=without_drawn), 3, 1, "random")

    def face_up(state: Any, seat: Any) -> dict[str, Any]:
        return own(state, state.turn)  # every seat sees what the active seat sees

    with pytest.raises(AssertionError, match="own_view is not its view's seat_keys part"):
        check_match(dataclasses.replace(gd, own_view=face_up), 3, 1, "random")


@pytest.mark.parametrize("game", PLANTED, indirect=True)
def test_suite_catches_shared_clone(game: GameDef, monkeypatch: pytest.MonkeyPatch) -> None:
    _plant_shared_clone(game.name, monkeypatch)
    with pytest.raises(AssertionError, match="mutated its input state"):
        check_match(game, game.min_seats, 1, "random")


@pytest.mark.parametrize("game", PLANTED, indirect=True)
def test_suite_catches_view_leak(game: GameDef, monkeypatch: pytest.MonkeyPatch) -> None:
    _plant_view_leak(game.name, monkeypatch)
    with pytest.raises(AssertionError, match="is shown hidden card"):
        check_match(game, game.min_seats, 1, "random")


@pytest.mark.parametrize("game", PLANTED, indirect=True)
def test_suite_catches_bad_legal_action(game: GameDef, monkeypatch: pytest.MonkeyPatch) -> None:
    _plant_bad_legal_action(game.name, monkeypatch)
    with pytest.raises(AssertionError, match="refused by apply"):
        check_match(game, game.min_seats, 1, "random")
