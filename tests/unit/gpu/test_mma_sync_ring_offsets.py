"""The sequences `transform.schedir.nvgpu.carry_ring_offsets` carries
(schedir/transform/rewrites/gpu/ring_offsets.py): a ring slot's offsets over the loop's
iterations, advanced by a constant and wrapped at the ring's end, are recognized with
their first value, step and wrap; sequences a compare-select cannot produce are not."""

from __future__ import annotations

import pytest

from schedir.transform.rewrites.gpu.ring_offsets import _ring


def _replay(first: int, delta: int, smallest: int, past: int, count: int) -> list[int]:
    values = [first]
    while len(values) < count:
        following = values[-1] + delta
        values.append(smallest if following == past else following)
    return values


@pytest.mark.parametrize(
    "values",
    [
        [0, 18432, 36864] * 21 + [0],  # 3 slots of 18432 bytes, from slot 0
        [36864, 0, 18432] * 5,  # from slot 2 (the copies two steps ahead)
        [1, 2, 1, 2, 1],  # 2 slots, not from 0
        [5, 7, 9, 11, 3, 5, 7, 9, 11, 3, 5],  # 5 slots of 2, from the second
    ],
)
def test_a_ring_replays_its_sequence(values: list[int]) -> None:
    ring = _ring(values)
    assert ring is not None
    assert ring.delta > 0 and ring.past == ring.smallest + ring.delta * (
        (ring.past - ring.smallest) // ring.delta
    )
    assert _replay(ring.first, ring.delta, ring.smallest, ring.past, len(values)) == values
    # Carried divided by the unit: every value a multiple of it.
    assert all(v % ring.unit == 0 for v in values)


@pytest.mark.parametrize(
    "values",
    [
        [4, 4, 4, 4],  # constant: nothing to carry
        [0, 5, 1, 0, 5, 1, 0],  # periodic, not a constant step
        [0, 64, 128, 192, 256],  # no period (a plain induction)
        [0, 1, 2, 0, 1, 2, 0, 1, 3],  # breaks the period at the end
        [0, 1, 2],  # too short to see a period
        [2, 1, 0, 2, 1, 0, 2],  # a negative step
    ],
)
def test_other_sequences_are_not_rings(values: list[int]) -> None:
    assert _ring(values) is None
