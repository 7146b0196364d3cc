"""Evidence selection and the answerability check: is what the question asks for there?"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from rag.index.vocabulary import Vocabulary
from rag.retrieval.retriever import Retriever
from rag.text.guard import flag_of
from rag.text.normalize import content_stems
from rag.types import Hit, Paper

# Calibrated on eval/dev.jsonl (see README, "Refusal calibration").
MIN_COSINE = 0.40  # below this the best sentence is off-topic
WEAK_COSINE = 0.55  # below this, the question's terms must also be covered...
MIN_COVERAGE = 0.40  # ...by at least this idf-weighted share of them
MULTI_RATIO = 0.75  # a further paper is listed if its score is at least this share of the best
MULTI_MAX = 4
# Evidence selection (tuned on eval/dev.jsonl for gold-sentence recall).
EVIDENCE_MAX = 3
EVIDENCE_LAMBDA = 1.0
EVIDENCE_MARGIN = 0.6
# In "which papers" answers: sentences per paper, and the bonus for saying what the paper does.
MULTI_SENTENCES = 2
MULTI_CONTRIBUTION_BONUS = 0.3

_MULTI = re.compile(
    r"^\s*(?:which|what|list|name|are there|any)\b[^?]{0,40}?\b(?:papers|works|studies|abstracts|articles|approaches"
    r"|methods|contributions)\b|\bpapers? (?:that|which)\b|\bwhich of the papers\b",
    re.I,
)
_REFERRING = re.compile(
    r"\b(?:it|its|it's|they|their|them|this|that|these|those|the (?:paper|method|model|approach|authors|work|"
    r"framework|benchmark|algorithm))\b",
    re.I,
)
_NUMBER_WORDS = r"\b(?:single|once|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|dozens|hundred|hundreds|thousand|million|billion|trillion|half|double|twice)\b"

# What a question asks for -> what the evidence must then contain. General, not per paper.
DETAIL_ASKS: list[tuple[re.Pattern[str], re.Pattern[str]]] = [
    (re.compile(r"\blearning[- ]rates?\b", re.I), re.compile(r"learning[- ]rate", re.I)),
    (re.compile(r"\bbatch[- ]sizes?\b", re.I), re.compile(r"batch[- ]size", re.I)),
    (
        re.compile(r"\b(?:gpus?|tpus?|hardware|accelerators?)\b", re.I),
        re.compile(r"\b(?:gpus?|tpus?|hardware|accelerators?)\b", re.I),
    ),
    (re.compile(r"\b(?:licen[cs]e[ds]?)\b", re.I), re.compile(r"licen[cs]e", re.I)),
    (
        re.compile(r"\b(?:universit(?:y|ies)|institutions?|affiliations?|lab(?:oratory)?|compan(?:y|ies))\b", re.I),
        re.compile(r"\b(?:universit|institut|affiliat|laborator)", re.I),
    ),
    (
        re.compile(r"\b(?:who (?:are|were) the authors|which authors|who wrote|written by|author names?)\b", re.I),
        re.compile(r"\b(?:et al|authored)\b", re.I),
    ),
    (
        re.compile(r"\b(?:how long|training time|hours?|days|wall[- ]clock)\b", re.I),
        re.compile(r"\b(?:hours?|days?|minutes?|seconds?|weeks?|months?|wall[- ]clock)\b", re.I),
    ),
    (re.compile(r"\b(?:epochs?|iterations? (?:of training|were))\b", re.I), re.compile(r"\bepochs?\b", re.I)),
    (re.compile(r"\bhyper-?parameters?\b", re.I), re.compile(r"hyper-?parameter", re.I)),
    (
        re.compile(r"\b(?:optimi[sz]er|adam|adamw)\b.*\b(?:use|used|train)", re.I),
        re.compile(r"\b(?:adam|adamw|sgd|optimi[sz]er)\b", re.I),
    ),
    (re.compile(r"\b(?:when was|what year|published|release date)\b", re.I), re.compile(r"\b(?:19|20)\d\d\b")),
    (re.compile(r"\b(?:funded|funding|grant)\b", re.I), re.compile(r"\b(?:fund|grant)", re.I)),
    (re.compile(r"\b(?:random seeds?|seeds)\b", re.I), re.compile(r"\bseeds?\b", re.I)),
]
_ASKS_NUMBER = re.compile(
    r"\b(?:how many|how much|how large|how big|how fast|what (?:percentage|percent|fraction|number|size|proportion)"
    r"|by what (?:factor|margin)|what is the (?:speed-?up|size)"
    r"|(?:what|which|in which)\s+(?:\w+[- ]){0,2}(?:rate|size|year|dimension|temperature|threshold|budget)s?)\b",
    re.I,
)


@dataclass
class Features:
    """Answerability signals for the top paper (logged with --explain)."""

    cosine: float
    coverage: float
    missing_detail: str | None
    score: float
    followup: bool = False

    def answerable(self) -> bool:
        if self.missing_detail is not None:
            return False
        if self.followup:  # the user is already talking about this paper
            return True
        return self.cosine >= MIN_COSINE and (self.cosine >= WEAK_COSINE or self.coverage >= MIN_COVERAGE)


def is_multi(question: str) -> bool:
    return bool(_MULTI.search(question))


def is_referring(question: str) -> bool:
    return bool(_REFERRING.search(question))


def question_terms(question: str) -> list[str]:
    skip = {
        "paper",
        "work",
        "author",
        "propos",
        "introduc",
        "studi",
        "method",
        "approach",
        "result",
        "show",
        "main",
        "key",
        "specif",
        "exact",
        "particular",
        "describ",
        "explain",
        "achiev",
        "report",
        "claim",
    }
    return [s for s in dict.fromkeys(content_stems(question)) if s not in skip]


def needs(question: str) -> list[tuple[str, re.Pattern[str]]]:
    """What the evidence must contain for this question to be answered (detail asks)."""
    out = [(ask.pattern, need) for ask, need in DETAIL_ASKS if ask.search(question)]
    if _ASKS_NUMBER.search(question):
        out.append(("a number", _HAS_NUMBER))
    return out


# A sentence that says what the paper itself does ("we propose…", "this paper shows…").
_CONTRIBUTION = re.compile(r"\b(?:we|our|this (?:paper|work|study))\b", re.I)
_HAS_NUMBER = re.compile(r"\d|" + _NUMBER_WORDS, re.I)


def features(question: str, hit: Hit, evidence: list[str], vocab: Vocabulary, *, followup: bool = False) -> Features:
    terms = question_terms(question)
    have = vocab.paper_stems.get(hit.paper_id, set())
    weights = {t: vocab.idf(t) for t in terms}
    total = sum(weights.values()) or 1.0
    coverage = sum(w for t, w in weights.items() if t in have) / total
    ev = " ".join(evidence)
    missing = next((name for name, need in needs(question) if not need.search(ev)), None)
    if not evidence:  # e.g. every sentence of the paper was flagged as an instruction
        missing = "usable evidence"
    score = hit.best_cosine + hit.dense + 0.5 * coverage
    return Features(round(hit.best_cosine, 4), round(coverage, 4), missing, round(score, 4), followup)


def select_evidence(
    question: str,
    paper: Paper,
    retriever: Retriever,
    qv: np.ndarray,
    *,
    max_sentences: int = EVIDENCE_MAX,
    contribution_bonus: float = 0.0,
) -> list[tuple[str, str, float]]:
    """Best sentences of one paper for the question: (chunk_id, quote, score), in abstract order.

    Score = cosine + overlap with the question's terms, each term weighted by its rarity
    *within this paper*: words that identify the paper (they recur in all its sentences)
    say little about which sentence answers, words of the actual ask do.
    """
    snap = retriever.snapshot
    # Sentences flagged at ingest as instructions to an assistant are never evidence: the
    # support judge would accept them (they are in the cited paper), so they are dropped here.
    nodes = [n for n in snap.by_paper.get(paper.paper_id, []) if not flag_of(n.metadata, snap.quote(n.node_id))]
    if not nodes:
        return []
    cos = retriever.sentence_vectors([n.node_id for n in nodes]) @ qv
    q = set(question_terms(question))
    stems = [set(content_stems(n.get_content())) for n in nodes]
    df = {t: sum(t in s for s in stems) for t in q}
    w = {t: math.log((len(nodes) + 1) / (df[t] + 0.5)) for t in q if df[t]}
    total = sum(w.values()) or 1.0
    scored: list[tuple[str, str, float]] = []
    seen: set[str] = set()
    for node, c, st in zip(nodes, cos, stems, strict=False):
        quote = snap.quote(node.node_id)
        if quote in seen:  # a long sentence split in pieces is one quote
            continue
        seen.add(quote)
        overlap = sum(w.get(t, 0.0) for t in q & st) / total
        bonus = contribution_bonus if _CONTRIBUTION.search(quote) else 0.0
        scored.append((node.node_id, quote, float(c) + EVIDENCE_LAMBDA * overlap + bonus))
    scored.sort(key=lambda x: -x[2])
    required = [need for _, need in needs(question)]
    if required:
        # A question asking for a number or a detail is answered only by a sentence
        # that has one, if such a sentence is reasonably on topic.
        meeting = [x for x in scored if all(n.search(x[1]) for n in required)]
        if meeting and meeting[0][2] >= scored[0][2] - 0.35:
            scored = meeting + [x for x in scored if x not in meeting]
    best = scored[0][2]
    chosen = [scored[0]] + [x for x in scored[1:max_sentences] if x[2] >= best - EVIDENCE_MARGIN]
    order = {n.node_id: i for i, n in enumerate(nodes)}
    return sorted(chosen, key=lambda x: order[x[0]])
