"""`rag eval` and `rag bench`: the measuring commands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rag.engine import Engine
    from rag.evaluation.judgments import Judgments

from rag.errors import UsageError
from rag.settings import load_settings as _settings


def cmd_eval(args: argparse.Namespace) -> int:
    from rag.corpus.reader import corpus_files, read_corpus_file
    from rag.evaluation.evalset import EvalSetError, check_set, load_set

    if args.diff:
        from rag.evaluation.report import diff_runs

        a, b = (Path(p) for p in args.diff)
        for d in (a, b):
            if not (d / "report.json").exists():
                raise UsageError(f"{d}: no report.json (not an eval output folder)")
        print(diff_runs(a, b))
        return 0
    if args.check:
        s = _settings()
        try:
            cases = load_set(Path(args.check), include_drafts=False)
        except EvalSetError as e:
            raise UsageError(str(e)) from None
        # With --corpus, questions may be about the extra corpus's papers (the dev set at scale).
        roots = [Path(s.data_dir), *(Path(c) for c in args.corpus or [])]
        papers = [p for f in corpus_files(roots) for p in read_corpus_file(f)]
        abstracts = {p.paper_id: p.abstract for p in papers}
        records = {p.paper_id: " ".join([p.title or "", *(p.authors or [])]) for p in papers}
        problems, notes = check_set(cases, abstracts, records=records)
        if args.against:
            from rag.evaluation.leaks import check_leaks

            try:
                other = load_set(Path(args.against), include_drafts=False)
            except EvalSetError as e:
                raise UsageError(str(e)) from None
            leak_problems, leak_notes = check_leaks(cases, other, abstracts)
            problems += leak_problems
            notes += leak_notes
        for n in notes:
            print(n)
        counts: dict[str, int] = {}
        for c in cases:
            counts[c.type] = counts.get(c.type, 0) + 1
        print(f"{args.check}: {len(cases)} questions " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        for p in problems:
            print(f"problem: {p}", file=sys.stderr)
        print(f"{len(problems)} problem(s)")
        return 1 if problems else 0
    if not args.set:
        raise UsageError("rag eval needs --set PATH, --check PATH or --diff DIR_A DIR_B")
    return _run_eval(args)


def _run_eval(args: argparse.Namespace) -> int:
    from rag.corpus.reader import CorpusError
    from rag.engine import Engine
    from rag.evaluation.evalset import EvalSetError, load_set
    from rag.evaluation.report import gate, parse_fail_under, write_comparison
    from rag.evaluation.runner import evaluate

    s = _settings()
    try:
        cases = load_set(Path(args.set))
        thresholds = parse_fail_under(args.fail_under or [])
        judgments = _judgments(args)  # a bad file fails before any indexing
    except (EvalSetError, ValueError) as e:
        raise UsageError(str(e)) from None
    if args.limit:
        cases = cases[: args.limit]
    backends = list(dict.fromkeys(args.backend or [s.backend]))
    corpus = None
    if args.corpus:
        from rag.evaluation.corpus_index import corpus_engine

        try:
            engine, corpus = corpus_engine(s, [Path(p) for p in args.corpus])
        except (CorpusError, ValueError) as e:
            raise UsageError(str(e)) from None
    else:
        engine = Engine(s)
    for b in backends:
        engine.llm(b)  # an unconfigured backend fails before any indexing
    engine.ensure_index()
    engine.warm()
    baseline = None
    if args.baseline:
        from rag.evaluation.baseline import build_baseline

        baseline, _ = build_baseline(Path(engine.settings.home), list(engine.papers.values()), engine.embedder)
    if judgments is not None:
        judgments = judgments.model_copy(update={"complete": _judged_by_gold(args, engine)})
    out = Path(args.out)
    reports = {}
    for b in backends:
        folder = out / b if len(backends) > 1 else out
        title = f"Eval of {Path(args.set).name} ({b})"
        reports[b], _ = evaluate(
            engine,
            cases,
            backend=b,
            out=folder,
            title=title,
            top_k=args.top_k or s.top_k,
            corpus=corpus,
            baseline=baseline,
            judgments=judgments,
        )
        print(f"{b}: wrote {folder}/report.md")
        print((folder / "report.md").read_text(encoding="utf-8").split("## Failures")[0].strip())
    if len(backends) > 1:
        write_comparison(reports, out)
    failed = [f"{b}: {f}" for b, r in reports.items() for f in gate(r, thresholds)]
    for f in failed:
        print(f"below threshold: {f}", file=sys.stderr)
    return 1 if failed else 0


def _judgments(args: argparse.Namespace) -> Judgments | None:
    if not args.judgments:
        return None
    from rag.evaluation.judgments import JudgmentsError, load_judgments

    try:
        return load_judgments([Path(p) for p in args.judgments])
    except JudgmentsError as e:
        raise UsageError(str(e)) from None


def _judged_by_gold(args: argparse.Namespace, engine: Engine) -> frozenset[str]:
    """The papers outside the --corpus files: the eval set's gold sets judge them."""
    from rag.corpus.reader import corpus_files

    extra = {f.stem for f in corpus_files([Path(c) for c in args.corpus or []])}
    return frozenset(pid for pid, p in engine.papers.items() if p.source not in extra)


def cmd_bench(args: argparse.Namespace) -> int:
    from rag.bench.run import format_table, run_bench

    try:
        sizes = [int(x) for x in args.sizes.split(",")] if args.sizes else None
    except ValueError:
        raise UsageError(f"--sizes takes comma-separated chunk counts, e.g. 1000,10000 (got {args.sizes!r})") from None
    if sizes and any(n < 10 for n in sizes):
        raise UsageError("--sizes: each size must be at least 10 chunks")
    result = run_bench(_settings(), quick=args.quick, sizes=sizes)
    print(json.dumps(result) if args.json else format_table(result))
    return 0
