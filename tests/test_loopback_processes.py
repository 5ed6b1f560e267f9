"""End to end in separate processes: ``mafia-server`` and ``mafia-bot`` over loopback TCP."""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

#: Tests whose processes or connections race each other in real time (mafia-server and
#: mafia-bot processes, Chromium phones, claims through a delaying relay) run one at a
#: time, on one pytest-xdist worker: two of them side by side starve each other's
#: processes of the two cores, and a bot's move that leaves late can change the order
#: of the moves, and so a match that the seed alone should decide.
REAL_TIME = pytest.mark.xdist_group("real_time")
pytestmark = REAL_TIME


def _command(script: str, module: str) -> list[str]:
    exe = BIN / script
    if exe.exists():
        return [str(exe)]
    found = shutil.which(script)
    return [found] if found else [sys.executable, "-m", module]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: The ``timing`` of a server whose matches the seed alone must decide: see server_port.
GENEROUS_CLAIM_BOUNDS = "timing:\n  rtt_bound_floor_ms: 5000\n  rtt_bound_cap_ms: 5000\n  rtt_wait_cap_ms: 5000\n"


@contextlib.contextmanager
def server_process(tmp_path: Path, config_text: str, *extra: str):
    """A ``mafia-server`` process on a free loopback port (it takes one itself: ``--port
    0``) with ``config_text`` (YAML) as its config and its data dir under ``tmp_path``;
    yields the port once it listens, terminates it after."""
    config = tmp_path / "server.yaml"
    config.write_text(config_text)
    proc = subprocess.Popen(
        _command("mafia-server", "server.main") + ["--host", "127.0.0.1", "--port", "0",
                                                   "--no-discovery", "--web-port", "0", "--config", str(config),
                                                   "--data-dir", str(tmp_path / "data"), *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=open(tmp_path / "server.log", "wb"),
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = proc.stdout.readline().decode()
        m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert m, (line, (tmp_path / "server.log").read_text())
        yield int(m.group(1))
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture
def server_port(tmp_path):
    # The machine may be busy (2 shared cores, a parallel run beside): a bot's claim may
    # leave its process late, by a second or more. A generous claim bound keeps such a
    # claim valid, and a generous wait lets the collection take it in, so that the seed
    # alone decides the match (a wait costs nothing once every seat has answered); the
    # bounds themselves are tested in test_arbiter/test_table.
    with server_process(tmp_path, GENEROUS_CLAIM_BOUNDS + "  human_floor_ms: 20\n") as port:
        yield port


@pytest.fixture
def fast_bots(tmp_path):
    """A config whose bots react in tens of milliseconds (more races, shorter test)."""
    path = tmp_path / "fast.yaml"
    path.write_text("bots:\n  reaction_median_ms: 60\n  reaction_floor_ms: 25\n  reaction_cap_ms: 150\n")
    return str(path)


def _bot(port: int, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        _command("mafia-bot", "botclient.main") + ["--connect", f"127.0.0.1:{port}", *args],
        cwd=ROOT, capture_output=True, timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT)})


# Known flake, open: about 1 run in 15 with two CPU hogs (and more often beside the other
# xdist worker), the two seeded matches differ from the first round on. Real-time races
# between bot processes still depend on scheduling somewhere; until that is found, a
# failure is retried once, and the retry is reported in pytest's summary (R).
@pytest.mark.flaky(reruns=1)
def test_bots_play_a_match_over_tcp_and_the_seed_fixes_the_result(server_port, fast_bots, tmp_path):
    runs = []
    for _ in range(2):
        done = _bot(server_port, "--create", "omerta", "--players", "4", "--seed", "7",
                    "--config", fast_bots)
        assert done.returncode == 0, done.stderr.decode()
        lines = done.stdout.decode().strip().splitlines()
        assert len(lines) == 1, lines
        result = json.loads(lines[0])
        assert result["game"] == "omerta" and result["seed"] == 7
        assert result["rounds"] == 4 and len(result["scores"]) == 4
        assert result["winners"] and all(0 <= w < 4 for w in result["winners"])
        assert min(result["scores"]) == min(result["scores"][w] for w in result["winners"])
        runs.append(result)
    assert runs[0] == runs[1]
    # the bots played every turn themselves: no turn timer ran out for them
    assert "ran out of time" not in (tmp_path / "server.log").read_text()


def test_bot_reports_a_server_it_cannot_reach():
    done = _bot(_free_port(), "--create", "omerta", "--players", "3", "--retry-s", "1.2", timeout=30)
    assert done.returncode != 0
    assert b"trying again" in done.stderr  # setup asks again before it gives up
    assert b"cannot connect" in done.stderr and not done.stdout


def test_bots_fill_the_free_seats_of_an_existing_table(server_port, fast_bots):
    with socket.create_connection(("127.0.0.1", server_port), timeout=10) as sock:
        stream = sock.makefile("rwb")

        def request(seq: int, **msg) -> dict:
            stream.write(json.dumps({"seq": seq, **msg}).encode() + b"\n")
            stream.flush()
            while True:
                reply = json.loads(stream.readline())
                if reply.get("re") == seq:
                    return reply

        request(1, type="hello", name="host")
        table = request(2, type="create_table", game="omerta", seats=4,
                        options={"seed": 3, "bot_think_ms": 0, "rounds": 1})["table"]["id"]
        assert request(3, type="add_bot", table=table)["type"] == "table"
        done = _bot(server_port, "--join", str(table), "--config", fast_bots)
    assert done.returncode == 0, done.stderr.decode()
    result = json.loads(done.stdout)
    assert result["seed"] == 3 and result["rounds"] == 1 and len(result["scores"]) == 4
