"""BotDriver: one scheduler-agnostic loop for in-process and TCP bots."""
from __future__ import annotations

from twisted.internet.task import Clock

from shared.bots.base import Decision
from shared.bots.driver import BotDriver, window_of
from shared.games import omerta as om


class ScriptedBot:
    """Answers each decide() with the next scripted decision."""

    seat = 0

    def __init__(self, *decisions):
        self.decisions = list(decisions)
        self.seen = []

    def observe(self, events, view):
        self.seen.append(events)

    def decide(self, view, legal):
        return self.decisions.pop(0) if self.decisions else None


def window(wid):
    return {"window": {"window": wid, "kind": "snap"}}


def test_pending_decision_fires_after_its_delay_with_its_anchor():
    clock, sent = Clock(), []
    bot = ScriptedBot(Decision(om.Snap(3), 400, claim=True))
    driver = BotDriver(bot, clock.callLater, lambda d, anchor: sent.append((d.action, anchor)))
    driver.on_update([], window(1), [om.Snap(3), om.SnapPass()], anchor=1000.0)
    clock.advance(0.399)
    assert sent == []
    clock.advance(0.002)
    assert sent == [(om.Snap(3), 1000.0)]


def test_a_claim_keeps_its_time_within_its_window_but_not_into_the_next():
    clock, sent = Clock(), []
    bot = ScriptedBot(Decision(om.Snap(3), 400, claim=True), Decision(om.SnapPass(), 50))
    driver = BotDriver(bot, clock.callLater, lambda d, anchor: sent.append((d.action, anchor)))
    legal = [om.Snap(3), om.SnapPass()]
    driver.on_update([], window(1), legal, anchor=0.0)
    clock.advance(0.2)
    driver.on_update([{"type": "snap"}], window(1), legal, anchor=200.0)  # someone else's wrong snap
    clock.advance(0.25)
    assert sent == [(om.Snap(3), 0.0)]  # planned at the opening, fired at 400 ms
    sent.clear()
    bot.decisions = [Decision(om.Snap(3), 400, claim=True), Decision(om.SnapPass(), 50)]
    driver.on_update([], window(2), legal, anchor=1000.0)
    clock.advance(0.1)
    driver.on_update([], window(3), legal, anchor=1100.0)  # a new window, same legal actions
    clock.advance(1.0)
    assert sent == [(om.SnapPass(), 1100.0)]  # the snap planned for window 2 never fired


def test_stop_cancels_and_no_legal_means_no_decision():
    clock, sent = Clock(), []
    bot = ScriptedBot(Decision(om.DrawDeck(), 10))
    driver = BotDriver(bot, clock.callLater, lambda d, anchor: sent.append(d))
    driver.on_update([], {}, [], anchor=0)
    assert bot.decisions  # not asked: nothing legal
    driver.on_update([], {}, [om.DrawDeck()], anchor=0)
    driver.stop()
    clock.advance(1)
    assert sent == [] and window_of({}) is None and window_of(window(7)) == 7
