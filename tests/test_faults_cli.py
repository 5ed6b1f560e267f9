"""``mafia-server`` refuses a data directory where match logs cannot be written (issue 16):
it stops at once with exit status 2 and one sentence on stderr that says what to do,
instead of playing matches without a log."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mafia_server_refuses_a_data_directory_it_cannot_write(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")  # unwritable even for root: a path under a file
    data = blocker / "data"
    proc = subprocess.run(
        [sys.executable, "-m", "server.main", "--host", "127.0.0.1", "--port", "0", "--no-discovery",
         "--data-dir", str(data)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=30)
    assert proc.returncode == 2, proc.stderr.decode()
    assert b"listening on" not in proc.stdout
    message = next(line for line in proc.stderr.decode().splitlines() if line.startswith("mafia-server:"))
    assert str(data / "matches") in message and "--data-dir" in message, message
    assert not data.exists()
