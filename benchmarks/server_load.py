"""Server load benchmark: how many busy tables one server carries on a small machine. A
script, not a test.

    .venv/bin/python benchmarks/server_load.py            # full run (a few minutes)
    .venv/bin/python benchmarks/server_load.py --quick    # the same keys, smaller (~4 min)

A real ``mafia-server`` runs in its own process (own temporary data directory on the
real disk, so every fsync is real; loopback only; its own config allowing 1000 tables,
``reconnect_grace_s`` 0 so that a table closes when its seats leave). The load
generator drives N Omerta tables of 4 TCP seats each, every seat a plain JSON-lines
connection that answers pings and plays random legal moves. For the 1-200 table phases
the seats are shared among ``--workers`` processes (default 4, ``multiprocessing``): one
Python process driving 800 seats measured its own queueing as well as the server's.
Each worker stamps a round trip when the reply's bytes arrive (``dataReceived``),
answers pings without decoding them, keeps its own collector pauses short, and reports
how late its own 20 ms timer ran (``gen_lag_p99_ms``: what it may have added to a round
trip) and its CPU (``gen_core_percent``, all workers together); the coordinating process
merges the samples. Every seat:

* turn actions: at once (*saturated*) or after a think time of 700 ms on average
  (*paced*, uniform 500-900 ms);
* in a snap window: a snap claim (probability 0.25) after an honest reaction of
  150-400 ms (``t_shown`` = when the window's update arrived, ``t_press`` = now), else a
  pass (at once when saturated, after 300-2500 ms when paced).

For 1, 10, 100 and 200 tables it prints actions/s, the action round trip (``action``
sent -> ``ack`` received) p50/p99, the server's **CPU** per action (user + system time of
the server process from ``/proc/<pid>/stat``, not wall time) and the share of it spent
in the kernel (``kernel_percent``: its sends, receives and fsyncs; the rest is Python), the
CPU per action over the second half of the phase alone (``cpu_us_per_action_2nd_half``:
under load an action gets dearer in the first seconds, see ARCHITECTURE §8), and
its RSS. Then the same
connections and message pattern against a bare Twisted JSON-lines echo server (each
``action`` is decoded, an ``ack`` and one ~update-sized JSON line per seat are encoded and
written), with its CPU per message written and the ratio. Then 100 spectators on one
*paced* table, people playing (``spectator_core_percent_each_paced``: % of a core per
spectator; and its CPU per action of the table; the spectators follow the players from
one match to the next), 400 seated tables where nobody acts (the server's core % doing
pings, ``idle_tables_core_percent``), and over the paced run of the largest size
(``..._largest``, ``tables_largest`` says how many): honest claims refused
(``claim_refused``) and answers sent in time that arrived after their window had closed
(rejected, and the window closed by its timeout).

Then every game at its largest table -- Omerta 4 seats, Family Business 6, Mafiosi 5,
Famiglia 2 -- 20 saturated tables each (5 with ``--quick``): the server's CPU per action
of each (``cpu_us_per_action_<game>``), and after the server, the bare echo driven with
the same pattern (that game's seats and mean update size, ``echo_cpu_us_per_action_<game>``)
and the ratio echo/server (``cpu_ratio_echo_over_server_<game>``), measured in the same
run: a figure that moves with the machine moves with its reference. The run exits 2 when
a phase acked no action.

Seats ask for delta updates and for one update per batch of steps released together
(``hello.features: ["delta", "steps"]``) and rebuild their views, as the pygame client
does; ``--no-delta`` plays with whole views, one update per step (as old clients and
the phone page, and as a server without deltas must be measured). Every ``clock``
message a seat gets is an offset error sample (the server's clock and the seats' are
the same ``time.monotonic``, so the true offset is 0):
``offset_err_p99_ms``. Between phases every seat leaves its table and the server is
left to settle, so that one phase's leftovers do not count in the next.
``--profile FILE`` runs the server under cProfile; ``--sizes 200`` runs only the 200-table
phases (then stops); ``--workers 1`` keeps every seat in this process (as before);
``--tmp-dir /dev/shm`` puts the match logs on tmpfs (what the disk costs).

The last line is one JSON object.
"""
from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)

from twisted.internet import defer, endpoints, protocol, reactor, task  # noqa: E402
from twisted.protocols.basic import LineReceiver  # noqa: E402

_dec = msgspec.json.Decoder()
_PING = b'{"v":1,"type":"ping","id":'
_enc = msgspec.json.Encoder()
TICK = os.sysconf("SC_CLK_TCK")


def now_ms() -> float:
    return time.monotonic() * 1000.0


# -- the server processes ---------------------------------------------------------------
def proc_cpu_s(pid: int, kernel: bool = False) -> float:
    """CPU seconds of process ``pid`` (every thread): user + system time, or only the
    system time (the kernel's work for it: sends, receives, fsyncs) with ``kernel``."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[12]) if kernel else int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def machine_cpu_s() -> float:
    """CPU seconds every core of the machine spent busy (``/proc/stat``): minus the
    server's and the generator's, what the other programs of a shared machine took."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / TICK  # all but idle and iowait


def proc_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def start_process(args: list[str]) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if "listening on" in line:
            return proc, int(line.rsplit(":", 1)[1])
    proc.kill()
    raise SystemExit(f"could not start {args}")


def start_server(workdir: Path, profile: str | None = None) -> tuple[subprocess.Popen, int]:
    with open(ROOT / "config.yaml", encoding="utf-8") as f:
        config = yaml.safe_load(f)
    # reconnect_grace_s 0: a seat that leaves does not keep its table open (with bots
    # playing on for two minutes, costing CPU in the next phase): the table closes when
    # its last seat leaves (server/seats.py)
    config["server"].update(host="127.0.0.1", port=0, max_tables=1000, max_connections=4000,
                            max_unauthenticated_per_address=0, reconnect_grace_s=0,
                            data_dir=str(workdir / "data"))
    path = workdir / "config.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    run = ["-m", "cProfile", "-o", profile] if profile else []
    return start_process([sys.executable, *run, "-m", "server.main", "--config", str(path),
                          "--no-discovery"])


# -- the bare echo server (run as a subprocess of this script) ---------------------------
class EchoServer(LineReceiver):
    delimiter = b"\n"
    MAX_LENGTH = 1 << 20

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)
        self.group: list[Any] | None = None

    def connectionLost(self, reason: Any = None) -> None:
        if self.group is not None and self in self.group:
            self.group.remove(self)

    def lineReceived(self, line: bytes) -> None:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "join":
            self.group = self.factory.groups.setdefault(msg["table"], [])
            self.group.append(self)
            if msg.get("pad"):  # this table's updates are that game's size
                self.factory.payloads[msg["table"]] = echo_payload(int(msg["pad"]))
        reply = {"v": 1, "type": "ack", "re": msg.get("seq"), "table": msg.get("table")}
        self.transport.write(json.dumps(reply, separators=(",", ":")).encode() + b"\n")
        self.factory.written += 1
        if kind == "action" and self.group:
            for i, peer in enumerate(self.group):  # like an update: one encoding per seat
                update = {"v": 1, "type": "update", "table": msg["table"],
                          "turn": (self.group.index(self) + 1) % len(self.group),
                          "seat": i, "view": self.factory.payloads.get(msg["table"], self.factory.payload),
                          "legal": [], "t_server": now_ms()}
                peer.transport.write(json.dumps(update, separators=(",", ":")).encode() + b"\n")
                self.factory.written += 1


def echo_payload(update_bytes: int) -> dict[str, Any]:
    """A view that makes an update line of about ``update_bytes`` bytes."""
    return {"pad": "x" * max(0, update_bytes - 200), "cards": list(range(20))}


def echo_main(payload_bytes: int) -> None:
    factory = protocol.ServerFactory()
    factory.protocol = EchoServer
    factory.groups = {}
    factory.payloads = {}
    factory.written = 0
    factory.payload = echo_payload(payload_bytes)
    port = reactor.listenTCP(0, factory, interface="127.0.0.1")
    print(f"echo listening on 127.0.0.1:{port.getHost().port}", flush=True)
    reactor.run()


# -- the load generator's seats ----------------------------------------------------------
class Stats:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.actions = 0
        self.rtts: list[float] = []
        self.errors: dict[str, int] = {}
        self.refused_honest = 0
        self.late_candidates: list[tuple[Any, int, float]] = []  # (closed windows, window, sent - shown)
        self.claims = 0
        self.update_bytes = 0
        self.updates = 0
        self.offset_errors: list[float] = []  # |clock offset| (ms) pushed: both ends share one clock
        self.pings = 0
        self.lags: list[float] = []  # how late this generator's own 20 ms timer ran (ms)
        self.cpu0 = time.process_time()


class Client(LineReceiver):
    delimiter = b"\n"
    MAX_LENGTH = 1 << 22

    def __init__(self, load: "Load", table: "TableRun | None", index: int):
        self.load = load
        self.run = table
        self.index = index
        self.seq = 0
        self.pending: dict[int, tuple[str, float, Any, defer.Deferred | None]] = {}
        self.legal: list[dict[str, Any]] = []
        self.window: dict[str, Any] | None = None
        self.window_seen: dict[int, float] = {}
        self.answered: set[int] = set()
        self.inflight = False
        self.call: Any = None
        self.offset: float | None = None
        self.view: dict[str, Any] | None = None
        self.step = 0  # the step of the last update seen
        self.wait_step = 0  # do not decide before the update of this step (ack.step)
        self.ready = defer.Deferred()
        self.arrived = 0.0  # now_ms() when the last bytes arrived

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)
        self.ready.callback(self)

    def dataReceived(self, data: bytes) -> None:
        self.arrived = now_ms()  # round trips end when the bytes arrive, not when decoded
        LineReceiver.dataReceived(self, data)

    def request(self, kind: str, **fields: Any) -> defer.Deferred:
        self.seq += 1
        d: defer.Deferred = defer.Deferred()
        self.pending[self.seq] = (kind, now_ms(), fields, d)
        self.sendLine(_enc.encode({"v": 1, "type": kind, "seq": self.seq, **fields}))
        return d

    def lineReceived(self, line: bytes) -> None:
        if line.startswith(_PING):  # the server's own ping bytes: no JSON decoding
            pid = line[len(_PING):line.index(b",", len(_PING))]
            self.sendLine(b'{"v":1,"type":"pong","id":%s,"tc":%r}' % (pid, now_ms()))
            self.load.stats.pings += 1
            return
        msg = _dec.decode(line)
        kind = msg["type"]
        if kind == "ping":
            self.sendLine(b'{"v":1,"type":"pong","id":%d,"tc":%r}' % (msg["id"], now_ms()))
            self.load.stats.pings += 1
            return
        if kind == "clock":
            # the server's clock is time.monotonic() too: the true offset is 0
            self.offset = msg["offset_ms"]
            self.load.stats.offset_errors.append(abs(self.offset))
            return
        if "re" in msg and msg["re"] in self.pending:
            self.reply(msg)
            return
        if kind in ("update", "match_started"):
            self.load.stats.updates += 1
            self.load.stats.update_bytes += len(line)
            if self.run is None or self.index < 0:
                return
            self.run.step = max(self.run.step, msg.get("step", 0))
            self.step = msg.get("step", 0)
            for e in msg.get("events", ()):
                if e.get("type") == "window_closed":
                    self.run.closed[e["window"]] = e.get("reason", "")
            if "view_set" in msg:  # a delta (feature "delta", docs/PROTOCOL.md update)
                view = dict(self.view or {})
                view.update(msg["view_set"])
                for key in msg.get("view_unset", ()):
                    view.pop(key, None)
                self.legal = msg.get("legal", self.legal)
            else:
                view = msg["view"]
                self.legal = msg["legal"]
            self.view = view
            self.window = view.get("window") if isinstance(view, dict) else None
            if self.window is not None and self.window["window"] not in self.window_seen:
                self.window_seen[self.window["window"]] = now_ms()
            if kind == "update" and msg.get("turn") is not None:  # the echo server
                if msg["turn"] == self.index:
                    self.act_later(0.0)
                return
            self.decide()
        elif kind == "match_over" and self.run is not None and self.index == 0:
            self.run.over()
        elif kind == "claim_result" and msg.get("outcome") == "too_slow" and self.run is not None:
            self.late_check(msg.get("window"))

    def reply(self, msg: dict[str, Any]) -> None:
        kind, sent, fields, d = self.pending.pop(msg["re"])
        st = self.load.stats
        if kind == "action":
            self.inflight = False
            if msg["type"] == "ack":
                st.actions += 1
                st.rtts.append(self.arrived - sent)
                self.wait_step = msg.get("step", 0)  # PROTOCOL.md: decide again from that update
            else:
                code = msg.get("code", "?")
                st.errors[code] = st.errors.get(code, 0) + 1
                action = fields["action"]
                if code == "claim_refused":
                    st.refused_honest += 1
                elif code == "illegal_action" and action["type"] in ("snap", "snap_pass"):
                    self.late_check(fields.get("_window"), sent)
            self.decide()
        if d is not None:
            d.callback(msg) if msg["type"] != "error" or kind == "action" else d.errback(RuntimeError(str(msg)))

    def late_check(self, window: Any, sent: float | None = None) -> None:
        if window is None or window not in self.window_seen:
            return
        shown = self.window_seen[window]
        # the match's own record of closed windows (a new match starts a new one)
        self.load.stats.late_candidates.append((self.run.closed, window, (sent or now_ms()) - shown))

    # -- playing --------------------------------------------------------------------
    def decide(self) -> None:
        if self.inflight or self.call is not None or not self.legal or self.load.mode == "idle":
            return
        if self.load.mode != "echo" and self.step < self.wait_step:
            return
        w = self.window
        if w is not None and w["window"] not in self.answered and any(
                a["type"] in w.get("claim_types", ()) or a["type"] == w.get("pass_type") for a in self.legal):
            claim = random.random() < 0.25
            if claim:
                delay = random.uniform(150, 400)
            else:
                delay = random.uniform(0, 30) if self.load.mode == "saturated" else random.uniform(300, 2500)
            self.answered.add(w["window"])
            self.call = reactor.callLater(delay / 1000.0, self.answer, w, claim)
            return
        delay = 0.0 if self.load.mode == "saturated" else random.uniform(500, 900)
        self.act_later(delay)

    def act_later(self, delay_ms: float) -> None:
        if self.call is None:
            self.call = reactor.callLater(delay_ms / 1000.0, self.act)

    def act(self) -> None:
        self.call = None
        if self.load.mode == "echo":
            self.send_action({"type": "draw_deck"})
            return
        w = self.window
        choices = [a for a in self.legal
                   if w is None or (a["type"] not in w.get("claim_types", ()) and a["type"] != w.get("pass_type"))]
        if choices and not self.inflight and self.load.mode != "idle":
            self.send_action(random.choice(choices))

    def answer(self, w: dict[str, Any], claim: bool) -> None:
        self.call = None
        wid = w["window"]
        if wid in self.run.closed or self.load.mode == "idle":
            self.decide()
            return
        kinds = w.get("claim_types", ()) if claim else (w.get("pass_type"),)
        options = [a for a in self.legal if a["type"] in kinds] or [{"type": w.get("pass_type")}]
        if claim and options[0]["type"] in w.get("claim_types", ()):
            self.load.stats.claims += 1
            self.send_action(random.choice(options), t_press=now_ms(), t_shown=self.window_seen[wid], _window=wid)
        else:
            self.send_action(options[0], _window=wid)

    def send_action(self, action: dict[str, Any], **extra: Any) -> None:
        self.inflight = True
        fields = {k: v for k, v in extra.items() if not k.startswith("_")}
        self.seq += 1
        self.pending[self.seq] = ("action", now_ms(), {"action": action, **extra}, None)
        self.sendLine(_enc.encode({"v": 1, "type": "action", "seq": self.seq, "table": self.run.id,
                                   "action": action, **fields}))

    def stop(self) -> None:
        if self.call is not None and self.call.active():
            self.call.cancel()
        self.call = None
        self.transport.loseConnection()


class TableRun:
    """The seats of one table (``load.seats`` of them, playing ``load.game``), one match
    after another (a new table when a match ends)."""

    def __init__(self, load: "Load", port: int):
        self.load = load
        self.port = port
        self.clients: list[Client] = []
        self.id: int | None = None
        self.step = 0
        self.closed: dict[int, str] = {}
        self.spectators: list[Client] = []

    @defer.inlineCallbacks
    def connect(self, n: int = 4, name: str = "p") -> Any:
        out = []
        for i in range(n):
            c = Client(self.load, self, i)
            endpoints.connectProtocol(endpoints.TCP4ClientEndpoint(reactor, "127.0.0.1", self.port), c)
            yield c.ready
            yield c.request("hello", name=f"{name}{i}",
                            **({"features": ["delta", "steps"]} if self.load.delta and name == "p" else {}))
            out.append(c)
        return out

    @defer.inlineCallbacks
    def start(self) -> Any:
        self.clients = yield self.connect(self.load.seats)
        yield self.new_table()

    @defer.inlineCallbacks
    def new_table(self) -> Any:
        if self.load.mode == "echo":
            self.id = id(self)
            for c in self.clients:
                yield c.request("join", table=self.id, pad=self.load.pad)
            self.clients[0].act_later(0.0)
            return
        game = self.load.game
        reply = yield self.clients[0].request("create_table", game=game, seats=self.load.seats, name="load",
                                              options={"rounds": 20} if game == "omerta" else {})
        self.id = reply["table"]["id"]
        self.step = 0
        self.closed = {}
        for c in self.clients:
            c.window_seen, c.answered, c.legal, c.window, c.view = {}, set(), [], None, None
            c.step = c.wait_step = 0
        for c in self.clients:
            yield c.request("join", table=self.id)
        for s in self.spectators:  # they follow the players to their next match
            yield s.request("join", table=self.id, spectate=True)

    @defer.inlineCallbacks
    def over(self) -> Any:
        for c in self.clients:
            if c.call is not None and c.call.active():
                c.call.cancel()
            c.call = None
            # the table may already be gone (closed once every seat had its result)
            yield c.request("leave", table=self.id).addErrback(lambda f: None)
        for s in self.spectators:
            yield s.request("leave", table=self.id).addErrback(lambda f: None)
        yield self.new_table()

    def stop(self) -> None:
        for c in self.clients + self.spectators:
            c.stop()


#: Each game at its largest table: its server's cost per action and its echo's.
GAMES = {"omerta": 4, "family_business": 6, "mafiosi": 5, "famiglia": 2}


class Load:
    def __init__(self) -> None:
        self.mode = "saturated"
        self.game = "omerta"  # what the tables play, at this many seats
        self.seats = 4
        self.pad = 0  # echo: the update size (bytes) its tables ask for (0: the echo's default)
        self.delta = True  # seats ask for delta updates (spectators never get them)
        self.stats = Stats()
        self.tables: list[TableRun] = []


def sleep(s: float) -> defer.Deferred:
    return task.deferLater(reactor, s, lambda: None)


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    return round(v[min(len(v) - 1, int(len(v) * p / 100))], 2)


def raw_stats(load: Load) -> dict[str, Any]:
    """What this process's seats saw since ``load.stats.reset()`` (merged over the
    worker processes by :func:`summarize`)."""
    st = load.stats
    late = 0
    for closed, window, elapsed in st.late_candidates:
        reason = closed.get(window, "")
        if "timeout" in reason and elapsed < 3000 - 150:
            late += 1
    return {"actions": st.actions, "rtts": st.rtts, "errors": st.errors, "refused_honest": st.refused_honest,
            "claims": st.claims, "update_bytes": st.update_bytes, "updates": st.updates,
            "offset_errors": st.offset_errors, "pings": st.pings, "late": late, "lags": st.lags,
            "gen_cpu_s": time.process_time() - st.cpu0}


def summarize(parts: list[dict[str, Any]], pid: int, cpu_s: float, wall: float,
              machine_s: float = 0.0, kernel_s: float = 0.0) -> dict[str, Any]:
    """One phase's figures from the server's CPU seconds ``cpu_s`` (``kernel_s`` of them
    system time) over ``wall`` seconds and the :func:`raw_stats` of every generator
    process."""
    def total(key: str) -> Any:
        return sum(p[key] for p in parts)

    def joined(key: str) -> list[float]:
        return [x for p in parts for x in p[key]]

    errors: dict[str, int] = {}
    for p in parts:
        for code, n in p["errors"].items():
            errors[code] = errors.get(code, 0) + n
    actions, updates = total("actions"), total("updates")
    rtts = joined("rtts")
    return {"actions_per_s": round(actions / wall, 1), "rtt_p50_ms": pct(rtts, 50),
            "rtt_p99_ms": pct(rtts, 99), "cpu_core_percent": round(100 * cpu_s / wall, 1),
            "cpu_us_per_action": round(1e6 * cpu_s / actions, 1) if actions else None,
            "kernel_percent": round(100 * kernel_s / cpu_s, 1) if cpu_s else None,
            "rss_mb": round(proc_rss_mb(pid), 1), "claims": total("claims"),
            "refused_honest": total("refused_honest"), "errors": errors,
            "update_bytes": round(total("update_bytes") / updates) if updates else None,
            # what the seats received per action: 4 per step, fewer with feature "steps"
            "updates_per_action": round(updates / actions, 2) if actions else None,
            "pings_per_s": round(total("pings") / wall, 1),
            "offset_err_p99_ms": pct(joined("offset_errors"), 99),
            "gen_core_percent": round(100 * total("gen_cpu_s") / wall, 1),
            "gen_lag_p99_ms": pct(joined("lags"), 99), "late_answers": total("late"),
            "others_core_percent": round(100 * max(0.0, machine_s - cpu_s - total("gen_cpu_s")) / wall, 1),
            "_cpu_s": cpu_s, "_actions": actions}


@defer.inlineCallbacks
def measure(load: Load, pid: int, seconds: float) -> Any:
    """One phase measured with the seats of this process."""
    load.stats.reset()
    cpu0, k0, t0, m0 = proc_cpu_s(pid), proc_cpu_s(pid, True), time.monotonic(), machine_cpu_s()
    yield sleep(seconds / 2)
    mid = (proc_cpu_s(pid), load.stats.actions)
    yield sleep(seconds / 2)
    cpu1, k1, t1, m1 = proc_cpu_s(pid), proc_cpu_s(pid, True), time.monotonic(), machine_cpu_s()
    return second_half(summarize([raw_stats(load)], pid, cpu1 - cpu0, t1 - t0, m1 - m0, k1 - k0), mid, cpu1)


def measure_sharded(shards: "Shards", pid: int, seconds: float) -> dict[str, Any]:
    """One phase measured with the seats of the worker processes (blocking)."""
    shards.call("reset")
    cpu0, k0, t0, m0 = proc_cpu_s(pid), proc_cpu_s(pid, True), time.monotonic(), machine_cpu_s()
    time.sleep(seconds / 2)
    mid = (proc_cpu_s(pid), sum(shards.call("count")))
    time.sleep(seconds / 2)
    cpu1, k1, t1, m1 = proc_cpu_s(pid), proc_cpu_s(pid, True), time.monotonic(), machine_cpu_s()
    return second_half(summarize(shards.call("stats"), pid, cpu1 - cpu0, t1 - t0, m1 - m0, k1 - k0), mid, cpu1)


def second_half(figures: dict[str, Any], mid: tuple[float, int], cpu_end: float) -> dict[str, Any]:
    """``figures`` of a phase with ``cpu_us_per_action_2nd_half``: the server's CPU per
    action over the second half of the phase alone, from ``mid`` = (its CPU seconds,
    the actions acked so far) at half time and its CPU seconds ``cpu_end`` at the end.
    Under load an action gets dearer during the first seconds, as the tables' data
    stops fitting in the caches (ARCHITECTURE §8, "the cold data"); this is the figure
    once it has."""
    late = figures["_actions"] - mid[1]
    figures["cpu_us_per_action_2nd_half"] = round(1e6 * (cpu_end - mid[0]) / late, 1) if late > 0 else None
    return figures


# -- the load generator's worker processes -------------------------------------------
LAG_PERIOD_S = 0.02


def _lag_probe(load: Load) -> None:
    """A timer every :data:`LAG_PERIOD_S`: how late it runs is how long a reply that
    arrived meanwhile may have waited in this generator before it was stamped."""
    due = [time.monotonic() + LAG_PERIOD_S]

    def tick() -> None:
        now = time.monotonic()
        load.stats.lags.append(max(0.0, (now - due[0]) * 1000.0))
        due[0] = now + LAG_PERIOD_S
        reactor.callLater(LAG_PERIOD_S, tick)

    reactor.callLater(LAG_PERIOD_S, tick)


def worker_main(conn: Any, port: int, delta: bool, seed: int) -> None:
    """One generator process: its share of the tables, driven by the commands of the
    coordinating process over ``conn`` (a ``multiprocessing`` pipe): ``("open", n,
    mode)``, ``("mode", mode)``, ``("reset",)``, ``("stats",)`` (-> :func:`raw_stats`),
    ``("count",)`` (-> the actions acked since the reset), ``("close",)``, ``("quit",)``;
    every command is answered once done."""
    random.seed(seed)
    gc.set_threshold(10_000, 10, 10)  # this generator's own collector pauses stay short
    load = Load()
    load.delta = delta

    @defer.inlineCallbacks
    def handle(cmd: tuple[Any, ...]) -> Any:
        kind = cmd[0]
        result: Any = "ok"
        if kind == "open":
            load.mode = cmd[2]
            if cmd[1]:
                yield open_tables(load, port, cmd[1])
            gc.collect()
            gc.freeze()
        elif kind == "mode":
            load.mode = cmd[1]
        elif kind == "reset":
            load.stats.reset()
        elif kind == "stats":
            result = raw_stats(load)
        elif kind == "count":  # the actions acked since the reset, and nothing else
            result = load.stats.actions
        elif kind == "close":
            yield close_tables(load)
            gc.unfreeze()
        elif kind == "quit":
            reactor.callLater(0, reactor.stop)
        conn.send(result)

    def reader() -> None:
        while True:
            try:
                cmd = conn.recv()
            except EOFError:
                cmd = ("quit",)
            reactor.callFromThread(handle, cmd)
            if cmd[0] == "quit":
                return

    _lag_probe(load)
    reactor.callInThread(reader)
    reactor.run()


class Shards:
    """The generator's worker processes (``multiprocessing``, spawned fresh): each drives
    its share of the seats on its own reactor, stamps its own round trips and sends its
    samples back; the coordinator only merges them. One Python process driving 800
    seats measured its own queueing as well as the server's."""

    def __init__(self, n: int, port: int, delta: bool):
        ctx = multiprocessing.get_context("spawn")
        self.conns = []
        self.procs = []
        for i in range(n):
            here, there = ctx.Pipe()
            proc = ctx.Process(target=worker_main, args=(there, port, delta, 1000 + i), daemon=True)
            proc.start()
            self.conns.append(here)
            self.procs.append(proc)

    def call(self, *cmd: Any) -> list[Any]:
        for c in self.conns:
            c.send(cmd)
        return [c.recv() for c in self.conns]

    def open(self, n: int, mode: str) -> None:
        k = len(self.conns)
        for i, c in enumerate(self.conns):
            c.send(("open", n // k + (1 if i < n % k else 0), mode))
        for c in self.conns:
            c.recv()

    def quit(self) -> None:
        try:
            self.call("quit")
        except (EOFError, OSError):
            pass
        for p in self.procs:
            p.join(10)
            if p.is_alive():
                p.terminate()


@defer.inlineCallbacks
def open_tables(load: Load, port: int, n: int) -> Any:
    runs = [TableRun(load, port) for _ in range(n)]
    for k in range(0, n, 25):
        yield defer.gatherResults([r.start() for r in runs[k:k + 25]], consumeErrors=True)
    load.tables = runs
    return runs


@defer.inlineCallbacks
def close_tables(load: Load) -> Any:
    """Every seat leaves its table on purpose (``leave``: the table closes at once)
    before it disconnects: a dropped seat would be held for the reconnect grace period,
    its stand-in bot playing on and costing CPU in the next measurement."""
    mode, load.mode = load.mode, "idle"
    leaving = []
    for r in load.tables:
        for c in r.clients + r.spectators:
            if c.call is not None and c.call.active():
                c.call.cancel()
            c.call = None
            if r.id is not None and mode != "echo" and c.transport is not None:
                d = c.request("leave", table=r.id)
                d.addErrback(lambda f: None)
                leaving.append(d)
    if leaving:
        yield defer.DeferredList(leaving).addTimeout(60, reactor).addErrback(lambda f: None)
    for r in load.tables:
        r.stop()
    load.tables = []
    yield sleep(1.0)


@defer.inlineCallbacks
def settle(pid: int, limit_s: float = 60.0) -> Any:
    """Wait until the server is quiet again (under 3 % of a core for a second): what the
    previous measurement left behind (bots taking the seats left, tables closing) must
    not count in the next one."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        cpu0, t0 = proc_cpu_s(pid), time.monotonic()
        yield sleep(1.0)
        if (proc_cpu_s(pid) - cpu0) / (time.monotonic() - t0) < 0.03:
            return


def show(label: str, r: dict[str, Any]) -> None:
    shown = {k: v for k, v in r.items() if not k.startswith("_") and v not in ({}, None)}
    print(f"{label:<34} " + "  ".join(f"{k}={v}" for k, v in shown.items()), flush=True)


@defer.inlineCallbacks
def main_run(args: argparse.Namespace) -> Any:
    quick = args.quick
    sizes = [1, 10, 20] if quick else [1, 10, 100, 200]
    if args.sizes:
        sizes = [int(x) for x in args.sizes.split(",")]
    seconds = 3.0 if quick else 12.0
    warm = 1.0 if quick else 1.5  # s between a change of load and its measurement
    idle_tables = 50 if quick else 400
    game_tables = 5 if quick else 20  # tables of each game in the per-game phase
    work = Path(tempfile.mkdtemp(prefix="server-load-", dir=args.tmp_dir))
    results: dict[str, Any] = {"levels": {}}
    server, port = start_server(work, args.profile)
    load = Load()
    load.delta = not args.no_delta
    try:
        print(f"mafia-server pid {server.pid} on 127.0.0.1:{port}, data in {work} (real disk)", flush=True)
        _lag_probe(load)
        shards = Shards(args.workers, port, load.delta) if args.workers > 1 else None
        try:
            for n in sizes:
                if shards is not None:  # blocking: the seats are in the worker processes
                    shards.open(n, "saturated")
                    time.sleep(warm)
                    sat = measure_sharded(shards, server.pid, seconds)
                else:
                    load.mode = "saturated"
                    yield open_tables(load, port, n)
                    yield sleep(warm)
                    sat = yield measure(load, server.pid, seconds)
                show(f"{n:>3} tables saturated", sat)
                paced_s = seconds * (1.5 if n >= 100 else 1)
                if shards is not None:
                    shards.call("mode", "paced")
                    time.sleep(warm)
                    paced = measure_sharded(shards, server.pid, paced_s)
                    shards.call("close")
                else:
                    load.mode = "paced"
                    yield sleep(warm)
                    paced = yield measure(load, server.pid, paced_s)
                    yield close_tables(load)
                show(f"{n:>3} tables paced (700 ms think)", paced)
                results["levels"][n] = {"saturated": sat, "paced": paced}
                yield settle(server.pid)
        finally:
            if shards is not None:
                shards.quit()
        if args.sizes:
            return
        # spectators: one paced table (people playing), 0 then 100 spectators
        load.mode = "paced"
        runs = yield open_tables(load, port, 1)
        yield sleep(1.0)
        spec_s = 4 * seconds  # a paced table acts a few times a second: a longer look
        base = yield measure(load, server.pid, spec_s)
        specs = yield runs[0].connect(SPECTATORS, name="s")
        for s in specs:
            s.index = -1
            yield s.request("join", table=runs[0].id, spectate=True)
        runs[0].spectators = specs
        yield sleep(1.0)
        spec = yield measure(load, server.pid, spec_s)
        spectators = spectator_cost(base, spec, SPECTATORS)
        show("1 paced table, 0 spectators", base)
        show(f"1 paced table, {SPECTATORS} spectators", spec)
        print(f"  -> each spectator of a paced table: {spectators['core_percent']} % of a core "
              f"({spectators['us_per_action']} us of server CPU per action)", flush=True)
        yield close_tables(load)
        yield settle(server.pid)
        # idle seated tables
        load.mode = "idle"
        yield open_tables(load, port, idle_tables)
        yield sleep(2 * warm)
        idle = yield measure(load, server.pid, seconds)
        show(f"{idle_tables} idle seated tables", idle)
        yield close_tables(load)
        yield settle(server.pid)
        # every game at its largest table, saturated
        games: dict[str, dict[str, Any]] = {}
        for game, seats in GAMES.items():
            load.mode, load.game, load.seats = "saturated", game, seats
            yield open_tables(load, port, game_tables)
            yield sleep(warm)
            games[game] = yield measure(load, server.pid, seconds)
            show(f"{game_tables} {game} tables of {seats}", games[game])
            yield close_tables(load)
            yield settle(server.pid)
        load.game, load.seats = "omerta", 4
    finally:
        server.terminate()
        server.wait(10)
        if args.sizes:  # no echo phase after: its data directory goes now
            shutil.rmtree(work, ignore_errors=True)
    # the bare echo on the same connections and message pattern
    top = sizes[2]
    sat_top = results["levels"][top]["saturated"]
    echo, eport = start_process([sys.executable, str(Path(__file__).resolve()), "--echo-server",
                                 str(sat_top.get("update_bytes") or 3000)])
    echo_games: dict[str, dict[str, Any]] = {}
    try:
        e = yield measure_echo(load, eport, echo.pid, top, seconds)
        echo_per_action, echo_kernel = e["cpu_us_per_action"], e["kernel_percent"]
        echo_per_msg = echo_per_action / (2 + 4) if echo_per_action else None  # 1 in, ack + 4 updates out
        print(f"echo, {top} tables: {e['actions_per_s']:.0f} actions/s, {echo_per_action} us CPU per action, "
              f"{echo_per_msg} us per message (1 read + 5 written), {echo_kernel} % of it in the kernel",
              flush=True)
        for game, seats in GAMES.items():  # each game's pattern: its seats, its update size
            load.game, load.seats, load.pad = game, seats, games[game].get("update_bytes") or 0
            echo_games[game] = yield measure_echo(load, eport, echo.pid, game_tables, seconds)
        load.pad = 0
    finally:
        echo.terminate()
        echo.wait(10)
        shutil.rmtree(work, ignore_errors=True)
    server_us = sat_top["cpu_us_per_action"]
    ratio = round(echo_per_action / server_us, 3) if server_us and echo_per_action else None
    print(f"server {server_us} us/action vs echo {echo_per_action} us/action: ratio echo/server {ratio}")
    print(f"\nper game, {game_tables} saturated tables each (server CPU per action beside a bare Twisted echo "
          "of the same message pattern, measured in the same run):")
    per_game: dict[str, Any] = {}
    for game, seats in GAMES.items():
        g, eg = games[game], echo_games[game]
        r = (round(eg["cpu_us_per_action"] / g["cpu_us_per_action"], 3)
             if g["cpu_us_per_action"] and eg["cpu_us_per_action"] else None)
        print(f"  {game:>16} ({seats} seats, updates {g.get('update_bytes')} bytes, {g.get('updates_per_action')} "
              f"per action): server {g['cpu_us_per_action']} us, echo {eg['cpu_us_per_action']} us, "
              f"echo/server {r}")
        per_game.update({f"cpu_us_per_action_{game}": g["cpu_us_per_action"],
                         f"echo_cpu_us_per_action_{game}": eg["cpu_us_per_action"],
                         f"cpu_ratio_echo_over_server_{game}": r})
    last = sizes[-1]
    paced_last = results["levels"][last]["paced"]
    summary = {
        "quick": quick, "tables_for_cpu": top, "tables_largest": last, "tables_per_game": game_tables,
        "cpu_us_per_action": server_us,
        "cpu_us_per_action_2nd_half": sat_top.get("cpu_us_per_action_2nd_half"),
        "echo_cpu_us_per_message": round(echo_per_msg, 2) if echo_per_msg else None,
        "echo_cpu_us_per_action": echo_per_action,
        "cpu_ratio_echo_over_server": ratio,
        "kernel_percent": sat_top.get("kernel_percent"),  # of the server's CPU at that size
        "echo_kernel_percent": echo_kernel,
        **per_game,
        "actions_per_s": {n: results["levels"][n]["saturated"]["actions_per_s"] for n in sizes},
        "p99_ms_saturated": {n: results["levels"][n]["saturated"]["rtt_p99_ms"] for n in sizes},
        "p99_ms_paced": {n: results["levels"][n]["paced"]["rtt_p99_ms"] for n in sizes},
        "p99_ms_paced_largest": paced_last["rtt_p99_ms"],
        "gen_lag_p99_ms_paced_largest": paced_last["gen_lag_p99_ms"],
        "others_core_percent_paced_largest": paced_last["others_core_percent"],
        "offset_err_p99_ms": {n: results["levels"][n]["paced"]["offset_err_p99_ms"] for n in sizes},
        "offset_err_p99_ms_saturated": {n: results["levels"][n]["saturated"]["offset_err_p99_ms"] for n in sizes},
        "pings_per_s_idle": idle["pings_per_s"],
        "spectator_core_percent_each_paced": spectators["core_percent"],
        "spectator_cpu_us_per_action_each_paced": spectators["us_per_action"],
        "idle_tables": idle_tables,
        "idle_tables_core_percent": idle["cpu_core_percent"],
        "refused_honest_largest": paced_last["refused_honest"] + results["levels"][last]["saturated"]["refused_honest"],
        "late_answers_largest": paced_last["late_answers"] + results["levels"][last]["saturated"]["late_answers"],
        "claims_largest": paced_last["claims"] + results["levels"][last]["saturated"]["claims"],
        "rss_mb_largest": paced_last["rss_mb"],
    }
    print(json.dumps(summary))
    empty = [name for name, figures in nothing_measured(results, games, echo_games, e, base, spec)]
    if empty:
        print(f"MEASURED NOTHING: no action in {', '.join(empty)}", file=sys.stderr)
        raise SystemExit(2)


#: Spectators of the paced table.
SPECTATORS = 100


def spectator_cost(base: dict[str, Any], spec: dict[str, Any], n: int) -> dict[str, Any]:
    """What one spectator of a paced table costs the server, from a phase without
    spectators (``base``) and one with ``n`` (each :func:`summarize` figures): ``%`` of a
    core (``core_percent``) and µs of CPU per action of the table (``us_per_action``)."""
    out: dict[str, Any] = {"core_percent": None, "us_per_action": None}
    if base["_actions"] and spec["_actions"]:
        out["core_percent"] = round((spec["cpu_core_percent"] - base["cpu_core_percent"]) / n, 4)
        out["us_per_action"] = round((1e6 * spec["_cpu_s"] / spec["_actions"]
                                      - 1e6 * base["_cpu_s"] / base["_actions"]) / n, 1)
    return out


def nothing_measured(results: dict[str, Any], *phases: Any) -> list[tuple[str, Any]]:
    """The phases (``(name, figures)``) in which no action was acked."""
    out = []
    for n, level in results["levels"].items():
        for mode, figures in level.items():
            if not figures["_actions"]:
                out.append((f"{n} tables {mode}", figures))
    games, echo_games, echo_top, base, spec = phases
    for game in GAMES:
        if not games[game]["_actions"]:
            out.append((game, games[game]))
        if not echo_games[game]["_actions"]:
            out.append((f"echo of {game}", echo_games[game]))
    for name, figures in (("echo", echo_top), ("paced table", base), ("paced table with spectators", spec)):
        if not figures["_actions"]:
            out.append((name, figures))
    return out


@defer.inlineCallbacks
def measure_echo(load: Load, port: int, pid: int, n: int, seconds: float) -> Any:
    """The bare echo at ``port`` (process ``pid``) driven by ``n`` tables of
    ``load.seats`` seats for ``seconds``: ``cpu_us_per_action``, ``kernel_percent``,
    ``actions_per_s`` and ``_actions``."""
    load.mode = "echo"
    yield open_tables(load, port, n)
    yield sleep(1.0)
    cpu0, k0 = proc_cpu_s(pid), proc_cpu_s(pid, True)
    load.stats.reset()
    t0 = time.monotonic()
    yield sleep(seconds)
    cpu = proc_cpu_s(pid) - cpu0
    wall = time.monotonic() - t0
    acts = load.stats.actions
    out = {"cpu_us_per_action": round(1e6 * cpu / acts, 1) if acts else None,
           "kernel_percent": round(100 * (proc_cpu_s(pid, True) - k0) / cpu, 1) if cpu else None,
           "actions_per_s": acts / wall, "_actions": acts}
    yield close_tables(load)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="smaller and shorter (< 1 min)")
    p.add_argument("--no-delta", action="store_true",
                   help="seats do not ask for delta updates (whole views, as old clients)")
    p.add_argument("--profile", metavar="FILE",
                   help="run the server under cProfile, its stats written to FILE at the end")
    p.add_argument("--sizes", help="only these table counts (comma-separated), then stop")
    p.add_argument("--tmp-dir", default="/var/tmp",
                   help="where the server's data directory goes (default /var/tmp: a real disk, every "
                        "fsync real; /dev/shm shows what the disk costs)")
    p.add_argument("--workers", type=int, default=4,
                   help="generator processes sharing the seats of the 1-200 table phases (default 4; "
                        "1 = all seats in this process)")
    p.add_argument("--echo-server", type=int, metavar="BYTES", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.echo_server is not None:
        echo_main(args.echo_server)
        return
    task.react(lambda _r: main_run(args))


if __name__ == "__main__":
    main()
