"""A private data and config directory for a benchmark or tool run, so that benchmarks
and tools never write into the player's own replay folder or settings.

Importing this module points ``XDG_DATA_HOME`` and ``XDG_CONFIG_HOME`` (what
``platformdirs.user_data_dir`` / ``user_config_dir`` read on Linux and the BSDs) at a
fresh temporary directory, removed when the process exits. Subprocesses (servers,
clients, bots) inherit the environment, so their match logs, ``seats.json`` and
``settings.json`` land there too. Every script of ``benchmarks/`` and ``tools/`` imports
it first thing after putting the repository on ``sys.path``::

    import tools.sandbox  # noqa: F401,E402  (private data dir)

Set ``MAFIA_TABLE_KEEP_DATA=1`` to keep using the environment's directories (e.g. to
look at a run's match logs afterwards); :data:`ROOT` is the directory in use.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile

ROOT: str | None = None

if os.environ.get("MAFIA_TABLE_KEEP_DATA") != "1" and not os.environ.get("MAFIA_TABLE_SANDBOX"):
    ROOT = tempfile.mkdtemp(prefix="mafia-table-sandbox-")
    atexit.register(shutil.rmtree, ROOT, ignore_errors=True)
    os.environ["XDG_DATA_HOME"] = os.path.join(ROOT, "data")
    os.environ["XDG_CONFIG_HOME"] = os.path.join(ROOT, "config")
    os.environ["MAFIA_TABLE_SANDBOX"] = ROOT  # children reuse the parent's directory
    os.environ.setdefault("MAFIA_TABLE_MDNS", "0")  # a benchmark's servers are not for the LAN to find
else:
    ROOT = os.environ.get("MAFIA_TABLE_SANDBOX")
