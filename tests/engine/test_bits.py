"""``engine.bits.bit_count`` is ``int.bit_count`` (the search's quick tests count ranks and suits with it):
checked on small masks, across the 16-bit chunks it reads, and on big and negative ints."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from liverpool.engine._speed.bits import bit_count


def test_every_16_bit_value() -> None:
    assert [bit_count(value) for value in range(1 << 16)] == [value.bit_count() for value in range(1 << 16)]


@given(st.integers())
def test_any_int(value: int) -> None:
    assert bit_count(value) == value.bit_count()


@given(st.integers(0, 300))
def test_one_bit_anywhere(shift: int) -> None:
    assert bit_count(1 << shift) == 1
    assert bit_count((1 << shift) - 1) == shift
