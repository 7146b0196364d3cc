"""Re-ingest of unchanged files is decided from per-file records, without parsing them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import rag.index.ingest as ingest_mod
from rag.engine import Engine
from rag.index import file_records
from rag.index.file_records import RECORDS
from rag.index.ingest import remove
from rag.settings import Settings
from tests.conftest import SMALL, write_corpus
from tests.fakes import HashEmbedder


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the files each ingest actually parsed."""
    seen: list[str] = []
    real = ingest_mod.read_corpus_file

    def counting(path: Path):  # type: ignore[no-untyped-def]
        seen.append(path.name)
        return real(path)

    monkeypatch.setattr(ingest_mod, "read_corpus_file", counting)
    return seen


def _setup(tmp_path: Path) -> tuple[Engine, Path, Path]:
    corpus = tmp_path / "c"
    a = write_corpus(corpus, "a", SMALL[:2])
    b = write_corpus(corpus, "b", SMALL[2:])
    return Engine(Settings(home=tmp_path / "home"), embedder=HashEmbedder()), a, b


def test_unchanged_files_are_not_parsed(tmp_path: Path, parses: list[str]) -> None:
    engine, a, b = _setup(tmp_path)
    first = engine.ingest([a.parent])
    assert sorted(parses) == ["a.txt", "b.txt"] and first.added == 4
    parses.clear()
    again = engine.ingest([a.parent])
    assert parses == [] and (again.unchanged, again.added, again.chunks_embedded) == (4, 0, 0)
    assert again.files == first.files and again.papers == 4
    # A touched file (new mtime, same bytes) is still unchanged.
    os.utime(b, (1, 1))
    assert engine.ingest([a.parent]).unchanged == 4 and parses == []


def test_changed_bytes_or_sidecar_are_parsed(tmp_path: Path, parses: list[str]) -> None:
    engine, a, b = _setup(tmp_path)
    engine.ingest([a.parent])
    parses.clear()
    b.write_text(b.read_text(encoding="utf-8").replace("2 bits", "3 bits"), encoding="utf-8")
    report = engine.ingest([a.parent])
    assert parses == ["b.txt"] and (report.updated, report.unchanged) == (1, 3)
    parses.clear()
    (a.parent / "a.meta.jsonl").write_text(json.dumps({"paper_id": "a#1", "title": "A title"}) + "\n")
    report = engine.ingest([a.parent])
    assert parses == ["a.txt"] and report.updated == 1
    assert engine.retriever.snapshot.papers["a#1"].title == "A title"


def test_a_record_the_manifest_contradicts_is_not_trusted(tmp_path: Path, parses: list[str]) -> None:
    engine, a, _ = _setup(tmp_path)
    engine.ingest([a.parent])
    remove(["a#1"], store=engine.store, home=engine.settings.home)
    parses.clear()
    report = engine.ingest([a.parent])
    assert parses == ["a.txt"] and (report.added, report.unchanged) == (1, 3)
    assert "a#1" in Engine(engine.settings, embedder=HashEmbedder()).papers


def test_damaged_records_mean_parse_everything(tmp_path: Path, parses: list[str]) -> None:
    engine, a, _ = _setup(tmp_path)
    engine.ingest([a.parent])
    (engine.settings.home / RECORDS).write_text("{not json", encoding="utf-8")
    parses.clear()
    report = engine.ingest([a.parent])
    assert sorted(parses) == ["a.txt", "b.txt"] and report.unchanged == 4
    parses.clear()
    assert engine.ingest([a.parent]).unchanged == 4 and parses == []  # records written again


def test_another_model_re_parses(tmp_path: Path, parses: list[str]) -> None:
    engine, a, _ = _setup(tmp_path)
    engine.ingest([a.parent])
    other = HashEmbedder()
    other.name = "another-model"
    parses.clear()
    report = Engine(engine.settings, embedder=other).ingest([a.parent])
    assert sorted(parses) == ["a.txt", "b.txt"] and report.updated == 4


def test_other_parsing_rules_re_parse(tmp_path: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # After an upgrade that changes how files become papers and labels, nothing of the old
    # rules is kept: every file is parsed again.
    engine, a, _ = _setup(tmp_path)
    engine.ingest([a.parent])
    monkeypatch.setattr(file_records, "rules", lambda: "other-rules")
    parses.clear()
    engine.ingest([a.parent])
    assert sorted(parses) == ["a.txt", "b.txt"]
    parses.clear()
    assert engine.ingest([a.parent]).unchanged == 4 and parses == []
