"""Reading corpus files (header + one abstract per line, or JSONL) into `Paper`s."""

from __future__ import annotations

import logging
from pathlib import Path

from rag.corpus.label import make_label
from rag.text.files import TextFileError, decode, one_line, parse_json, short, split_lines
from rag.types import Paper

log = logging.getLogger(__name__)

CORPUS_SUFFIXES = (".txt", ".jsonl")
MAX_ABSTRACT_CHARS = 20_000


class CorpusError(ValueError):
    """A corpus file that cannot be read; the message (one line) names file and line."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        where = f"{one_line(str(path), None)}:{line}" if line else one_line(str(path), None)
        super().__init__(f"{where}: {one_line(message)}")
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
    try:
        raw = path.read_bytes()
    except OSError as e:  # named here so a sidecar's problem is not blamed on its text file
        raise CorpusError(path, None, f"cannot read ({e.strerror or type(e).__name__})") from None
    try:
        text = decode(raw)
    except TextFileError as e:
        raise CorpusError(path, e.line, e.reason) from None
    if not text.strip():
        raise CorpusError(path, None, "empty file")
    return text


def _json_line(path: Path, lineno: int, line: str) -> object:
    try:
        return parse_json(line)
    except TextFileError as e:
        raise CorpusError(path, lineno, e.reason) from None


def _check_abstract(path: Path, line: int, text: str) -> str:
    text = text.strip()
    if len(text) > MAX_ABSTRACT_CHARS:
        raise CorpusError(path, line, f"abstract longer than {MAX_ABSTRACT_CHARS} characters")
    return text


def parse_text(path: Path, text: str) -> list[Paper]:
    """Line 1 is a header; every following non-empty line is one abstract."""
    papers: list[Paper] = []
    lines = split_lines(text)
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


def _year(path: Path, lineno: int, v: object) -> int | None:
    if v is None or v == "":
        return None
    if isinstance(v, str) and v.strip().isdigit():
        v = int(v.strip())
    if isinstance(v, bool) or not isinstance(v, int) or not 0 < v < 10_000:
        raise CorpusError(path, lineno, '"year" must be a year such as 2025')
    return v


def parse_jsonl(path: Path, text: str) -> list[Paper]:
    """One JSON object per line: {"id"?, "title"?, "authors"?, "url"?, "venue"?, "year"?, "abstract"}."""
    papers: list[Paper] = []
    seen: set[str] = set()
    for lineno, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        obj = _json_line(path, lineno, line)
        if not isinstance(obj, dict):
            raise CorpusError(path, lineno, "expected a JSON object")
        abstract = obj.get("abstract")
        if not isinstance(abstract, str) or not abstract.strip():
            raise CorpusError(path, lineno, 'missing or empty "abstract"')
        n = len(papers) + 1
        pid = obj.get("id")
        # bool is an int subclass: `"id": true` must not become the id "True".
        if pid is not None and (isinstance(pid, bool) or not isinstance(pid, (str, int)) or not str(pid).strip()):
            raise CorpusError(path, lineno, '"id" must be a non-empty string')
        paper_id = str(pid).strip() if pid is not None else f"{path.stem}#{n}"
        if paper_id in seen:
            raise CorpusError(path, lineno, f"duplicate paper id {short(paper_id)}")
        seen.add(paper_id)
        papers.append(
            Paper(
                paper_id=paper_id,
                source=path.stem,
                position=n,
                abstract=_check_abstract(path, lineno, abstract),
                title=_opt_str(path, lineno, obj, "title"),
                authors=_authors(path, lineno, obj.get("authors")),
                url=_opt_str(path, lineno, obj, "url"),
                venue=_opt_str(path, lineno, obj, "venue"),
                year=_year(path, lineno, obj.get("year")),
            )
        )
    if not papers:
        raise CorpusError(path, None, "no abstracts")
    return papers


def _apply_sidecar(path: Path, papers: list[Paper]) -> None:
    meta_path = path.with_name(f"{path.stem}.meta.jsonl")
    if not meta_path.is_file():
        return
    by_id = {p.paper_id: p for p in papers}
    text = _read_text(meta_path)
    for lineno, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        obj = _json_line(meta_path, lineno, line)
        if not isinstance(obj, dict) or not isinstance(obj.get("paper_id"), str):
            raise CorpusError(meta_path, lineno, 'expected an object with a "paper_id"')
        paper = by_id.get(obj["paper_id"])
        if paper is None:
            raise CorpusError(meta_path, lineno, f"unknown paper_id {short(obj['paper_id'])}")
        paper.title = _opt_str(meta_path, lineno, obj, "title") or paper.title
        paper.authors = _authors(meta_path, lineno, obj.get("authors")) or paper.authors
        paper.url = _opt_str(meta_path, lineno, obj, "url") or paper.url
        paper.venue = _opt_str(meta_path, lineno, obj, "venue") or paper.venue
        paper.year = _year(meta_path, lineno, obj.get("year")) or paper.year


def read_corpus_file(path: Path) -> list[Paper]:
    """Parse one file into labelled papers, or raise `CorpusError` naming file and line."""
    text = _read_text(path)
    papers = parse_jsonl(path, text) if path.suffix == ".jsonl" else parse_text(path, text)
    _apply_sidecar(path, papers)
    for p in papers:
        p.label = make_label(p.abstract, title=p.title)
    return papers
