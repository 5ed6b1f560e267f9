"""Bots pace their turns to what the screens show (shared.showing): after a step that
shows N card moves, a thinking bot's next turn action comes no sooner than the time the
clients need to show them; a bot that does not think stays instant; claims and passes in
a reaction window are races and keep their own time. Virtual time only (task.Clock)."""
from __future__ import annotations

import dataclasses

from twisted.internet.task import Clock

from server.match.table import Table
from server.options import parse_options
from shared.bots.base import Decision
from shared.bots.driver import BotDriver
from shared.config import merge
from shared.games import get_game
from shared.games import omerta as om
from shared.games.omerta import showing
from shared.rules import events_for
from shared.showing import MAX_BACKLOG_MS, Shown, Stage, shown_ms
from tests.test_bot_driver import ScriptedBot, window


def deal(seats: int, cards_each: int = 4) -> dict:
    """A round's deal: ``seats`` x ``cards_each`` slots, then the safe's four cards."""
    slots = [[seat * cards_each + i for i in range(cards_each)] for seat in range(seats)]
    return {"type": "round_started", "round": 1, "slots": slots, "safe": 4}


def driver(clock, bot, sent, paced=True):
    return BotDriver(bot, clock.callLater, lambda d, anchor: sent.append(d.action),
                     shown=showing.shown if paced else None, now=clock.seconds)


def test_a_turn_action_waits_until_the_cards_it_follows_are_dealt():
    clock, sent = Clock(), []
    bot = ScriptedBot(Decision(om.DrawDeck(), 100))
    events = [deal(3)]  # 12 slots + 4 safe places: 16 card moves
    shown = shown_ms(events, showing.shown)
    assert shown == 15 * showing.DEAL_STAGGER_MS + showing.DEAL_MS  # the last card lands
    driver(clock, bot, sent).on_update(events, {}, [om.DrawDeck()])
    clock.advance(shown / 1000.0 - 0.001)
    assert sent == []  # thinking took 100 ms, but the deal is still on the screens
    clock.advance(0.002)
    assert sent == [om.DrawDeck()]


def test_thinking_longer_than_the_step_shows_keeps_the_think_time():
    clock, sent = Clock(), []
    bot = ScriptedBot(Decision(om.DrawDeck(), 700))
    driver(clock, bot, sent).on_update([{"type": "draw", "seat": 1, "source": "deck"}], {}, [om.DrawDeck()])
    clock.advance(0.699)
    assert sent == []
    clock.advance(0.002)
    assert sent == [om.DrawDeck()]


def test_n_card_moves_in_one_step_are_shown_one_after_the_other():
    clock, sent = Clock(), []
    swaps = [{"type": "swap", "seat": 0, "slots": [2 * i, 2 * i + 1]} for i in range(3)]  # 6 cards cross
    bot = ScriptedBot(Decision(om.DrawDeck(), 50))
    driver(clock, bot, sent).on_update(swaps, {}, [om.DrawDeck()])
    # the third swap starts when the backlog allows it, then runs in full
    expected = (min(2 * showing.SWAP_MS, MAX_BACKLOG_MS) + showing.SWAP_MS) / 1000.0
    clock.advance(expected - 0.001)
    assert sent == []
    clock.advance(0.002)
    assert sent == [om.DrawDeck()]


def test_a_bot_that_does_not_think_stays_instant():
    clock, sent = Clock(), []
    bot = ScriptedBot(Decision(om.DrawDeck(), 0))
    driver(clock, bot, sent, paced=False).on_update([deal(5)], {}, [om.DrawDeck()])
    clock.advance(0)
    assert sent == [om.DrawDeck()]


def test_claims_and_passes_in_a_window_are_races_not_paced():
    clock, sent = Clock(), []
    bot = ScriptedBot(Decision(om.Snap(3), 320, claim=True))
    d = driver(clock, bot, sent)
    d.on_update([deal(4), {"type": "discard", "seat": 1, "card": {}}], window(1), [om.Snap(3), om.SnapPass()])
    clock.advance(0.319)
    assert sent == []
    clock.advance(0.002)
    assert sent == [om.Snap(3)]  # the deal is still being shown; the snap keeps its reaction time
    sent.clear()
    bot.decisions = [Decision(om.SnapPass(), 250)]
    d.on_update([{"type": "omerta", "seat": 0}], window(2), [om.Snap(3), om.SnapPass()])
    clock.advance(0.250)
    assert sent == [om.SnapPass()]


def test_steps_released_together_all_count_but_a_later_step_does_not_delay_a_kept_action():
    clock, sent = Clock(), []
    bot = ScriptedBot(Decision(om.Peek((0, 1)), 100))
    d = driver(clock, bot, sent)
    d.on_update([{"type": "draw", "seat": 1, "source": "deck"}], {}, [om.Peek((0, 1))])
    d.on_update([{"type": "omerta", "seat": 2}], {}, [om.Peek((0, 1))])  # same instant: a batch
    expected = (showing.DRAW_MS + showing.OMERTA_MS) / 1000.0
    clock.advance(expected - 0.001)
    assert sent == []
    clock.advance(0.002)
    assert len(sent) == 1
    sent.clear()
    bot.decisions = [Decision(om.Peek((0, 1)), 100)]
    d.on_update([], {}, [om.Peek((0, 1))])
    clock.advance(0.05)
    d.on_update([{"type": "look", "seat": 2, "slots": [8, 9]}], {}, [om.Peek((0, 1))])  # another's peek
    clock.advance(0.051)
    assert len(sent) == 1  # the simultaneous peeks are not taken in turn


def test_the_stage_follows_the_client_queue_across_updates():
    stage = Stage(showing.shown)
    assert stage.show([{"type": "draw", "seat": 0}], 0.0) == showing.DRAW_MS
    # a second step 100 ms later waits in the queue behind the first
    assert stage.show([{"type": "draw", "seat": 1}], 100.0) == 2 * showing.DRAW_MS
    # a card that may open a window starts at once
    assert stage.show([{"type": "discard", "seat": 1}], 200.0) == 2 * showing.DRAW_MS
    assert Stage(lambda ev: Shown(100, 0)).show([{"type": "x"}], 5.0) == float("-inf")  # nothing drawn


# -- a whole table on virtual time -------------------------------------------------------

def bot_table(think_ms: int, seats: int = 4, seed: int = 5, paced: bool = True) -> tuple[Clock, Table]:
    """An Omerta table of bots on a task.Clock (``paced`` False: as if the game did not
    say how long its screens take)."""
    game = get_game("omerta")
    config = merge({})
    engine, settings = parse_options(game, seats, {"seed": seed, "bot_think_ms": think_ms}, config, True)
    clock = Clock()
    table = Table(1, game, "paced", engine, settings, config, clock)
    if not paced:
        table.definition = dataclasses.replace(table.definition, shown=None)
    for _ in range(seats):
        table.add_bot()
    return clock, table


def run(clock: Clock, table: Table, actions: int, step_s: float = 0.005, limit_s: float = 600.0) -> None:
    while len(table.log) < actions and clock.seconds() < limit_s and table.status == "playing":
        clock.advance(step_s)


def turn_gaps(table: Table) -> list[tuple[str, float, float]]:
    """``(action, ms since the step before, ms that step takes to show)`` of each bot
    turn action of ``table``'s log (not the reaction windows' claims and passes, nor the
    table's own time-outs, nor the simultaneous peeks: each follows the deal, not the
    peek logged before it)."""
    out = []
    for k in range(1, len(table.log)):
        before, entry = table.log[k - 1], table.log[k]
        action = entry["action"]["type"]
        if entry["seat"] is None or action.endswith("_pass") or action in ("snap", "hitwoman", "peek"):
            continue
        shown = shown_ms(events_for(table.history[k - 1], None), showing.shown)
        out.append((action, entry["t"] - before["t"], shown))
    return out


def test_at_a_thinking_table_no_turn_comes_before_the_last_step_is_shown():
    clock, table = bot_table(700)
    run(clock, table, 120)
    gaps = turn_gaps(table)
    assert len(gaps) > 60
    for action, gap, shown in gaps:
        assert gap >= max(700.0, shown) - 1e-6, (action, gap, shown)
    assert any(shown > 700.0 for _a, _g, shown in gaps)  # steps that take longer to show than to think


def test_without_pacing_the_same_table_plays_faster_than_its_screens():
    clock, table = bot_table(700, paced=False)
    run(clock, table, 120)
    assert any(gap < shown for _a, gap, shown in turn_gaps(table))  # what the pacing prevents


def test_bots_that_do_not_think_act_in_the_instant_of_the_step_before():
    clock, table = bot_table(0, seats=3)
    run(clock, table, 150)
    gaps = turn_gaps(table)
    assert len(gaps) > 60 and all(gap == 0.0 for _a, gap, _s in gaps)
