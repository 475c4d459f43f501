"""Set bits counted by a table, for the compiled hot core: compiled with mypyc, ``int.bit_count()`` is a
Python method call (looked up by name on each use), where reading an item of a bytes is native.

>>> bit_count(0b1011_0000_0000_0001_0111), bit_count(-7), bit_count(1 << 200), BITS[0b1011]
(7, 3, 1, 3)
"""

from __future__ import annotations

from typing import Final


def _counts(bits: int) -> bytes:
    counts = [0]
    for _ in range(bits):
        counts += [n + 1 for n in counts]
    return bytes(counts)


# ``BITS[x]`` is ``x.bit_count()`` for ``0 <= x < 2**16`` (the ranks held in a suit, the suits of a rank...).
# Bytes, not a list: a list of 65,536 items is tracked by the garbage collector, which walks it at every
# collection of its generation; indexing bytes is as native.
BITS: Final = _counts(16)


def bit_count(value: int) -> int:
    """``value.bit_count()``: the set bits of ``abs(value)``, of any size."""
    if value < 0:
        value = -value
    count = 0
    while value:
        count += BITS[value & 0xFFFF]
        value >>= 16
    return count


def spaced(mask: int, spacing: int) -> bool:
    """No two bits of ``mask`` are closer than ``spacing``. (A loop: compiled, all() of a generator makes a
    generator object at each call.)"""
    for gap in range(1, spacing):  # noqa: SIM110
        if mask & (mask >> gap):
            return False
    return True
