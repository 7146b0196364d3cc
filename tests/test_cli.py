"""The `rag` command end to end, in subprocesses, against real components."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rag.engine import Engine
from tests.conftest import SMALL, write_corpus

pytestmark = pytest.mark.slow


def rag(*args: str, env: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rag.cli", *args], env=env, capture_output=True, text=True, input=stdin, timeout=300
    )


@pytest.fixture(scope="module")
def env(real_engine: Engine) -> dict[str, str]:
    import os

    e = dict(os.environ)
    e["RAG_HOME"] = str(real_engine.settings.home)
    return e


def test_ask_json_contract(env: dict[str, str]) -> None:
    r = rag("ask", "--json", "How many questions does SNS-Bench contain?", env=env)
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)  # exactly one object on stdout
    for key, typ in [
        ("question", str),
        ("answer", str),
        ("refused", bool),
        ("backend", str),
        ("latency_ms", float),
        ("citations", list),
        ("sources", list),
        ("closest", list),
    ]:
        assert isinstance(obj[key], typ), key
    assert obj["backend"] == "extractive" and not obj["refused"] and "6,658" in obj["answer"]
    assert len(obj["sources"]) >= 10 and set(obj["sources"][0]) == {"paper_id", "score"}
    c = obj["citations"][0]
    # The shipped sidecars give every paper its real title.
    assert set(c) == {"n", "paper_id", "label", "title", "quote", "authors", "url", "venue", "display"}
    assert c["title"].startswith("SNS-Bench:") and c["venue"] == "ICML 2025" and c["authors"][0]
    assert c["url"].startswith("https://openreview.net/") and c["quote"] in obj["answer"]
    assert c["paper_id"] == "002_feea92aa1cd1892b#6" and c["label"] == "SNS-Bench"
    assert obj["answer_display"] and c["display"]


def test_ask_reads_readable_with_a_bibliography(env: dict[str, str]) -> None:
    r = rag("ask", "--json", "What coverage guarantee does JDI-CP achieve?", env=env)
    obj = json.loads(r.stdout)
    c = obj["citations"][0]
    assert "$" in c["quote"] and "$" not in c["display"] and "1−2α" in c["display"]  # verbatim vs readable
    assert "\\alpha" in obj["answer"] and "1−2α" in obj["answer_display"]
    r = rag("ask", "What coverage guarantee does JDI-CP achieve?", env=env)
    ref = next(x for x in r.stdout.splitlines() if x.startswith("[1] "))
    assert f" — {c['title']} ({c['authors'][0]} et al., ICML 2025) {c['url']}" in ref, ref
    assert "$" not in r.stdout and "\\texttt" not in r.stdout and "1−2α" in r.stdout


def test_ask_refusal_json_with_file_filter(env: dict[str, str]) -> None:
    r = rag("ask", "--json", "--file", "000_3578a6a037ed62e9", "What learning rate does GENIE use?", env=env)
    obj = json.loads(r.stdout)
    assert obj["refused"] and obj["citations"] == [] and obj["closest"][0]["paper_id"] == "000_3578a6a037ed62e9#1"
    assert set(obj["closest"][0]) == {"paper_id", "label", "score", "title", "authors", "url"}
    assert obj["closest"][0]["title"] and obj["closest"][0]["authors"]
    assert all(s["paper_id"].startswith("000_") for s in obj["sources"])


def test_ask_text_explain_history(env: dict[str, str], tmp_path: Path) -> None:
    history = tmp_path / "h.json"
    history.write_text(
        json.dumps(
            [
                {"role": "user", "content": "What is ZebraLogic?"},
                {"role": "assistant", "content": "A benchmark of logic grid puzzles for evaluating LLM reasoning."},
            ]
        )
    )
    r = rag("ask", "--explain", "--history", str(history), "What do they call the drop in accuracy?", env=env)
    assert r.returncode == 0, r.stderr
    assert "curse of complexity" in r.stdout and "References:" in r.stdout and "002_feea92aa1cd1892b#10" in r.stdout
    assert "Explain:" in r.stdout and "bm25=" in r.stdout


def test_errors_are_one_line(env: dict[str, str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = rag("ask", "--json", "--history", str(bad), "What is it?", env=env)
    assert r.returncode != 0 and set(json.loads(r.stdout)) == {"error"}
    assert "Traceback" not in r.stderr and f"{bad}:1" in r.stderr
    r = rag("ask", "   ", env=env)
    assert r.returncode != 0 and "empty" in r.stderr and "Traceback" not in r.stderr


def test_search_papers_status(env: dict[str, str]) -> None:
    r = rag("search", "--json", "attention sparsity GPU kernels", env=env)
    hits = json.loads(r.stdout)
    assert hits[0]["paper_id"] == "000_3578a6a037ed62e9#12" and hits[0]["sentences"]
    r = rag("papers", "list", env=env)
    assert len(r.stdout.strip().splitlines()) == 57 and "LLM-SRBench" in r.stdout
    row = next(x for x in r.stdout.splitlines() if x.startswith("000_3578a6a037ed62e9#1\t")).split("\t")
    assert row[2].startswith("One-Step Generalization Ratio") and row[3] == "Sumin Cho et al."
    r = rag("papers", "show", "002_feea92aa1cd1892b#1", env=env)
    assert "TraceGrad" in r.stdout and "**TraceGrad**" not in r.stdout  # emphasis plain in the terminal
    r = rag("papers", "show", "000_3578a6a037ed62e9#1", "--bibtex", env=env)
    assert r.stdout.startswith("@inproceedings{cho2025onestep,\n") and "  booktitle = {ICML 2025},\n" in r.stdout
    assert "  author = {Sumin Cho and Dongwon Kim and Kwangsu Kim},\n" in r.stdout and "  year = {2025}" in r.stdout
    status = json.loads(rag("status", "--json", env=env).stdout)
    assert status["papers"] == 57 and status["chunks"] > 300 and status["last_ingest"]


def test_ingest_remove_and_bad_files(tmp_path: Path) -> None:
    import os

    env = dict(os.environ, RAG_HOME=str(tmp_path / "home"))
    good = write_corpus(tmp_path / "c", "good", SMALL)
    empty = tmp_path / "c" / "empty.txt"
    empty.write_text("")
    r = rag("ingest", str(good), str(empty), env=env)
    assert r.returncode == 1
    assert f"{empty}: empty file" in r.stderr and "Traceback" not in r.stderr
    assert "4 added" in r.stdout
    r = rag("ingest", str(good), env=env)
    assert r.returncode == 0 and "4 unchanged" in r.stdout and "embedded 0 chunks" in r.stdout
    r = rag("remove", "good#2", env=env)
    assert r.returncode == 0 and "removed 1" in r.stdout
    r = rag("ask", "--json", "How many folds did FoldNet design?", env=env)
    assert "good#2" not in r.stdout
    r = rag("remove", "nothing#9", env=env)
    assert r.returncode != 0 and "no indexed paper" in r.stderr


def test_chat_keeps_history(env: dict[str, str]) -> None:
    r = rag("chat", env=env, stdin="What is ZebraLogic?\nHow does accuracy change as puzzles get harder?\n/quit\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("References:") == 2 and "curse of complexity" in r.stdout


def test_chat_records_cited_papers_once_in_citation_order() -> None:
    from rag.cli.commands import cited_ids
    from rag.types import Answer, Citation

    cites = [
        Citation(n=n, paper_id=pid, label=pid, quote=q) for n, pid, q in [(2, "b", "x"), (1, "a", "y"), (1, "a", "z")]
    ]
    a = Answer(question="q", answer="x", refused=False, backend="extractive", latency_ms=0.0, citations=cites)
    assert cited_ids(a) == ["a", "b"]
