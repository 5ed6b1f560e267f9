"""One simulated player of ``benchmarks/fairness.py``: the real pygame client
(:class:`client.app.App`, its :class:`~client.input.InputSampler` polled every 2 ms, its
frame loop and ``display.flip()``, the Omerta table scene and the kit's claim path),
headless (``SDL_VIDEODRIVER=dummy``), with its own clock origin.

The player's key press is a pygame ``KEYDOWN`` posted into the event queue at its own
``t_shown`` (the kit's stamp of the first frame showing the card) plus a reaction time,
by a thread that sleeps until then -- like a keyboard, outside the client's loop -- and
picked up and stamped by the real sampler. The thread notes the client ms just before
its post (``t_injected``): on a busy machine it wakes late, and that instant, not the
planned one, is when the key really went down (the benchmark's truth);
``inject_late_ms`` is how late it was. Everything else (its turns) it plays at once
through the scene's own ``send``.

Modes:

* ``race`` (``--connect``): joins the table the benchmark names on stdin and, in every
  snap window it may claim, presses after the reaction time of :func:`plan` (shared with
  the benchmark, so both know the truth); a window the plan marks as a lie sends
  ``t_shown`` that many ms later than the truth.
* ``honest``: hosts a 3-seat table with two server bots (on its own embedded server, or
  on ``--connect``) and presses in every snap window at ``t_shown`` + N(250, 40) ms until
  ``--presses`` presses were judged; ``--frame-ms`` makes every frame take that long.

It writes one JSON object per line on stdout: ``ready``, ``press`` (one per claim
sent, with its stamps and outcome; client ms: ``t_shown``, ``t_injected``, ``t_press``),
``done`` (its CPU time).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

GAPS = (1.0, 2.0, 5.0, 10.0, 20.0)
LIES = (10.0, 50.0, 200.0)
MEAN, SD, LOW, HIGH = 250.0, 40.0, 120.0, 450.0


def draw_reaction(rng: random.Random) -> float:
    """A human reaction time (ms): N(250, 40), kept within 120-450 ms."""
    return min(HIGH, max(LOW, rng.gauss(MEAN, SD)))


def plan(seed: int, wid: int, lie_share: float = 0.08, equal_share: float = 0.3) -> dict[str, Any]:
    """What each player does in snap window ``wid`` of a race table: ``kind`` (``gap``,
    ``equal`` or ``lie``) and the reaction of ``near`` and ``far`` (ms after their own
    ``t_shown``); ``gap`` races put ``gap`` ms between them (the quicker one at random);
    ``equal`` races draw both from the same distribution, antithetically (window ``2k``
    and ``2k+1`` swap the same two draws, so the truth gives each player 50 %); ``lie``
    races make ``liar`` send ``t_shown`` ``lie`` ms late, both reacting in 250 ms.
    ``lie_share`` of the windows are lies, ``equal_share`` of the others equal races."""
    rng = random.Random(f"{seed}/{wid}")
    u = rng.random()
    if u < lie_share:
        liar = rng.choice(("near", "far"))
        return {"kind": "lie", "liar": liar, "lie": rng.choice(LIES), "near": MEAN, "far": MEAN}
    if u < lie_share + (1 - lie_share) * equal_share:
        pair = random.Random(f"{seed}/pair/{wid // 2}")
        a, b = draw_reaction(pair), draw_reaction(pair)
        if wid % 2:
            a, b = b, a
        return {"kind": "equal", "near": a, "far": b}
    gap = rng.choice(GAPS)
    first = rng.choice(("near", "far"))
    r0 = min(HIGH - gap, draw_reaction(rng))
    other = "far" if first == "near" else "near"
    return {"kind": "gap", "gap": gap, "first": first, first: r0, other: r0 + gap}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=("race", "honest"), default="race")
    p.add_argument("--connect", help="HOST:PORT (default: an embedded server)")
    p.add_argument("--name", default="player")
    p.add_argument("--role", default="near")
    p.add_argument("--skew", type=float, default=0.0, help="this client's clock origin (ms)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--size", default="640x400")
    p.add_argument("--frame-ms", type=float, default=0.0, help="extra work in every frame (ms)")
    p.add_argument("--presses", type=int, default=1000)
    p.add_argument("--lie-share", type=float, default=0.08)
    p.add_argument("--equal-share", type=float, default=0.3)
    args = p.parse_args()

    import client.net as net

    base_now = net.now_ms
    skew = args.skew

    def now_ms() -> float:  # this player's own clock origin
        return base_now() + skew

    net.now_ms = now_ms  # before the rest of the client binds it
    import client.games.omerta.cards as omerta_cards

    # Workaround for a bug at HEAD (not ours to fix here): cards.token calls
    # _draw_token(s, kind) but it takes (art, s, kind); any Mamma or Police Patrol
    # marker on screen crashes the frame loop. ``art`` is unused by it.
    _draw_token = omerta_cards._draw_token
    omerta_cards._draw_token = lambda *a: _draw_token(None, *a[-2:])
    sys.setswitchinterval(0.0005)  # the key-press thread gets the GIL quickly

    import pygame
    from twisted.internet import reactor

    from client.app import build_app
    from client.table.reactions import ReactionTableScene

    out_lock = threading.Lock()

    def emit(**fields: Any) -> None:
        with out_lock:
            sys.stdout.write(json.dumps(fields) + "\n")
            sys.stdout.flush()

    argv = ["--name", args.name, "--windowed", args.size, "--language", "en",
            "--settings", os.path.join(tempfile.mkdtemp(), "settings.json")]
    if args.connect:
        argv += ["--connect", args.connect]
    app = build_app(argv, reactor)
    app.config["bots"]["think_ms"] = 0  # the embedded server's bots play at once
    app.open_window()
    app.running = True
    rng = random.Random(f"{args.seed}/{args.name}/honest")
    state: dict[str, Any] = {"scene": None, "link": None, "windows": {}, "judged": 0, "sent": 0,
                             "acted_step": None}
    records: dict[tuple[int, int], dict[str, Any]] = {}

    def scene() -> Any:
        top = app.scenes[-1] if app.scenes else None
        for s in app.scenes:
            if isinstance(s, ReactionTableScene):
                return s
        return top if isinstance(top, ReactionTableScene) else None

    # -- the key press, from outside the client's loop ----------------------------------
    def press_at(t_client: float, on_inject: Any) -> None:
        """Post the key at client ms ``t_client`` from a thread of its own; ``on_inject``
        gets the client ms read just before the post and just after it: the key
        really went into the queue between the two, and the sampler cannot stamp it
        before the first (a busy machine wakes this thread late: that is the press's
        real time, and the truth of the race)."""
        def run() -> None:
            while True:
                left = t_client - now_ms()
                if left <= 0:
                    break
                time.sleep(left / 1000.0 - 0.0015 if left > 2.0 else 0.0001)
            before = now_ms()
            on_inject(before, None)
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ",
                                                 scancode=44))
            on_inject(before, now_ms())
            time.sleep(0.06)  # a finger lifts again: without a KEYUP the next press is a repeat
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_SPACE, mod=0, scancode=44))

        threading.Thread(target=run, daemon=True).start()

    # -- what the claim sends (the kit's stamps), and its outcome ------------------------
    def watch_sends(link: Any) -> None:
        conn = link.conn
        real = conn.send_action

        def send_action(table: int, action: dict[str, Any], t_press: float | None = None,
                        t_shown: float | None = None):
            d = real(table, action, t_press=t_press, t_shown=t_shown)
            if action.get("type") == "snap":
                sc = scene()
                wid = (sc.window or {}).get("window") if sc else None
                rec = records.get((table, wid))
                if rec is not None:
                    rec.update(t_press=t_press, t_shown_sent=t_shown, sent_at=now_ms(),
                               offset_ms=conn.offset_ms, rtt_p99_ms=conn.rtt_p99_ms, rtt_ms=conn.rtt_ms)
                    state["sent"] += 1

                    def failed(f: Any, rec: dict[str, Any] = rec) -> None:
                        rec.setdefault("error", getattr(f.value, "code", str(f.value)))
                        rec.setdefault("message", getattr(f.value, "message", ""))
                    d.addErrback(failed)
            return d

        conn.send_action = send_action

    def on_claim_result(msg: dict[str, Any]) -> None:
        rec = records.get((msg.get("table"), msg.get("window")))
        if rec is None or "outcome" in rec:
            return
        rec.update(outcome=msg.get("outcome"), reaction_ms=msg.get("reaction_ms"),
                   latency_ms=msg.get("latency_ms"), message=msg.get("message"))
        emit(ev="press", **rec)
        state["judged"] += 1
        if args.mode == "honest" and state["judged"] >= args.presses:
            finish()

    # -- every frame: play the turns, and press in the windows ---------------------------
    def after_frame() -> None:
        sc = scene()
        if sc is None or not sc.links:
            return
        seat = next(iter(sc.links))
        top = app.scenes[-1]
        if top is not sc and hasattr(top, "close") and not getattr(top, "final", False):
            top.close()  # a round's results: next round
        if state["link"] is None:
            state["link"] = sc.links[seat]
            watch_sends(state["link"])
            if args.frame_ms > 0:
                real_draw = sc.draw

                def slow_draw(surface: Any) -> None:
                    time.sleep(args.frame_ms / 1000.0)
                    real_draw(surface)
                sc.draw = slow_draw
        legal = sc.legal.get(seat, [])
        types = {a.get("type"): a for a in legal}
        w = sc.window
        if w and w.get("kind") == "snap" and "snap" in types:
            wid = w["window"]
            key = (sc.table_id, wid)
            shown = sc.window_shown_ms.get(wid)
            if key not in records and shown is not None:
                if args.mode == "race":
                    pl = plan(args.seed, wid, args.lie_share, args.equal_share)
                    r = float(pl[args.role])
                    lie = float(pl["lie"]) if pl["kind"] == "lie" and pl["liar"] == args.role else 0.0
                else:
                    pl, r, lie = {"kind": "honest"}, draw_reaction(rng), 0.0
                rec = {"role": args.role, "table": sc.table_id, "window": wid, "seat": seat, "kind": pl["kind"],
                       "r": r, "lie": lie, "t_shown": shown, "now_at_plan": now_ms(),
                       "t_arrived": arrived.pop((sc.table_id, wid), None)}
                records[key] = rec
                sc.cursor[seat] = sc.own_cards(seat)[0] if sc.own_cards(seat) else None
                if lie:
                    sc.window_shown_ms[wid] = shown + lie  # the lying client's t_shown
                target = shown + r

                def injected(before: float, after: float | None, rec: dict[str, Any] = rec,
                             target: float = target) -> None:
                    rec["t_injected"] = before  # the press's truth (client ms)
                    state["injected"] = rec
                    rec["inject_late_ms"] = before - target  # the harness's own lateness
                    if after is not None:
                        rec["inject_span_ms"] = after - before  # how long the post itself took
                press_at(target, injected)
            return
        step = state["link"].steps.get(sc.table_id)
        for kind in ("peek", "discard_drawn", "decline", "draw_deck", "end_turn", "hitwoman_pass", "snap_pass"):
            if kind in types:
                if state["acted_step"] == (sc.table_id, step, kind):
                    return
                state["acted_step"] = (sc.table_id, step, kind)
                sc.send(seat, types[kind])
                return

    # -- the sampler's own timing: what the main thread did while a key waited ----------
    real_poll = app.sampler.poll
    last_poll = {"t": now_ms(), "cpu": time.thread_time()}

    def poll(floor_ms: float = 0.0) -> list[Any]:
        t, cpu = now_ms(), time.thread_time()
        events = real_poll(floor_ms)
        rec = state.get("injected")
        if rec is not None and any(e.type == pygame.KEYDOWN for e, _ in events):
            # the gap since the previous poll, and the main thread's CPU in it: a gap
            # spent computing is the client's own work (a frame); a gap without CPU is
            # a thread that did not run (the machine was busy)
            rec["poll_gap_ms"] = t - last_poll["t"]
            rec["poll_gap_cpu_ms"] = (cpu - last_poll["cpu"]) * 1000.0
            state["injected"] = None
        last_poll["t"], last_poll["cpu"] = now_ms(), time.thread_time()
        return events

    app.sampler.poll = poll  # type: ignore[method-assign]
    real_render = app.display.render

    def render(dt: float, flip: bool = True) -> None:
        real_render(dt, flip)
        try:
            after_frame()
        except Exception as e:  # keep playing; say why
            print(f"{args.name}: {type(e).__name__}: {e}", file=sys.stderr, flush=True)

    app.display.render = render  # type: ignore[method-assign]
    real_route = app.connections.route

    def route(link: Any, msg: dict[str, Any]) -> None:
        if msg.get("type") == "update":  # when a window's card reached this client (client ms)
            for e in msg.get("events") or ():
                if e.get("type") == "window_opened":
                    arrived.setdefault((msg.get("table"), e.get("window")), now_ms())
        real_route(link, msg)
        if msg.get("type") == "claim_result":
            on_claim_result(msg)
        elif msg.get("type") == "match_over" and args.mode == "honest" and state["judged"] < args.presses:
            host(link)  # another match

    app.connections.route = route  # type: ignore[method-assign]
    arrived: dict[tuple[Any, Any], float] = {}

    def finish() -> None:
        import resource

        ru = resource.getrusage(resource.RUSAGE_SELF)
        emit(ev="done", cpu_s=ru.ru_utime + ru.ru_stime, wall_s=time.perf_counter() - t_start,
             frames=len(app.frame_times_ms), frame_ms_p50=sorted(app.frame_times_ms)[len(app.frame_times_ms) // 2]
             if app.frame_times_ms else None, judged=state["judged"], sent=state["sent"])
        if not app.running:
            return  # finished already (a stop and the end of stdin both ask)
        app.running = False
        reactor.callLater(0.05, lambda: reactor.stop() if reactor.running else None)

    def host(link: Any) -> None:
        d = link.request("create_table", game="omerta", seats=3,
                         options={"rounds": 20})

        def created(reply: dict[str, Any]) -> Any:
            tid = reply["table"]["id"]
            d2 = link.request("join", table=tid, seat=0)
            d2.addCallback(lambda _r: link.request("add_bot", table=tid, seat=1))
            d2.addCallback(lambda _r: link.request("add_bot", table=tid, seat=2))
            return d2
        d.addCallback(created)
        d.addErrback(lambda f: print(f"{args.name}: cannot host: {f.value}", file=sys.stderr, flush=True))

    def control() -> None:
        for line in sys.stdin:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("cmd") == "join":
                reactor.callFromThread(lambda t=msg["table"]: state["main"].request("join", table=t))
            elif msg.get("cmd") == "stop":
                reactor.callFromThread(finish)
        reactor.callFromThread(lambda: finish() if app.running else None)

    t_start = time.perf_counter()

    def started(link: Any) -> None:
        state["main"] = link
        emit(ev="ready", name=args.name)
        if args.mode == "honest":
            host(link)
        threading.Thread(target=control, daemon=True).start()

    def failed(f: Any) -> None:
        print(f"{args.name}: cannot start: {f.value}", file=sys.stderr, flush=True)
        reactor.stop()

    app.start_loops()
    reactor.callWhenRunning(lambda: app.connections.start().addCallbacks(started, failed))
    reactor.run()
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
