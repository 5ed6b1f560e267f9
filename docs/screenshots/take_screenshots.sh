#!/usr/bin/env bash
# Screenshots of the real client under Xvfb, driven like a player would drive it
# (tools/screenshots.py): main menu, lobby, join screen with a server found by LAN discovery,
# the peek, a drawn card, a snap flying to the pile, the table mid-round, round results,
# settings, couch setup, couch table and the hand-over screen; then the host screen with
# Famiglia, a Famiglia table mid-game (with a spectator watching) and its results, a table
# watched as a spectator from the join screen, a replay mid-way, the "reconnecting"
# overlay after the player's connection is cut (then back at the table), and a real
# mafia-server killed mid-match and restarted on its data directory.
#
#   docs/screenshots/take_screenshots.sh [OUT_DIR]     (default: shots/)
#
# Writes OUT_DIR/1280x720/*.png (a 1280x720 window) and OUT_DIR/1920x1080-fullscreen/*.png.
# Needs Xvfb and ImageMagick's `import` (falls back to pygame's copy of the window).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${1:-shots}"
PY="${PYTHON:-.venv/bin/python}"

free_display() {  # a display number nobody else on this machine uses
  local n
  for n in $(seq 140 199); do
    if [ ! -e "/tmp/.X${n}-lock" ] && [ ! -e "/tmp/.X11-unix/X${n}" ]; then echo "$n"; return; fi
  done
  echo "no free X display" >&2; exit 1
}

run() {  # run SCREEN_SIZE OUT_SUBDIR PORT ARGS...
  local size="$1" sub="$2" port="$3"; shift 3
  local n; n=$(free_display)
  Xvfb ":$n" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
  local xpid=$!
  trap 'kill $xpid 2>/dev/null || true' RETURN
  for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
  DISPLAY=":$n" SDL_AUDIODRIVER=dummy "$PY" -m tools.screenshots --out "$OUT/$sub" --port "$port" "$@"
}

run 1280x720 1280x720 7860 --size 1280x720
run 1920x1080 1920x1080-fullscreen 7880 --fullscreen
echo "screenshots in $OUT/"
