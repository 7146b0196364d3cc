"""Evidence selection and the answerability check: is what the question asks for there?"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from rag.answer.asks import needs
from rag.answer.clauses import ask_clause
from rag.answer.facets import missing_facets
from rag.answer.names import unknown_names
from rag.index.vocabulary import Vocabulary
from rag.retrieval.retriever import Retriever
from rag.text.guard import flag_of
from rag.text.normalize import content_stems
from rag.types import Hit, Paper

# Calibrated on eval/dev.jsonl (see README, "Refusal calibration").
MIN_COSINE = 0.40  # below this the best sentence is off-topic
WEAK_COSINE = 0.55  # below this, the question's terms must also be covered...
MIN_COVERAGE = 0.40  # ...by at least this idf-weighted share of them
# "Which papers …" questions describe a topic in a few words, half of them the question's frame
# ("include", "deal with"): a lower share of them covered is enough (tuned on eval/dev.jsonl).
MULTI_MIN_COVERAGE = 0.25
MULTI_MIN_COSINE = 0.33  # a further paper of such a list, with that coverage (tuned on eval/dev.jsonl)
MULTI_RATIO = 0.72  # a further paper is listed if its score is at least this share of the best
MULTI_MAX = 4  # papers listed by closeness to the best; further ones must answer on their own
# A "which papers" list: candidates looked at, and papers listed (a conference has dozens per topic).
LIST_POOL = 80
LIST_MAX = 60
# The leading candidates whose words a list question is held to (a deeper pool uses every word).
ATTAINABLE_POOL = 40
# Evidence selection (tuned on eval/dev.jsonl for gold-sentence recall).
EVIDENCE_MAX = 3
EVIDENCE_LAMBDA = 1.0
# The ask clause of the question (see asks.ask_clause) weighs again, by cosine and by terms:
# the asked-for fact is rarely in the sentences that match the question's description of the
# paper (tuned on eval/dev.jsonl and eval/dev_corpus.jsonl for answer focus).
ASK_GAMMA = 1.0
ASK_LAMBDA = 1.0
EVIDENCE_MARGIN = 0.6
NEED_MARGIN = 0.35  # a sentence with the asked-for detail leads if this close to the best
# In "which papers" answers: sentences per paper, and the bonus for saying what the paper does.
MULTI_SENTENCES = 2
MULTI_CONTRIBUTION_BONUS = 0.3

# "papers that …" asks for several; "the paper that …" describes one.
_MULTI = re.compile(
    r"^\s*(?:which|what|list|name|are there|any)\b[^?]{0,40}?\b(?:papers|works|studies|abstracts|articles|approaches"
    r"|methods|contributions)\b|\bpapers (?:that|which)\b|\bwhich of the papers\b",
    re.I,
)
_REFERRING = re.compile(
    r"\b(?:it|its|it's|they|their|theirs|them|this|these|those|both|either|former|latter)\b"
    r"|\b(?:that|the|such)\s+(?:paper|method|model|approach|work|framework|benchmark|algorithm|technique|system|"
    r"study|dataset|authors?|one|ones|estimator|optimizer|architecture|attack|defen[cs]e|tool|metric|task|analysis"
    r"|first|second|third|last|other)\b",
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
    multi: bool = False

    def on_theme(self) -> bool:
        """Close enough to be listed beside a paper that answers: its best sentence is on
        topic, or, in a "which papers" list, looser but with the question's terms covered (a
        topic question matches no one sentence of a paper as closely as a detail question)."""
        if self.missing_detail is not None:
            return False
        return self.cosine >= MIN_COSINE or (self.multi and self.covers())

    def covers(self) -> bool:
        """Close enough, with enough of the question's terms, to stand in a "which papers" list."""
        return self.cosine >= MULTI_MIN_COSINE and self.coverage >= MULTI_MIN_COVERAGE

    def lists(self) -> bool:
        """Far down a deep "which papers" pool: answers on its own, or is on the theme with as
        much of the question's terms as a single-paper answer needs (a paper that names the
        topic in passing, in a long sentence, is far from the question's vector)."""
        return self.answerable() or (self.missing_detail is None and self.covers() and self.coverage >= MIN_COVERAGE)

    def answerable(self) -> bool:
        if self.missing_detail is not None:
            return False
        if self.followup:  # the user is already talking about this paper
            return True
        min_coverage = MULTI_MIN_COVERAGE if self.multi else MIN_COVERAGE
        return self.cosine >= MIN_COSINE and (self.cosine >= WEAK_COSINE or self.coverage >= min_coverage)


_PAPERS = re.compile(r"\b(?:papers?|works|studies|abstracts|articles)\b", re.I)


def is_multi(question: str) -> bool:
    return bool(_MULTI.search(question))


def asks_for_papers(question: str) -> bool:
    """A list question about papers themselves ("which papers …"), not about a paper's methods
    or tasks ("which methods did it compare?"): its list is drawn from the whole index."""
    return is_multi(question) and bool(_PAPERS.search(question))


_OR = re.compile(r"\s*,?\s+(?:and/)?or\s+", re.I)
ALTERNATIVES_MAX = 3


def alternatives(question: str) -> list[str]:
    """A "which papers …" question with alternatives ("… use flow matching or probability
    paths?") as one question per alternative: each is covered by different papers, none of
    which matches the whole question as well as a paper matches a single topic. The first
    keeps the question up to its first "or"; a later one is the question's frame plus what
    follows its "or". [] when the question has no alternatives."""
    m = _MULTI.search(question)
    if m is None:
        return []
    frame, topic = question[: m.end()].strip(), question[m.end() :]
    parts = [p.strip(" ,;?") for p in _OR.split(topic)]
    # "design or analyze X": two verbs of one topic, not two topics.
    while len(parts) >= 2 and len(parts[0].split()) == 1:
        parts[:2] = [f"{parts[0]} or {parts[1]}"]
    if len(parts) < 2 or any(not p for p in parts):
        return []
    subs = [f"{frame} {parts[0]}?"] + [f"{frame} {p}?" for p in parts[1:]]
    return subs[:ALTERNATIVES_MAX]


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


# A sentence that says what the paper itself does ("we propose…", "this paper shows…").
_CONTRIBUTION = re.compile(r"\b(?:we|our|this (?:paper|work|study))\b", re.I)
# Where the code lives ("The code is available at https://…") answers no question but one
# about the code: its words match a question about the method's name, so it is kept out of
# the evidence unless the question asks for code, data or a link.
_URL = re.compile(r"(?:https?://|\bwww\.)\S+|\b\S+\.(?:com|org|io|net)/\S*", re.I)
_AVAILABILITY = re.compile(
    r"\bopen[- ]sourc(?:e|ed|ing) (?:our|the)\b"
    r"|\b(?:code|codes|implementations?|models?|data|datasets?|weights|checkpoints)\b[^.]{0,60}?"
    r"\b(?:(?:is|are|will be|has been|have been) (?:made )?(?:publicly |freely |openly )?(?:available|released)"
    r"|open[- ]sourced)(?:\s+(?:at|on|from|via|here|soon|upon|after)\b[^.]*)?\s*[.:]?\s*$",
    re.I,
)
_ASKS_AVAILABILITY = re.compile(
    r"\b(?:code|github|repositor(?:y|ies)|open[- ]sourc\w*|available|availability|releas\w*|link|url|download\w*)\b",
    re.I,
)
_LINK_ONLY_WORDS = 12  # a sentence this short once its link is gone is there for the link


def is_availability(sentence: str) -> bool:
    """The sentence says where the code, data or models can be had (and little else)."""
    bare = _URL.sub("", sentence)
    if _AVAILABILITY.search(bare.strip()):
        return True
    return bare != sentence and len(bare.split()) <= _LINK_ONLY_WORDS


def features(
    question: str,
    hit: Hit,
    evidence: list[str],
    vocab: Vocabulary,
    *,
    paper_text: str = "",
    followup: bool = False,
    multi: bool = False,
    attainable: set[str] | None = None,
) -> Features:
    """`attainable`: the stems some candidate paper uses; a list question's words that none
    uses (its frame: "look at", "make use of", "stress") are not held against any paper."""
    terms = question_terms(question)
    if attainable is not None and any(t in attainable for t in terms):
        terms = [t for t in terms if t in attainable]
    have = vocab.paper_stems.get(hit.paper_id, set())
    weights = {t: vocab.idf(t) for t in terms}
    total = sum(weights.values()) or 1.0
    coverage = sum(w for t, w in weights.items() if t in have) / total
    asks = needs(question, label=hit.label, text=paper_text)
    missing = next((n.name for n in asks if n.required and not any(n.met_by(e) for e in evidence)), None)
    if missing is None and (names := unknown_names(question, f"{paper_text} {hit.label}")):
        missing = f"name not in the paper: {names[0]}"
    # "… A or B?": a paper need only cover the data and methods of one alternative.
    kinds = [missing_facets(q, f"{paper_text} {hit.label}") for q in alternatives(question) or [question]]
    if missing is None and all(kinds):
        missing = f"not in the paper: {kinds[0][0]}"
    if not evidence:  # e.g. every sentence of the paper was flagged as an instruction
        missing = "usable evidence"
    score = hit.best_cosine + hit.dense + 0.5 * coverage
    return Features(round(hit.best_cosine, 4), round(coverage, 4), missing, round(score, 4), followup, multi)


def select_evidence(
    question: str,
    paper: Paper,
    retriever: Retriever,
    qv: np.ndarray,
    *,
    max_sentences: int = EVIDENCE_MAX,
    contribution_bonus: float = 0.0,
    keep_margin: float | None = EVIDENCE_MARGIN,
    ask_vec: np.ndarray | None = None,
) -> list[tuple[str, str, float]]:
    """Best sentences of one paper for the question: (chunk_id, quote, score), the answer first.

    `keep_margin=None` keeps `max_sentences` whatever their scores: a single-paper answer
    quotes up to three sentences, because the asked-for fact is often in the runner-up.

    Score = cosine + overlap with the question's terms, each term weighted by its rarity
    *within this paper*: words that identify the paper (they recur in all its sentences)
    say little about which sentence answers, words of the actual ask do. The ask clause
    (`ask_vec` is its embedding) counts again, by cosine and by its terms.
    """
    snap = retriever.snapshot
    # Sentences flagged at ingest as instructions to an assistant are never evidence: the
    # support judge would accept them (they are in the cited paper), so they are dropped here.
    nodes = [n for n in snap.by_paper.get(paper.paper_id, []) if not flag_of(n.metadata, snap.quote(n.node_id))]
    if not nodes:
        return []
    # Left out as candidates only: the within-paper term weights stay those of the whole abstract.
    links = (
        set()
        if _ASKS_AVAILABILITY.search(question)
        else {n.node_id for n in nodes if is_availability(snap.quote(n.node_id))}
    )
    if len(links) == len(nodes):
        links = set()
    vectors = retriever.sentence_vectors([n.node_id for n in nodes])
    cos = vectors @ qv + (ASK_GAMMA * (vectors @ ask_vec) if ask_vec is not None else 0.0)
    q = set(question_terms(question))
    ask = set(question_terms(ask_clause(question))) if ask_vec is not None else set()
    stems = [set(content_stems(n.get_content())) for n in nodes]
    df = {t: sum(t in s for s in stems) for t in q | ask}
    w = {t: math.log((len(nodes) + 1) / (df[t] + 0.5)) for t in q | ask if df[t]}
    total = sum(w.get(t, 0.0) for t in q) or 1.0
    ask_total = sum(w.get(t, 0.0) for t in ask) or 1.0
    scored: list[tuple[str, str, float]] = []
    seen: set[str] = set()
    for node, c, st in zip(nodes, cos, stems, strict=False):
        quote = snap.quote(node.node_id)
        if quote in seen or node.node_id in links:  # a long sentence split in pieces is one quote
            continue
        seen.add(quote)
        overlap = sum(w.get(t, 0.0) for t in q & st) / total
        overlap += ASK_LAMBDA * sum(w.get(t, 0.0) for t in ask & st) / ask_total
        bonus = contribution_bonus if _CONTRIBUTION.search(quote) else 0.0
        scored.append((node.node_id, quote, float(c) + EVIDENCE_LAMBDA * overlap + bonus))
    scored.sort(key=lambda x: -x[2])
    # A question asking for a number or a detail is answered only by sentences that have
    # it, if such a sentence is reasonably on topic: the best one for each ask leads.
    promoted: list[tuple[str, str, float]] = []
    for k, need in enumerate(needs(question, label=paper.label, text=paper.abstract)):
        meeting = [x for x in scored if need.met_by(x[1])]
        # A second ask ("… and how many tasks?") is a smaller part of the question's vector; a
        # sentence about the very thing asked (a number of annotators, a list of three) answers
        # it wherever it ranks.
        margin = math.inf if need.specific else EVIDENCE_MARGIN if k else NEED_MARGIN
        if meeting and meeting[0][2] >= scored[0][2] - margin and meeting[0] not in promoted:
            promoted.append(meeting[0])
    scored = promoted + [x for x in scored if x not in promoted]
    best = scored[0][2]
    floor = best - keep_margin if keep_margin is not None else -math.inf
    chosen = [scored[0]] + [x for x in scored[1:max_sentences] if x[2] >= floor]
    # The answer leads (what best tools do: the asked-for fact first); context follows in
    # the abstract's order.
    order = {n.node_id: i for i, n in enumerate(nodes)}
    lead = promoted or chosen[:1]
    return lead + sorted((x for x in chosen if x not in lead), key=lambda x: order[x[0]])
