"""Crash safety: `kill -9` of an ingest at random points never loses or duplicates anything.

After each kill a normal ingest must leave exactly the expected papers and chunks, and
answers must equal those of an index built from scratch.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rag.bench.scale import synthetic_abstracts
from rag.corpus.reader import read_corpus_file
from rag.engine import Engine
from rag.index.chunks import split_chunks
from rag.settings import Settings
from tests.conftest import DATA, write_corpus
from tests.fakes import HashEmbedder

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).with_name("crash_ingest.py")
ROOT = SCRIPT.parent.parent
QUESTIONS = [
    "What does SNS-Bench measure?",
    "Which method improves reasoning with reinforcement learning?",
    "What is the learning rate used for training?",
    "Which papers study graph neural networks?",
    "How many questions does the benchmark contain?",
]


def base_sentences() -> list[str]:
    return [
        p.abstract[s:e]
        for f in sorted(DATA.glob("*.txt"))
        for p in read_corpus_file(f)
        for s, e, _ in split_chunks(p, HashEmbedder())
    ]


def variants(n: int = 160) -> list[list[str]]:
    """Corpus versions the loop switches between: full, edited, shortened (ids shift)."""
    full = synthetic_abstracts(base_sentences(), n, seed=11)
    edited = [a + " We also release the code." if i % 7 == 0 else a for i, a in enumerate(full)]
    shorter = [a for i, a in enumerate(full) if i % 9 != 4]
    return [full, edited, shorter]


def start_ingest(home: Path, corpus: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(SCRIPT), str(home), str(corpus)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _essence(a: object) -> dict[str, object]:
    return a.model_dump(include={"answer", "refused", "citations"})  # type: ignore[attr-defined, no-any-return]


def state(home: Path, corpus: Path) -> dict[str, object]:
    """What the index holds after a normal ingest (in a fresh process's view)."""
    engine = Engine(Settings(home=home), embedder=HashEmbedder())
    report = engine.ingest([corpus], progress=False)
    assert not report.errors
    snap = engine.retriever.snapshot
    ids = engine.store.sentence_ids()
    return {
        "papers": {pid: snap.hashes[pid] for pid in snap.papers},
        "chunks": sorted(snap.sentences),
        "stored_chunk_ids": sorted(ids),
        "bm25_docs": len(snap.bm25_sentence_ids),
        "answers": [_essence(engine.ask(q)) for q in QUESTIONS],
    }


def test_kill_9_during_ingest_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    rng = random.Random(20251129)
    versions = variants()
    corpus = tmp_path / "corpus"
    home = tmp_path / "home"

    # How long one undisturbed ingest takes here, so kills land across all its phases.
    write_corpus(corpus, "synth", versions[0])
    t = time.perf_counter()
    assert start_ingest(tmp_path / "timing-home", corpus).wait(timeout=300) == 0
    duration = time.perf_counter() - t

    kills = runs = 0
    while kills < 20 and runs < 60:  # an ingest that finished first does not count as a kill
        write_corpus(corpus, "synth", versions[runs % len(versions)])
        proc = start_ingest(home, corpus)
        time.sleep(rng.uniform(0.05, duration))
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait(timeout=120)
        runs += 1
    assert kills >= 20, f"only {kills} of {runs} ingests were still running when killed"

    final = versions[1]
    write_corpus(corpus, "synth", final)
    got = state(home, corpus)
    clean_corpus = tmp_path / "clean-corpus"
    write_corpus(clean_corpus, "synth", final)
    expected = state(tmp_path / "clean-home", clean_corpus)

    n_expected = sum(len(split_chunks(p, HashEmbedder())) for p in read_corpus_file(corpus / "synth.txt"))
    assert len(got["papers"]) == len(final)  # type: ignore[arg-type]
    assert len(got["chunks"]) == n_expected  # type: ignore[arg-type]
    assert got["stored_chunk_ids"] == got["chunks"]  # no orphans, no duplicates left behind
    assert got["bm25_docs"] == n_expected
    assert got["papers"] == expected["papers"]
    assert got["chunks"] == expected["chunks"]
    assert json.dumps(got["answers"], sort_keys=True) == json.dumps(expected["answers"], sort_keys=True)


def test_kill_9_with_the_real_model(tmp_path: Path, real_engine: Engine) -> None:
    """One `rag ingest` of the shipped corpus with the real model, killed mid-way."""
    env = {**os.environ, "RAG_HOME": str(tmp_path / "home"), "RAG_DATA_DIR": str(DATA)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "rag.cli", "ingest"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 120
    while not (tmp_path / "home" / "chroma").exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # the store is open: the model loads and embeds next
    time.sleep(random.Random(7).uniform(1.0, 4.0))
    killed = proc.poll() is None
    if killed:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    assert killed, "the ingest finished before the kill; raise the corpus or lower the delay"

    done = subprocess.run(
        [sys.executable, "-m", "rag.cli", "ingest", "--json"], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    ref = real_engine.retriever.snapshot
    assert report["papers"] == len(ref.papers) and report["chunks"] == len(ref.sentences)

    engine = Engine(Settings(home=tmp_path / "home", data_dir=DATA))
    assert sorted(engine.store.sentence_ids()) == sorted(ref.sentences)
    for q in QUESTIONS:
        assert _essence(engine.ask(q)) == _essence(real_engine.ask(q)), q
