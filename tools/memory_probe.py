"""Where a hosting client's memory goes over many matches: one ``mafia-table`` (its embedded
server hosting) plays every game against bots, cycle after cycle, and after each match
prints its RSS, what ``malloc_trim`` gives back, and its card-art and text caches; with
``--trace`` the Python call sites whose live allocations grew between the end of the
second cycle and the end of the last. Not part of the game; a tool to find what
``benchmarks/evening.py``'s ``rss_mb_per_hour`` measures.

    python -m tools.memory_probe --cycles 4 [--trace] [--games omerta,mafiosi]
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir)
import argparse
import json
import tempfile
import time
from pathlib import Path

from tools.puppet_driver import Puppet, free_port, on_table, wait

TITLES = {"omerta": "Omerta", "famiglia": "Famiglia", "family_business": "Family Business", "mafiosi": "Mafiosi"}
SEATS = {"omerta": 4, "famiglia": 2, "family_business": 4, "mafiosi": 4}
SHORT = {"omerta": {"rounds": 1}, "mafiosi": {"rounds": 1}}


def present(p: Puppet, text: str) -> bool:
    return any(b["text"] == text for b in p.state().get("buttons", []))


def click(p: Puppet, text: str, until, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if present(p, text):
            p.ask(op="click", text=text)
            if wait(lambda: until(p.state()), 5, 0.1):
                return
        time.sleep(0.2)
    raise SystemExit(f"memory_probe: {text!r} did not work; state {p.state()}")


def one_match(h: Puppet, game: str, n: int) -> None:
    wait(lambda: h.state().get("scene") == "MenuScene", 30, 0.2)
    click(h, "Host a table", lambda s: s.get("scene") == "HostScene")
    h.ask(op="choose", dropdown=0, text=TITLES[game])
    time.sleep(0.8)
    h.ask(op="choose", dropdown=1, text=str(SEATS[game]))
    time.sleep(0.8)
    h.ask(op="set_entry", text=f"{game} {n}")
    time.sleep(0.3)
    click(h, "Open the table", lambda s: s.get("scene") == "LobbyScene")
    if game in SHORT:
        h.ask(op="table_options", options=SHORT[game])
        time.sleep(0.5)
    click(h, "Fill with bots", lambda s: any(b["text"] == "Start the match" for b in s.get("buttons", [])))
    click(h, "Start the match", on_table)
    h.ask(op="autoplay", on=True, seed=n, think_s=0.1)
    for _ in range(3000):
        st = h.state()
        texts = {b["text"] for b in st.get("buttons", [])}
        if "The final reveal" in texts:
            h.ask(op="click", text="The final reveal")
        elif "Back to the menu" in texts:
            h.ask(op="autoplay", on=False)
            h.ask(op="click", text="Back to the menu")
            if wait(lambda: h.state().get("scene") == "MenuScene", 10, 0.2):
                return
        time.sleep(0.3)
    raise SystemExit(f"memory_probe: {game} did not end; state {h.state()}")


def leaks(path: Path, top: int = 25) -> None:
    """What was allocated while recording and is still allocated, by call site (MB)."""
    from collections import defaultdict

    import memray

    by: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    total = 0
    for rec in memray.FileReader(str(path)).get_leaked_allocation_records(merge_threads=True):
        total += rec.size
        try:
            frames = list(rec.hybrid_stack_trace(max_stacks=14))
        except Exception:  # noqa: BLE001
            frames = list(rec.stack_trace(max_stacks=14))
        key = " <- ".join(f"{f[0]}@{str(f[1]).rsplit('/', 1)[-1]}:{f[2]}" for f in frames[:14])
        by[key][0] += rec.size / 2**20
        by[key][1] += 1
    print(f"still allocated: {total / 2**20:.1f} MB")
    for key, (mb, n) in sorted(by.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{mb:7.2f} MB {n:6d}  {key}")


def main() -> int:
    p = argparse.ArgumentParser(prog="tools.memory_probe")
    p.add_argument("--cycles", type=int, default=4)
    p.add_argument("--games", default=",".join(TITLES))
    p.add_argument("--trace", action="store_true", help="tracemalloc diff of the last cycles")
    p.add_argument("--size", default="1280x720")
    p.add_argument("--memray", metavar="FILE", help="record (memray) from the end of the first match to the "
                                                    "end of the first cycle, then print what stayed allocated")
    args = p.parse_args()
    games = args.games.split(",")
    work = Path(tempfile.mkdtemp(prefix="memprobe-"))
    port = free_port()
    h = Puppet("Host", work, [], {"server": {"discovery_port": 0, "port": port}, "bots": {"think_ms": 50},
                                  "web": {"enabled": False}}, size=args.size)
    h.start()
    rows = []
    try:
        wait(lambda: h.state().get("scene") == "MenuScene", 30)
        n = 0
        for cycle in range(1, args.cycles + 1):
            for game in games:
                n += 1
                one_match(h, game, n)
                k = h.ask(op="census", top=0)
                t = h.ask(op="trim")
                row = {"cycle": cycle, "game": game, "rss": k["rss_mb"], "trimmed": t["after_mb"],
                       "art": k["art_mb"], "text": k["text_mb"], "fonts": k["fonts"],
                       "gui_fonts": k.get("gui_fonts"), "objects": k["objects"]}
                rows.append(row)
                print(json.dumps(row), flush=True)
                if args.memray and n == 1:
                    h.ask(op="memray", action="start", path=str(Path(args.memray).resolve()))
                if args.memray and n == len(games):
                    h.ask(op="memray", action="stop")
                    leaks(Path(args.memray))
            if args.trace and cycle == 1:  # what the first use of each game allocates is not traced
                h.ask(op="tracemalloc", action="start")
            if args.trace and cycle == 2:
                print(json.dumps(h.ask(op="tracemalloc", action="mark")), flush=True)
        if args.trace:
            print(json.dumps(h.ask(op="tracemalloc", action="diff", top=30), indent=1), flush=True)
    finally:
        h.ask(op="quit")
        time.sleep(1)
        h.stop()
    if not rows:
        raise SystemExit("memory_probe: no match measured")
    print(f"logs in {work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
