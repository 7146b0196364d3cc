"""Property-based tests of every parser of user-supplied text (hypothesis).

For any input, a parser either parses it or raises the project's own error whose message
is ONE line naming the file (and the line: `path:line: reason`); never another exception,
never a hang. Inputs include random bytes, wrong encodings (latin-1, cp1252, UTF-16/32
with BOM), NUL bytes, Unicode line separators, huge lines, deep nesting, lone surrogates,
empty and whitespace-only files, and valid-looking JSON with wrong types.

Each test runs a fixed number of examples (`BUDGET`; at least 10,000 in total), derandomized
so every run sees the same cases, and every example is bounded by `time_limit`. Most
inputs are built from one `st.binary()` draw read as a little program (`pieces`,
`json_from`, `jsonl_from`): hypothesis still generates and shrinks them, at a fraction of
the cost of nested strategies, which keeps 10,000 cases within a minute on 2 cores.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rag.answer.generate import pop_complete
from rag.answer.history import HistoryError, read_history, validate_history
from rag.answer.language import looks_non_english
from rag.answer.question import check_question
from rag.answer.verify import is_refusal, markers_before_period, parse_output
from rag.corpus.reader import MAX_ABSTRACT_CHARS, CorpusError, read_corpus_file
from rag.errors import UsageError
from rag.evaluation.evalset import EvalSetError, load_set
from rag.types import REFUSAL

T = TypeVar("T")

# Examples per property test; the sum is the number of generated cases per run.
BUDGET = {
    "corpus_text_bytes": 900,
    "corpus_text_pieces": 900,
    "corpus_text_roundtrip": 300,
    "corpus_jsonl": 1100,
    "corpus_jsonl_roundtrip": 300,
    "corpus_encodings": 400,
    "corpus_sidecar": 600,
    "corpus_huge": 12,
    "evalset_bytes": 500,
    "evalset_jsonl": 1000,
    "evalset_roundtrip": 250,
    "history_file": 800,
    "history_values": 900,
    "history_roundtrip": 250,
    "llm_output_text": 400,
    "llm_output_cited": 250,
    "pop_complete": 300,
    "pop_complete_stream": 100,
    "question_check": 1000,
    "question_language": 800,
}
SECONDS_PER_EXAMPLE = 10  # far above any legitimate parse: a hang fails instead of blocking the suite


def cases(name: str) -> settings:
    return settings(
        max_examples=BUDGET[name],
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
            HealthCheck.filter_too_much,
        ],
    )


def test_budget_is_at_least_ten_thousand_cases() -> None:
    assert sum(BUDGET.values()) >= 10_000


@contextlib.contextmanager
def time_limit(seconds: float = SECONDS_PER_EXAMPLE) -> Iterator[None]:
    """Fail (TimeoutError) instead of hanging; SIGALRM, so main thread on Unix only."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds}s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def outcome(fn: Callable[[], T], error: type[Exception]) -> T | Exception:
    """The parse result, or the project's error; any other exception fails the test."""
    with time_limit():
        try:
            return fn()
        except error as e:
            return e


def assert_one_line(message: str, where: str) -> None:
    assert "\n" not in message and "\r" not in message, message
    assert message.startswith(f"{where}:"), message
    assert len(message) < len(where) + 400, message  # a 5 MB id must not be echoed whole
    assert "Traceback" not in message


def assert_line_number(message: str, where: str, n_lines: int) -> None:
    """`path:N: reason` names an existing line; `path: reason` is a whole-file verdict."""
    m = re.match(re.escape(where) + r":(\d+): ", message)
    if m:
        assert 1 <= int(m.group(1)) <= max(n_lines, 1), message
    else:
        assert message.startswith(f"{where}: "), message


def n_lines(raw: bytes) -> int:
    """Lines as an editor counts them (\\r\\n, \\r or \\n)."""
    return raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n") + 1


WORK = Path(tempfile.mkdtemp(prefix="rag-properties-"))  # hypothesis and function fixtures do not mix


@pytest.fixture(scope="module", autouse=True)
def _remove_work_dir() -> Iterator[None]:
    yield
    shutil.rmtree(WORK, ignore_errors=True)


def put(name: str, data: bytes | str) -> Path:
    path = WORK / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


# --- input builders --------------------------------------------------------------------------
# Pieces of text that break naive line handling, decoding or JSON, among ordinary words.
NASTY = [
    *("\x00", "\r", "\r\n", "\n", "\n\n", "\x0b", "\x0c", "\x1c", "\x1e", "\x85", "\u2028", "\u2029"),
    *("\ufeff", "\u200b", "\u202e", "\t", " ", "   ", "[", "]", "{", "}", '"', "\\", ",", ":", "**", "*", "_"),
    *("é", "ß", "中文", "日本語", "한국어", "Русский", "العربية", "😀", "👍🏽", "\U0010ffff", "\x7f", "\x1b[31m"),
    *("We propose GraphMix, a model.", "It improves accuracy by 3.5%.", "abstract", "null", "true", "1e999"),
    *("[1]", "[2, 3]", "\\u2028", "\\ud800", "\\u0000", "\\", "0" * 50, "x" * 300),
]
# JSON values, right and wrong types for every field our formats have.
SCALARS: list[Any] = [
    *(None, True, False, 0, -1, 7, 2**63, 10**30, 1.5, -0.0, float("nan"), float("inf"), float("-inf")),
    *("", " ", "\t\n", "x", "We propose ZetaNet, a model. ZetaNet is good.", "中文摘要。", "a\u2028b", "\x00"),
    *("user", "assistant", "system", "single", "multi", "unanswerable", "followup", "q1", "p#1", "😀" * 3),
]
KEYS = [
    *("abstract", "id", "title", "authors", "url", "paper_id", "role", "content", "paper_ids", "type"),
    *("question", "history", "gold_ids", "answer_facts", "evidence", "lexical", "needs_review", "", "é"),
]


def pieces(data: bytes, table: Sequence[str]) -> str:
    """Text assembled from `table`, one piece per byte."""
    return "".join(table[b % len(table)] for b in data)


def json_from(data: bytes) -> Any:
    """Any JSON value (nested lists/objects up to depth 4) read off the bytes."""
    it = iter(data)

    def value(depth: int) -> Any:
        op = next(it, 0)
        if depth >= 4 or op < 150:
            return SCALARS[op % len(SCALARS)]
        n = next(it, 0) % 4
        if op < 200:
            return [value(depth + 1) for _ in range(n)]
        return {KEYS[next(it, 0) % len(KEYS)]: value(depth + 1) for _ in range(n)}

    return value(0)


def object_from(data: bytes, fields: dict[str, list[Any]], required: int = 0) -> dict[str, Any]:
    """An object with our field names (the first `required` always present): each absent,
    right-typed (most often), or any JSON value."""
    it = iter(data)
    out: dict[str, Any] = {}
    for i, (key, right) in enumerate(fields.items()):
        b = next(it, 0)
        if b % 6 == 0 and i >= required:
            continue
        out[key] = right[next(it, 0) % len(right)] if b % 6 < 5 else json_from(bytes([next(it, 0), next(it, 0)]))
    return out


def mangled(line: str, b: int) -> str:
    """A JSON line, intact or damaged the ways real files are (truncated, junk inside, BOM)."""
    kind, k = b % 12, (b * 7) % (len(line) + 1)
    if kind == 9:
        return line[:k]
    if kind == 10:
        return line[:k] + NASTY[b % len(NASTY)] + line[k:]
    if kind == 11:
        return "\ufeff" + line
    return line


def jsonl_from(data: bytes, fields: dict[str, list[Any]], required: int = 1) -> str:
    """Lines (split at byte 0xff): mostly objects of our shape, some any JSON, some junk,
    some damaged."""
    lines = []
    for chunk in data.split(b"\xff")[:8]:
        b = chunk[0] if chunk else 0
        if b % 10 == 9:
            lines.append(pieces(chunk[1:8], NASTY))
            continue
        obj = json_from(chunk[1:]) if b % 10 == 8 else object_from(chunk[1:], fields, required)
        lines.append(mangled(json.dumps(obj, ensure_ascii=bool(b & 16)), b >> 3))
    return "\n".join(lines)


text_bytes = st.binary(max_size=60)
text_chars = st.characters(exclude_categories=["Cs"])  # lone surrogates cannot be written as UTF-8
# Separators that are not line ends in a file (str.splitlines() splits on all of them).
INLINE = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
abstract_text = st.text(st.characters(exclude_categories=["Cs", "Cc"]) | st.sampled_from(INLINE), max_size=80).filter(
    lambda s: s.strip() != ""
)
PAPER_FIELDS: dict[str, list[Any]] = {
    "abstract": ["We propose GraphMix, a regularizer.", "  padded abstract  ", "中文摘要。", "x\u2028y", "A" * 21_000],
    "id": ["p-1", "p-2", "values#2", 17, "  "],
    "title": ["A Title", "", "Ünïcödé"],
    "authors": ["A. B, C. D", ["A. B", "C. D"], []],
    "url": ["https://example.org", "javascript:alert(1)"],
}
SIDECAR_FIELDS: dict[str, list[Any]] = {
    "paper_id": ["side#1", "side#2", "side#3", "side#9", "x" * 100_000],
    "title": ["A Title", ""],
    "authors": [["A. B"], "A, B"],
    "url": ["https://u"],
}
TURN_FIELDS: dict[str, list[Any]] = {
    "role": ["user", "assistant"],
    "content": ["What is GENIE?", "", "中文"],
    "paper_ids": [["p#1"], []],
}
EVAL_FIELDS: dict[str, list[Any]] = {
    "id": ["q1", "q2", "q3"],
    "type": ["single", "multi", "unanswerable", "followup"],
    "question": ["What does GENIE balance?", ""],
    "history": [[], [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]],
    "gold_ids": [[], ["p#1"], ["p#1", "p#2"]],
    "answer_facts": [[], ["4.2%"]],
    "evidence": ["", ["It improves accuracy."]],
    "lexical": [True, False],
    "needs_review": [True, False],
}


# --- corpus: text format -------------------------------------------------------------------
def check_corpus(path: Path, lines: int, where: Path | None = None) -> list[Any] | None:
    """Either papers that satisfy the contract, or a one-line `CorpusError` naming `where`."""
    got = outcome(lambda: read_corpus_file(path), CorpusError)
    if isinstance(got, CorpusError):
        assert_one_line(str(got), str(where or path))
        assert_line_number(str(got), str(where or path), lines)
        return None
    ids = [p.paper_id for p in got]
    assert got and len(ids) == len(set(ids))
    for p in got:
        assert p.abstract.strip() == p.abstract and 0 < len(p.abstract) <= MAX_ABSTRACT_CHARS
        assert isinstance(p.label, str)
    return got


@cases("corpus_text_bytes")
@given(st.binary(max_size=2000))
@example(b"")
@example(b" \n\t\n  ")
@example(b"head\n\x00\x01\x02")
@example(b"\xff\xfeh\x00e\x00")
@example(b"Header\nUn r\xe9sum\xe9\n")
def test_text_corpus_random_bytes(raw: bytes) -> None:
    check_corpus(put("bytes.txt", raw), n_lines(raw))


@cases("corpus_text_pieces")
@given(text_bytes)
def test_text_corpus_nasty_text(data: bytes) -> None:
    raw = pieces(data, NASTY).encode("utf-8")
    check_corpus(put("pieces.txt", raw), n_lines(raw))


@cases("corpus_text_roundtrip")
@given(
    st.text(st.characters(exclude_categories=["Cs", "Cc", "Zl", "Zp"]), max_size=20),
    st.lists(abstract_text, min_size=1, max_size=5),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_text_corpus_valid_files_parse_exactly(header: str, items: list[str], newline: str) -> None:
    """One abstract per line after the header, whatever else the line holds (U+2028, \\x0b…)."""
    raw = (header + newline + newline.join(items) + newline).encode("utf-8")
    got = check_corpus(put("valid.txt", raw), n_lines(raw))
    assert got is not None, "a valid text corpus was rejected"
    assert [p.abstract for p in got] == [a.strip() for a in items]
    assert [p.paper_id for p in got] == [f"valid#{i}" for i in range(1, len(items) + 1)]


@pytest.mark.parametrize(
    ("raw", "abstracts"),
    [
        (
            "Header\nabstract one\u2028 continues\x0b here\x85 too\n".encode(),
            ["abstract one\u2028 continues\x0b here\x85 too"],
        ),
        ('{"abstract": "a\u2028b"}\n'.encode(), ["a\u2028b"]),  # raw U+2028 inside a JSON string is legal
        (b"Header\rfirst\rsecond\r", ["first", "second"]),  # old Mac line ends
    ],
)
def test_corpus_line_separators_found(raw: bytes, abstracts: list[str]) -> None:
    """str.splitlines() split abstracts (and JSON lines) at U+2028, \\x0b, \\x85…: hypothesis found it."""
    path = put("seps.jsonl" if raw.startswith(b"{") else "seps.txt", raw)
    assert [p.abstract for p in read_corpus_file(path)] == abstracts


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("Header\nAn abstract.\n".encode("utf-16"), ": UTF-16 text; expected UTF-8 (save the file as UTF-8)"),
        ("Header\nAn abstract.\n".encode("utf-32"), ": UTF-32 text; expected UTF-8"),
        (b"Header\rabstract\rcaf\xe9\r", ":3: not UTF-8 text (byte 0xe9)"),
    ],
)
def test_text_corpus_encoding_messages(raw: bytes, reason: str) -> None:
    path = put("encoding.txt", raw)
    err = outcome(lambda: read_corpus_file(path), CorpusError)
    assert isinstance(err, CorpusError) and str(err).startswith(f"{path}{reason}"), err


# --- corpus: JSONL ------------------------------------------------------------------------
@cases("corpus_jsonl")
@given(st.binary(max_size=120))
@example(b"")
def test_jsonl_corpus_any_json(data: bytes) -> None:
    raw = jsonl_from(data, PAPER_FIELDS).encode("utf-8")
    check_corpus(put("values.jsonl", raw), n_lines(raw))


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"abstract": "x", "id": ' + "1" * 5000 + "}", ":1: malformed JSON (number too long)"),
        ('{"abstract": "x", "id": true}', ':1: "id" must be a non-empty string'),
        ('{"abstract": "a \\ud800 b"}', ":1: malformed JSON (\\u escape of a lone surrogate"),
        ('{"abstract": "x"}\n\n\n{"abstract": "y", "id": "jsonl#1"}', ":4: duplicate paper id 'jsonl#1'"),
        (('{"abstract": "x", "id": "' + "y" * 100_000 + '"}\n') * 2, ":2: duplicate paper id 'yyyy"),
    ],
)
def test_jsonl_corpus_bugs_found(line: str, reason: str) -> None:
    """Inputs hypothesis found: each used to raise ValueError, parse wrongly or blame a wrong line."""
    path = put("jsonl.jsonl", line)
    err = outcome(lambda: read_corpus_file(path), CorpusError)
    assert isinstance(err, CorpusError) and str(err).startswith(f"{path}{reason}"), err
    assert_one_line(str(err), str(path))


@cases("corpus_jsonl_roundtrip")
@given(
    st.lists(
        st.fixed_dictionaries({"abstract": abstract_text}, optional={"title": st.text(text_chars, max_size=10)}),
        min_size=1,
        max_size=4,
    ),
    st.booleans(),
)
def test_jsonl_corpus_valid_files_parse_exactly(rows: list[dict[str, Any]], ascii_only: bool) -> None:
    """Raw U+2028, \\x85 … inside JSON strings are legal and must not split a line."""
    path = put("rows.jsonl", "\n".join(json.dumps(r, ensure_ascii=ascii_only) for r in rows) + "\n")
    got = check_corpus(path, len(rows))
    assert got is not None, "a valid JSONL corpus was rejected"
    assert [p.abstract for p in got] == [r["abstract"].strip() for r in rows]
    assert [p.title for p in got] == [(r.get("title") or "").strip() or None for r in rows]


@cases("corpus_encodings")
@given(
    st.lists(abstract_text, min_size=1, max_size=3),
    st.sampled_from(["latin-1", "cp1252", "utf-16", "utf-32", "utf-16-le", "utf-8-sig", "utf-8"]),
    st.sampled_from(["enc.txt", "enc.jsonl"]),
)
@example(["café résumé naïve"], "latin-1", "enc.txt")
@example(["“smart quotes” – dash"], "cp1252", "enc.txt")
@example(["abstract"], "utf-16", "enc.jsonl")
def test_corpus_wrong_encodings(items: list[str], encoding: str, name: str) -> None:
    if name.endswith(".jsonl"):
        body = "\n".join(json.dumps({"abstract": a}, ensure_ascii=False) for a in items)
    else:
        body = "Header\n" + "\n".join(items)
    raw = body.encode(encoding, errors="replace")
    got = check_corpus(put(name, raw), n_lines(raw))
    if encoding in ("utf-16", "utf-32"):  # with a BOM: the message says what the file is
        assert got is None
    if encoding.startswith("utf-8") and name.endswith(".jsonl"):
        assert got is not None and [p.abstract for p in got] == [a.strip() for a in items]


@cases("corpus_sidecar")
@given(st.binary(max_size=100))
@example(b"")  # an empty sidecar
def test_sidecar_any_content(data: bytes) -> None:
    corpus = put("side.txt", "Header\nFirst abstract.\nSecond abstract.\nThird one.\n")
    raw = jsonl_from(data, SIDECAR_FIELDS).encode("utf-8")
    side = put("side.meta.jsonl", raw)
    got = check_corpus(corpus, n_lines(raw), where=side)  # the sidecar is named, not its text file
    if got is not None:
        assert [p.paper_id for p in got] == ["side#1", "side#2", "side#3"]
    side.unlink()


@pytest.mark.slow
@cases("corpus_huge")
@given(
    st.integers(1_000_000, 5_000_000),
    st.sampled_from(["a", "é", "中", " ", "[", "*", "**a ", "\u2028"]),
    st.sampled_from(["huge.txt", "huge.jsonl"]),
)
def test_corpus_huge_lines(size: int, unit: str, name: str) -> None:
    line = unit * (size // len(unit.encode()))
    body = "Header\n" + line if name.endswith(".txt") else json.dumps({"abstract": line})
    check_corpus(put(name, body), 2)


@pytest.mark.parametrize("depth", [1_000, 100_000, 1_000_000])
@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_deep_nesting_everywhere(depth: int, opener: str) -> None:
    deep = opener * depth
    assert check_corpus(put("deep.jsonl", '{"abstract": "fine"}\n' + deep + "\n"), 2) is None
    side = put("deepside.meta.jsonl", deep)
    assert check_corpus(put("deepside.txt", "Header\nAn abstract.\n"), 1, where=side) is None
    side.unlink()
    path = put("deep-set.jsonl", deep)
    err = outcome(lambda: load_set(path), EvalSetError)
    assert isinstance(err, EvalSetError) and str(err) == f"{path}:1: malformed JSON (nested too deeply)"
    path = put("deep-history.json", deep)
    err = outcome(lambda: read_history(str(path)), HistoryError)
    assert isinstance(err, HistoryError) and str(err) == f"{path}: malformed JSON (nested too deeply)"


# --- eval sets ------------------------------------------------------------------------------
def check_set(path: Path, lines: int) -> list[Any] | None:
    got = outcome(lambda: load_set(path, include_drafts=True), EvalSetError)
    if isinstance(got, EvalSetError):
        assert_one_line(str(got), str(path))
        assert_line_number(str(got), str(path), lines)
        return None
    assert got and len({c.id for c in got}) == len(got)
    return got


@cases("evalset_bytes")
@given(st.binary(max_size=1000))
@example(b"")
@example(b"\xef\xbb\xbf" + b'{"id": "q", "type": "unanswerable", "question": "x"}')
@example('{"id": "q", "type": "unanswerable", "question": "x"}'.encode("utf-16"))
@example(b'{"id": "caf\xe9"}')
@example(b'{"id": ' + b"9" * 5000 + b"}")
def test_evalset_random_bytes(raw: bytes) -> None:
    check_set(put("bytes-set.jsonl", raw), n_lines(raw))


@cases("evalset_jsonl")
@given(st.binary(max_size=150))
@example(b"")
def test_evalset_any_json(data: bytes) -> None:
    raw = jsonl_from(data, EVAL_FIELDS, required=3).encode("utf-8")
    check_set(put("objects-set.jsonl", raw), n_lines(raw))


@cases("evalset_roundtrip")
@given(st.lists(st.text(text_chars, min_size=1, max_size=30), min_size=1, max_size=4), st.booleans())
def test_evalset_valid_files_parse_exactly(questions: list[str], ascii_only: bool) -> None:
    rows = [{"id": f"q{i}", "type": "unanswerable", "question": q} for i, q in enumerate(questions)]
    path = put("valid-set.jsonl", "\n".join(json.dumps(r, ensure_ascii=ascii_only) for r in rows))
    got = check_set(path, len(rows))
    assert got is not None and [c.question for c in got] == questions


# --- --history files ------------------------------------------------------------------------
def history_from(data: bytes) -> Any:
    """Mostly a list of turn-shaped objects, sometimes any JSON value."""
    if data[:1] and data[0] % 4 == 0:
        return json_from(data[1:])
    return [object_from(chunk, TURN_FIELDS) for chunk in data[1:].split(b"\xff")[:5]]


@cases("history_file")
@given(st.binary(max_size=100))
@example(b"")
@example(b"\x01")
def test_history_file_any_bytes(data: bytes) -> None:
    # raw bytes, or a JSON document (indented: several lines), possibly damaged
    if data[:1] and data[0] % 3 == 0:
        raw = data[1:]
    else:
        raw = mangled(json.dumps(history_from(data[1:]), indent=data[0] % 3 if data else None), sum(data)).encode()
    path = put("history.json", raw)
    got = outcome(lambda: read_history(str(path)), HistoryError)
    if isinstance(got, HistoryError):
        assert_one_line(str(got), str(path))
        assert_line_number(str(got), str(path), n_lines(raw))
    else:
        assert all(t["role"] in ("user", "assistant") and isinstance(t["content"], str) for t in got)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"", ": empty file; expected a JSON list of turns"),
        (" \n\t\u2028".encode(), ": empty file"),
        (b"[" + b"7" * 5000 + b"]", ": malformed JSON (number too long)"),
        (b'[{"role": "user", "content": "\\ud800"}]', ": malformed JSON (\\u escape of a lone surrogate"),
        ("[]".encode("utf-16"), ": UTF-16 text; expected UTF-8"),
        (b'[{"role": "user", "content": "caf\xe9"}]', ":1: not UTF-8 text (byte 0xe9)"),
        (b"[\r\r1,]", ":3: malformed JSON (Expecting value)"),
    ],
)
def test_history_file_bugs_found(raw: bytes, reason: str) -> None:
    path = put("bad-history.json", raw)
    err = outcome(lambda: read_history(str(path)), HistoryError)
    assert isinstance(err, HistoryError) and str(err).startswith(f"{path}{reason}"), err


def test_history_file_with_bom_is_read() -> None:
    path = put("bom-history.json", b'\xef\xbb\xbf[{"role": "user", "content": "hi"}]')
    assert read_history(str(path)) == [{"role": "user", "content": "hi"}]


@cases("history_values")
@given(st.binary(max_size=60))
def test_validate_history_any_value(data: bytes) -> None:
    value = history_from(data)
    got = outcome(lambda: validate_history(value, "h.json"), HistoryError)
    if isinstance(got, HistoryError):
        assert_one_line(str(got), "h.json")
    else:
        for t in got:
            assert set(t) <= {"role", "content", "paper_ids"} and isinstance(t["content"], str)
            assert all(isinstance(p, str) for p in t.get("paper_ids", []))


@cases("history_roundtrip")
@given(
    st.lists(
        st.fixed_dictionaries(
            {"role": st.sampled_from(["user", "assistant"]), "content": st.text(text_chars, max_size=30)},
            optional={"paper_ids": st.lists(st.text(text_chars, max_size=6), min_size=1, max_size=2)},
        ),
        max_size=3,
    ),
    st.booleans(),
    st.booleans(),
)
def test_history_valid_files_parse_exactly(data: list[dict[str, Any]], ascii_only: bool, bom: bool) -> None:
    text = json.dumps(data, ensure_ascii=ascii_only, indent=1)
    path = put("valid-history.json", ("\ufeff" if bom else "") + text)
    assert read_history(str(path)) == data


# --- LLM output -----------------------------------------------------------------------------
# An LLM's output is bounded by max_tokens (the generate loop cuts a server that ignores it),
# so a few KB is the realistic ceiling; adversarial shapes are among the examples.
LLM_PIECES = [
    *NASTY,
    *("The model", " improves accuracy", " on graph tasks", ". ", "? ", "! ", "\n- ", "\n1. ", "Answer: "),
    *(" [1]", " [2]", "[1][2]", "[1, 3]", "[0]", "[12; 4]", "[ 7 ]", "[x]", "[]", "(GENIE) ", "e.g. ", "3.5%"),
    *(REFUSAL, "The evidence does not mention it.", " 6,658 questions", " **TraceGrad**", "`code`"),
]


def check_claims(text: str) -> None:
    with time_limit():
        claims, refused = parse_output(text)
    assert isinstance(refused, bool) and not (refused and claims)
    for c in claims:
        assert c.text.strip(" .") and "\n" not in c.text
        assert len(c.citations) == len(set(c.citations)) and all(0 <= n < 10**6 for n in c.citations)


@cases("llm_output_text")
@given(st.binary(max_size=60))
@example(b"")
def test_parse_output_any_text(data: bytes) -> None:
    text = pieces(data, LLM_PIECES)
    check_claims(text)
    assert isinstance(is_refusal(text), bool)


@pytest.mark.parametrize(
    "text",
    [
        "A is B [" + "9" * 5000 + "].",  # int() refuses over 4300 digits
        "**a " * 3000,  # every unmatched ** scanned to the end of the line: quadratic
        "**" * 2000 + "x" + "**" * 2000,  # one nesting level unwrapped per pass: quadratic
        "[1]" * 2000,
    ],
)
def test_parse_output_bugs_found(text: str) -> None:
    with time_limit(3):
        check_claims(text)


WORDS = "the model improves accuracy on graph tasks with fewer parameters and scales to long inputs".split()


@cases("llm_output_cited")
@given(
    st.lists(st.tuples(st.binary(min_size=3, max_size=8), st.integers(1, 9)), min_size=1, max_size=4),
    st.sampled_from(["{s} [{n}].", "{s}. [{n}]", "- {s} [{n}]."]),
)
def test_parse_output_cites_what_the_sentence_cites(sentences: list[tuple[bytes, int]], shape: str) -> None:
    """Well-formed cited sentences come back one claim each, with their own citation."""
    plain = [" ".join(WORDS[b % len(WORDS)] for b in data).capitalize() for data, _ in sentences]
    parts = [shape.format(s=s, n=n) for s, (_, n) in zip(plain, sentences, strict=True)]
    text = ("\n" if shape.startswith("-") else " ").join(parts)
    claims, refused = parse_output(text)
    assert not refused
    assert [(c.text, c.citations) for c in claims] == [
        (s + ".", [n]) for s, (_, n) in zip(plain, sentences, strict=True)
    ]


def nonspace(text: str) -> list[str]:
    return sorted(re.sub(r"\s+", "", text))


@cases("pop_complete")
@given(st.binary(max_size=50))
def test_pop_complete_loses_nothing(data: bytes) -> None:
    buffer = pieces(data, LLM_PIECES)
    with time_limit():
        done, rest = pop_complete(buffer)
    assert all(isinstance(s, str) and s.strip() for s in done)
    assert nonspace("".join(done) + rest) == nonspace(markers_before_period(buffer))


@cases("pop_complete_stream")
@given(st.binary(max_size=40), st.binary(min_size=1, max_size=20))
def test_pop_complete_streamed_in_chunks_loses_nothing(data: bytes, cuts: bytes) -> None:
    """Fed as a stream of deltas, every character comes out exactly once."""
    text = pieces(data, LLM_PIECES)
    released: list[str] = []
    buffer, pos, i = "", 0, 0
    with time_limit():
        while pos < len(text):
            step = 1 + cuts[i % len(cuts)] % 12
            buffer += text[pos : pos + step]
            pos, i = pos + step, i + 1
            done, buffer = pop_complete(buffer)
            released += done
    assert nonspace("".join(released) + buffer) == nonspace(text)


# --- questions ------------------------------------------------------------------------------
@cases("question_check")
@given(
    st.one_of(st.binary(max_size=40).map(lambda d: pieces(d, NASTY)), st.text(max_size=40)), st.sampled_from([10, 2000])
)
@example("", 2000)
@example(" \t\n\x0b\u2028\u200b ", 2000)
@example("x" * 100_000, 2000)
@example("\x1b[31mHow many folds?\x07", 2000)
def test_check_question_any_text(question: str, max_chars: int) -> None:
    try:
        with time_limit():
            q = check_question(question, max_chars)
    except UsageError as e:
        assert "\n" not in str(e) and str(e).startswith("the question")
        return
    assert q and q == q.strip() and len(q) <= max_chars
    assert all(ch.isprintable() or ch in "\t\n" for ch in q)


@cases("question_language")
@given(st.one_of(st.binary(max_size=40).map(lambda d: pieces(d, NASTY)), st.text(max_size=60)))
@example("Qué " * 50_000)
def test_language_guess_any_text(text: str) -> None:
    with time_limit(2):
        assert isinstance(looks_non_english(text), bool)


# --- end to end: the CLI ----------------------------------------------------------------------
@pytest.mark.slow
def test_cli_bad_files_one_line_each(tmp_path: Path) -> None:
    """`rag ingest` on bad files: exit 1, one `error:` line per file, no traceback; and
    `rag ask --history` on a bad file: exit 2 before any index is built."""
    bad = {
        "binary.txt": b"head\n\x00\x01\x02",
        "utf16.txt": "Header\nAn abstract.\n".encode("utf-16"),
        "latin1.txt": "Header\nUn résumé en français.\n".encode("latin-1"),
        "deep.jsonl": b"[" * 100_000,
        "bignum.jsonl": b'{"abstract": "x", "id": ' + b"1" * 5000 + b"}",
        "surrogate.jsonl": b'{"abstract": "a \\ud800 b"}',
        "whitespace.txt": b" \n \t \n",
    }
    for name, raw in bad.items():
        (tmp_path / name).write_bytes(raw)
    env = dict(os.environ, RAG_HOME=str(tmp_path / "home"), RAG_DATA_DIR=str(tmp_path / "none"))

    def rag(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "rag.cli", *args], env=env, capture_output=True, text=True, timeout=300
        )

    r = rag("ingest", *(str(tmp_path / n) for n in bad))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("error: ")]
    assert len(errors) == len(bad), r.stderr
    for name in bad:
        assert sum(f"error: {tmp_path / name}:" in ln for ln in errors) == 1, (name, r.stderr)
    assert "UTF-16 text; expected UTF-8" in r.stderr and f"{tmp_path / 'latin1.txt'}:2: not UTF-8" in r.stderr

    r = rag("ask", "--json", "--history", str(tmp_path / "deep.jsonl"), "What is it?")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert json.loads(r.stdout) == {"error": f"{tmp_path / 'deep.jsonl'}: malformed JSON (nested too deeply)"}
