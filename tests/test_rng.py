"""shared.rng.CowRandom: the numbers of ``random.Random(seed)``, shared copy-on-write
between a match state and its clones, pickled as the generator's real state."""
from __future__ import annotations

import copy
import pickle
import random

import pytest

from shared.rng import CowRandom, fork


def draws(rng) -> list:
    """One of each method the engines, bots and tests use, in a fixed order."""
    out: list = []
    deck = list(range(60))
    rng.shuffle(deck)
    out.append(deck)
    out.append(rng.randrange(5))
    out.append(rng.randrange(-1, 100))
    out.append(rng.randrange(3, 40, 3))
    out.append(rng.randint(1, 6))
    out.append(rng.random())
    out.append(rng.getrandbits(64))
    out.append(rng.choice("abcdefg"))
    out.append(rng.sample(range(100), 7))
    out.append(rng.sample(["x", "y", "z"], 2, counts=[1, 2, 3]))
    out.append(rng.choices([1, 2, 3], weights=[1, 5, 2], k=4))
    out.append(rng.gauss(0.0, 1.0))
    out.append(rng.gauss(0.0, 1.0))  # the second of a pair comes from gauss_next
    out.append(rng.uniform(-10, 10))
    out.append(rng.betavariate(2, 3))  # any other method: through __getattr__
    return out


@pytest.mark.parametrize("seed", [0, 7, 2**40 + 3, "3/1", "check/omerta/2"])
def test_same_numbers_as_random_random(seed) -> None:
    ref, cow = random.Random(seed), CowRandom(seed)
    for _ in range(5):
        assert draws(cow) == draws(ref)
    assert cow.getstate() == ref.getstate()


def test_clone_shares_until_a_draw_then_both_continue_alike() -> None:
    parent = CowRandom(42)
    parent.random()
    child = parent.clone()
    assert child._gen is parent._gen  # nothing copied yet
    ref = random.Random(42)
    ref.random()
    state = ref.getstate()
    got_child = draws(child)
    assert child._gen is not parent._gen
    assert parent.getstate() == state  # the child's draws did not advance the parent
    got_parent = draws(parent)
    assert got_parent == got_child == draws(ref)


def test_parent_drawing_does_not_advance_its_clone() -> None:
    parent = CowRandom("p")
    child = parent.clone()
    before = child.getstate()
    parent.shuffle(list(range(10)))
    parent.getrandbits(32)
    assert child.getstate() == before
    assert draws(child) == draws(random.Random("p"))


def test_chain_of_clones_like_a_match() -> None:
    """apply clones the state once per action; only some actions draw."""
    ref = random.Random(5)
    rng = CowRandom(5)
    history = [rng]
    for step in range(200):
        rng = rng.clone()
        history.append(rng)
        if step % 17 == 0:
            deck = list(range(30))
            rng.shuffle(deck)
            expect = list(range(30))
            ref.shuffle(expect)
            assert deck == expect
    assert rng.getstate() == ref.getstate()
    # every earlier state kept its own position: none was advanced by a later draw
    ref2 = random.Random(5)
    assert history[0].getstate() == ref2.getstate()


def test_pickle_round_trip_and_snapshot_sees_draws() -> None:
    rng = CowRandom(9)
    rng.random()
    child = rng.clone()
    data = pickle.dumps(child, protocol=pickle.HIGHEST_PROTOCOL)
    back = pickle.loads(data)
    assert type(back) is CowRandom
    assert back.getstate() == child.getstate() == rng.getstate()
    assert draws(back) == draws(child)
    # a pickle is the generator's state: equal before, different after a draw
    a = CowRandom(1)
    b = a.clone()
    assert pickle.dumps(a) == pickle.dumps(b)
    snap = pickle.dumps(a)
    b.random()
    assert pickle.dumps(a) == snap  # the clone's draw left the original as it was
    a.random()
    assert pickle.dumps(a) != snap


def test_copy_and_deepcopy_are_independent() -> None:
    for dup in (copy.copy, copy.deepcopy):
        a = CowRandom(3)
        b = dup(a)
        assert draws(b) == draws(random.Random(3))
        assert draws(a) == draws(random.Random(3))


def test_setstate_seed_and_fork_of_a_plain_random() -> None:
    a = CowRandom(11)
    b = a.clone()
    b.setstate(random.Random(12).getstate())
    assert draws(a) == draws(random.Random(11))
    assert draws(b) == draws(random.Random(12))
    b.seed(13)
    assert draws(b) == draws(random.Random(13))
    plain = random.Random(14)
    f = fork(plain)
    assert type(f) is CowRandom
    assert draws(f) == draws(random.Random(14))
    assert plain.getstate() == random.Random(14).getstate()  # fork copies, never draws on it
    assert CowRandom.adopt(f) is f


@pytest.mark.parametrize("game,config", [("omerta", {"seats": 4}), ("famiglia", {}),
                                         ("family_business", {"seats": 4}), ("mafiosi", {"seats": 4})])
def test_states_hold_a_cow_random_that_pickles_and_deepcopies(game, config) -> None:
    from shared import games as registry

    rules = registry.game_def(game).rules
    s = rules.new_match(config, 123)
    assert type(s.rng) is CowRandom
    c = s.clone()
    assert c.rng is not s.rng and c.rng.getstate() == s.rng.getstate()
    for dup in (copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))):
        d = dup(s)
        assert type(d.rng) is CowRandom and d.rng.getstate() == s.rng.getstate()
        assert rules.full_view(d) == rules.full_view(s)
        d.rng.random()
        assert d.rng.getstate() != s.rng.getstate()
