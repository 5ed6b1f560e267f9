"""``mafia-server``: run a Mafia Table lobby server on the LAN.

    mafia-server [--host H] [--port P] [--data-dir DIR] [--config FILE] [--testing]
                 [--no-discovery] [--web-port W]

Reads ``config.yaml`` from the repository root unless ``--config`` names another file;
``--host``/``--port``/``--data-dir`` override ``server.host``/``server.port``/
``server.data_dir`` (``--port 0`` picks a free port). Every match is logged under
``DIR/matches`` (default: the user's data directory); on start the unfinished ones are
restored, and their players come back with their reconnect tokens (docs/MATCHLOG.md).
Prints ``mafia-server listening on HOST:PORT`` on stdout once it accepts connections
(then ``mafia-server phones on http://HOST:W/`` when the phone page is served, config
``web``, ``--web-port``);
logs go to stderr. Stops on Ctrl-C. A data directory where match logs cannot be written
is refused at start: a sentence on stderr says what to do, exit status 2.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml
from twisted.internet import defer, task
from twisted.internet.error import CannotListenError
from twisted.logger import Logger, globalLogBeginner, textFileLogObserver

from shared.config import merge

log = Logger()
ROOT = Path(__file__).resolve().parent.parent


def load_config(path: str | None) -> dict[str, Any]:
    """The merged config from ``path`` (default: ``config.yaml`` at the repository root,
    skipped if absent). Raises ``ValueError`` / ``OSError`` with the reason."""
    file = Path(path) if path else ROOT / "config.yaml"
    if path is None and not file.exists():
        return merge(None)
    with open(file, encoding="utf-8") as f:
        return merge(yaml.safe_load(f))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="mafia-server", description="Run a Mafia Table server.")
    p.add_argument("--host", help="interface to listen on (default: config server.host)")
    p.add_argument("--port", type=int, help="TCP port (default: config server.port; 0 = any free port)")
    p.add_argument("--data-dir", help="where match logs are kept and restored from "
                                        "(default: config server.data_dir, else the user's data directory)")
    p.add_argument("--config", help="configuration file (default: config.yaml of the repository)")
    p.add_argument("--testing", action="store_true",
                   help="accept the test-only table options deck and first_player")
    p.add_argument("--no-discovery", action="store_true", help="do not answer LAN discovery")
    p.add_argument("--web-port", type=int, help="HTTP port of the phone page (default: config web.port; "
                                                "0 = any free port, -1 = no phone page)")
    return p.parse_args(argv)


@defer.inlineCallbacks
def run(reactor: Any, args: argparse.Namespace):
    from server.app import start_server

    try:
        config = load_config(args.config)
    except (OSError, ValueError, yaml.YAMLError) as e:
        print(f"mafia-server: bad configuration: {e}", file=sys.stderr)
        raise SystemExit(2)
    if args.host is not None:
        config["server"]["host"] = args.host
    if args.port is not None:
        config["server"]["port"] = args.port
    if args.data_dir is not None:
        config["server"]["data_dir"] = args.data_dir
    if args.web_port is not None:
        config["web"]["enabled"] = args.web_port >= 0
        config["web"]["port"] = max(0, args.web_port)
    from server import persist

    problem = persist.check_writable(persist.data_dir(config["server"].get("data_dir")))
    if problem is not None:  # without match logs a crash would lose every match: say so now
        print(f"mafia-server: {problem}", file=sys.stderr)
        raise SystemExit(2)
    try:
        running = yield start_server(reactor, config, testing=args.testing,
                                     discovery=not args.no_discovery)
    except CannotListenError as e:
        print(f"mafia-server: cannot listen on port {config['server']['port']}: {e.socketError}",
              file=sys.stderr)
        raise SystemExit(1)
    from server.pacing import CollectorPacing

    CollectorPacing(running.lobby.clock).start()  # short GC pauses: races stay fair under load
    print(f"mafia-server listening on {config['server']['host']}:{running.port}", flush=True)
    if running.web_port is not None:
        print(f"mafia-server phones on http://{config['server']['host']}:{running.web_port}/", flush=True)
    yield defer.Deferred()  # run until the reactor stops (Ctrl-C)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``mafia-server`` console script."""
    args = parse_args(argv)
    globalLogBeginner.beginLoggingTo([textFileLogObserver(sys.stderr)], redirectStandardIO=False)
    task.react(run, [args])


if __name__ == "__main__":
    main()
