"""BotDriver with bots whose decisions need a search (shared.bots.search.Think): the search
is asked for through ``think`` and its answer planned when it comes back -- dropped after a
newer update, its time counted in the bot's delay, the fallback played when it fails."""
from __future__ import annotations

from twisted.internet import defer
from twisted.internet.task import Clock

from shared.bots.base import Decision
from shared.bots.driver import BotDriver
from shared.bots.search import ECHO, Think, resolve, run
from shared.games import omerta as om


class ThinkingBot:
    """Answers every decide() with a Think whose search echoes the next scripted action;
    its fallback is ``fallback``; every decision waits ``delay_ms``."""

    seat = 0

    def __init__(self, *answers, delay_ms=700.0, fallback=om.DrawDeck()):
        self.answers = list(answers)
        self.delay_ms = delay_ms
        self.fallback = fallback
        self.asked = 0

    def observe(self, events, view):
        pass

    def decide(self, view, legal):
        self.asked += 1
        answer = self.answers.pop(0).to_dict() if self.answers else None
        return Think({"game": ECHO, "answer": answer, "budget_ms": 200},
                     Decision(self.fallback, self.delay_ms),
                     lambda result: Decision(om.ACTIONS.parse(result), self.delay_ms))


class Searches:
    """A fake worker pool: every request waits in ``asked`` until the test answers it."""

    def __init__(self):
        self.asked: list[tuple[dict, defer.Deferred]] = []

    def __call__(self, request):
        d = defer.Deferred()
        self.asked.append((request, d))
        return d

    def answer(self, k=-1):
        request, d = self.asked[k]
        d.callback(run(request))

    def fail(self, k=-1, why=TimeoutError("over its budget")):
        self.asked[k][1].errback(why)


def driver_for(bot, clock, searches, sent):
    return BotDriver(bot, clock.callLater, lambda d, anchor: sent.append((d.action, anchor)),
                     now=clock.seconds, think=searches)


LEGAL = [om.DrawDeck(), om.TakeDiscard()]


def test_a_search_answer_is_planned_with_its_delay_shortened_by_the_search_time():
    clock, searches, sent = Clock(), Searches(), []
    driver = driver_for(ThinkingBot(om.TakeDiscard()), clock, searches, sent)
    driver.on_update([], {}, LEGAL, anchor=1.0)
    assert len(searches.asked) == 1 and sent == []
    clock.advance(0.3)  # the search took 300 ms
    searches.answer()
    clock.advance(0.399)
    assert sent == []
    clock.advance(0.002)  # 700 ms after the update, not 1000
    assert sent == [(om.TakeDiscard(), 1.0)]


def test_a_search_longer_than_the_delay_plays_at_once():
    clock, searches, sent = Clock(), Searches(), []
    driver = driver_for(ThinkingBot(om.TakeDiscard()), clock, searches, sent)
    driver.on_update([], {}, LEGAL)
    clock.advance(0.9)
    searches.answer()
    clock.advance(0)
    assert sent == [(om.TakeDiscard(), None)]


def test_an_answer_after_a_newer_update_is_dropped_and_the_bot_decides_again():
    clock, searches, sent = Clock(), Searches(), []
    bot = ThinkingBot(om.TakeDiscard(), om.DrawDeck())
    driver = driver_for(bot, clock, searches, sent)
    driver.on_update([], {}, LEGAL, anchor="first")
    clock.advance(0.1)
    driver.on_update([{"type": "peek"}], {}, LEGAL, anchor="second")  # another seat moved
    assert bot.asked == 2 and len(searches.asked) == 2
    searches.answer(0)  # the first search's answer comes late
    clock.advance(5)
    assert sent == []
    searches.answer(1)
    clock.advance(5)
    assert sent == [(om.DrawDeck(), "second")]


def test_an_answer_after_the_seat_has_nothing_to_do_is_dropped():
    clock, searches, sent = Clock(), Searches(), []
    driver = driver_for(ThinkingBot(om.TakeDiscard()), clock, searches, sent)
    driver.on_update([], {}, LEGAL)
    driver.on_update([], {}, [])  # the turn passed (a timer, a stand-in's player came back)
    searches.answer()
    clock.advance(5)
    assert sent == []


def test_a_stopped_driver_drops_the_answer():
    clock, searches, sent = Clock(), Searches(), []
    driver = driver_for(ThinkingBot(om.TakeDiscard()), clock, searches, sent)
    driver.on_update([], {}, LEGAL)
    driver.stop()
    searches.answer()
    clock.advance(5)
    assert sent == []


def test_a_failed_or_timed_out_search_plays_the_fallback():
    for fail in (lambda s: s.fail(), lambda s: s.fail(why=RuntimeError("the worker died"))):
        clock, searches, sent = Clock(), Searches(), []
        driver = driver_for(ThinkingBot(om.TakeDiscard(), fallback=om.DrawDeck()), clock, searches, sent)
        driver.on_update([], {}, LEGAL)
        clock.advance(0.2)
        fail(searches)
        clock.advance(0.499)
        assert sent == []
        clock.advance(0.002)
        assert sent == [(om.DrawDeck(), None)]


def test_an_answer_finish_cannot_read_plays_the_fallback():
    clock, searches, sent = Clock(), Searches(), []
    driver = driver_for(ThinkingBot(fallback=om.DrawDeck()), clock, searches, sent)  # answers None
    driver.on_update([], {}, LEGAL)
    searches.answer()
    clock.advance(1)
    assert sent == [(om.DrawDeck(), None)]


def test_without_think_the_search_runs_here():
    clock, sent = Clock(), []
    bot = ThinkingBot(om.TakeDiscard(), delay_ms=50)
    driver = BotDriver(bot, clock.callLater, lambda d, anchor: sent.append((d.action, anchor)))
    driver.on_update([], {}, LEGAL, anchor=3)
    clock.advance(0.05)
    assert sent == [(om.TakeDiscard(), 3)]
    assert resolve(None) is None and resolve(Decision(om.DrawDeck(), 1)).action == om.DrawDeck()


# -- the server's bots ----------------------------------------------------------------------
class FakeThinkers:
    """server.thinkers.Thinkers as a table sees it: searches wait in ``asked``."""

    def __init__(self):
        self.asked: list[tuple[dict, defer.Deferred]] = []
        self.warmed = 0

    def think(self, request):
        d = defer.Deferred()
        self.asked.append((request, d))
        return d

    def warm(self):
        self.warmed += 1


class Searching:
    """Wraps a game's bot: each of its decisions becomes a Think whose search echoes it."""

    def __init__(self, inner, rules):
        self.inner, self.rules, self.seat = inner, rules, inner.seat

    def observe(self, events, view):
        self.inner.observe(events, view)

    def decide(self, view, legal):
        d = self.inner.decide(view, legal)
        if d is None:
            return None
        return Think({"game": ECHO, "answer": d.action.to_dict(), "budget_ms": 100}, d,
                     lambda result: Decision(self.rules.ACTIONS.parse(result), d.delay_ms, d.claim))


def test_the_servers_hard_bots_search_in_the_pool_and_the_table_goes_on_meanwhile(monkeypatch):
    from server.match import standins
    from tests.test_host_controls import host_table, make_lobby

    made = standins.make_bot

    def searching(game, seat, **kw):
        bot = made(game, seat, **kw)
        return Searching(bot, om) if kw.get("level") == "hard" else bot

    monkeypatch.setattr(standins, "make_bot", searching)
    lobby = make_lobby()
    pool = lobby.thinkers = FakeThinkers()
    ann, tid, _ = host_table(lobby, seats=3)
    ann.request("add_bot", table=tid, level="hard")
    ann.request("add_bot", table=tid, level="hard")
    ann.request("start", table=tid)
    table = lobby.tables[tid]
    lobby.clock.advance(0)
    assert pool.warmed >= 2 and table.status == "playing"
    lobby.clock.advance(5)
    assert table.actions == []  # the bots wait for their searches; nothing blocked
    answered = 0
    for _ in range(200):  # answer every search as it comes; the match moves on its answers
        while answered < len(pool.asked):
            request, d = pool.asked[answered]
            answered += 1
            if not d.called:
                d.callback(run(request))
        if {seat for seat, _ in table.actions} >= {1, 2}:
            break
        lobby.clock.advance(0.1)
    assert {seat for seat, _ in table.actions} == {1, 2}  # the bots' peeks, through the pool
    assert answered == len(pool.asked) >= 2


def test_a_newer_update_cancels_the_search_under_way():
    clock, searches, sent = Clock(), Searches(), []
    driver = driver_for(ThinkingBot(om.TakeDiscard(), om.DrawDeck()), clock, searches, sent)
    driver.on_update([], {}, LEGAL)
    driver.on_update([{"type": "peek"}], {}, LEGAL)
    assert searches.asked[0][1].called and not searches.asked[1][1].called  # cancelled, asked again
    driver.stop()
    assert searches.asked[1][1].called
    clock.advance(5)
    assert sent == []
