"""The turn timer (table option ``turn_timer_s``): the seat on the clock and its deadline
in ``match_started``/``update``; when a turn runs out the seat's bot plays the rest of
it, then the player has the next turn again; windows keep their own timeout."""
from __future__ import annotations

from twisted.internet import task

from server.match.table import Table
from server.options import parse_options
from shared.config import merge
from shared.games import get_game
from tests.test_table import FakeConn, snap_window_table

FAMIGLIA = get_game("famiglia")


def advance(clock, seconds):
    for _ in range(int(round(seconds / 0.05))):
        clock.advance(0.05)


def famiglia_table(clock, **options):
    config = merge(None)
    engine, s = parse_options(FAMIGLIA, 2, {"seed": 3, "first_player": 0, "bot_think_ms": 100, **options},
                              config, testing=True)
    return Table(1, FAMIGLIA, "t", engine, s, config, clock)


def test_a_turn_that_runs_out_is_played_by_the_seats_bot_then_the_player_plays_again():
    clock = task.Clock()
    clock.advance(100)
    table = famiglia_table(clock, turn_timer_s=10)
    ann = FakeConn("ann")
    table.join(ann)
    table.add_bot()
    start = ann.of("match_started")[-1]
    assert start["timer"] == {"seat": 0, "deadline": 110_000.0}
    clock.advance(9.9)
    assert not table.log and table.seats[0].driver is None
    clock.advance(0.2)  # the time is up: the bot plays ann's turn, to its end
    assert table.seats[0].stand_in == "timer"
    advance(clock, 5)
    mine = [e for e in table.log if e["seat"] == 0]
    assert mine and mine[-1]["action"]["type"] in ("take_free", "take_pair", "pass")
    assert table.seats[0].driver is None  # her turn is over: the bot is gone
    # the bot seat played its turn; ann's next turn is on a fresh clock
    assert table.game.awaiting(table.state) == {0}
    last = ann.of("update")[-1]
    assert last["timer"]["seat"] == 0 and last["timer"]["deadline"] > 110_000.0
    assert last["timer"]["deadline"] == table.turn_timer.deadline
    table.act(ann, {"type": "pass"})  # ann plays herself in time: nobody takes over
    assert ann.of("update")[-1]["timer"]["seat"] == 1
    advance(clock, 1)
    assert table.game.awaiting(table.state) == {0} and table.seats[0].driver is None


def test_without_a_turn_timer_the_match_waits_and_timer_is_null():
    clock = task.Clock()
    table = famiglia_table(clock)
    ann = FakeConn("ann")
    table.join(ann)
    table.add_bot()
    assert ann.of("match_started")[-1]["timer"] is None
    clock.advance(600)
    assert not table.log and table.seats[0].driver is None


def test_a_window_keeps_its_own_timeout_and_the_next_turn_gets_a_fresh_clock():
    clock, table, (a, b, c) = snap_window_table()
    table.turn_timer.seconds = 1.0  # as if created with turn_timer_s: 1
    table.turn_timer.track(None, 0)
    table._track_turn(table.now_ms(), table.game.view(table.state, None))
    assert table.turn_timer.key is None  # a window is open: no turn on the clock
    clock.advance(2.9)
    assert table.window is not None and all(s.driver is None for s in table.seats)
    clock.advance(0.2)  # the window times out; seat 0 has the turn now
    assert table.window is None and table.log[-1]["seat"] is None
    assert a.of("update")[-1]["timer"] == {"seat": 0, "deadline": table.now_ms() + 1000}
    clock.advance(1.01)
    assert table.seats[0].stand_in == "timer" or any(e["seat"] == 0 for e in table.log[-3:])
