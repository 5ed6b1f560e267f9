"""What the server takes from the C library and from its reactor, looked up once.

* :func:`libc_function` -- a glibc function through ``ctypes`` (Linux only), for the
  system calls the standard library lacks (``syncfs``, ``malloc_trim``).
* :func:`per_clock` -- one object per clock (reactor or test ``task.Clock``), kept as
  long as that clock lives: the group commit, the output flush, the ping wheel.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import sys
import weakref
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def libc_function(name: str, argtypes: list[Any], restype: Any) -> Callable[..., Any] | None:
    """The C library's ``name`` with its argument and result types set (``errno`` kept
    for ``ctypes.get_errno``), or None off Linux or when the library lacks it."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        call = getattr(libc, name)
    except (OSError, AttributeError):
        return None
    call.argtypes = argtypes
    call.restype = restype
    return call


def per_clock(cache: "weakref.WeakKeyDictionary[Any, T]", clock: Any, make: Callable[[Any], T]) -> T:
    """``cache[clock]``, made by ``make(clock)`` the first time."""
    try:
        return cache[clock]
    except KeyError:
        made = cache[clock] = make(clock)
        return made
