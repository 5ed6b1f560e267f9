"""Tests, benchmarks and tools never write into the player's own data directory (issue 13:
match logs go to ``platformdirs.user_data_dir("mafia-table")/matches`` by default, the
player's replay folder).

The guard itself is ``tests/conftest.py``'s autouse fixture: each test fails when the
real data or config directory changed while it ran. Here: the guard notices a planted
write, the test session and the benchmark/tool scripts run in private directories, and
a real server started with the default data directory logs its match in the sandbox.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import platformdirs

from server import persist

ROOT = Path(__file__).resolve().parent.parent
#: tests/conftest.py as pytest loaded it (importing it again would make a second sandbox)
conftest = next(m for m in list(sys.modules.values())
                if getattr(m, "__file__", None) == str(ROOT / "tests" / "conftest.py"))


def test_guard_notices_a_new_match_log_and_a_rewritten_settings_file(tmp_path):
    home = tmp_path / "mafia-table"
    (home / "matches").mkdir(parents=True)
    (home / "settings.json").write_text("{}")
    before = conftest.dir_snapshot([str(home)])
    assert conftest.changed(before, conftest.dir_snapshot([str(home)])) == []
    (home / "matches" / "table-1-7.jsonl").write_text("{}\n")
    assert conftest.changed(before, conftest.dir_snapshot([str(home)])) == [str(home / "matches")]
    before = conftest.dir_snapshot([str(home)])
    os.utime(home / "settings.json", ns=(1, 1))  # rewritten in place: its directory's mtime stays
    assert conftest.changed(before, conftest.dir_snapshot([str(home)])) == [str(home / "settings.json")]


def test_guard_notices_the_directory_appearing(tmp_path):
    root = tmp_path / "mafia-table"
    before = conftest.dir_snapshot([str(root)])
    (root / "matches").mkdir(parents=True)
    assert str(root) in conftest.changed(before, conftest.dir_snapshot([str(root)]))


def test_session_uses_private_directories():
    for real in conftest.REAL_DIRS:
        for mine in (platformdirs.user_data_dir("mafia-table"), platformdirs.user_config_dir("mafia-table"),
                     str(persist.data_dir(""))):
            assert not mine.startswith(real), (mine, real)
    assert str(persist.data_dir("")).startswith(os.environ["MAFIA_TABLE_SANDBOX"])


def test_tools_sandbox_moves_a_script_out_of_the_players_home(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "MAFIA_TABLE_"))}
    env["HOME"] = str(tmp_path / "home")
    code = ("import sys; sys.path.insert(0, %r); import tools.sandbox, platformdirs, os; "
            "print(platformdirs.user_data_dir('mafia-table')); print(os.path.isdir(tools.sandbox.ROOT))") % str(ROOT)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    data_dir, exists = out.stdout.split()
    assert exists == "True"
    assert not data_dir.startswith(str(tmp_path / "home")), data_dir
    # ... and removed at exit: nothing is left behind in /tmp either
    assert not os.path.exists(os.path.dirname(os.path.dirname(data_dir)))


def test_every_benchmark_and_tool_script_uses_the_sandbox():
    # modules the scripts import, which run nothing that writes (pure computations)
    libraries = {"__init__.py", "relay.py", "sandbox.py", "reference.py", "fairness_report.py"}
    scripts = [p for d in ("benchmarks", "tools") for p in sorted((ROOT / d).glob("*.py")) if p.name not in libraries]
    assert len(scripts) >= 10
    missing = [p.name for p in scripts if "import tools.sandbox" not in p.read_text(encoding="utf-8")]
    assert missing == []


def test_a_server_with_the_default_data_dir_logs_into_the_sandbox():
    """A real ``mafia-server`` (default ``--data-dir``) plays a match of bots: the log
    appears in the session's private data directory."""
    sandbox_matches = persist.data_dir("") / "matches"
    before = set(sandbox_matches.glob("*.jsonl")) if sandbox_matches.is_dir() else set()
    server = subprocess.Popen([sys.executable, "-m", "server.main", "--host", "127.0.0.1", "--port", "0",
                               "--no-discovery"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    try:
        port = None
        for _ in range(50):
            line = server.stdout.readline()
            if "listening on" in line:
                port = int(line.rsplit(":", 1)[1])
                break
        assert port is not None
        bots = subprocess.run([sys.executable, "-m", "botclient.main", "--connect", f"127.0.0.1:{port}",
                               "--create", "omerta", "--players", "3", "--rounds", "1", "--think-ms", "0",
                               "--timeout", "60"], cwd=ROOT, capture_output=True, text=True, timeout=90)
        assert bots.returncode == 0, bots.stderr
    finally:
        server.terminate()
        server.wait(10)
    assert set(sandbox_matches.glob("*.jsonl")) - before
