"""The benchmark's side of :mod:`tools.puppet`: a real ``mafia-table`` process started with
its own data, config and settings directories, asked what it shows and driven through
its control port (``benchmarks/evening.py``, ``tests/test_rejoin_processes.py``).
Not part of the game."""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir)
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import yaml

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait(cond: Callable[[], Any], timeout: float, step: float = 0.1) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = cond()
        if got:
            return got
        time.sleep(step)
    return cond()


def on_table(st: dict[str, Any]) -> bool:
    return st.get("table") is not None and str(st.get("scene", "")).endswith("TableScene")


class Puppet:
    """One person's ``mafia-table`` under :mod:`tools.puppet`, its home ``work/<name>``
    (data, config, settings), its output in ``work/<name>.log``. Without ``display`` the
    window is SDL's dummy one; with it (an X display such as ``":55"``) it is a real window
    a screenshot can see. ``size`` is the window's (px, ``"WxH"``)."""

    def __init__(self, name: str, work: Path, args: list[str], config: dict[str, Any] | None = None,
                 settings: dict[str, Any] | None = None, language: str = "en", size: str = "1280x720",
                 display: str | None = None):
        self.name = name
        home = work / name.lower()
        (home / "data").mkdir(parents=True, exist_ok=True)
        (home / "config").mkdir(parents=True, exist_ok=True)
        self.home = home
        self.args = args
        self.config_path = home / "config.yaml"
        self.config_path.write_text(yaml.safe_dump(config or {}))
        self.settings_path = home / "settings.json"
        self.settings_path.write_text(json.dumps({"name": name, "language": language, **(settings or {})}))
        self.language, self.size = language, size
        self.env = dict(os.environ, XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
                        SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
        if display is not None:
            self.env.update(DISPLAY=display, SDL_VIDEODRIVER="x11")
        self.log = open(work / f"{name.lower()}.log", "ab")
        self.proc: subprocess.Popen | None = None
        self.control = 0
        self.sock: socket.socket | None = None
        self.file: Any = None
        self.rss: list[tuple[float, float]] = []  # (monotonic s, MB)
        self.started_at = 0.0
        self.lock = threading.Lock()  # the RSS sampler thread asks too

    def start(self) -> None:
        self.control = free_port()
        cmd = [sys.executable, "-m", "tools.puppet", "--control", str(self.control), "--",
               "--config", str(self.config_path), "--settings", str(self.settings_path),
               "--windowed", self.size, "--language", self.language, *self.args]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=self.log, stderr=self.log)
        self.started_at = time.monotonic()
        self.sock = None
        if not wait(self._connect, 30, 0.1):
            raise SystemExit(f"puppet: {self.name}'s client did not start (see {self.log.name})")

    def _connect(self) -> bool:
        try:
            self.sock = socket.create_connection(("127.0.0.1", self.control), timeout=10)
        except OSError:
            return False
        self.file = self.sock.makefile("rwb")
        return True

    def ask(self, **cmd: Any) -> dict[str, Any]:
        with self.lock:
            if self.file is None:
                return {"ok": False}
            try:
                self.file.write(json.dumps(cmd).encode() + b"\n")
                self.file.flush()
                line = self.file.readline()
            except (OSError, ValueError):
                return {"ok": False}
        return json.loads(line) if line else {"ok": False}

    def state(self) -> dict[str, Any]:
        st = self.ask(op="state")
        if st.get("rss_mb"):
            self.rss.append((time.monotonic(), float(st["rss_mb"])))
        return st

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.file = None

    def stop(self) -> None:
        self.kill()
        self.log.close()
