"""Per-file records: which corpus files are unchanged since they were last indexed, decided
without parsing or labelling them.

Each indexed file leaves one record in `RAG_HOME/files.json`: its size, mtime and content hash
(the metadata sidecar's bytes included), the embedding model, and the content and paper hash
of every paper it gave. A file whose bytes hash the same, under the same model, whose papers the committed
manifest still holds with exactly those hashes, is unchanged: re-ingesting a 2,400-paper
corpus then costs one read and one hash per file instead of parsing and labelling every
abstract. Anything else (a changed byte, another model, a paper removed meanwhile) parses
the file as before.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Any

from rag.index.chunks import Record

log = logging.getLogger(__name__)

RECORDS = "files.json"


@functools.cache
def rules() -> str:
    """A hash of the code that turns a file into papers, labels and sentences: after an
    upgrade that changes it, every file is parsed again (its papers are re-embedded only
    where their records changed), so no label or sentence of older rules is kept."""
    import rag.corpus
    import rag.text

    h = hashlib.sha1()
    parts = [*Path(rag.corpus.__file__).parent.glob("*.py"), *Path(rag.text.__file__).parent.glob("*.py")]
    for f in sorted([*parts, Path(__file__).with_name("chunks.py")], key=lambda f: (f.parent.name, f.name)):
        h.update(f"{f.parent.name}/{f.name}\0".encode() + f.read_bytes())
    return h.hexdigest()[:16]


def fingerprint(path: Path) -> dict[str, Any]:
    """Size, mtime and content hash of a corpus file and its sidecar (if any)."""
    sidecar = path.with_name(f"{path.stem}.meta.jsonl")
    h = hashlib.sha1(path.read_bytes())
    if sidecar.is_file():
        h.update(b"\0sidecar\0" + sidecar.read_bytes())
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha1": h.hexdigest()}


def load_records(home: Path) -> dict[str, dict[str, Any]]:
    """Records by resolved file path; a missing or damaged file means no records (parse all)."""
    try:
        data = json.loads((home / RECORDS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_records(home: Path, records: dict[str, dict[str, Any]]) -> None:
    tmp = home / f".{RECORDS}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(records, sort_keys=True), encoding="utf-8")
    tmp.replace(home / RECORDS)  # atomic: readers see the old records or the new ones


def key(path: Path) -> str:
    return str(path.resolve())


def looks_unchanged(record: dict[str, Any] | None, print_: dict[str, Any], model: str) -> bool:
    """Same bytes under the same model and parsing rules (the manifest is checked by `still_indexed`)."""
    return bool(
        record
        and record.get("model") == model
        and record.get("rules") == rules()
        and all(record.get(k) == print_[k] for k in ("size", "sha1"))
        and isinstance(record.get("papers"), dict)
    )


def still_indexed(record: dict[str, Any], stem: str, manifest: dict[str, Record]) -> bool:
    """Whether the committed manifest holds exactly the record's papers for this file."""
    indexed = {pid: str(n.metadata["paper_hash"]) for pid, n in manifest.items() if str(n.metadata["source"]) == stem}
    return bool(indexed) and indexed == record["papers"]


def unchanged_candidates(files: list[Path], home: Path, model: str) -> tuple[list[Path], dict[Path, dict[str, Any]]]:
    """Files whose bytes and model match their record (confirmed against the manifest later),
    and every readable file's fingerprint."""
    records = load_records(home)
    prints: dict[Path, dict[str, Any]] = {}
    for f in files:
        with contextlib.suppress(OSError):  # unreadable: parsing reports it
            prints[f] = fingerprint(f)
    if len({f.stem for f in files}) != len(files):
        return [], prints  # duplicate stems: parsing reports them, file by file
    return [f for f in files if f in prints and looks_unchanged(records.get(key(f)), prints[f], model)], prints


def confirm_unchanged(candidates: list[Path], manifest: dict[str, Record], home: Path) -> dict[str, int]:
    """Stem -> paper count of the candidates the manifest still holds exactly as recorded
    (unchanged: not parsed)."""
    records = load_records(home)
    kept: dict[str, int] = {}
    for f in candidates:
        rec = records.get(key(f))
        if rec is not None and still_indexed(rec, f.stem, manifest):
            kept[f.stem] = len(rec["papers"])
    return kept


def record_files(
    home: Path,
    files: list[Path],
    prints: dict[Path, dict[str, Any]],
    hashes: dict[str, dict[str, tuple[str, str]]],
    model: str,
) -> None:
    """Remember each file indexed by this ingest, with its papers' (content hash, paper
    hash) by stem (kept files keep their record)."""
    records = load_records(home)
    for f in files:
        if f.stem in hashes and f in prints:
            papers = {pid: h for pid, (_, h) in hashes[f.stem].items()}
            content = {pid: c for pid, (c, _) in hashes[f.stem].items()}
            records[key(f)] = {**prints[f], "model": model, "rules": rules(), "papers": papers, "content": content}
    save_records(home, records)


def known_hashes(home: Path, model: str) -> dict[str, str]:
    """Content hash -> paper hash of every recorded paper split by the current rules under
    `model`: a paper with a known content hash need not be split again to know its hash."""
    known: dict[str, str] = {}
    for rec in load_records(home).values():
        if not isinstance(rec, dict) or rec.get("model") != model or rec.get("rules") != rules():
            continue
        papers, content = rec.get("papers"), rec.get("content")
        if isinstance(papers, dict) and isinstance(content, dict):
            known.update({c: papers[pid] for pid, c in content.items() if pid in papers})
    return known
