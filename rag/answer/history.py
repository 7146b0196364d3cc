"""Conversation history files (`rag ask --history`): parsed and validated, one-line errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rag.text.files import TextFileError, decode, one_line, parse_json, split_lines


class HistoryError(ValueError):
    """A history file the user must fix; the message names the file (and line)."""


def read_history(path: str) -> list[dict[str, Any]]:
    """A JSON list of {"role": "user"|"assistant", "content": str, "paper_ids"?: [str]}."""
    where = one_line(str(path), None)
    try:
        text = decode(Path(path).read_bytes())
        if not text.strip():
            raise HistoryError(f"{where}: empty file; expected a JSON list of turns")
        # json counts only \n; with \r\n and \r made \n too, its line numbers match an editor's
        data = parse_json("\n".join(split_lines(text)))
    except OSError as e:
        raise HistoryError(f"{where}: cannot read history ({e.strerror or type(e).__name__})") from None
    except TextFileError as e:
        raise HistoryError(f"{where}:{e.line}: {e.reason}" if e.line else f"{where}: {e.reason}") from None
    return validate_history(data, where)


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
