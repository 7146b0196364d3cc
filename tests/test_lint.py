"""ruff (lint + format) and mypy stay clean."""

import subprocess
import sys

import pytest

from rag.settings import PROJECT_ROOT

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    "cmd",
    [
        ["ruff", "check", "rag", "ui", "tests"],
        ["ruff", "format", "--check", "rag", "ui", "tests"],
        ["mypy", "rag", "ui"],
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_clean(cmd: list[str]) -> None:
    r = subprocess.run([sys.executable, "-m", *cmd], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
