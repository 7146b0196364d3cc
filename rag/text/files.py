"""Reading files users hand us (corpus, sidecars, eval sets, histories): UTF-8 text, lines, JSON.

Every failure is a `TextFileError` carrying a short one-line reason and, when known, the
1-based line; each caller wraps it into its own error type as `path:line: reason`.
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any

# Only \r\n, \r and \n end a line: `str.splitlines()` also splits on U+2028, \x0b, \x1c…,
# which are legal inside an abstract and inside a JSON string, and would make line numbers
# disagree with what an editor shows.
_NEWLINE = re.compile(r"\r\n|\r|\n")
_NEWLINE_BYTES = re.compile(rb"\r\n|\r|\n")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


class TextFileError(ValueError):
    """Why a file (or one of its lines) cannot be used: `reason` is one line, `line` 1-based or None."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason = one_line(reason)
        self.line = line


def one_line(text: str, limit: int | None = 300) -> str:
    """Messages are printed as a single line: control characters escaped, length bounded."""
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


def short(value: object, limit: int = 60) -> str:
    """`repr` of a user value for a message, cut so a 5 MB id cannot flood the terminal."""
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit]) + "…"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def decode(raw: bytes) -> str:
    """UTF-8 (an optional BOM is dropped); other encodings get a reason that says what to do."""
    for bom, name in _BOMS:  # UTF-32 first: its little-endian BOM starts like UTF-16's
        if raw.startswith(bom):
            raise TextFileError(f"{name} text; expected UTF-8 (save the file as UTF-8)")
    if b"\x00" in raw:  # a whole-file verdict: no line of a binary file means anything
        raise TextFileError("binary file (NUL bytes); expected UTF-8 text")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = len(_NEWLINE_BYTES.findall(raw[: e.start])) + 1
        raise TextFileError(f"not UTF-8 text (byte 0x{raw[e.start]:02x}); save the file as UTF-8", line) from None


def split_lines(text: str) -> list[str]:
    """Lines as an editor numbers them (see `_NEWLINE`); a final newline adds no empty line."""
    parts = _NEWLINE.split(text)
    if parts and parts[-1] == "":
        parts.pop()
    return parts


def parse_json(text: str) -> Any:
    """`json.loads`, but every failure is a `TextFileError` (line relative to `text`)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise TextFileError(f"malformed JSON ({e.msg})", e.lineno) from None
    except RecursionError:
        raise TextFileError("malformed JSON (nested too deeply)") from None
    except ValueError:  # an integer literal longer than Python's 4300-digit conversion limit
        raise TextFileError("malformed JSON (number too long)") from None
    if _has_lone_surrogate(data):
        # "\ud800" is valid JSON but not text: it breaks UTF-8 encoding further down.
        raise TextFileError("malformed JSON (\\u escape of a lone surrogate; not valid Unicode)")
    return data


def _has_lone_surrogate(data: Any) -> bool:
    # Iterative: json.loads accepts nesting close to the recursion limit.
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
    return False
