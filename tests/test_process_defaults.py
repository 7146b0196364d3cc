"""`import rag` sets the process defaults (offline, no telemetry, BLAS threads that sleep)
before anything heavy loads, and a value the user set wins."""

from __future__ import annotations

import json
import os
import subprocess
import sys

_SHOW = "import json, os, rag, numpy; print(json.dumps({k: os.environ.get(k) for k in %r}))"
_KEYS = ["HF_HUB_OFFLINE", "ANONYMIZED_TELEMETRY", "GRADIO_ANALYTICS_ENABLED", "OPENBLAS_THREAD_TIMEOUT"]


def _env_after_import(env: dict[str, str]) -> dict[str, str | None]:
    out = subprocess.run([sys.executable, "-c", _SHOW % _KEYS], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_import_sets_the_defaults() -> None:
    env = {k: v for k, v in os.environ.items() if k not in _KEYS}
    assert _env_after_import(env) == {
        "HF_HUB_OFFLINE": "1",
        "ANONYMIZED_TELEMETRY": "False",
        "GRADIO_ANALYTICS_ENABLED": "False",
        "OPENBLAS_THREAD_TIMEOUT": "4",
    }


def test_a_value_the_user_set_wins() -> None:
    env = {**{k: v for k, v in os.environ.items() if k not in _KEYS}, "OPENBLAS_THREAD_TIMEOUT": "30"}
    assert _env_after_import(env)["OPENBLAS_THREAD_TIMEOUT"] == "30"
