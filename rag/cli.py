"""The `rag` command line: ingest, ask, chat, search, papers, remove, status, serve, bench."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

import rag  # noqa: F401  (sets the offline environment first)
from rag.settings import Settings, load_settings

log = logging.getLogger("rag")

from rag.access import parse_ui_auth, serve_policy  # noqa: E402
from rag.answer import BACKENDS, BackendUnavailable  # noqa: E402
from rag.cite import display_sentence  # noqa: E402
from rag.cli_eval import cmd_bench, cmd_eval  # noqa: E402
from rag.errors import IndexCorrupt, StoreUnavailable, UsageError  # noqa: E402
from rag.history import HistoryError, read_history  # noqa: E402
from rag.question import check_question  # noqa: E402  (re-exported: the rules live there)


def _engine(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from rag.engine import Engine

    return Engine(_settings())


def _settings() -> Settings:
    return load_settings()


def format_answer(a: Any) -> str:
    return "\n".join([a.answer, format_references(a)]).rstrip()


def format_references(a: Any) -> str:
    lines: list[str] = []
    if a.backend_error:
        lines += ["", f"Note: the {a.backend} backend failed ({a.backend_error}); this answer comes from the evidence."]
    if a.note:
        lines += ["", f"Note: {a.note}"]
    if a.citations:
        lines += ["", "References:"]
        for n in sorted({c.n for c in a.citations}):
            group = [c for c in a.citations if c.n == n]
            title = f" — {group[0].title}" if group[0].title else ""
            lines.append(f"[{n}] {group[0].label} ({group[0].paper_id}){title}")
            lines += [f'    "{display_sentence(c.quote)}"' for c in group]  # a source's "[7]" is not ours
    elif a.refused and a.closest:
        lines += ["", "Closest papers:"]
        lines += [f"  {c.label} ({c.paper_id})  score {c.score:.3f}" for c in a.closest]
    if a.explain:
        lines += ["", "Explain:"] + [f"  {x}" for x in a.explain]
    return "\n".join(lines)


def _printer(stream: bool) -> Any:
    """Print sentences as they are released; a progress hint on a terminal until the first."""
    state = {"first": True}
    if stream and sys.stderr.isatty():
        print("writing…", end="\r", file=sys.stderr, flush=True)

    def emit(sentence: str) -> None:
        if state["first"] and stream and sys.stderr.isatty():
            print(" " * 10, end="\r", file=sys.stderr, flush=True)
        state["first"] = False
        print(sentence, flush=True)

    return emit


def cmd_ask(args: argparse.Namespace) -> int:
    from rag.answer import ask

    s = _settings()
    backend = args.backend or s.backend
    question = check_question(args.question, s.max_question_chars)
    try:
        history = read_history(args.history) if args.history else None
    except HistoryError as e:
        raise UsageError(str(e)) from None
    engine = _engine(args)
    llm = engine.llm(backend)
    engine.ensure_index()
    engine.warm()
    a = ask(
        question,
        backend=backend,
        retriever=engine.retriever,
        llm=llm,
        llm_options=engine.llm_options(),
        on_sentence=None if args.json else _printer(llm is not None),
        history=history,
        top_k=args.top_k or s.top_k,
        papers=args.paper or None,
        files=args.file or None,
        explain=args.explain,
    )
    if args.json:
        print(json.dumps(a.to_json()))
    else:
        print(format_references(a))
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    from rag.answer import ask

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
        a = ask(
            q,
            backend=backend,
            retriever=engine.retriever,
            llm=llm,
            llm_options=engine.llm_options(),
            on_sentence=_printer(llm is not None),
            history=history,
            top_k=args.top_k or s.top_k,
        )
        print(format_references(a), flush=True)
        history += [
            {"role": "user", "content": q},
            {"role": "assistant", "content": a.answer, "paper_ids": [c.paper_id for c in a.citations]},
        ]


def cmd_ingest(args: argparse.Namespace) -> int:
    s = _settings()
    if args.rebuild:
        from rag.health import wipe_store
        from rag.ingest import writer_lock

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
    import os

    # Refused before gradio is even imported; `launch` applies the same policy and warns.
    serve_policy(args.host, allow_remote=args.allow_remote, auth=parse_ui_auth(os.environ.get("RAG_UI_AUTH")))
    import threading

    def warm() -> None:
        # Loading the index and the model overlaps importing gradio (both take seconds);
        # `launch` waits for it, so the page only comes up once answers are instant.
        try:
            from ui.handlers import get_engine

            get_engine().warm()
        except Exception:  # reported by `launch`, which warms again in the main thread
            log.debug("background warm-up failed", exc_info=True)

    threading.Thread(target=warm, name="warm-up", daemon=True).start()
    from ui.app import launch

    return launch(host=args.host, port=args.port, allow_remote=args.allow_remote)


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

    sv = sub.add_parser("serve", help="start the web app (on this machine only, unless --allow-remote)")
    sv.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=7860)
    sv.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host other machines can reach (set RAG_UI_AUTH=user:password too)",
    )
    sv.set_defaults(func=cmd_serve)

    ev = sub.add_parser("eval", help="grounding evaluation over an eval set")
    ev.add_argument("--set", help="eval set (JSONL) to run")
    ev.add_argument("--check", metavar="PATH", help="validate an eval set against the corpus")
    ev.add_argument("--diff", nargs=2, metavar=("DIR_A", "DIR_B"), help="compare two eval runs")
    ev.add_argument("--backend", action="append", choices=BACKENDS, help="backend (repeat to compare)")
    ev.add_argument("--out", default="eval/runs/latest", help="output folder")
    ev.add_argument("--limit", type=int, help="only the first N questions")
    ev.add_argument("--top-k", type=int)
    ev.add_argument("--fail-under", action="append", metavar="METRIC=VALUE", help="exit 1 below this")
    ev.set_defaults(func=cmd_eval)

    b = sub.add_parser("bench", help="measure ingest, retrieval and answer speed")
    b.add_argument("--quick", action="store_true", help="a small version (under a minute)")
    b.add_argument("--sizes", help="chunk counts of the synthetic indexes (default 1000,10000,100000)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench)
    return p


def env_secrets() -> list[str]:
    """Values never to print: the LLM API key, the Chroma token and the UI password."""
    import os

    auth = os.environ.get("RAG_UI_AUTH", "")
    values = [os.environ.get("RAG_LLM_API_KEY"), os.environ.get("RAG_CHROMA_TOKEN"), auth.partition(":")[2]]
    return [v for v in values if v and len(v) >= 4]  # a 1-3 character "secret" would mangle every line


class RedactingFormatter(logging.Formatter):
    """Log lines (tracebacks included) with the secrets replaced: a server or library may echo
    a key back in an error message."""

    def __init__(self, fmt: str, secrets: list[str]) -> None:
        super().__init__(fmt)
        self.secrets = secrets

    def format(self, record: logging.LogRecord) -> str:
        from rag.llm import redact

        return redact(super().format(record), self.secrets)


def main(argv: list[str] | None = None) -> int:
    from rag.llm import redact

    parser = build_parser()
    args = parser.parse_args(argv)
    level = logging.WARNING - 10 * min(args.verbose, 2)
    secrets = env_secrets()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter("%(levelname)s %(name)s: %(message)s", secrets))
    logging.basicConfig(level=level, handlers=[handler])
    for noisy in ("httpx", "chromadb", "sentence_transformers", "bm25s", "transformers"):
        logging.getLogger(noisy).setLevel(max(level, logging.WARNING))
    as_json = getattr(args, "json", False)
    try:
        return int(args.func(args))
    except (UsageError, BackendUnavailable, IndexCorrupt, StoreUnavailable) as e:
        if as_json:
            print(json.dumps({"error": redact(str(e), secrets)}))
        print(f"error: {redact(str(e), secrets)}", file=sys.stderr)  # messages may quote a server's reply
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # last resort: one line, never a traceback for users
        log.debug("unexpected error", exc_info=True)
        msg = redact(f"{type(e).__name__}: {e}", secrets)
        if as_json:
            print(json.dumps({"error": msg}))
        print(f"error: {msg} (run with -vv for details)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
