"""Evidence selection and the answerability check: is what the question asks for there?"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.answer.asks import needs
from rag.answer.clauses import without_user_context
from rag.answer.extension import unwritten_setting
from rag.answer.facets import missing_facets
from rag.answer.list_question import alternatives, list_topic
from rag.answer.names import unknown_names
from rag.answer.overview import subject
from rag.answer.selection import question_terms
from rag.answer.unsaid import other_forms, unsaid_property
from rag.index.vocabulary import Vocabulary, phrases
from rag.text.normalize import writes_name
from rag.types import Hit

# Calibrated on eval/dev.jsonl (see README, "Refusal calibration").
MIN_COSINE = 0.40  # below this the best sentence is off-topic
WEAK_COSINE = 0.55  # below this, the question's terms must also be covered...
MIN_COVERAGE = 0.40  # ...by at least this idf-weighted share of them
# A short question that names its paper ("What does X compress?") is far from every sentence's
# vector, however plainly the abstract answers: named, with every term of it in the paper and
# nothing it asks for missing, it needs less closeness.
NAMED_MIN_COSINE = 0.30
# "Which papers …" questions describe a topic in a few words, half of them the question's frame
# ("include", "deal with"): a lower share of them covered is enough (tuned on eval/dev.jsonl).
MULTI_MIN_COVERAGE = 0.25
MULTI_MIN_COSINE = 0.33  # a further paper of such a list, with that coverage (tuned on eval/dev.jsonl)
MULTI_RATIO = 0.72  # a further paper is listed if its score is at least this share of the best
MULTI_MAX = 4  # papers listed by closeness to the best; further ones must answer on their own
LIST_BM25 = 0.2  # weight of the whole-abstract BM25 in a deep list's order past its head
LIST_QUOTED_TWICE = 6  # the first papers of a deep list are quoted by two sentences, the rest by one
# The leading candidates whose words a list question is held to (a deeper pool uses every word).
ATTAINABLE_POOL = 40
# A phrase of a list question's topic this rare among the indexed papers (a share of them, at
# least one paper) names the topic: a paper using it is listed though its sentences are far
# from the question (it uses the topic in passing, or the question is worded otherwise).
RARE_PHRASE_SHARE = 0.01
# ...and one of its words is itself this rare: two common words side by side by chance ("predictive
# models", "learning knowledge") are no topic, though their pair is rare.
PHRASE_WORD_SHARE = 0.10

_REFERRING = re.compile(
    r"\b(?:it|its|it's|they|their|theirs|them|this|these|those|both|either|former|latter)\b"
    r"|\b(?:does|did|do|would|will|can|could)\s+that\s+(?:compare|differ|relate)\b"  # "How does that compare …?"
    # "Which kernels?", "And what datasets?", "What about runtime?": a question without a verb
    # is asked of what the conversation is about.
    r"|^\s*(?:(?:and|also|but|so)\s+)?(?:which|what)(?:\s+about)?(?:\s+(?:the|its|their))?"
    r"(?:\s+(?!(?:is|are|was|were|do|does|did|has|have|had|can|could|would|will|should|papers?|works|studies"
    r"|articles)\b)[\w-]+){1,2}\s*[?.!]*\s*$"
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
    rare_phrase: bool = False  # uses a rare phrase of a list question's topic
    named: bool = False  # the question names it by its title's words ("the paper on …", "<title name>")
    overview: bool = False  # the question asks what this paper is ("Summarize X", "tl;dr of X")
    defined: bool = False  # it defines the rare name a "what is <name>?" question asks about

    def on_theme(self) -> bool:
        """Close enough to be listed beside a paper that answers: its best sentence is on
        topic, or, in a "which papers" list, looser but with the question's terms covered (a
        topic question matches no one sentence of a paper as closely as a detail question; or
        uses a rare phrase of its topic)."""
        if self.missing_detail is not None:
            return False
        return self.cosine >= MIN_COSINE or (self.multi and (self.covers() or self.rare_phrase))

    def covers(self) -> bool:
        """Close enough, with enough of the question's terms, to stand in a "which papers" list."""
        return self.cosine >= MULTI_MIN_COSINE and self.coverage >= MULTI_MIN_COVERAGE

    def lists(self) -> bool:
        """Far down a deep "which papers" pool: answers on its own, or is on the theme with as
        much of the question's terms as a single-paper answer needs (a paper that names the
        topic in passing, in a long sentence, is far from the question's vector)."""
        if self.missing_detail is not None:
            return False
        return self.answerable() or self.rare_phrase or (self.covers() and self.coverage >= MIN_COVERAGE)

    def answerable_as_named(self) -> bool:
        """Answerable by the paper the question names (`NAMED_MIN_COSINE`)."""
        return self.missing_detail is None and self.coverage >= 1.0 and self.cosine >= NAMED_MIN_COSINE

    def answerable(self) -> bool:
        if self.missing_detail is not None:
            return False
        if self.followup:  # the user is already talking about this paper
            return True
        min_coverage = MULTI_MIN_COVERAGE if self.multi else MIN_COVERAGE
        return self.cosine >= MIN_COSINE and (self.cosine >= WEAK_COSINE or self.coverage >= min_coverage)


def lacking_names(options: list[str], text: str) -> list[str]:
    """The names of the first alternative the text does not write, when no alternative's
    names are all written ("MTEB or its multilingual extension MMTEB" of a paper that writes
    one of them: [])."""
    lacking = [unknown_names(q, text) for q in options]
    return lacking[0] if all(lacking) else []


def naming_words(question: str, label: str, title: str | None, *, named: bool) -> str:
    """The words by which the question names the paper, which are no part of the property it
    asks about: its title's words when it is named by them, its label when written, else none
    ("can their approach impose structure …?" of a paper whose label is its title)."""
    if named:
        return f"{label} {title or ''}"
    return label if writes_name(question, label) else ""


def shares_rare_phrase(question: str, paper_id: str, vocab: Vocabulary) -> bool:
    """The paper uses a two-word phrase of the list question's topic (what follows "which
    papers") that few indexed papers use: "data augmentation", "human preference models"."""
    asked = phrases(list_topic(question))
    limit = max(1.0, RARE_PHRASE_SHARE * vocab.n)
    return any(
        vocab.df.get(p, 0) <= limit and not all(vocab.common(w, PHRASE_WORD_SHARE) for w in p.split())
        for p in asked & vocab.paper_phrases.get(paper_id, set())
    )


def is_referring(question: str) -> bool:
    return bool(_REFERRING.search(question))


def coverage(terms: list[str], paper_id: str, vocab: Vocabulary, apart: frozenset[str] = frozenset()) -> float:
    """The idf-weighted share of the question's terms the paper uses (`apart`: terms it uses in
    another form: a hyphenated word written apart, words written as their acronym)."""
    have = vocab.paper_stems.get(paper_id, set())
    have = have | apart if apart else have
    weights = {t: vocab.idf(t) for t in terms}
    return sum(w for t, w in weights.items() if t in have) / (sum(weights.values()) or 1.0)


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
    known: str = "",
    named: bool = False,
    overview: bool = False,
    defined: bool = False,
    rare_stems: tuple[str, ...] = (),
) -> Features:
    """`attainable`: the stems some candidate paper uses; a list question's words that none
    uses (its frame: "look at", "make use of", "stress") are not held against any paper.
    `known`: labels of the other papers in focus ("how does X differ from Y?" asked of X);
    `named`: the question names this paper by its title's words (`Snapshot.referenced_in`);
    `overview`: it asks what this paper is (`overview.asks_overview`), so only the name it asks
    about is held to the paper, not the words that frame it ("tl;dr", "in one sentence");
    `rare_stems`: stems of the name a "what is <name>?" question asks about that only the paper it
    means writes (`accept.pool_rare_stems`)."""
    terms = question_terms(question)
    if attainable is not None and any(t in attainable for t in terms):
        terms = [t for t in terms if t in attainable]
    apart = other_forms(question, paper_text)
    covered = coverage(terms, hit.paper_id, vocab, apart)
    # The user's own situation, told first ("For pooled PCR screening we've seen …"), is theirs:
    # names and kinds of data only there are none the paper must write. Its words still count
    # in the coverage: covering only the asking part let a loosely related paper answer one.
    own = without_user_context(question)
    have = vocab.paper_stems.get(hit.paper_id, set())
    asked = (subject(question, about=True) or question) if overview else own
    asks = needs(asked, label=hit.label, text=paper_text)
    missing = next((n.name for n in asks if n.required and not any(n.met_by(e) for e in evidence)), None)
    # "… A or B?": a paper need only write the names (and cover the data and methods) of one
    # alternative.
    options = alternatives(asked) or [asked]
    if missing is None and (names := lacking_names(options, f"{paper_text} {hit.label} {known}")):
        missing = f"name not in the paper: {names[0]}"
    if missing is None and (lack := [s for s in rare_stems if s not in have]):
        missing = f"name not in the paper: {lack[0]}"
    kinds = [missing_facets(q, f"{paper_text} {hit.label}") for q in options]
    if missing is None and all(kinds):
        missing = f"not in the paper: {kinds[0][0]}"
    if missing is None and (setting := unwritten_setting(asked, have | apart)):
        missing = f"setting not in the paper: {setting}"
    if missing is None and not overview and (followup or named or writes_name(question, hit.label)):
        name = naming_words(question, hit.label, hit.title, named=named)
        missing = unsaid_property(question, name, terms, have | apart)
    if not evidence:  # e.g. every sentence of the paper was flagged as an instruction
        missing = "usable evidence"
    score = hit.best_cosine + hit.dense + 0.5 * covered
    rare = multi and shares_rare_phrase(question, hit.paper_id, vocab)
    return Features(
        round(hit.best_cosine, 4),
        round(covered, 4),
        missing,
        round(score, 4),
        followup,
        multi,
        rare,
        named,
        overview,
        defined,
    )
