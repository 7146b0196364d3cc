"""Leaks between two eval sets: what would let a set tuned on one flatter the other.

A leak is a question identical or near-identical to one of the other set (content-word
Jaccard >= 0.6, or a shared run of >= 6 words), an identical multi-paper gold set, or a
shared (paper, evidence sentence) pair unless the row says why (`shared_evidence`).
"""

from __future__ import annotations

from rag.evaluation.evalset import EvalCase, longest_shared_ngram
from rag.text.normalize import content_stems, match_form

JACCARD_MAX = 0.6
RUN_MAX = 6


def jaccard(a: str, b: str) -> float:
    sa, sb = set(content_stems(a)), set(content_stems(b))
    return len(sa & sb) / len(sa | sb) if sa | sb else 0.0


def evidence_pairs(case: EvalCase, abstracts: dict[str, str]) -> set[tuple[str, str]]:
    """(paper id, evidence sentence) pairs of a row, each sentence matched to the gold
    abstract that contains it."""
    out = set()
    for ev in case.evidence_list():
        for g in case.gold_ids:
            if match_form(ev) in match_form(abstracts.get(g, "")):
                out.add((g, match_form(ev)))
    return out


def check_leaks(cases: list[EvalCase], other: list[EvalCase], abstracts: dict[str, str]) -> tuple[list[str], list[str]]:
    """(problems, notes) for `cases` against `other`; marked shared evidence is a note."""
    problems: list[str] = []
    notes: list[str] = []
    other_sets = {frozenset(o.gold_ids): o.id for o in other if o.type == "multi"}
    other_pairs: dict[tuple[str, str], EvalCase] = {}
    for o in other:
        for pair in evidence_pairs(o, abstracts):
            other_pairs.setdefault(pair, o)
    for c in cases:
        for o in other:
            j, run = jaccard(c.question, o.question), longest_shared_ngram(c.question, o.question)
            if c.question.strip() == o.question.strip():
                problems.append(f"{c.id}: same question as {o.id}")
            elif j >= JACCARD_MAX or run >= RUN_MAX:
                problems.append(f"{c.id}: near-identical to {o.id} (jaccard {j:.2f}, shared run {run} words)")
        if c.type == "multi" and frozenset(c.gold_ids) in other_sets:
            problems.append(f"{c.id}: same multi-paper gold set as {other_sets[frozenset(c.gold_ids)]}")
        for pid, ev in sorted(evidence_pairs(c, abstracts)):
            twin = other_pairs.get((pid, ev))
            if twin is None:
                continue
            reason = c.shared_evidence or twin.shared_evidence  # either row may say why
            if reason:
                notes.append(f"{c.id}: shares its evidence on {pid} with {twin.id} ({reason})")
            else:
                problems.append(f"{c.id}: same evidence sentence on {pid} as {twin.id}")
    return problems, notes
