"""Which build of the engine is imported: the mypyc-compiled one or the pure-Python source."""

from __future__ import annotations

from liverpool.engine import state


def is_compiled() -> bool:
    """True when the engine imported is the mypyc build: its hot modules are C extensions, not ``.py`` files
    (``scripts/compile.py`` compiles ``state`` in every build)."""
    return not (getattr(state, "__file__", None) or "").endswith((".py", ".pyc"))
