"""Evidence selection: the sentences of one paper that answer the question, the answer first."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rag.answer.asks import needs
from rag.answer.background import BACKGROUND_BONUS, OWN_VOICE, asks_background, is_background
from rag.answer.clauses import ask_clause
from rag.answer.names import asked_name, defining_pattern
from rag.answer.overview import asks_what_it_is
from rag.answer.proposal import STATES_CONTRIBUTION
from rag.answer.reasons import reason_asked
from rag.index.chunks import Record
from rag.retrieval.retriever import Retriever
from rag.text.guard import flag_of
from rag.text.normalize import content_stems
from rag.types import Paper

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
# Abstracts open with the field's background and state their own findings later: an asked-for
# fact is rarely in the first sentences (on eval/dev.jsonl and our scratch sets, 2% of the
# sentences in an abstract's first fifth hold one, 23-32% from the middle on). A one-paper
# answer ranks by this mild prior too (tuned on dev). Not a list: its quote says what the paper
# is about, which the opening often does best.
OPENING_PENALTY = 0.4
POSITION_WEIGHT = 0.3
# A short sentence that opens by referring back ("This reveals a limitation …", "However, such
# approaches have shown limited success") says its subject in the sentence before: for ordering a
# one-paper answer's quotes, it also scores the question's terms that only that sentence has.
# Like the prior by position it never decides a refusal (the check reads content alone). On
# dev_fresh (its leftover rows included) and dev_corpus it gains facts and loses none; longer
# sentences, or the terms counted in the content score itself, lost focus and one answer.
CONTEXT_WORDS = 20
_REFERS_BACK = re.compile(
    r"^(?:(?:however|thus|therefore|hence|moreover|furthermore|in particular|that is|yet|but|and|so)\b,?\s+)?"
    # "In such domains, …", "For these tasks, …", "Each such pair …": the subject is still the
    # one the sentence before names ("In this work, …" names the paper).
    r"(?:(?:in|for|on|under|with|across|from|at|each|all|both)\s+(?!this\s+(?:work|paper|study|article)\b))?"
    r"(?:this|these|that|those|such|it|they|its|their)\b",
    re.I,
)


def question_terms(question: str) -> list[str]:
    return list(_question_terms(question))


@lru_cache(maxsize=256)  # one answer reads a question's terms for every candidate paper
def _question_terms(question: str) -> tuple[str, ...]:
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
        # "Which kernels does X consider?": the asking verb, which few abstracts write.
        "consid",
    }
    return tuple(s for s in dict.fromkeys(content_stems(question)) if s not in skip)


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


_ENDS_SENTENCE = re.compile(r"\w{2,}[.!?]\s+\S")


@lru_cache(maxsize=1 << 14)  # pure, and asked of the same abstract sentences for every question
def is_availability(sentence: str) -> bool:
    """The sentence says where the code, data or models can be had (and little else)."""
    bare = _URL.sub("", sentence)
    if m := _AVAILABILITY.search(stripped := bare.strip()):
        # "… mitigates the problem. our code is available at …": a sentence glued before the
        # lowercase availability note (the splitter keeps them one) is evidence of its own.
        return not _ENDS_SENTENCE.search(stripped[: m.start()])
    return bare != sentence and len(bare.split()) <= _LINK_ONLY_WORDS


Evidence = tuple[str, str, float]  # (chunk_id, quote, score)


@dataclass(frozen=True)
class Ranking:
    """One paper's sentences ranked for a question; `pick` chooses the evidence."""

    scored: list[Evidence]  # scored by content, best first
    promoted: list[str]  # sentences meeting what the question asks for, which lead
    order: dict[str, int]  # position in the abstract
    prior: dict[str, float]  # by position (see OPENING_PENALTY) and context (see CONTEXT_WORDS)

    def pick(
        self,
        *,
        max_sentences: int = EVIDENCE_MAX,
        keep_margin: float | None = EVIDENCE_MARGIN,
        by_position: bool = False,
    ) -> list[Evidence]:
        """(chunk_id, quote, score), the answer first. `keep_margin=None` keeps `max_sentences`
        whatever their scores: a single-paper answer quotes up to three sentences, because the
        asked-for fact is often in the runner-up. `by_position`: ranked with the prior too."""
        scored = self.scored
        if by_position:
            scored = sorted(((i, q, s + self.prior[i]) for i, q, s in scored), key=lambda x: -x[2])
        lead = [x for c in self.promoted for x in scored if x[0] == c]
        ranked = lead + [x for x in scored if x[0] not in self.promoted]
        floor = ranked[0][2] - keep_margin if keep_margin is not None else -math.inf
        chosen = [ranked[0]] + [x for x in ranked[1:max_sentences] if x[2] >= floor]
        # The answer leads (what best tools do: the asked-for fact first); context follows in
        # the abstract's order.
        lead = lead or chosen[:1]
        return lead + sorted((x for x in chosen if x not in lead), key=lambda x: self.order[x[0]])


def rank_evidence(
    question: str,
    paper: Paper,
    retriever: Retriever,
    qv: np.ndarray,
    *,
    contribution_bonus: float = 0.0,
    ask_vec: np.ndarray | None = None,
    defining: bool = False,
) -> Ranking | None:
    """The paper's sentences ranked for the question; None when it has none usable.
    `defining`: the sentence that defines the paper's name leads, as for "What is X?"."""
    nodes = _evidence_nodes(paper, retriever)
    if not nodes:
        return None
    scored, context = _scored(question, nodes, retriever, qv, contribution_bonus, ask_vec)
    if not scored:
        return None
    # "What is X?" is answered where the abstract says what X is (it leads), usually early:
    # no prior against the opening sentences then.
    defining = defining or asks_what_it_is(question, paper.label)
    definition = _defining(scored, paper.label) if defining else None
    # "What is WQRM?" of a paper named otherwise: the sentence that defines WQRM leads.
    if (
        definition is None
        and (name := asked_name(question, retriever.snapshot.vocabulary.df)) is not None
        and name != paper.label
    ):
        definition = _defines(scored, name)
    # A question asking for a number or a detail is answered only by sentences that have
    # it, if such a sentence is reasonably on topic: the best one for each ask leads.
    top = scored[0][2]
    promoted: list[str] = [definition] if definition else []
    for k, need in enumerate(needs(question, label=paper.label, text=paper.abstract)):
        meeting = next((x for x in scored if need.met_by(x[1])), None)
        # A second ask ("… and how many tasks?") is a smaller part of the question's vector; a
        # sentence about the very thing asked (a number of annotators, a list of three) answers
        # it wherever it ranks.
        margin = math.inf if need.specific else EVIDENCE_MARGIN if k or need.loose else NEED_MARGIN
        if meeting is not None and meeting[2] >= top - margin and meeting[0] not in promoted:
            promoted.append(meeting[0])
    # A reason asked for: the problem a well-scored "To address this, …" sentence answers leads.
    problem = reason_asked(question, [(n.node_id, n.text) for n in nodes], scored, EVIDENCE_MARGIN)
    promoted += [problem] if problem is not None and problem not in promoted else []
    order = {n.node_id: i for i, n in enumerate(nodes)}
    position = {} if defining else _position_prior(nodes)
    # A question about the work the paper builds on is answered by its background sentences.
    earlier = {i for i, q, _ in scored if is_background(q)} if asks_background(question) else set()
    prior = {i: position.get(i, 0.0) + context.get(i, 0.0) + (BACKGROUND_BONUS if i in earlier else 0.0) for i in order}
    return Ranking(scored, promoted, order, prior)


def _defining(scored: list[Evidence], label: str) -> str | None:
    """The best-scored sentence that defines the paper's name ("we introduce X, a …", "… (X)",
    "X is a …"): what a question about what X is asks for."""
    # No sentence defines the name ("The key contribution of our paper is an approach that …"):
    # the one that states the paper's contribution says what it is.
    return _defines(scored, label) or next((i for i, q, _ in scored if STATES_CONTRIBUTION.search(q)), None)


def _defines(scored: list[Evidence], name: str) -> str | None:
    """The best-scored sentence that defines `name`, if any."""
    defines = defining_pattern(name)
    return next((i for i, q, _ in scored if defines.search(q)), None)


def defining_sentence(quotes: list[str], label: str) -> str | None:
    """Of a paper's sentences, the one that says what it is (`_defining`), else its first."""
    return _defining([(q, q, 0.0) for q in quotes], label) or (quotes[0] if quotes else None)


def _position_prior(nodes: list[Record]) -> dict[str, float]:
    last = max(1, len(nodes) - 1)
    return {n.node_id: POSITION_WEIGHT * i / last - (OPENING_PENALTY if i == 0 else 0.0) for i, n in enumerate(nodes)}


def _evidence_nodes(paper: Paper, retriever: Retriever) -> list[Record]:
    """The paper's sentences that may be evidence, in the abstract's order."""
    snap = retriever.snapshot
    # Sentences flagged at ingest as instructions to an assistant are never evidence: the
    # support judge would accept them (they are in the cited paper), so they are dropped here.
    return [n for n in snap.by_paper.get(paper.paper_id, []) if not flag_of(n.metadata, snap.quote(n.node_id))]


def _scored(
    question: str,
    nodes: list[Record],
    retriever: Retriever,
    qv: np.ndarray,
    contribution_bonus: float,
    ask_vec: np.ndarray | None,
) -> tuple[list[Evidence], dict[str, float]]:
    """(chunk_id, quote, score), best first. Score = cosine + overlap with the question's
    terms, each term weighted by its rarity *within this paper*: words that identify the paper
    (they recur in all its sentences) say little about which sentence answers, words of the
    actual ask do. The ask clause (`ask_vec` is its embedding) counts again, by cosine and by
    its terms. Also, by chunk id, the overlap a short sentence referring back borrows from
    the sentence before it (see CONTEXT_WORDS)."""
    snap = retriever.snapshot
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

    def overlap(st: set[str]) -> float:
        return EVIDENCE_LAMBDA * (
            sum(w.get(t, 0.0) for t in q & st) / total + ASK_LAMBDA * sum(w.get(t, 0.0) for t in ask & st) / ask_total
        )

    scored: list[Evidence] = []
    context: dict[str, float] = {}
    seen: set[str] = set()
    for i, (node, c, st) in enumerate(zip(nodes, cos, stems, strict=False)):
        quote = snap.quote(node.node_id)
        if quote in seen or node.node_id in links:  # a long sentence split in pieces is one quote
            continue
        seen.add(quote)
        bonus = contribution_bonus if OWN_VOICE.search(quote) else 0.0  # says what the paper itself does
        scored.append((node.node_id, quote, float(c) + overlap(st) + bonus))
        if i and _refers_back(node.get_content()):
            context[node.node_id] = overlap(stems[i - 1] - st)
    scored.sort(key=lambda x: -x[2])
    return scored, context


def _refers_back(text: str) -> bool:
    return len(text.split()) <= CONTEXT_WORDS and _REFERS_BACK.match(text) is not None
