"""The acceptance test of crash-safe matches, in separate processes: four ``mafia-bot``
bots play on ``mafia-server --data-dir D``; the server is killed with SIGKILL mid-match
and started again on the same port and data directory; the bots reconnect with their
tokens and the match finishes with the result of the same seed played without a crash.
Also: a Famiglia match between a TCP bot and the server's own bot."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.test_loopback_processes import GENEROUS_CLAIM_BOUNDS, REAL_TIME, ROOT, _command, _free_port

pytestmark = REAL_TIME
SEED = 11


def config_file(tmp_path: Path) -> Path:
    # A busy 2-core machine may hold a claim back: a generous bound keeps it valid so
    # that the seed alone decides the match (see test_loopback_processes). Server and
    # bots read the same file: the server's stand-ins must react as the TCP bots do.
    path = tmp_path / "config.yaml"
    path.write_text("server:\n  reconnect_grace_s: 40\n" + GENEROUS_CLAIM_BOUNDS)
    return path


class Server:
    """``mafia-server`` in its own process; its log goes to a file. ``port`` 0: the
    server takes a free port itself (no other process can take it first), then
    ``self.port`` is that port (for a restart on the same port)."""

    def __init__(self, tmp_path: Path, port: int, data: Path, config: Path, n: int):
        self.log = tmp_path / f"server-{n}.log"
        self.proc = subprocess.Popen(
            _command("mafia-server", "server.main") + [
                "--host", "127.0.0.1", "--port", str(port), "--no-discovery", "--web-port", "0",
                "--config", str(config), "--data-dir", str(data)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=open(self.log, "wb"),
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.port = listening_port(self.proc, port, self.log)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


def listening_port(proc: subprocess.Popen, port: int, log: Path) -> int:
    """The port of ``mafia-server``'s readiness line (``port``, unless 0)."""
    line = proc.stdout.readline().decode()
    m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
    assert m and (port == 0 or int(m.group(1)) == port), (line, log.read_text())
    return int(m.group(1))


def bot(port: int, config: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        _command("mafia-bot", "botclient.main") + ["--connect", f"127.0.0.1:{port}", "--config", str(config),
                                                   *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


def result_of(proc: subprocess.Popen, timeout: float) -> tuple[dict, str]:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err.decode()
    lines = out.decode().strip().splitlines()
    assert len(lines) == 1, (lines, err.decode())
    return json.loads(lines[0]), err.decode()


def actions_in(path: Path) -> int:
    try:
        return path.read_bytes().count(b'"kind":"action"')
    except FileNotFoundError:
        return 0


def test_a_match_survives_a_server_killed_with_sigkill(tmp_path):
    config = config_file(tmp_path)
    data = tmp_path / "data"
    server = Server(tmp_path, 0, data, config, 1)
    port = server.port
    try:
        clean, err = result_of(bot(port, config, "--create", "omerta", "--players", "4", "--seed", str(SEED)), 60)
        assert clean["seed"] == SEED and len(clean["scores"]) == 4 and not err
        log = data / "matches" / f"table-2-{SEED}.jsonl"
        crashing = bot(port, config, "--create", "omerta", "--players", "4", "--seed", str(SEED))
        deadline = time.monotonic() + 60
        while actions_in(log) < 60:
            assert time.monotonic() < deadline and crashing.poll() is None, "the match did not get going"
            time.sleep(0.02)
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(10)
        killed_at = actions_in(log)
        assert b'"kind":"over"' not in log.read_bytes()
        server = Server(tmp_path, port, data, config, 2)
        after, err = result_of(crashing, 60)
        assert after == clean, (after, clean, err, (tmp_path / "server-2.log").read_text()[-3000:])
        assert err.count("reconnecting") == 4 and err.count("back at step") == 4, err
        restored = (tmp_path / "server-2.log").read_text()
        assert f"match restored at step {killed_at}" in restored or "restored at step" in restored, restored
        text = log.read_text()
        records = [json.loads(line) for line in text.splitlines()]
        assert text.endswith("\n") and [r["kind"] for r in records[-2:]] == ["over", "closed"]
        assert records[-2]["result"] == clean
        # every turn played by the TCP bots themselves, none by a stand-in on a timer
        assert "ran out of time" not in (tmp_path / "server-1.log").read_text() + restored
    finally:
        server.stop()


def test_famiglia_between_a_tcp_bot_and_the_servers_bot(tmp_path):
    config = config_file(tmp_path)
    server = Server(tmp_path, 0, tmp_path / "data", config, 1)
    port = server.port
    try:
        runs = []
        for _ in range(2):
            result, err = result_of(bot(port, config, "--create", "famiglia", "--players", "2",
                                        "--server-bots", "1", "--seed", "5"), 60)
            assert result["game"] == "famiglia" and result["seed"] == 5 and len(result["scores"]) == 2
            assert result["winners"] and set(result["winners"]) <= {0, 1}
            runs.append(result)
        assert runs[0] == runs[1]
        seats = json.loads((tmp_path / "data" / "matches" / "table-1-5.jsonl").read_text().splitlines()[0])["seats"]
        assert [s["bot"] for s in seats] == [True, False]  # seat 0 the server's, seat 1 over TCP
    finally:
        server.stop()


@pytest.mark.parametrize("restart", [False, True])
def test_mafia_bot_gives_up_when_its_seat_does_not_come_back(tmp_path, restart):
    """Killed, and either not restarted (the bot gives up after the grace period) or
    restarted without the match log (the server does not know the token). A restarted
    server may take seconds to come up on a loaded machine: there the grace is long
    enough that the bot is still trying when it listens (which Server waits for), so
    that the bot hears the server's answer rather than giving up first."""
    config = tmp_path / "config.yaml"
    config.write_text(f"server:\n  reconnect_grace_s: {60 if restart else 2}\n")
    server = Server(tmp_path, 0, tmp_path / "data", config, 1)
    port = server.port
    try:
        log = tmp_path / "data" / "matches" / "table-1-3.jsonl"
        proc = bot(port, config, "--create", "omerta", "--players", "3", "--seed", "3")
        deadline = time.monotonic() + 30
        while actions_in(log) < 10:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.02)
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(10)
        if restart:
            server = Server(tmp_path, port, tmp_path / "elsewhere", config, 2)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 1 and not out
        assert "reconnecting" in err.decode()
        reason = "no longer holds the seat" if restart else "could not get the seat back within 2 s"
        assert reason in err.decode(), err.decode()
    finally:
        server.stop()


@pytest.mark.parametrize("args", [["--server-bots", "2"], ["--server-bots", "1", "--join", "1"]])
def test_server_bots_need_a_created_table_with_a_seat_left(args):
    players = ["--players", "2"] if "--join" not in args else []
    proc = bot(_free_port(), Path(ROOT / "config.yaml"),
               *(["--create", "famiglia"] if "--join" not in args else []), *players, *args)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and b"--server-bots" in err
