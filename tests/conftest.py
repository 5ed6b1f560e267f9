"""Test-wide settings: no display or audio device, deterministic hypothesis on CI, and
private data/config directories so that no test (nor the servers and clients it starts
as subprocesses, which inherit the environment) writes match logs or settings into the
real user's directories."""
from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import weakref
from pathlib import Path

import platformdirs  # noqa: E402

#: The player's own directories (match logs, seats.json, settings.json), found before
#: the sandbox below replaces them: no test may add or change a file there. pytest-xdist's
#: workers inherit the environment of the process that started them, already pointed at
#: that process's sandbox: they take the real directories from it, passed along below.
_REAL_DIRS_VAR = "MAFIA_TABLE_TESTS_REAL_DIRS"
REAL_DIRS = (os.environ[_REAL_DIRS_VAR].split(os.pathsep) if _REAL_DIRS_VAR in os.environ else
             [platformdirs.user_data_dir("mafia-table"), platformdirs.user_config_dir("mafia-table")])
os.environ[_REAL_DIRS_VAR] = os.pathsep.join(REAL_DIRS)

_SANDBOX = tempfile.mkdtemp(prefix="mafia-table-tests-")
atexit.register(shutil.rmtree, _SANDBOX, ignore_errors=True)
os.environ["XDG_DATA_HOME"] = os.path.join(_SANDBOX, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_SANDBOX, "config")
os.environ["MAFIA_TABLE_SANDBOX"] = _SANDBOX  # tools.sandbox (imported by tools) keeps this one

os.environ["MAFIA_TABLE_MDNS"] = "0"  # servers of the tests do not announce themselves on the LAN
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "ci", derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def dir_snapshot(roots: list[str]) -> dict[str, int]:
    """``{path: mtime_ns}`` of each root, every directory under it, and the files right
    in a root (settings.json, seats.json): a file added anywhere changes its
    directory's mtime, a top-level file rewritten in place changes its own."""
    out: dict[str, int] = {}
    for root in roots:
        if not os.path.isdir(root):
            out[root] = -1
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            out[dirpath] = os.stat(dirpath).st_mtime_ns
            if dirpath == root:
                for name in filenames:
                    path = os.path.join(dirpath, name)
                    try:
                        out[path] = os.stat(path).st_mtime_ns
                    except OSError:
                        pass
    return out


def changed(before: dict[str, int], after: dict[str, int]) -> list[str]:
    """Paths of ``after`` that are new or changed since ``before``."""
    return sorted(p for p, m in after.items() if before.get(p) != m)


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _player_dirs_untouched(request, monkeypatch):
    """Every test fails when it (or a server, client or bot it started) wrote into the
    player's own data or config directory. Each test also gets a data directory of its
    own inside the session's sandbox (one test's kept seats or match logs never show up
    in the next one's menu)."""
    monkeypatch.setenv("XDG_DATA_HOME", tempfile.mkdtemp(prefix="data-", dir=_SANDBOX))
    before = dir_snapshot(REAL_DIRS)
    yield
    touched = changed(before, dir_snapshot(REAL_DIRS))
    if touched:
        pytest.fail(f"{request.node.nodeid} wrote into the player's own directory: {touched}", pytrace=False)


#: Every pygame client's frame pacer made in this worker (weakly): see
#: :func:`_no_client_left_running`.
_PACERS: "weakref.WeakSet[object]" = weakref.WeakSet()


def _track_pacers() -> None:
    from client import pacing

    if getattr(pacing.FramePacer.__init__, "tracked", False):
        return
    real = pacing.FramePacer.__init__

    def init(self, owner, reactor):
        real(self, owner, reactor)
        _PACERS.add(self)

    init.tracked = True  # type: ignore[attr-defined]
    pacing.FramePacer.__init__ = init  # type: ignore[method-assign]


_track_pacers()


@pytest.fixture(autouse=True)
def _no_client_left_running():
    """A pygame client a test made on the real reactor stops with the test. Left
    running (its loops started, or woken by a message), its pacer would poll the next
    tests' pygame events; a QUIT posted for another client, or a poll failing once a
    test quit pygame, makes it quit, which stops the reactor that every later Twisted
    test of the worker runs on."""
    yield
    from twisted.internet import reactor

    for pacer in list(_PACERS):
        if getattr(pacer, "reactor", None) is reactor:
            owner = getattr(pacer, "owner", None)
            if owner is not None and hasattr(owner, "running"):
                owner.running = False  # nothing schedules its loops again
            pacer.stop()
        _PACERS.discard(pacer)


@pytest.fixture
def light_search(monkeypatch):
    """Hard bots search with a tenth of their determinizations: whole matches in a test's
    time (the benchmark measures the level as it plays)."""
    from shared.bots import search
    monkeypatch.setattr(search, "ITERATION_SCALE", 0.1)
