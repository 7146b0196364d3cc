"""Reading corpus files (header + one abstract per line, or JSONL) into `Paper`s."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from rag.label import make_label
from rag.types import Paper

log = logging.getLogger(__name__)

CORPUS_SUFFIXES = (".txt", ".jsonl")
MAX_ABSTRACT_CHARS = 20_000


class CorpusError(ValueError):
    """A corpus file that cannot be read; the message names file and line."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        where = f"{path}:{line}" if line else f"{path}"
        super().__init__(f"{where}: {message}")
        self.path = str(path)
        self.line = line


def corpus_files(paths: list[Path]) -> list[Path]:
    """Expand folders into their corpus files (sorted); files are taken as given."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(
                sorted(
                    f
                    for f in p.iterdir()
                    if f.is_file() and f.suffix in CORPUS_SUFFIXES and not f.name.endswith(".meta.jsonl")
                )
            )
        elif p.exists():
            out.append(p)
        else:
            raise CorpusError(p, None, "no such file or folder")
    return out


def _read_text(path: Path) -> str:
    raw = path.read_bytes()
    if b"\x00" in raw:
        raise CorpusError(path, None, "binary file (NUL bytes); expected UTF-8 text")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise CorpusError(path, line, f"not UTF-8 text (byte 0x{raw[e.start]:02x})") from None
    if not text.strip():
        raise CorpusError(path, None, "empty file")
    return text


def _check_abstract(path: Path, line: int, text: str) -> str:
    text = text.strip()
    if len(text) > MAX_ABSTRACT_CHARS:
        raise CorpusError(path, line, f"abstract longer than {MAX_ABSTRACT_CHARS} characters")
    return text


def parse_text(path: Path, text: str) -> list[Paper]:
    """Line 1 is a header; every following non-empty line is one abstract."""
    papers: list[Paper] = []
    lines = text.splitlines()
    for lineno, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        n = len(papers) + 1
        abstract = _check_abstract(path, lineno, line)
        papers.append(Paper(paper_id=f"{path.stem}#{n}", source=path.stem, position=n, abstract=abstract))
    if not papers:
        raise CorpusError(path, None, "no abstracts (line 1 is a header; put one abstract per line after it)")
    return papers


def _opt_str(path: Path, lineno: int, obj: dict, key: str) -> str | None:  # type: ignore[type-arg]
    v = obj.get(key)
    if v is None:
        return None
    if not isinstance(v, str):
        raise CorpusError(path, lineno, f'"{key}" must be a string')
    return v.strip() or None


def _authors(path: Path, lineno: int, v: object) -> list[str] | None:
    if v is None:
        return None
    if isinstance(v, str):
        return [a.strip() for a in v.split(",") if a.strip()] or None
    if isinstance(v, list) and all(isinstance(a, str) for a in v):
        return [a.strip() for a in v if a.strip()] or None
    raise CorpusError(path, lineno, '"authors" must be a string or a list of strings')


def parse_jsonl(path: Path, text: str) -> list[Paper]:
    """One JSON object per line: {"id"?, "title"?, "authors"?, "url"?, "abstract"}."""
    papers: list[Paper] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as e:
            msg = e.msg if isinstance(e, json.JSONDecodeError) else "nested too deeply"
            raise CorpusError(path, lineno, f"malformed JSON ({msg})") from None
        if not isinstance(obj, dict):
            raise CorpusError(path, lineno, "expected a JSON object")
        abstract = obj.get("abstract")
        if not isinstance(abstract, str) or not abstract.strip():
            raise CorpusError(path, lineno, 'missing or empty "abstract"')
        n = len(papers) + 1
        pid = obj.get("id")
        if pid is not None and (not isinstance(pid, (str, int)) or not str(pid).strip()):
            raise CorpusError(path, lineno, '"id" must be a non-empty string')
        papers.append(
            Paper(
                paper_id=str(pid).strip() if pid is not None else f"{path.stem}#{n}",
                source=path.stem,
                position=n,
                abstract=_check_abstract(path, lineno, abstract),
                title=_opt_str(path, lineno, obj, "title"),
                authors=_authors(path, lineno, obj.get("authors")),
                url=_opt_str(path, lineno, obj, "url"),
            )
        )
    if not papers:
        raise CorpusError(path, None, "no abstracts")
    return papers


def _apply_sidecar(path: Path, papers: list[Paper]) -> None:
    meta_path = path.with_name(f"{path.stem}.meta.jsonl")
    if not meta_path.exists():
        return
    by_id = {p.paper_id: p for p in papers}
    text = _read_text(meta_path)
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise CorpusError(meta_path, lineno, "malformed JSON") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("paper_id"), str):
            raise CorpusError(meta_path, lineno, 'expected an object with a "paper_id"')
        paper = by_id.get(obj["paper_id"])
        if paper is None:
            raise CorpusError(meta_path, lineno, f"unknown paper_id {obj['paper_id']!r}")
        paper.title = _opt_str(meta_path, lineno, obj, "title") or paper.title
        paper.authors = _authors(meta_path, lineno, obj.get("authors")) or paper.authors
        paper.url = _opt_str(meta_path, lineno, obj, "url") or paper.url


def read_corpus_file(path: Path) -> list[Paper]:
    """Parse one file into labelled papers, or raise `CorpusError` naming file and line."""
    text = _read_text(path)
    papers = parse_jsonl(path, text) if path.suffix == ".jsonl" else parse_text(path, text)
    seen: set[str] = set()
    for p in papers:
        if p.paper_id in seen:
            raise CorpusError(path, p.position, f"duplicate paper id {p.paper_id!r}")
        seen.add(p.paper_id)
    _apply_sidecar(path, papers)
    for p in papers:
        p.label = make_label(p.abstract, title=p.title)
    return papers
