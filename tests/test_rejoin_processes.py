"""A guest whose client is killed mid-match takes his seat back through the menu's Rejoin
entry, in each game, with real processes (``mafia-server``, server bots, the guest's
``mafia-table`` under ``SDL_VIDEODRIVER=dummy`` driven by input events).

The wall-clock bar (back within 5 s of his menu appearing) is measured by
``python -m tools.rejoin_games``; this test proves the seat comes back at all."""
from __future__ import annotations

import pytest

from tools.rejoin_games import GAMES, kill_and_rejoin, server_process


@pytest.mark.parametrize("game", GAMES)
def test_a_guest_killed_mid_match_rejoins_from_his_menu(game, tmp_path, record_property):
    with server_process(tmp_path) as port:
        took = kill_and_rejoin(game, port, tmp_path)
    record_property("rejoin_s", round(took, 2))
