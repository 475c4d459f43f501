"""The engine's frozen values the same in both builds: pickling them, and knowing when they may be made fast.

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


def native(cls: type) -> bool:
    """Whether ``cls`` is a native class of a module compiled with mypyc. Then a field assigned in that
    module's own code is written straight into the object, where a frozen dataclass's generated
    ``__init__`` sets each field through ``object.__setattr__``; run as Python, the same assignment is
    refused (``FrozenInstanceError``). The engine makes its hottest values (observations, melds) the
    fast way when this is true, and through the dataclass otherwise."""
    return hasattr(cls, "__mypyc_attrs__")
