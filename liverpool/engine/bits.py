"""Set bits counted by a table, for the compiled hot core: compiled with mypyc, ``int.bit_count()`` is a
Python method call (looked up by name on each use), where indexing a ``bytes`` is native.

>>> bit_count(0b1011_0000_0000_0001_0111), bit_count(-7), bit_count(1 << 200)
(7, 3, 1)
"""

from __future__ import annotations

from typing import Final

# The set bits of every 16-bit value.
_COUNTS: Final = bytes(bin(value).count("1") for value in range(1 << 16))


def bit_count(value: int) -> int:
    """``value.bit_count()``: the set bits of ``abs(value)``."""
    if value < 0:
        value = -value
    count = 0
    while value:
        count += _COUNTS[value & 0xFFFF]
        value >>= 16
    return count
