"""The `rag` command line: ingest, ask, chat, search, papers, remove, status, serve, bench."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from pydantic import ValidationError

import rag  # noqa: F401  (sets the offline environment first)
from rag.settings import Settings

log = logging.getLogger("rag")

BACKENDS = ("extractive", "local", "openai")


class UsageError(Exception):
    """A problem the user can fix; printed as one line, never a traceback."""


def _engine(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from rag.engine import Engine

    return Engine(_settings())


def _settings() -> Settings:
    try:
        return Settings()
    except ValidationError as e:
        first = e.errors()[0]
        raise UsageError(f"invalid setting RAG_{str(first['loc'][0]).upper()}: {first['msg']}") from None


def read_history(path: str) -> list[dict[str, Any]]:
    """A JSON list of {"role": "user"|"assistant", "content": str, "paper_ids"?: [str]}."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise UsageError(f"{path}: cannot read history ({e.strerror})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: history is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{path}:{e.lineno}: malformed JSON ({e.msg})") from None
    except RecursionError:
        raise UsageError(f"{path}: JSON nested too deeply") from None
    return validate_history(data, path)


def validate_history(data: Any, where: str = "history") -> list[dict[str, Any]]:
    if not isinstance(data, list):
        raise UsageError(f"{where}: expected a JSON list of turns")
    out = []
    for i, turn in enumerate(data, 1):
        if not isinstance(turn, dict) or turn.get("role") not in ("user", "assistant"):
            raise UsageError(f'{where}: turn {i} must be an object with "role" user or assistant')
        if not isinstance(turn.get("content"), str):
            raise UsageError(f'{where}: turn {i} needs a "content" string')
        pids = turn.get("paper_ids")
        if pids is not None and not (isinstance(pids, list) and all(isinstance(p, str) for p in pids)):
            raise UsageError(f'{where}: turn {i}: "paper_ids" must be a list of strings')
        out.append({"role": turn["role"], "content": turn["content"], **({"paper_ids": pids} if pids else {})})
    return out


def check_question(question: str, max_chars: int) -> str:
    q = "".join(ch for ch in question if ch.isprintable() or ch in "\t\n").strip()
    if not q:
        raise UsageError("the question is empty")
    if len(q) > max_chars:
        raise UsageError(f"the question is {len(q)} characters long; the limit is {max_chars} (RAG_MAX_QUESTION_CHARS)")
    return q


def _need_backend(name: str) -> None:
    if name != "extractive":
        raise UsageError(f"backend {name!r} is not available in this version; use --backend extractive")


def format_answer(a: Any) -> str:
    lines = [a.answer]
    if a.note:
        lines += ["", f"Note: {a.note}"]
    if a.citations:
        lines += ["", "References:"]
        for c in a.citations:
            title = f" — {c.title}" if c.title else ""
            lines.append(f"[{c.n}] {c.label} ({c.paper_id}){title}")
            lines.append(f'    "{c.quote}"')
    elif a.refused and a.closest:
        lines += ["", "Closest papers:"]
        lines += [f"  {c.label} ({c.paper_id})  score {c.score:.3f}" for c in a.closest]
    if a.explain:
        lines += ["", "Explain:"] + [f"  {x}" for x in a.explain]
    return "\n".join(lines)


def cmd_ask(args: argparse.Namespace) -> int:
    from rag.answer import answer

    s = _settings()
    backend = args.backend or s.backend
    _need_backend(backend)
    question = check_question(args.question, s.max_question_chars)
    history = read_history(args.history) if args.history else None
    engine = _engine(args)
    engine.ensure_index()
    engine.warm()
    a = answer(
        question,
        retriever=engine.retriever,
        history=history,
        top_k=args.top_k or s.top_k,
        papers=args.paper or None,
        files=args.file or None,
        explain=args.explain,
    )
    if args.json:
        print(json.dumps(answer_json(a)))
    else:
        print(format_answer(a))
    return 0


def answer_json(a: Any) -> dict[str, Any]:
    """The `rag ask --json` object: optional extras only when set, contract fields always."""
    data: dict[str, Any] = a.model_dump(mode="json")
    for k in ("explain", "note"):
        if data.get(k) is None:
            data.pop(k, None)
    return data


def cmd_chat(args: argparse.Namespace) -> int:
    from rag.answer import answer

    s = _settings()
    backend = args.backend or s.backend
    _need_backend(backend)
    engine = _engine(args)
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
        a = answer(q, retriever=engine.retriever, history=history, top_k=args.top_k or s.top_k)
        print(format_answer(a), flush=True)
        history += [
            {"role": "user", "content": q},
            {"role": "assistant", "content": a.answer, "paper_ids": [c.paper_id for c in a.citations]},
        ]


def cmd_ingest(args: argparse.Namespace) -> int:
    s = _settings()
    engine = _engine(args)
    if args.rebuild:
        from rag.ingest import writer_lock

        with writer_lock(Path(s.home)):
            for c in (engine.store.sentences, engine.store.papers):
                engine.store.client.delete_collection(c.name)
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
    papers = engine.retriever.snapshot.papers
    if args.action == "show":
        if not args.id or args.id not in papers:
            raise UsageError(f"no paper {args.id!r}; `rag papers list` shows the ids")
        p = papers[args.id]
        if args.json:
            print(p.model_dump_json())
        else:
            print(f"{p.label} ({p.paper_id})")
            for k in ("title", "url"):
                if getattr(p, k):
                    print(f"{k}: {getattr(p, k)}")
            if p.authors:
                print("authors: " + ", ".join(p.authors))
            print(f"source: {p.source} #{p.position}\n\n{p.abstract}")
        return 0
    ordered = sorted(papers.values(), key=lambda p: (p.source, p.position))
    if args.json:
        print(json.dumps([{"paper_id": p.paper_id, "label": p.label, "title": p.title} for p in ordered]))
    else:
        for p in ordered:
            print(f"{p.paper_id}\t{p.label}" + (f"\t{p.title}" if p.title else ""))
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    from rag.ingest import remove

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
    from ui.app import launch

    return launch(host=args.host, port=args.port)


def cmd_bench(args: argparse.Namespace) -> int:
    from rag.bench import run_bench

    result = run_bench(_settings(), quick=args.quick)
    if args.json:
        print(json.dumps(result))
    else:
        from rag.bench import format_table

        print(format_table(result))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rag", description="Cited answers from ICML 2025 paper abstracts.")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging on stderr")
    sub = p.add_subparsers(dest="command", required=True)

    a = sub.add_parser("ask", help="answer one question with citations")
    a.add_argument("question")
    a.add_argument("--json", action="store_true", help="print exactly one JSON object")
    a.add_argument("--backend", choices=BACKENDS, help="answer backend (default RAG_BACKEND or extractive)")
    a.add_argument("--top-k", type=int, help="papers considered (default RAG_TOP_K)")
    a.add_argument("--history", help="JSON file of earlier turns")
    a.add_argument("--paper", action="append", help="restrict to this paper id (repeatable)")
    a.add_argument("--file", action="append", help="restrict to this source file stem (repeatable)")
    a.add_argument("--explain", action="store_true", help="show scores and why evidence was chosen")
    a.set_defaults(func=cmd_ask)

    c = sub.add_parser("chat", help="interactive conversation in the terminal")
    c.add_argument("--backend", choices=BACKENDS)
    c.add_argument("--top-k", type=int)
    c.set_defaults(func=cmd_chat)

    i = sub.add_parser("ingest", help="index corpus files (default: the shipped data/)")
    i.add_argument("paths", nargs="*")
    i.add_argument("--rebuild", action="store_true", help="drop the index and build it again")
    i.add_argument("--json", action="store_true")
    i.set_defaults(func=cmd_ingest)

    s = sub.add_parser("search", help="ranked papers with their best sentences, no answer")
    s.add_argument("query")
    s.add_argument("--top-k", type=int)
    s.add_argument("--paper", action="append")
    s.add_argument("--file", action="append")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_search)

    pp = sub.add_parser("papers", help="list papers or show one")
    pp.add_argument("action", nargs="?", choices=["list", "show"], default="list")
    pp.add_argument("id", nargs="?")
    pp.add_argument("--json", action="store_true")
    pp.set_defaults(func=cmd_papers)

    r = sub.add_parser("remove", help="remove a file's papers or single papers from the index")
    r.add_argument("targets", nargs="+", metavar="FILE|PAPER_ID")
    r.set_defaults(func=cmd_remove)

    st = sub.add_parser("status", help="store location, papers, chunks, model, last ingest")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=cmd_status)

    sv = sub.add_parser("serve", help="start the web app")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=7860)
    sv.set_defaults(func=cmd_serve)

    b = sub.add_parser("bench", help="measure ingest, retrieval and answer speed")
    b.add_argument("--quick", action="store_true")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    level = logging.WARNING - 10 * min(args.verbose, 2)
    logging.basicConfig(level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    for noisy in ("httpx", "chromadb", "sentence_transformers", "bm25s", "transformers"):
        logging.getLogger(noisy).setLevel(max(level, logging.WARNING))
    as_json = getattr(args, "json", False)
    try:
        return int(args.func(args))
    except UsageError as e:
        if as_json:
            print(json.dumps({"error": str(e)}))
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # last resort: one line, never a traceback for users
        log.debug("unexpected error", exc_info=True)
        msg = f"{type(e).__name__}: {e}"
        if as_json:
            print(json.dumps({"error": msg}))
        print(f"error: {msg} (run with -vv for details)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
