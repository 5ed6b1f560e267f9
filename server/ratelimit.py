"""A per-address allowance (a token bucket per address) on the server's clock: how many
wrong room codes one address may try (docs/PROTOCOL.md "Private tables").

Each address starts with ``capacity`` tries; a try spent comes back after
``refill_s`` seconds (one at a time). The allowance is shared by every way of trying a
code -- the phone page's ``GET /api/room/CODE`` and a ``join`` over TCP or the WebSocket
-- so nobody guesses faster by mixing them. Addresses whose allowance is whole again are
forgotten, so the table stays as small as the number of addresses trying right now.
"""
from __future__ import annotations

from typing import Any


class AddressAllowance:
    """``capacity`` tries per address, each given back ``refill_s`` seconds after it was
    spent. ``clock``: an ``IReactorTime`` (``task.Clock`` in tests)."""

    #: Above this many addresses remembered, the ones whose allowance is whole are dropped.
    PRUNE_ABOVE = 1024

    def __init__(self, clock: Any, capacity: int, refill_s: float):
        self.clock = clock
        self.capacity = max(1, int(capacity))
        self.refill_s = float(refill_s)
        #: address -> (tries left, server time from which the next one comes back)
        self._left: dict[Any, tuple[float, float]] = {}

    def _state(self, address: Any) -> tuple[float, float]:
        now = self.clock.seconds()
        left, since = self._left.get(address, (self.capacity, now))
        if left < self.capacity and self.refill_s > 0:
            back = int((now - since) // self.refill_s)
            if back > 0:
                left = min(self.capacity, left + back)
                since += back * self.refill_s
        if left >= self.capacity:
            since = now
        return left, since

    def allowed(self, address: Any) -> bool:
        """Whether ``address`` has a try left (spends nothing)."""
        return self._state(address)[0] >= 1

    def spend(self, address: Any) -> None:
        """``address`` used one try (a wrong code)."""
        left, since = self._state(address)
        self._left[address] = (max(0.0, left - 1), since)
        if len(self._left) > self.PRUNE_ABOVE:
            self._prune()

    def retry_after_s(self, address: Any) -> float:
        """Seconds until ``address`` has a try again (0: it has one now)."""
        left, since = self._state(address)
        if left >= 1:
            return 0.0
        return max(0.0, since + self.refill_s - self.clock.seconds())

    def _prune(self) -> None:
        for address in list(self._left):
            if self._state(address)[0] >= self.capacity:
                del self._left[address]
