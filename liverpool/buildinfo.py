"""Which build of ``liverpool`` runs: the mypyc-compiled engine or the pure-Python source.

Both play the same games (``tests/engine/test_compiled.py`` holds them to the golden digests); the
compiled one is about five times faster. ``pip install .`` and ``make run`` give the compiled build
when a C compiler is present (see ``setup.py`` and ``scripts/compile.py``).

>>> describe_build().startswith("liverpool ")
True
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from liverpool.engine import is_compiled


def build_name() -> str:
    """``"compiled (mypyc)"`` or ``"pure Python"``."""
    return "compiled (mypyc)" if is_compiled() else "pure Python"


def describe_build() -> str:
    """One line for ``liverpool --version`` and the server's start line: version and build."""
    try:
        number = version("liverpool")
    except PackageNotFoundError:  # run from a source tree that was never installed
        number = "unknown version"
    return f"liverpool {number}, {build_name()} build"
