"""Build hook: a wheel of ``liverpool`` carries the mypyc-compiled engine when it can.

``pip install .`` compiles the hot modules listed in ``scripts/compile.py`` with mypyc when mypy is
installable and a C compiler works, and builds the pure-Python package otherwise (the same code,
about five times slower; ``liverpool --version`` says which one runs). ``LIVERPOOL_PURE=1`` asks
for the pure build on purpose. Editable installs (``pip install -e .``, what ``make`` uses for the
development tree) stay pure, so that the source tree is the reference the compiled build is tested
against; ``make run`` builds its compiled copy with ``scripts/compile.py`` instead.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "scripts"))
from compile import COMPILED  # noqa: E402


def _say(message: str) -> None:
    print(f"liverpool build: {message}", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to the pure-Python package when the C compiler fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any compiler or linker failure: the pure package still works
            _say(f"the C compiler failed ({type(exc).__name__}: {exc}); installing the pure-Python build")
            for ext in self.extensions:  # a module's stub without the shared library would not import
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            self.extensions = []


def _extensions() -> list[Any]:
    if os.environ.get("LIVERPOOL_PURE"):
        _say("LIVERPOOL_PURE is set: the pure-Python build")
        return []
    if "editable_wheel" in sys.argv or "develop" in sys.argv:
        _say("editable install: the pure-Python build (make compile builds the compiled copy)")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypy (mypyc) is not installed: the pure-Python build")
        return []
    try:
        return list(mypycify(list(COMPILED), opt_level="3"))
    except (Exception, SystemExit) as exc:
        _say(f"mypyc could not translate the engine ({exc}); the pure-Python build")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
