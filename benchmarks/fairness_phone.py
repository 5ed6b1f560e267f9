"""Fairness for phones: the phone page's own stamping code in headless Chromium, on a
Wi-Fi-like path, racing a near client with the same reflexes: a phone must not lose races
for its slower link (docs/PROTOCOL.md "Web controller", "What a client must stamp"). A
script, not a test.

    .venv/bin/python benchmarks/fairness_phone.py [--races N] [--quick]

A real ``mafia-server`` process with its phone page (``--web-port 0``); three seats of
one Omerta table (20 rounds):

* **phone** (seat 0): the real page (``server/web/static/app.js``) in headless Chromium
  (Debian's ``chromium`` + ``chromium-driver``, selenium), loaded and connected *through*
  a latency relay (``tools/relay.py``): **22 ms down, 38 ms up, each ±15 ms** -- 30 ms
  one-way on average with path asymmetry, so the clock offset the server estimates from
  round trips is 8 ms off. Its clock sync is the page's (``pong.tc`` =
  ``performance.now()``), its ``t_shown`` the page's animation-frame stamp. A small
  "thumb" script plays its turns and, ``r`` ms after the page stamped a snap window's
  card as shown, dispatches a ``pointerdown`` on the page's SNAP button: the page stamps
  ``t_press`` = ``event.timeStamp`` and sends the claim itself.
* **near** (seat 1): a plain client (``client.net``) through a 1 ms relay; it stamps
  ``t_shown`` when the window's update arrives and presses ``r'`` ms later.
* **dealer** (seat 2): a plain client that plays its turns and passes every window.

Every snap window is an *equal* race: ``r`` and ``r'`` come from the same distribution
(``fairness_player.draw_reaction``, N(250, 40) ms), windows ``2k`` and ``2k+1`` swapping
the same two draws, so the truth gives each player 50 %. A race's truth is the smaller
*actual* reaction (``t_press - t_shown`` as each really happened, timer lateness
included); the server's decision is the first claim it applied (the window's first
``snap`` event). Printed: the phone's share of the races by the server's decision
(``phone_share_equal``: within 3 % of the truth of the same races), by the truth
(``phone_share_equal_truth``, and whether it lies within its 95 % interval of one half),
how often the server agreed with the truth, and how late each side's timer pressed; the
last line is one JSON object. Exits 2 when fewer races than asked were judged.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)

from fairness_player import draw_reaction  # noqa: E402
from fairness_report import percentile, share_in_interval  # noqa: E402

PHONE_DOWN_MS, PHONE_UP_MS, PHONE_JITTER_MS = 22.0, 38.0, 15.0
NEAR_MS = 1.0
TURN_ACTIONS = ("peek", "discard_drawn", "decline", "draw_deck", "end_turn", "hitwoman_pass")

#: The phone's thumb: plays its turns, and presses SNAP r ms after the page's t_shown.
THUMB_JS = """
const plan = arguments[0];
window.__presses = [];
const done = new Set();
document.addEventListener('mafia:shown', (ev) => {
  const wid = ev.detail.window, tShown = ev.detail.t_shown, S = window.__mafia;
  const w = S.view && S.view.window;
  if (!w || w.kind !== 'snap' || done.has(wid) || !S.legal.some((a) => a.type === 'snap')) return;
  done.add(wid);
  const r = plan[String(wid)];
  if (r === undefined) return;
  setTimeout(() => {
    const b = document.querySelector('button[data-claim][data-type="snap"]:not([disabled])');
    if (!b) { window.__presses.push({window: wid, missed: true}); return; }
    const down = new PointerEvent('pointerdown', {bubbles: true, cancelable: true, pointerType: 'touch'});
    b.dispatchEvent(down);
    window.__presses.push({window: wid, r: r, t_shown: tShown, t_press: down.timeStamp});
  }, Math.max(0, tShown + r - performance.now()));
});
setInterval(() => {
  const S = window.__mafia;
  if (!S.view || S.busy || (S.view.window && S.legal.some((a) => a.type === 'snap'))) return;
  for (const kind of %s) {
    const a = S.legal.find((x) => x.type === kind);
    if (a) { window.__mafiaSend(a, performance.now()); return; }
  }
}, 25);
""" % json.dumps(list(TURN_ACTIONS))


def reactions(seed: int, wid: int) -> tuple[float, float]:
    """``(phone, near)`` reaction ms of window ``wid``: an antithetic pair of draws."""
    pair = random.Random(f"{seed}/phone-pair/{wid // 2}")
    a, b = draw_reaction(pair), draw_reaction(pair)
    return (a, b) if wid % 2 == 0 else (b, a)


class Seat:
    """A plain client seat (``near`` or ``dealer``) run in the reactor thread."""

    def __init__(self, bench: "PhoneBench", role: str):
        self.bench = bench
        self.role = role
        self.proto: Any = None
        self.table: int | None = None
        self.busy = False
        self.wait_step = 0
        self.last: dict[str, Any] | None = None
        self.claimed: set[int] = set()
        self.started = threading.Event()

    def on_message(self, msg: dict[str, Any]) -> None:
        from client.net import now_ms

        t = now_ms()
        kind = msg.get("type")
        if kind not in ("match_started", "update") or msg.get("table") != self.table:
            if kind == "claim_result" and self.role == "near":
                self.bench.near_results[msg.get("window")] = msg
            return
        self.started.set()
        if self.role == "dealer":
            for e in msg.get("events", []):
                if e.get("type") == "snap":
                    self.bench.applied.setdefault(e["window"], []).append(e["seat"])
        self.last = msg
        w = (msg.get("view") or {}).get("window")
        if (self.role == "near" and w and w.get("kind") == "snap" and w["window"] not in self.claimed
                and any(a["type"] == "snap" for a in msg.get("legal", []))):
            wid = w["window"]
            self.claimed.add(wid)
            r = reactions(self.bench.seed, wid)[1]
            action = next(a for a in msg["legal"] if a["type"] == "snap")
            self.bench.reactor.callLater(max(0.0, (t + r - now_ms()) / 1000.0), self.press, wid, action, t, r)
            return
        self.play()

    def on_disconnect(self, reason: Any) -> None:
        pass

    def press(self, wid: int, action: dict[str, Any], t_shown: float, r: float) -> None:
        from client.net import now_ms

        t_press = now_ms()
        self.bench.near_presses[wid] = {"r": r, "t_shown": t_shown, "t_press": t_press}
        self.proto.send_action(self.table, action, t_press=t_press, t_shown=t_shown).addErrback(lambda f: None)

    def play(self) -> None:
        msg = self.last
        if msg is None or self.busy or msg.get("step", 0) < self.wait_step:
            return
        legal = {a["type"]: a for a in msg.get("legal", [])}
        if self.role == "near" and "snap" in legal:
            return  # a claim is planned
        for kind in TURN_ACTIONS + (("snap_pass",) if self.role == "dealer" else ()):
            if kind in legal:
                self.send(legal[kind])
                return

    def send(self, action: dict[str, Any]) -> None:
        self.busy = True
        based_on = self.last.get("step", 0) if self.last else 0
        d = self.proto.send_action(self.table, action)

        def done(result: Any) -> None:
            self.busy = False
            self.wait_step = int(result.get("step", 0)) if isinstance(result, dict) else based_on + 1
            self.play()

        d.addBoth(done)


class PhoneBench:
    def __init__(self, args: argparse.Namespace):
        from twisted.internet import reactor

        self.args = args
        self.seed = args.seed
        self.reactor = reactor
        self.rng = random.Random(args.seed)
        self.applied: dict[int, list[int]] = {}
        self.near_presses: dict[int, dict[str, Any]] = {}
        self.near_results: dict[int, dict[str, Any]] = {}
        self.near = Seat(self, "near")
        self.dealer = Seat(self, "dealer")

    def relay(self, port: int, down: float, up: float, jitter: float) -> int:
        from tools.relay import DelayRelay

        def delay(base: float):
            return lambda: max(0.0, base + self.rng.uniform(-jitter, jitter))

        f = DelayRelay(self.reactor, "127.0.0.1", port, delay(up), delay(down))
        return self.reactor.listenTCP(0, f, interface="127.0.0.1").getHost().port

    def run(self) -> dict[str, Any]:
        from twisted.internet import threads

        from client.net import connect
        from tools.screenshots_phone import ServerProcess, close_phone, join_seat, open_phone

        server = ServerProcess(testing=True)
        thread = threading.Thread(target=self.reactor.run, kwargs={"installSignalHandlers": False}, daemon=True)
        thread.start()
        call = lambda f, *a, **kw: threads.blockingCallFromThread(self.reactor, f, *a, **kw)  # noqa: E731
        phone = None
        t0 = time.monotonic()
        try:
            web = call(self.relay, server.web_port, PHONE_DOWN_MS, PHONE_UP_MS, PHONE_JITTER_MS)
            near_port = call(self.relay, server.port, NEAR_MS, NEAR_MS, 0.0)
            self.dealer.proto = call(connect, self.reactor, "127.0.0.1", server.port, "Dealer", listener=self.dealer)
            self.near.proto = call(connect, self.reactor, "127.0.0.1", near_port, "Near", listener=self.near)
            reply = call(self.dealer.proto.request, "create_table", game="omerta", seats=3, name="Race",
                         options={"rounds": 20, "seed": self.seed, "snap_timeout_ms": 3000})
            table, room = reply["table"]["id"], reply["table"]["room"]
            self.near.table = self.dealer.table = table
            call(self.dealer.proto.request, "join", table=table, seat=2)
            call(self.near.proto.request, "join", table=table, seat=1)
            phone = open_phone()
            plan = {str(w): reactions(self.seed, w)[0] for w in range(1, 6000)}
            join_seat(phone, f"http://127.0.0.1:{web}/?room={room}", "Phone", 0)
            phone.execute_script(THUMB_JS, plan)
            print(f"  racing after {time.monotonic() - t0:.1f} s", file=sys.stderr, flush=True)
            deadline = time.monotonic() + self.args.max_s
            last = 0.0
            while time.monotonic() < deadline:
                presses = phone.execute_script("return window.__presses")
                races = self.races(presses)
                if len(races) >= self.args.races:
                    break
                if time.monotonic() - last > 20:
                    last = time.monotonic()
                    print(f"  {last - t0:.0f} s: {len(races)} races", file=sys.stderr, flush=True)
                time.sleep(1.0)
            presses = phone.execute_script("return window.__presses")
            refused = phone.execute_script(
                "return window.__received.filter(m => m.type === 'claim_result' && m.outcome === 'refused').length")
            offsets = phone.execute_script(
                "return window.__received.filter(m => m.type === 'clock').map(m => m.rtt_ms)")
        finally:
            if phone is not None:
                close_phone(phone)
            self.reactor.callFromThread(self.reactor.stop)
            thread.join(10)
            server.stop()
        return self.report(self.races(presses), refused, offsets, time.monotonic() - t0)

    def races(self, presses: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        out = []
        near_seat, phone_seat = 1, 0
        for p in presses or []:
            wid = p["window"]
            n = self.near_presses.get(wid)
            applied = self.applied.get(wid)
            if p.get("missed") or n is None or not applied or applied[0] not in (near_seat, phone_seat):
                continue
            actual_phone = p["t_press"] - p["t_shown"]
            actual_near = n["t_press"] - n["t_shown"]
            out.append({"window": wid, "phone_r": actual_phone, "near_r": actual_near,
                        "truth": "phone" if actual_phone < actual_near else "near",
                        "server": "phone" if applied[0] == phone_seat else "near",
                        "phone_late": actual_phone - p["r"], "near_late": actual_near - n["r"]})
        return out

    def report(self, races: list[dict[str, Any]], refused: int, rtts: list[float], wall: float) -> dict[str, Any]:
        n = len(races)
        out: dict[str, Any] = {"races_phone": n, "phone_refused": refused, "phone_wall_s": round(wall, 1)}
        if not n:
            print("no race was judged", file=sys.stderr)
            return out
        share = sum(r["server"] == "phone" for r in races) / n
        truth = sum(r["truth"] == "phone" for r in races) / n
        agree = sum(r["server"] == r["truth"] for r in races) / n
        late = sorted(r["phone_late"] for r in races)
        near_late = sorted(r["near_late"] for r in races)
        out.update(phone_share_equal=round(share, 4), phone_share_equal_truth=round(truth, 4),
                   phone_share_equal_truth_in_ci=share_in_interval(truth, n),
                   phone_correct_equal=round(agree, 4),
                   phone_timer_late_p50_ms=round(percentile(late, 50), 2),
                   phone_timer_late_p99_ms=round(percentile(late, 99), 2),
                   phone_near_late_p50_ms=round(percentile(near_late, 50), 2),
                   phone_near_late_p99_ms=round(percentile(near_late, 99), 2))
        if rtts:
            out["phone_rtt_ms"] = round(sorted(rtts)[len(rtts) // 2], 1)
        print(f"\n== phone: page in headless Chromium, {PHONE_DOWN_MS:g} ms down / {PHONE_UP_MS:g} ms up "
              f"±{PHONE_JITTER_MS:g} ms; near {NEAR_MS:g} ms; {n} equal races")
        print(f"the phone wins {100 * share:.1f} % (truth of the same races {100 * truth:.1f} %, 95 % interval "
              f"of one half ±{196 * (0.25 / n) ** 0.5:.1f} %); the server agrees with the truth in "
              f"{100 * agree:.1f} %; claims refused {refused}; phone RTT median {out.get('phone_rtt_ms')} ms")
        print(f"presses later than planned (the truth counts them as they happened): phone's timer p50 "
              f"{out['phone_timer_late_p50_ms']} ms, p99 {out['phone_timer_late_p99_ms']} ms; near's p50 "
              f"{out['phone_near_late_p50_ms']} ms, p99 {out['phone_near_late_p99_ms']} ms")
        return out


def measure(races: int, seed: int = 1, max_s: float = 300.0) -> dict[str, Any]:
    """Run the phone races in this process (it must not run a Twisted reactor yet) and
    return the figures (``phone_share_equal``, ...)."""
    args = argparse.Namespace(races=races, seed=seed, max_s=max_s)
    return PhoneBench(args).run()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="60 races")
    p.add_argument("--races", type=int, default=None, help="equal races to judge (default 400; quick 60)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-s", type=float, default=None, help="stop after this many seconds anyway")
    args = p.parse_args()
    args.races = args.races or (60 if args.quick else 400)
    args.max_s = args.max_s or (90.0 if args.quick else 420.0)
    from tools.screenshots_phone import chromium_available

    if not chromium_available():
        print("fairness_phone: needs chromium, chromium-driver and selenium", file=sys.stderr)
        raise SystemExit(2)
    out = PhoneBench(args).run()
    print(json.dumps(out, sort_keys=True), flush=True)
    if out.get("races_phone", 0) < args.races:
        print(f"MEASURED TOO LITTLE: {out.get('races_phone', 0)} phone races judged of {args.races} asked",
              file=sys.stderr)
        raise SystemExit(2)


if __name__ == "__main__":
    main()
