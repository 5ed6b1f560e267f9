"""Bot levels (docs/PROTOCOL.md "Bot levels"): ``add_bot``'s ``level`` over the real
protocol, and the easy and hard bots of every game -- legal moves only, and the same
match from the same seed."""
from __future__ import annotations

import pytest

from server.match.standins import StandIns
from shared import games as registry
from shared.bots import LEVELS, make_bot
from shared.bots.levels import EasyBot
from shared.sim import play_match
from tests.test_host_controls import host_table, last_table, make_lobby

#: every game at a small table, with its shortest match
GAMES = {
    "omerta": {"seats": 3, "rounds": 1},
    "famiglia": {"seats": 2},
    "family_business": {"seats": 3},
    "mafiosi": {"seats": 3},
}


# -- over the protocol --------------------------------------------------------------------
def test_add_bot_level_names_the_seat_and_plays_at_it():
    lobby = make_lobby()
    ann, tid, _ = host_table(lobby, seats=4)
    ann.request("add_bot", table=tid, level="hard")
    ann.request("add_bot", table=tid, level="easy")
    ann.request("add_bot", table=tid)
    names = [s["name"] for s in last_table(ann)["seats"]]
    assert names[1:] == ["Bot 2 (hard)", "Bot 3 (easy)", "Bot 4"]
    assert [s.get("level") for s in last_table(ann)["seats"]] == [None, "hard", "easy", "normal"]  # a player has none
    table = lobby.tables[tid]
    assert [s.level for s in table.seats[1:]] == ["hard", "easy", "normal"]
    stand_ins: StandIns = table.stand_ins
    assert isinstance(stand_ins.make_bot(2), EasyBot)
    assert stand_ins.make_bot(1).level == "hard"


@pytest.mark.parametrize("level", ["expert", "", "HARD"])
def test_add_bot_refuses_an_unknown_level(level):
    lobby = make_lobby()
    ann, tid, _ = host_table(lobby)
    reply = ann.request("add_bot", table=tid, level=level)
    assert reply["type"] == "error" and reply["code"] == "bad_option"
    assert "easy, normal, hard" in reply["message"]
    assert all(not s["bot"] for s in last_table(ann)["seats"][1:])


def test_add_bot_level_must_be_a_string():
    lobby = make_lobby()
    ann, tid, _ = host_table(lobby)
    reply = ann.request("add_bot", table=tid, level=3)
    assert reply["type"] == "error" and reply["code"] == "bad_message"


def test_make_bot_refuses_an_unknown_level():
    with pytest.raises(ValueError):
        make_bot("omerta", 0, "s", level="expert")


# -- easy and hard bots -------------------------------------------------------------------
def _match(game: str, seed: int, levels: list[str]):
    config = GAMES[game]
    bots = [make_bot(game, p, f"{seed}/{p}", {"think_ms": 0}, level=levels[p % len(levels)])
            for p in range(config["seats"])]
    rules = registry.game_def(game).rules
    return play_match(rules, config, seed, bots)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_easy_and_hard_bots_play_legal_moves_to_the_end(game, seed, light_search):
    """Every action applied (``play_match`` raises on an illegal one) and the match ends."""
    rules = registry.game_def(game).rules
    levels = ["easy", "hard", "normal"][seed % 3:] + ["easy", "hard", "normal"][:seed % 3]
    rec = _match(game, seed, levels)
    assert rules.is_over(rec.state)
    assert rec.log


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_seed_same_match_with_easy_and_hard_bots(game, light_search):
    a = _match(game, 7, ["easy", "hard"])
    b = _match(game, 7, ["easy", "hard"])
    assert a.log == b.log


def test_levels_are_the_three():
    assert LEVELS == ("easy", "normal", "hard")


def test_easy_omerta_forgets_and_hard_remembers():
    """Omerta's easy bot drops a peeked card from memory a few turns later; the hard
    bot keeps it for the round."""
    from shared.games.omerta.bot import EASY_MEMORY_TURNS
    seen = {}
    for level in ("easy", "hard"):
        bot = make_bot("omerta", 0, "s", level=level)
        inner = bot.inner if isinstance(bot, EasyBot) else bot
        view = {"players": [{"seat": 0, "slots": [{"slot": 5}]}], "turn_no": 0}
        bot.observe([{"type": "look", "seat": 0, "reason": "peek", "slots": [5],
                      "cards": [{"points": 3}]}], view)
        assert 5 in inner.known
        bot.observe([], {**view, "turn_no": EASY_MEMORY_TURNS + 3})
        seen[level] = 5 in inner.known
    assert seen == {"easy": False, "hard": True}


def test_a_bots_level_comes_back_with_a_restored_waiting_table(tmp_path):
    from tests.test_join_key import lobby_at
    from tests.test_waiting_tables import half_full
    first = lobby_at(tmp_path)
    clients, tid = half_full(first, seats=3, joined=1, start="host")
    clients[0].request("add_bot", table=tid, level="hard")
    second = lobby_at(tmp_path, start=5000.0)
    (table,) = second.restore()
    assert table.seats[1].bot and table.seats[1].level == "hard"
    assert table.seats[1].name == "Bot 2 (hard)"
    assert table.stand_ins.make_bot(1).level == "hard"


def _benchmark():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bot_levels.py"
    spec = importlib.util.spec_from_file_location("bot_levels_bench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_fails_when_it_measured_nothing():
    with pytest.raises(SystemExit) as e:
        _benchmark().main(["--pairs", "0", "--games", "famiglia"])
    assert e.value.code not in (0, None)


def test_the_benchmark_reports_null_for_a_game_without_a_hard_bot(capsys):
    out = _benchmark().main(["--pairs", "1", "--games", "family_business"])
    assert out["family_business"]["hard_vs_normal_delta"] is None
    assert out["family_business"]["reactor_stall_ms_max"] is None
    assert isinstance(out["family_business"]["normal_vs_easy_delta"], float)
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("{")


def test_a_bots_level_stays_for_the_rematch_and_is_in_the_match_log(tmp_path):
    from shared import matchlog
    from tests.test_protocol import Client
    from tests.test_rematch import make_lobby as rematch_lobby
    lobby = rematch_lobby(tmp_path)
    ann = Client(lobby, "ann")
    tid = ann.request("create_table", game="omerta", seats=3, options={
        "bot_think_ms": 0, "rounds": 1})["table"]["id"]
    ann.request("join", table=tid)
    ann.request("add_bot", table=tid, level="easy")
    ann.request("add_bot", table=tid)
    old = lobby.tables[tid]
    lobby.clock.advance(0)  # the log's header, then the deal
    header = matchlog.parse(old.matchfile.path.read_bytes()).header
    assert [s.get("level") for s in header["seats"]] == [None, "easy", None]
    ann.request("leave", table=tid)  # a stand-in finishes the match for her
    while old.status == "playing" and not old.closed:
        lobby.clock.advance(0.05)
    token = old.seats[0].token
    assert ann.request("reconnect", token=token)["type"] == "joined"
    summary = ann.request("rematch", table=tid)["table"]
    new = lobby.tables[tid]
    assert new is not old and summary["seats"][1]["name"] == "Bot 2 (easy)"
    assert [s.level for s in new.seats] == ["normal", "easy", "normal"]
