"""Installing the project builds the compiled engine when it can, and the pure one when it cannot.

Issue 25 item 7: ``pip install .`` compiles the mypyc core when a C compiler is present and falls back
to pure Python otherwise; ``liverpool --version`` says which build runs. Each test builds a real wheel
of a copy of the project with pip (no build isolation: the virtualenv's setuptools and mypy).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from liverpool.buildinfo import describe_build, is_compiled
from liverpool.cli import app

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in", "scripts/compile.py")


def test_version_option_prints_the_build() -> None:
    """``liverpool --version`` prints one line with the version and the build that runs."""
    done = CliRunner().invoke(app, ["--version"])
    assert done.exit_code == 0, done.output
    assert done.output.strip() == describe_build()
    expected = "compiled (mypyc)" if is_compiled() else "pure Python"
    assert done.output.strip().endswith(f"{expected} build")


def _wheel(tmp_path: Path, **env: str) -> tuple[list[str], str]:
    """Build a wheel of a copy of the project; the names of its files and pip's log."""
    source = tmp_path / "src"
    shutil.copytree(ROOT / "liverpool", source / "liverpool", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for name in PROJECT:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, source / name)
    out = tmp_path / "wheel"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation", "-v", "-w", str(out)],
        cwd=source,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = out.glob("liverpool-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "installed")
        return archive.namelist(), done.stdout + done.stderr


def _version_of(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-P", "-c", "from liverpool.buildinfo import describe_build; print(describe_build())"],
        env={**os.environ, "PYTHONPATH": str(path)},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.slow
def test_a_wheel_built_with_a_c_compiler_is_compiled(tmp_path: Path) -> None:
    names, _ = _wheel(tmp_path)
    compiled = [name for name in names if name.endswith(".so")]
    assert any(name.startswith("liverpool/engine/") for name in compiled), names
    assert _version_of(tmp_path / "installed").endswith("compiled (mypyc) build")


@pytest.mark.slow
def test_a_wheel_built_without_a_working_c_compiler_is_pure(tmp_path: Path) -> None:
    names, log = _wheel(tmp_path, CC="false")
    assert not [name for name in names if name.endswith(".so")], names
    assert "installing the pure-Python build" in log
    assert "liverpool/engine/state.py" in names
    assert _version_of(tmp_path / "installed").endswith("pure Python build")
