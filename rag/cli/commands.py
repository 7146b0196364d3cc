"""The `rag` commands: each takes the parsed arguments and returns an exit code."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from rag.answer.history import HistoryError, read_history
from rag.answer.question import check_question
from rag.cli.format import authors_short, format_references, printer
from rag.corpus.label import display_label
from rag.errors import UsageError
from rag.settings import Settings, load_settings
from rag.text.display import readable
from ui.access import parse_ui_auth, serve_policy

log = logging.getLogger("rag")


def _engine(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from rag.engine import Engine

    return Engine(_settings())


def _settings() -> Settings:
    return load_settings()


def cmd_ask(args: argparse.Namespace) -> int:
    s = _settings()
    backend = args.backend or s.backend
    question = check_question(args.question, s.max_question_chars)
    try:
        history = read_history(args.history) if args.history else None
    except HistoryError as e:
        raise UsageError(str(e)) from None
    engine = _engine(args)
    llm = engine.llm(backend)  # an unconfigured backend fails before any indexing
    engine.ensure_index()
    engine.warm()
    a = engine.ask(
        question,
        backend=backend,
        history=history,
        top_k=args.top_k or s.top_k,
        papers=args.paper or None,
        files=args.file or None,
        explain=args.explain,
        on_sentence=None if args.json else printer(llm is not None),
    )
    if args.json:
        print(json.dumps(a.to_json()))
    else:
        print(format_references(a))
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    s = _settings()
    backend = args.backend or s.backend
    engine = _engine(args)
    llm = engine.llm(backend)
    engine.ensure_index()
    history: list[dict[str, Any]] = []
    print("Ask about the indexed abstracts. /clear forgets the conversation, /quit leaves.", file=sys.stderr)
    while True:
        try:
            line = input("you> ")
        except (EOFError, KeyboardInterrupt):
            print(file=sys.stderr)
            return 0
        if line.strip() in ("/quit", "/exit"):
            return 0
        if line.strip() == "/clear":
            history = []
            continue
        try:
            q = check_question(line, s.max_question_chars)
        except UsageError as e:
            print(f"error: {e}", file=sys.stderr)
            continue
        a = engine.ask(
            q, backend=backend, history=history, top_k=args.top_k or s.top_k, on_sentence=printer(llm is not None)
        )
        print(format_references(a), flush=True)
        history += [
            {"role": "user", "content": q},
            {"role": "assistant", "content": a.answer, "paper_ids": cited_ids(a)},
        ]


def cited_ids(a: Any) -> list[str]:
    """The papers an answer cites, de-duplicated in [n] order (what follow-ups resolve against)."""
    return list(dict.fromkeys(c.paper_id for c in sorted(a.citations, key=lambda c: c.n)))


def cmd_ingest(args: argparse.Namespace) -> int:
    s = _settings()
    if args.rebuild:
        from rag.index.health import wipe_store
        from rag.index.repair import writer_lock

        with writer_lock(Path(s.home)):
            wipe_store(Path(s.home), **s.store_options())
    engine = _engine(args)
    paths = [Path(p) for p in args.paths] or [Path(s.data_dir)]
    report = engine.ingest(paths)
    if args.json:
        print(report.model_dump_json())
    else:
        print(
            f"{len(report.files)} file(s): {report.added} added, {report.updated} updated, "
            f"{report.unchanged} unchanged, {report.removed} removed; embedded {report.chunks_embedded} chunks "
            f"(reused {report.chunks_reused}); index: {report.papers} papers, {report.chunks} chunks; "
            f"{report.seconds:.2f}s"
        )
    for err in report.errors:
        print(f"error: {err}", file=sys.stderr)
    return 1 if report.errors else 0


def cmd_search(args: argparse.Namespace) -> int:
    s = _settings()
    engine = _engine(args)
    engine.ensure_index()
    q = check_question(args.query, s.max_question_chars)
    r = engine.retriever.retrieve(q, top_k=args.top_k or s.top_k, papers=args.paper or None, files=args.file or None)
    hits = r.hits[: args.top_k or s.top_k]
    if args.json:
        print(json.dumps([h.model_dump() for h in hits]))
        return 0
    for i, h in enumerate(hits, 1):
        print(f"{i}. {h.label} ({h.paper_id})  score {h.score:.4f}")
        for sh in h.sentences[:2]:
            print(f"     {sh.text}")
    return 0


def cmd_papers(args: argparse.Namespace) -> int:
    engine = _engine(args)
    engine.ensure_index()
    papers = engine.papers
    if args.action == "show":
        if not args.id or args.id not in papers:
            raise UsageError(f"no paper {args.id!r}; `rag papers list` shows the ids")
        p = papers[args.id]
        if args.bibtex:
            from rag.corpus.bibtex import bibtex

            print(bibtex([p], papers.values()), end="")
        elif args.json:
            print(p.model_dump_json())
        else:
            print(f"{readable(display_label(p.label, p.title))} ({p.paper_id})")
            for k in ("title", "venue", "year", "url"):
                if getattr(p, k):
                    print(f"{k}: {readable(str(getattr(p, k)))}")
            if p.authors:
                print("authors: " + ", ".join(p.authors))
            print(f"source: {p.source} #{p.position}\n\n{readable(p.abstract)}")
        return 0
    ordered = sorted(papers.values(), key=lambda p: (p.source, p.position))
    if args.json:
        rows = [{"paper_id": p.paper_id, "label": p.label, "title": p.title, "authors": p.authors} for p in ordered]
        print(json.dumps(rows))
    else:
        for p in ordered:
            cols = [
                p.paper_id,
                readable(display_label(p.label, p.title)),
                readable(p.title or ""),
                authors_short(p.authors),
            ]
            print("\t".join(cols).rstrip("\t"))
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    from rag.index.ingest import remove

    s = _settings()
    engine = _engine(args)
    try:
        ids = remove(args.targets, store=engine.store, home=Path(s.home))
    except KeyError as e:
        raise UsageError(str(e.args[0])) from None
    print(f"removed {len(ids)} paper(s)")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    s = _settings()
    engine = _engine(args)
    n_papers, n_chunks = engine.store.count()
    info = engine.store.info()
    files = sorted({str(n.metadata["source"]) for n in engine.store.manifest().values()})
    status = {
        "store": engine.store.location,
        "mode": "server" if s.chroma_url else "embedded",
        "collection": s.collection,
        "papers": n_papers,
        "chunks": n_chunks,
        "files": files,
        "model": info.get("model") or s.model_path().rstrip("/").split("/")[-1],
        "last_ingest": info.get("last_ingest"),
    }
    if args.json:
        print(json.dumps(status))
    else:
        for k, v in status.items():
            print(f"{k}: {', '.join(v) if isinstance(v, list) else v}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import os

    # Refused before gradio is even imported; `launch` applies the same policy and warns.
    serve_policy(args.host, allow_remote=args.allow_remote, auth=parse_ui_auth(os.environ.get("RAG_UI_AUTH")))
    from ui.app import launch

    return launch(host=args.host, port=args.port, allow_remote=args.allow_remote)
