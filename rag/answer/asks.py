"""What a question asks for, and what an evidence sentence must then contain (answer-type
matching: there is no cross-encoder offline). General English rules, never per paper."""

from __future__ import annotations

import re
from collections.abc import Callable

from rag.answer.clauses import asked_part
from rag.answer.counts import PAPER_HEADS, SKIP_NOUNS, number_needs
from rag.answer.entities import asks_entities, entity_need, names_other_than
from rag.answer.guarantees import guarantee_needs
from rag.answer.kinds import kind_need
from rag.answer.lists import list_needs
from rag.answer.need import Need, all_of, any_of, matches, mentions, near
from rag.answer.orders import order_needs
from rag.answer.proposal import proposal_needs
from rag.answer.ranks import rank_needs

# What a question asks for -> what the evidence must then contain. General, not per paper.
# Where the code is ("Is X open source?", "Where can I find the code for X?"): code as a topic
# ("code generation", "the source code of the programs it repairs") is no such ask.
ASKS_CODE = re.compile(
    r"\bis\s+there\s+(?:any\s+)?(?:source\s+)?code\b(?!\s+generat)"
    r"|\b(?:is|are)\s+(?:the\s+|its\s+|their\s+)?(?:source\s+)?code\b(?!\s+generat)[^?]{0,160}\b(?:available|public|released|open|online)\b"
    r"|\b(?:where|how)\b[^?]{0,40}\b(?:find|get|download|access|obtain)\b[^?]{0,30}\b(?:source\s+)?code\b"
    r"(?!\s+generat)|\bcode\s+(?:is\s+|be\s+)?(?:available|released|public)\b"
    # "release their attack code", "make their implementation publicly available"
    r"|\b(?:release[sd]?|publish(?:ed)?|share[sd]?|open[- ]sourced?)\s+(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+){0,2}?(?:source\s+)?code\b"
    r"(?!\s+generat)|\bmake\s+(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+){0,2}?(?:code|implementation)s?\s+(?:publicly\s+|openly\s+|freely\s+)?(?:available|public)\b"
    r"|\b(?:is|are|was|were)\s+(?:\S+\s+){1,30}?open[- ]sourced?\s*[?.!]*\s*$"
    r"|\bgithub\s+(?:link|page|repo(?:sitory)?|url)\b|\bon\s+github\b",
    re.I,
)
# A sentence that says where the paper's own code is, or that it is released: "open-source
# LLMs" (a topic) or "other models released only their weights" says neither.
GIVES_CODE = re.compile(
    r"https?://|\bgithub\b|\bfully[- ](?:open|released)\b"
    r"|\bopen[- ]sourc\w*\s+(?:our|the|all|its|their|this)\b|\b(?:is|are|be|been)\s+(?:\w+\s+)?open[- ]sourced\b"
    r"|\bwe\s+(?:\w+\s+){0,2}open[- ]sourced?\b"
    r"|\b(?:an?|our)\s+open[- ]source\s+(?:framework|library|toolkit|package|implementation|tool|system|platform|codebase)\b"
    r"|\b(?:our|the|its|their)\s+(?:\w+\s+){0,2}(?:codes?|implementations?)\b[^.]*\b(?:available|release[sd]?|public)\b"
    r"|\b(?:code|implementations?)\s+(?:is|are|will\s+be|has\s+been|have\s+been)\s+(?:\w+\s+)?(?:available|released|public)\b"
    r"|\b(?:we|will)\s+(?:\w+\s+){0,2}(?:release|publish|share|open[- ]source)\w*\b[^.]*\b(?:code|implementations?)\b"
    # "we provide publicly available implementations"
    r"|\b(?:publicly|openly|freely)\s+available\s+(?:\w+\s+)?(?:codes?|implementations?|software|packages?|library)\b",
    re.I,
)

# (what is asked, as the explanation names it; how it is asked; what a sentence must have)
DETAIL_ASKS: list[tuple[str, re.Pattern[str], re.Pattern[str]]] = [
    ("a learning rate", re.compile(r"\blearning[- ]rates?\b", re.I), re.compile(r"learning[- ]rate", re.I)),
    ("a batch size", re.compile(r"\bbatch[- ]sizes?\b", re.I), re.compile(r"batch[- ]size", re.I)),
    # Hardware asked for ("which GPU", "how many TPUs", "on what hardware"), not a setting the
    # question names ("efficient on GPUs", "on one consumer GPU, what context length …").
    (
        "hardware",
        re.compile(
            r"\b(?:what|which|how\s+many)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?(?:[\w-]+\s+){0,2}?"
            r"(?:gpus?|tpus?|hardware|accelerators?)\b",
            re.I,
        ),
        re.compile(r"\b(?:gpus?|tpus?|hardware|accelerators?)\b", re.I),
    ),
    ("a licence", re.compile(r"\b(?:licen[cs]e[ds]?)\b", re.I), re.compile(r"licen[cs]e", re.I)),
    # An affiliation is asked only of the authors ("which university are the authors from"),
    # not whenever a question mentions companies or labs ("for which kind of companies …").
    (
        "an affiliation",
        re.compile(
            r"\baffiliat\w*|\b(?:universit(?:y|ies)|institutions?|lab(?:oratory)?|compan(?:y|ies))\b"
            r"(?=[^?]*\b(?:authors?|researchers|team|based|work(?:s|ed)? at)\b)",
            re.I,
        ),
        re.compile(r"\b(?:universit|institut|affiliat|laborator)", re.I),
    ),
    (
        "the authors",
        # "written by a stronger model" is no question about the authors; "written by whom" is.
        re.compile(r"\b(?:who (?:are|were) the authors|which authors|who wrote|written by whom|author names?)\b", re.I),
        re.compile(r"\b(?:et al|authored)\b", re.I),
    ),
    (
        "a duration",
        # "How long a context can it handle?" asks for a length, not a time.
        re.compile(r"\b(?:how long(?!\s+(?:a|an)\b)|training time|hours?|days|wall[- ]clock)\b", re.I),
        # In ML a duration is also counted in steps: "the deviation reaches zero at n iterations".
        re.compile(
            r"\b(?:hours?|days?|minutes?|seconds?|weeks?|months?|wall[- ]clock|iterations?|epochs?|steps|rounds)\b",
            re.I,
        ),
    ),
    # A running time asked for ("what is the running time of …", "how does its runtime grow"),
    # not a topic ("which papers reduce computational cost"): a sentence that states one, as an
    # order, a duration or a comparison, answers; "based on efficient sampling" does not.
    (
        "a running time",
        re.compile(
            rf"\b(?:what|which|how)\s+(?!{PAPER_HEADS})[^?,]{{0,60}}?\b(?:run(?:ning)?[- ]?times?|runtimes?"
            r"|time\s+complexity|computational\s+(?:complexity|cost))\b",
            re.I,
        ),
        re.compile(
            r"\b(?:runs?\s+in|run(?:ning)?[- ]?times?|runtimes?|(?:time|computational|per-iteration|arithmetic)\s+complexity"
            r"|(?:polynomial|linear|quadratic|cubic|exponential|constant|logarithmic|near[- ]linear|sub\w+|super\w+)[- ]time"
            r"|seconds?|minutes?|hours?|wall[- ]clock|faster|slower|speed-?ups?)\b"
            r"|(?<![A-Za-z])O\s*\(|\\mathcal\{O\}|\\(?:tilde|widetilde)\{",
            re.I,
        ),
    ),
    ("epochs", re.compile(r"\b(?:epochs?|iterations? (?:of training|were))\b", re.I), re.compile(r"\bepochs?\b", re.I)),
    ("hyperparameters", re.compile(r"\bhyper-?parameters?\b", re.I), re.compile(r"hyper-?parameter", re.I)),
    (
        "an optimizer",
        re.compile(r"\b(?:optimi[sz]er|adam|adamw)\b.*\b(?:use|used|train)", re.I),
        re.compile(r"\b(?:adam|adamw|sgd|optimi[sz]er)\b", re.I),
    ),
    (
        "a date",
        re.compile(r"\b(?:when was|what year|published|release date)\b", re.I),
        re.compile(r"\b(?:19|20)\d\d\b"),
    ),
    # "grant" the noun ("which grant", "grant number"), not the verb ("should grant them a status").
    (
        "funding",
        re.compile(
            r"\b(?:funded|funding|(?:which|what|a|the|research)\s+grants?|grants?\s+(?:numbers?|no|ids?|from|agenc\w+))\b",
            re.I,
        ),
        re.compile(r"\b(?:fund|grant)", re.I),
    ),
    ("seeds", re.compile(r"\b(?:random seeds?|seeds)\b", re.I), re.compile(r"\bseeds?\b", re.I)),
    # Where the code is: only a sentence that gives it, not the method's own sentences.
    ("the code", ASKS_CODE, GIVES_CODE),
]

# "what are the names of …", "what is the new loss called?": a coined name is asked.
_NAME_ASK = re.compile(
    r"\bnames?\s+(?:of|and)\b|\bwhat\s+name\b|\b(?:what|how)\b[^?]{0,100}?\b(?:called|named|dubbed|termed)(?=\s*[,?])",
    re.I,
)


# "what causes X", "the cause of X": the sentence that says what causes it (few do) answers.
_ASKS_CAUSE = re.compile(
    r"\bwhat\s+(?:[\w-]+\s+){0,2}?(?:causes?|caused|drives?|is\s+responsible)\b|\b(?:cause|causes|root)\s+of\b",
    re.I,
)
_CAUSE_WORD = re.compile(r"\bcaus(?:e|es|ed|ing)\b", re.I)
_CAUSAL = re.compile(
    r"\b(?:caus(?:e|es|ed|ing)|due\s+to|because|stems?\s+from|aris(?:e|es|ing)\s+from|attribut\w*\s+to"
    r"|responsible\s+for|results?\s+from|root)\b",
    re.I,
)


# The thing whose name is asked: "names of the two practical algorithms", "what is the loss … called".
_NAMED_NOUN = re.compile(
    r"\bnames?\s+of\s+(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+){0,3}?([a-z][\w-]*s)\b"
    r"|\bwhat\s+(?:is|are|was|were)\s+(?:the|its|their)\s+(?:new\s+|novel\s+|proposed\s+)?(?!names?\b)([a-z][\w-]+)\b",
    re.I,
)


# A word of a sentence, LaTeX-wrapped names included ("$\\texttt{PDI-CP}$").
_NAME_TOKEN = re.compile(r"[\w.{}\\-]+")


def _name_near(noun: str, known: set[str]) -> Callable[[str], bool]:
    """A coined name within a few words of `noun` ("two algorithms, PDI-CP and JDI-CP")."""
    return near(noun, names_other_than(known), _NAME_TOKEN)


def _name_need(question: str, whole: str, label: str, text: str) -> Need:
    """A name is asked: one beside the named thing when the paper names that thing (it may
    lead from anywhere), else any coined name, which only orders the evidence (an answer's
    name may be plain words: "the curse of complexity")."""
    known = {w.lower() for w in re.findall(r"[\w.-]+", f"{whole} {label}")}
    m = _NAMED_NOUN.search(question)
    noun = (m.group(1) or m.group(2)) if m else None
    if noun and noun.lower() not in SKIP_NOUNS and mentions(noun)(text):
        return Need(f"a name of {noun}", _name_near(noun, known), required=False, specific=True)
    return Need("a name", names_other_than(known), required=False)


# "What approaches do they propose for it?": the things asked and what the paper did with them.
_THINGS_DONE = re.compile(
    r"^\W*(?:what|which)\s+(?:[\w-]+\s+){0,2}?([a-z][\w-]*s)\s+(?:do|does|did)\s+(?:they|it|the\s+authors)\s+([a-z]+)\b",
    re.I,
)


# "Which specific GPU model …", "what particular architectures …": the identity is asked.
_SPECIFIC = re.compile(
    r"\b(?:which|what)\s+(?:specific|particular|exact)\s+(?:[\w-]+\s+){0,4}?([\w-]+?)(?=\s+(?:did|do|does|are|were|was|is|has|have|had|gave|turned|performed|scored|they|it)\b|\s*[?,])",
    re.I,
)


def _specific_name(question: str, whole: str, label: str, text: str) -> list[Need]:
    """ "Which specific <thing>" is answered only by a sentence that names one (a name beside the
    thing where the paper writes it, else any name the question and paper label do not write):
    a sentence about the thing in general does not say which."""
    m = _SPECIFIC.search(question)
    if m is None:
        return []
    noun = m.group(1)
    known = {w.lower() for w in re.findall(r"[\w.-]+", f"{whole} {label}")}
    met = any_of(_name_near(noun, known), _enumerated(noun)) if mentions(noun)(text) else names_other_than(known)
    return [Need(f"a specific {noun}", met, specific=True)]


def _enumerated(noun: str) -> Callable[[str], bool]:
    """The things listed right after their noun ("three linear classifiers, namely perceptron,
    logistic regression and LDA", "two algorithms: …"): plain-word names answer "which specific"."""
    base = re.escape(noun[:-1] if noun.lower().endswith("s") else noun)
    return matches(re.compile(rf"\b{base}\w*\s*(?:,\s*)?(?:namely|such\s+as|including|i\.e\.,?|:)\s+\S", re.I))


def _things_done(question: str, text: str) -> list[Need]:
    """The sentence that has both the asked plural noun and the question's verb ("We propose
    two different approaches …: A and B") leads from anywhere; it never refuses. A question
    that only refers back ("they", "it") shares almost nothing else with the answer."""
    m = _THINGS_DONE.search(question)
    if m is None or m.group(1).lower() in SKIP_NOUNS or not mentions(m.group(1))(text):
        return []
    noun, verb = m.group(1), m.group(2)
    # The verb as written, any ending: "propose" is a stopword to the stemmer's lists.
    did = re.compile(rf"\b{re.escape(verb[: max(4, len(verb) - 2)])}\w*", re.I)
    return [Need(f"{noun} they {verb}", all_of(mentions(noun), matches(did)), required=False, specific=True)]


# The question's topic set first, a name of two or more capitalised words ("And for Equal
# Opportunity, how much …?"); a name further in is as often the setting ("on Stack Overflow").
_PROPER_PHRASE = re.compile(
    r"^\s*(?:(?:and|but|so|now)\s+)?(?:for|what\s+about|how\s+about)\s+(?:the\s+)?(?-i:([A-Z][a-z]+(?:\s+[A-Z][a-z]+)+))\s*,",
    re.I,
)


def _named_phrase(question: str, label: str, text: str) -> list[Need]:
    """A proper name the question gives and the paper writes, not the paper's own: the
    sentence about it leads ("And for Equal Opportunity, how much accuracy do they lose?" is
    answered by "For Equal Opportunity, we show …", not by the general accuracy sentence)."""
    for m in _PROPER_PHRASE.finditer(question):
        phrase = m.group(1)
        if phrase in text and phrase.lower() not in label.lower():
            return [Need(f"the named {phrase}", matches(re.compile(re.escape(phrase))), required=False, specific=True)]
    return []


def needs(question: str, *, label: str = "", text: str = "") -> list[Need]:
    """What the evidence must contain for this question to be answered (`text`: the paper's
    abstract). Only the asking part of the question is read for what it asks."""
    whole, question = question, asked_part(question)
    out = _named_phrase(whole, label, text) + order_needs(question, text)
    # The sentence that gives the code answers "is there code?" wherever it ranks: it shares
    # few words with the question, which names the method.
    out += [
        Need(name, matches(need), specific=ask is ASKS_CODE) for name, ask, need in DETAIL_ASKS if ask.search(question)
    ]
    out += number_needs(question, text)
    if _ASKS_CAUSE.search(question):
        # A sentence naming a cause leads from anywhere; one with another causal link ("arises
        # from") only when close to the best.
        out.append(Need("a cause", matches(_CAUSE_WORD), required=False, specific=True))
        out.append(Need("a causal link", matches(_CAUSAL), required=False))
    if not out:  # "what exact ratio": a number is asked, which says which
        out += _specific_name(question, whole, label, text)
    out += rank_needs(question)
    m = asks_entities(question)
    out += _things_done(question, text)
    out += list_needs(question, names_asked=m is not None)
    if m and (entities := entity_need(question, m, whole, label, text)) is not None:
        out.append(entities)
    elif _NAME_ASK.search(question):
        out.append(_name_need(question, whole, label, text))
    # Nothing more definite asked ("what condition is introduced …?"): a kind of the noun is.
    if not out and (of_kind := kind_need(question, whole)) is not None:
        out.append(of_kind)
    # Last: a sentence with what was asked for ("two approaches: A and B") leads before one
    # that only says "we present".
    return out + guarantee_needs(question) + proposal_needs(question)
