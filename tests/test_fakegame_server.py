"""A new game is one folder per layer: the fake game of ``tests/fakegame``, registered
at run time, is played by bots through a real server over TCP on loopback -- with the
server and the bot program (``mafia-bot``) unchanged, neither naming the game.

The server runs in this process (``server.app.start_server`` on 127.0.0.1, port 0, as in
``tests/test_loopback.py``); the bots are ``mafia-bot``'s own :func:`play` (one TCP
connection per seat, :class:`shared.bots.driver.BotDriver`), with one seat filled by
the server's in-process bot (``--server-bots 1``). The match must end with a result, and
the table's log must replay to the same scores. Bots react in 100-160 ms (their
config) so that the match takes a few seconds.
"""
from __future__ import annotations

import importlib
import json
from typing import Any, Iterator

import pytest
import pytest_twisted

from server.app import start_server
from shared.config import merge
from shared.sim import replay
from tests.fakegame import rules as fake


def _bot_program() -> Any:
    """The module of ``mafia-bot``."""
    return importlib.import_module("botclient.main")


@pytest.fixture
def fake_game() -> Iterator[Any]:
    """Fake Snap registered in ``shared.games`` for the test."""
    from shared import games as registry
    before = registry.DEFS.get(fake.NAME)
    definition = fake.register()
    try:
        yield definition
    finally:
        if before is None:
            fake.unregister()
        else:
            registry.register(before)


@pytest_twisted.inlineCallbacks
def test_fake_game_bot_match_over_tcp(tmp_path, fake_game):
    from twisted.internet import reactor

    bots = _bot_program()
    # quick bots, yet slower than the arbiter's human floor (timing.human_floor_ms, 80 ms)
    fast = {"reaction_median_ms": 120, "reaction_floor_ms": 100, "reaction_cap_ms": 160, "think_ms": 0}
    config = merge({"server": {"host": "127.0.0.1", "port": 0, "data_dir": str(tmp_path)},
                    "bots": fast})
    bot_config = tmp_path / "bots.yaml"
    bot_config.write_text(json.dumps({"bots": fast}), encoding="utf-8")  # JSON is YAML
    server = yield start_server(reactor, config, testing=True, discovery=False)
    try:
        args = bots.parse_args(["--connect", f"127.0.0.1:{server.port}", "--create", fake.NAME,
                                "--players", "3", "--server-bots", "1", "--seed", "11",
                                "--timeout", "60", "--config", str(bot_config)])
        result = yield bots.play(reactor, args)
        assert result["game"] == fake.NAME, result
        assert result["seed"] == 11, result
        assert len(result["scores"]) == 3, result
        assert result["winners"] and set(result["winners"]) <= {0, 1, 2}, result
        best = max(result["scores"])
        assert result["winners"] == [p for p in range(3) if result["scores"][p] == best], result

        (table,) = [t for t in server.lobby.tables.values() if t.game is fake]
        assert fake.is_over(table.state)
        log = [(entry["seat"], fake.ACTIONS.parse(entry["action"], from_client=False))
               for entry in table.log]
        kinds = {action.TYPE for _, action in log}
        # (on a loaded machine a late claim may be refused and a window time out instead)
        assert "flip" in kinds and kinds & {"fake_snap_claim", "fake_snap_pass", "window_timeout"}, kinds
        again = replay(fake, table.engine_config, table.seed, log)
        assert fake.scores(again)["scores"] == result["scores"]
        assert fake.full_view(again) == fake.full_view(table.state)
    finally:
        yield server.stop()
