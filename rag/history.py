"""Conversation history files (`rag ask --history`): parsed and validated, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class HistoryError(ValueError):
    """A history file the user must fix; the message names the file (and line)."""


def read_history(path: str) -> list[dict[str, Any]]:
    """A JSON list of {"role": "user"|"assistant", "content": str, "paper_ids"?: [str]}."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise HistoryError(f"{path}: cannot read history ({e.strerror})") from None
    except UnicodeDecodeError:
        raise HistoryError(f"{path}: history is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise HistoryError(f"{path}:{e.lineno}: malformed JSON ({e.msg})") from None
    except RecursionError:
        raise HistoryError(f"{path}: JSON nested too deeply") from None
    return validate_history(data, path)


def validate_history(data: Any, where: str = "history") -> list[dict[str, Any]]:
    if not isinstance(data, list):
        raise HistoryError(f"{where}: expected a JSON list of turns")
    out = []
    for i, turn in enumerate(data, 1):
        if not isinstance(turn, dict) or turn.get("role") not in ("user", "assistant"):
            raise HistoryError(f'{where}: turn {i} must be an object with "role" user or assistant')
        if not isinstance(turn.get("content"), str):
            raise HistoryError(f'{where}: turn {i} needs a "content" string')
        pids = turn.get("paper_ids")
        if pids is not None and not (isinstance(pids, list) and all(isinstance(p, str) for p in pids)):
            raise HistoryError(f'{where}: turn {i}: "paper_ids" must be a list of strings')
        out.append({"role": turn["role"], "content": turn["content"], **({"paper_ids": pids} if pids else {})})
    return out
