"""A copy-on-write ``random.Random`` for match states.

Every ``apply`` clones the match state, and a state owns the match's random generator
(RULES.md §0.2 item 2). Copying a Mersenne Twister (``getstate``/``setstate``: 625
words) on every action cost about half of an Omerta ``apply``, although the engines draw
only a few times per round. :class:`CowRandom` lets a state and its clones share one
generator until one of them draws; only then does the drawing side take its own copy.

It draws exactly the numbers a plain ``random.Random(seed)`` draws (every method is the
generator's own), so a match replays from its seed and log as before. It pickles, copies
and deep-copies as the generator's real state (``__getstate__`` is
``random.Random.getstate()``), so a snapshot of a state still sees every draw.
"""
from __future__ import annotations

import random
from typing import Any, cast

__all__ = ["CowRandom", "fork"]


def _copy_of(gen: random.Random) -> random.Random:
    """A generator in ``gen``'s state (a plain ``random.Random``). Made without
    seeding (``__new__``: its state is replaced at once), a quarter of the copy's cost:
    Omerta copies at every round start."""
    new = random.Random.__new__(random.Random)
    new.setstate(gen.getstate())
    return new


class CowRandom:
    """``random.Random(seed)``, shared copy-on-write with its :meth:`clone`\\ s.

    ``clone()`` is O(1): both sides keep the same generator and forget that they own it;
    the first of them to draw (or to ``seed``/``setstate``) copies it first. Reading the
    state (``getstate``, pickling) never copies.
    """

    __slots__ = ("_gen", "_own")

    def __init__(self, seed: Any = None) -> None:
        self._gen = random.Random(seed)
        self._own = True

    @classmethod
    def adopt(cls, gen: "CowRandom | random.Random") -> "CowRandom":
        """``gen`` itself when it is a CowRandom; else a CowRandom drawing from ``gen``
        (not a copy: what a state built with ``rng=random.Random(seed)`` draws is what
        that generator draws, as before)."""
        if type(gen) is cls:
            return gen
        c = cls.__new__(cls)
        c._gen = cast(random.Random, gen)  # (type(gen) is cls does not narrow the else)
        c._own = True
        return c

    @classmethod
    def wrap(cls, gen: random.Random) -> "CowRandom":
        """A CowRandom continuing from a copy of ``gen``'s state (``gen`` untouched)."""
        c = cls.__new__(cls)
        c._gen = _copy_of(gen)
        c._own = True
        return c

    def clone(self) -> "CowRandom":
        """An independent generator in the same state, without copying it yet."""
        c = CowRandom.__new__(CowRandom)
        c._gen = self._gen
        c._own = self._own = False
        return c

    def _mine(self) -> random.Random:
        """The generator, copied first if it is shared."""
        if not self._own:
            self._gen = _copy_of(self._gen)
            self._own = True
        return self._gen

    # -- the random.Random methods the engines and tests use ---------------------------
    def random(self) -> float:
        return self._mine().random()

    def getrandbits(self, k: int) -> int:
        return self._mine().getrandbits(k)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return self._mine().randrange(start, stop, step)

    def randint(self, a: int, b: int) -> int:
        return self._mine().randint(a, b)

    def choice(self, seq: Any) -> Any:
        return self._mine().choice(seq)

    def choices(self, population: Any, weights: Any = None, *, cum_weights: Any = None,
                k: int = 1) -> list:
        return self._mine().choices(population, weights, cum_weights=cum_weights, k=k)

    def shuffle(self, x: list) -> None:
        self._mine().shuffle(x)

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list:
        return self._mine().sample(population, k, counts=counts)

    def uniform(self, a: float, b: float) -> float:
        return self._mine().uniform(a, b)

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        return self._mine().gauss(mu, sigma)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._gen = random.Random()
        self._own = True
        self._gen.seed(a, version)

    def getstate(self) -> tuple:
        return self._gen.getstate()

    def setstate(self, state: tuple) -> None:
        self._gen = random.Random(0)
        self._own = True
        self._gen.setstate(state)

    def __getattr__(self, name: str) -> Any:
        # any other random.Random method (betavariate, randbytes, ...): on our own copy
        if name.startswith("__") or name in CowRandom.__slots__:
            raise AttributeError(name)
        return getattr(self._mine(), name)

    # -- pickle / copy: the generator's real state ---------------------------------------
    def __getstate__(self) -> tuple:
        return self._gen.getstate()

    def __setstate__(self, state: tuple) -> None:
        self.setstate(state)

    def __copy__(self) -> "CowRandom":
        return self.clone()

    def __deepcopy__(self, memo: dict) -> "CowRandom":
        return self.clone()

    def __repr__(self) -> str:
        return f"<CowRandom {'own' if self._own else 'shared'} generator at {id(self._gen):#x}>"


def fork(rng: "CowRandom | random.Random") -> CowRandom:
    """The generator for a state's clone: ``rng.clone()``, or a CowRandom copy of a plain
    ``random.Random`` (a state built by hand or unpickled from before CowRandom)."""
    if type(rng) is CowRandom:
        return rng.clone()
    return CowRandom.wrap(cast(random.Random, rng))
