"""Pickling the engine's frozen values the same way in both builds.

A frozen dataclass unpickles by setting each field on a blank instance. Compiled with mypyc
(``scripts/compile.py``), its frozen ``__setattr__`` refuses that, so a game state, a meld or an
observation made by the compiled engine could not be pickled back. Each frozen value of a compiled
module therefore pickles as a call of its class on its fields, in order (``__reduce__`` returns
:func:`by_fields`), which both builds accept.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def by_fields(value: Any) -> tuple[type, tuple[Any, ...]]:
    """``(type(value), its fields in order)``: what ``__reduce__`` returns for a frozen dataclass."""
    return type(value), tuple(getattr(value, f.name) for f in fields(value))
