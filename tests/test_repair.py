"""Crash repair of the embedded store: torn Chroma vector files left by a killed writer are
never loaded; the collection is rebuilt from the published snapshot."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rag.index.repair import WRITING, recover, writer_lock
from tests.conftest import write_corpus
from tests.test_crash import start_ingest, state, variants

pytestmark = pytest.mark.slow


def _build(tmp_path: Path, name: str) -> tuple[Path, Path]:
    corpus = tmp_path / f"{name}-corpus"
    write_corpus(corpus, "synth", variants()[0])  # > 1,000 sentences: Chroma persists HNSW files
    home = tmp_path / name
    assert start_ingest(home, corpus).wait(timeout=300) == 0
    return home, corpus


def _tear(home: Path) -> int:
    """What a kill mid-write can leave: truncated HNSW headers (loading one segfaults)."""
    torn = 0
    for header in (home / "chroma").glob("*/header.bin"):
        header.write_bytes(header.read_bytes()[:50])
        torn += 1
    (home / WRITING).write_text(json.dumps({"collection": "abstracts"}), encoding="utf-8")
    return torn


def test_torn_vector_files_of_a_killed_writer_are_rebuilt_from_the_snapshot(tmp_path: Path) -> None:
    home, corpus = _build(tmp_path, "home")
    clean = tmp_path / "clean"
    shutil.copytree(home, clean)
    assert _tear(home) >= 1
    # A new process (as after a real crash); it would die of SIGSEGV if it loaded the torn files.
    assert start_ingest(home, corpus).wait(timeout=300) == 0
    assert not (home / WRITING).exists()
    got, expected = state(home, corpus), state(clean, corpus)
    assert got == expected
    live = {d.name for d in (home / "chroma").iterdir() if d.is_dir()}
    assert len(live) <= 2  # the dropped collections' folders are gone


def test_a_live_writers_mark_is_left_alone(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / WRITING).write_text("{}", encoding="utf-8")
    with writer_lock(home):  # held through another file description, as by another process
        assert recover(home, {"collection": "abstracts"}) is False
    assert (home / WRITING).exists()


def test_a_writer_killed_before_its_first_publish_leaves_an_empty_index(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / WRITING).write_text("{}", encoding="utf-8")
    assert recover(home, {"collection": "abstracts"}) is False  # nothing to restore from
    assert not (home / WRITING).exists()
    corpus = tmp_path / "corpus"
    write_corpus(corpus, "synth", variants()[0][:5])
    assert start_ingest(home, corpus).wait(timeout=300) == 0
    assert state(home, corpus)["papers"]
