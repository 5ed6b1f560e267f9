"""Freed surfaces go back to the system (Linux with glibc only).

A window's widgets and effects allocate surfaces of several MB each (a pygame_gui panel
draws its rounded corners on a larger canvas first) and free them when they are rebuilt.
glibc serves a block of that size by ``mmap`` at first, but each one freed raises its
*dynamic* mmap threshold (up to 32 MB), so later ones come from the heap, whose freed
pages are only returned once the top of the heap is free: a client that hosted and played
for half an hour held 600-900 MB it no longer used. Fixing the thresholds turns the
dynamic rule off: every block above :data:`MMAP_THRESHOLD_BYTES` is mapped and unmapped
on its own, and the heap is trimmed once :data:`TRIM_THRESHOLD_BYTES` are free at its top.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import sys

#: Blocks at least this big (bytes) are mapped on their own and unmapped when freed.
MMAP_THRESHOLD_BYTES = 256 * 1024
#: The heap gives back its free top once it is this big (bytes).
TRIM_THRESHOLD_BYTES = 1024 * 1024
_M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3


def return_freed_memory() -> bool:
    """Set glibc's mmap and trim thresholds for this process (see the module's
    docstring). Returns False where there is no glibc (other systems, musl), where it
    does nothing."""
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c") or "libc.so.6"
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and \
        bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES))


def trim() -> bool:
    """Give the heap's free pages back to the system now (``malloc_trim``): a screen
    that closes (a match's table, a lobby) frees thousands of small surfaces at once,
    scattered through the heap where the threshold alone cannot return them. Takes a
    few ms; False where there is no glibc."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.malloc_trim(0))
    except (OSError, AttributeError):
        return False
