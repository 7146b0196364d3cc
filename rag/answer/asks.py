"""What a question asks for, and what an evidence sentence must then contain (answer-type
matching: there is no cross-encoder offline). General English rules, never per paper."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rag.answer.clauses import ask_clause, asked_part, asks_own_noun
from rag.answer.names import NAME
from rag.text.normalize import content_stems

_NUMBER_WORDS = r"\b(?:single|once|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|dozens|hundred|hundreds|thousand|million|billion|trillion|half|double|twice)\b"
# A quantity, not a digit inside a name ("GSM8K", "GPT-4", "FlashAttention-2" count nothing).
_HAS_NUMBER = re.compile(r"(?<![A-Za-z])(?<![A-Za-z]-)\d|" + _NUMBER_WORDS, re.I)

# What a question asks for -> what the evidence must then contain. General, not per paper.
DETAIL_ASKS: list[tuple[re.Pattern[str], re.Pattern[str]]] = [
    (re.compile(r"\blearning[- ]rates?\b", re.I), re.compile(r"learning[- ]rate", re.I)),
    (re.compile(r"\bbatch[- ]sizes?\b", re.I), re.compile(r"batch[- ]size", re.I)),
    (
        re.compile(r"\b(?:gpus?|tpus?|hardware|accelerators?)\b", re.I),
        re.compile(r"\b(?:gpus?|tpus?|hardware|accelerators?)\b", re.I),
    ),
    (re.compile(r"\b(?:licen[cs]e[ds]?)\b", re.I), re.compile(r"licen[cs]e", re.I)),
    # An affiliation is asked only of the authors ("which university are the authors from"),
    # not whenever a question mentions companies or labs ("for which kind of companies …").
    (
        re.compile(
            r"\baffiliat\w*|\b(?:universit(?:y|ies)|institutions?|lab(?:oratory)?|compan(?:y|ies))\b"
            r"(?=[^?]*\b(?:authors?|researchers|team|based|work(?:s|ed)? at)\b)",
            re.I,
        ),
        re.compile(r"\b(?:universit|institut|affiliat|laborator)", re.I),
    ),
    (
        # "written by a stronger model" is no question about the authors; "written by whom" is.
        re.compile(r"\b(?:who (?:are|were) the authors|which authors|who wrote|written by whom|author names?)\b", re.I),
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
    r"\b(?:how many|how much|how large|how big|what (?:percentage|percent|fraction|number|size|proportion)"
    r"|by what (?:factor|margin)|what is the (?:speed-?up|size)"
    # "which dimensions" (plural) asks for aspects, not for a number; "what embedding dimension" does.
    r"|(?:what|which|in which)\s+(?:\w+[- ]){0,3}(?:(?:rate|size|year|temperature|threshold|budget|count|degree|length|accuracy"
    r"|speed-?up|exponent|bound)s?|dimension))\b",
    re.I,
)


# "how many annotators", "what codebook size", "how much memory": the number must be a
# number of that thing, so one sentence has to hold both.
_HOW_MANY = re.compile(r"\bhow\s+many\s+(?:[a-z][\w-]*\s+){0,2}?([a-z][\w-]*s)\b", re.I)
_WHAT_MEASURE = re.compile(
    # "what decoding throughput speedup", "what cumulative regret bound": the counted thing is
    # the word before the measure, after at most one more modifier.
    r"\bwhat\s+(?:is\s+|are\s+|was\s+|were\s+)?(?:the\s+|its\s+|their\s+)?(?:[a-z][\w-]*\s+)?([a-z][\w-]*)\s+"
    r"(?:size|count|degree|dimension|rate|ratio|budget|exponent|speed-?up|bound)s?\b",
    re.I,
)
_HOW_MUCH = re.compile(
    r"\bhow\s+much\s+(?:of\s+(?:the\s+|its\s+|their\s+)?)?"
    r"(?!does|do|did|is|are|was|were|can|could|will|would|more|less|better|faster)([a-z][\w-]*)\b",
    re.I,
)
_ASKS_RATE = re.compile(r"\b(?:rates?|exponents?|complexity|order|bounds?)\b", re.I)
# An order of growth answers a question about a rate without a number.
_RATE_FORM = re.compile(
    r"\b(?:sub|super)?linear(?:ly)?\b|\b(?:quadratic|cubic|exponential|polynomial|logarithmic)(?:ly)?\b"
    r"|\bO\(|\\mathcal\{O\}|\\tilde|\\sqrt|\bsquare[- ]root",
    re.I,
)
# The paper's own contribution asked for by its kind: "what benchmark was built", "a new dataset".
_OWN_THING = re.compile(
    r"\b(?:built|introduc\w*|propos\w*|creat\w*|develop\w*|construct\w*|present\w*|release\w*|new|novel)\b", re.I
)
_PERCENT = re.compile(r"\b(?:what|which)\s+percentage\b|\bby\s+what\s+percent", re.I)
_HAS_PERCENT = re.compile(r"%|\bper\s?cent", re.I)
# "which datasets did they evaluate on", "names of the models used": named things are asked.
_ENTITY_ASK = re.compile(
    # the wh-word modifies the noun: "which papers use diffusion models" asks for papers, not names,
    # and "which traits of generative models" asks for traits ("which kind of models" does ask)
    r"\b(?:which|what|names?\s+of)\b(?!\s+(?!(?:kinds?|types?|sorts?|of)\b)[\w'-]+\s+of\b)(?:(?!\s(?:papers?|works?|studies|articles|abstracts|methods)\b)"
    r"(?!\s(?:use[sd]?|using|apply|applies|build|builds|train|trains|propose[sd]?|stud(?:y|ies))\b)[^?]){0,40}?"
    r"\b(datasets?|benchmarks?|models?|llms?|architectures?|checkpoints?"
    r"|baselines?|languages?|corpora|corpus)"
    # the head of its noun phrase ("which datasets did…", not "which benchmark tasks…")
    r"(?=\s+(?:did|do|does|are|were|was|is|have|has|had|that|which|used|in|on|for|from|to|they|it|achiev\w*|outperform\w*|perform\w*|rank\w*|scor\w*)\b|\s*[?,])",
    re.I,
)
# "compared to best-of-N", "outperforms in-context learning", "better than fine-tuning".
_COMPARED = re.compile(
    r"\b(?:compared\s+(?:to|with|against)|relative\s+to|outperform\w*|surpass\w*|beat\w*|than|versus|vs\.?)"
    r"\s+(?:the\s+|a\s+|an\s+)?(?!(?:the|a|an|it|this|that|those|these|existing|previous|prior|other"
    r"|baselines?|competitors?|alternatives?|methods?|approaches|others)\b)[\w$-]{3,}",
    re.I,
)
_ENTITY_VERB = re.compile(
    r"\b(?:use[sd]?|using|evaluat\w*|test\w*|includ\w*|trained\s+on|train\s+on|compar\w*|transfer\w*"
    r"|report\w*|results?\s+on|experiment\w*|run\s+on|benchmarked|achiev\w*|outperform\w*|rank\w*|built|based)\b",
    re.I,
)
_NAME_MIN = 4  # "OoD", "SGD"-like short forms are too often generic
_SKIP_NOUNS = {"times", "ways", "steps", "things", "examples", "cases", "kinds", "types", "others", "each", "the"}
_COMPARATIVES = {
    "more",
    "less",
    "cheaper",
    "faster",
    "better",
    "larger",
    "smaller",
    "higher",
    "lower",
    "greater",
    "fewer",
    "longer",
    "shorter",
    "bigger",
    "easier",
    "harder",
    "stronger",
    "weaker",
    "worse",
}
# The main ask is the question's first wh-word: "which quantity … how much each …" asks a name.
_FIRST_WH = re.compile(r"\b(?:what|which|how|who|whom|whose|when|where|why)\b", re.I)


@dataclass(frozen=True)
class Need:
    """Something one evidence sentence must contain for the question to be answered."""

    name: str
    met_by: Callable[[str], bool]
    # A need that only orders the evidence (the sentence meeting it leads) and never refuses:
    # its test is a shape ("a list of three"), which a paraphrased answer may lack.
    required: bool = True
    # Met only by a sentence about the very thing asked ("a number of annotators", "a list of
    # three"): such a sentence may lead from further down than one that merely has a number.
    specific: bool = False


def _never(sentence: str) -> bool:
    return False


def _matches(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    return lambda sentence: pattern.search(sentence) is not None


def _all(*checks: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda sentence: all(c(sentence) for c in checks)


def _mentions(word: str) -> Callable[[str], bool]:
    stems = set(content_stems(word))
    return lambda sentence: bool(stems) and stems <= set(content_stems(sentence))


NUMBER_NEAR = 4  # words between a number and the thing it counts ("8 different tasks")


def _number_near(noun: str) -> Callable[[str], bool]:
    """A number within a few words of `noun` ("6,658 questions", "saves over 6 months")."""
    stems = set(content_stems(noun))

    def check(sentence: str) -> bool:
        tokens = re.findall(r"[\w.,%-]+", sentence)
        at_noun = [i for i, t in enumerate(tokens) if stems & set(content_stems(t))]
        at_number = [i for i, t in enumerate(tokens) if _HAS_NUMBER.search(t)]
        return any(abs(i - j) <= NUMBER_NEAR for i in at_noun for j in at_number)

    return check


def _names_other_than(exclude: set[str]) -> Callable[[str], bool]:
    def check(sentence: str) -> bool:
        names = (m.group(0).rstrip(".-") for m in NAME.finditer(sentence))  # "FooNet." ends a sentence
        return any(len(n) >= _NAME_MIN and n.lower() not in exclude for n in names)

    return check


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


def _name_near(noun: str, known: set[str]) -> Callable[[str], bool]:
    """A coined name within a few words of `noun` ("two algorithms, PDI-CP and JDI-CP")."""
    stems = set(content_stems(noun))
    is_name = _names_other_than(known)

    def check(sentence: str) -> bool:
        tokens = re.findall(r"[\w.{}\\-]+", sentence)
        at_noun = [i for i, t in enumerate(tokens) if stems & set(content_stems(t))]
        at_name = [i for i, t in enumerate(tokens) if is_name(t)]
        return any(abs(i - j) <= NUMBER_NEAR for i in at_noun for j in at_name)

    return check


def _name_need(question: str, whole: str, label: str, text: str) -> Need:
    """A name is asked: one beside the named thing when the paper names that thing (it may
    lead from anywhere), else any coined name, which only orders the evidence (an answer's
    name may be plain words: "the curse of complexity")."""
    known = {w.lower() for w in re.findall(r"[\w.-]+", f"{whole} {label}")}
    m = _NAMED_NOUN.search(question)
    noun = (m.group(1) or m.group(2)) if m else None
    if noun and noun.lower() not in _SKIP_NOUNS and _mentions(noun)(text):
        return Need(f"a name of {noun}", _name_near(noun, known), required=False, specific=True)
    return Need("a name", _names_other_than(known), required=False)


# "which three kinds of …", "what are the four stages": a list of that many things is asked
# (of two, no: "A and B" is in nearly every sentence, so it would point at none).
_LIST_ASK = re.compile(
    r"\b(?:which|what|name|list)\b(?:\s+(?:are|were|is|was))?(?:\s+the)?\s+(three|four|five|six|[3-6])\s+"
    r"(?:[\w-]+\s+){0,2}?[\w-]+s\b",
    re.I,
)
# "which techniques did they try", "for which other schemes": several things are asked.
_PLURAL_ASK = re.compile(
    r"\b(?:which|what)\s+(?:other\s+|specific\s+|different\s+)?(?:[a-z][\w-]*\s+)?"
    r"(?!papers\b|works\b|studies\b|articles\b|abstracts\b)([a-z][\w-]*[^s\W]s)\s+"
    r"(?:did|do|does|are|were|can|could|is|was|have|has)\b",
    re.I,
)
_COUNTS = {"three": 3, "four": 4, "five": 5, "six": 6}
_COUNT_WORDS = {n: w for w, n in _COUNTS.items()}
_ENUMERATOR = re.compile(r"\((?:\d|i{1,3}|iv|v|vi|[a-f])\)", re.I)
LIST_ITEM_WORDS = 5  # an item of an enumeration is a short phrase
_JOINS = re.compile(r"\b(?:and|or)\b", re.I)
_LIST_SPAN = re.compile(r"[;:()\u2014\u2013]|\s-{1,3}\s|---?")


def list_length(sentence: str) -> int:
    """The longest enumeration in a sentence: "(1) … (2) …", "A, B, and C", "A, B and C",
    "A and B". Inside one span between dashes, colons, semicolons or brackets, a list is a run
    of short comma-separated items closed by "and"/"or": "X, yet Y and Z" joins clauses, and a
    trailing "…, representing Z" does not end one."""
    best = max(1, len(_ENUMERATOR.findall(sentence)))
    for span in _LIST_SPAN.split(sentence):
        pieces = [p.split() for p in span.split(",")]
        best = max(best, 2 if _JOINS.search(span) else 1)
        for i in range(len(pieces)):
            for j in range(i + 1, len(pieces)):
                words = [w.lower() for w in pieces[j]]
                joint = next((k for k, w in enumerate(words) if w in ("and", "or")), None)
                if joint == 0:  # "…, and C"
                    best = max(best, j - i + 1)
                    break
                if joint is not None and joint <= LIST_ITEM_WORDS:  # "…, B and C"
                    best = max(best, j - i + 2)
                    break
                if not words or len(words) > LIST_ITEM_WORDS:
                    break
    return best


def _lists(count: int) -> Callable[[str], bool]:
    said = re.compile(rf"\b(?:{_COUNT_WORDS[count]}|{count})\b", re.I)  # "three hierarchical levels: …"
    return lambda sentence: list_length(sentence) >= count or said.search(sentence) is not None


def _any(*checks: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda sentence: any(c(sentence) for c in checks)


def _quantities(question: str) -> list[str]:
    """The things a number is asked of ("how many annotators … and how many tasks")."""
    out = []
    for pattern in (_HOW_MANY, _WHAT_MEASURE, _HOW_MUCH):
        for m in pattern.finditer(question):
            word = m.group(1).lower()
            if word not in _SKIP_NOUNS and word not in _COMPARATIVES and content_stems(word):
                out.append(m.group(1))
    return list(dict.fromkeys(out))


def _asks_number_first(question: str) -> bool:
    # The clause that asks: a relative "where"/"when" before it ("… learning where rewards
    # are hidden, across how many benchmarks …?") opens no question.
    start = max(0, len(question.rstrip()) - len(ask_clause(question)))
    wh = _FIRST_WH.search(question, start)
    m = next((m for m in _ASKS_NUMBER.finditer(question) if m.end() > start), None)
    return m is not None and (wh is None or m.start() <= wh.start() + 1)


def needs(question: str, *, label: str = "", text: str = "") -> list[Need]:
    """What the evidence must contain for this question to be answered. `text` is the
    paper's abstract: a thing the question counts ("how many annotators") must be named beside
    its number, and a paper that never names it cannot answer (measured on fresh questions:
    more near misses refused than paraphrased counts lost). Only the asking part of the
    question is read for what it asks."""
    whole, question = question, asked_part(question)
    out = [Need(ask.pattern, _matches(need)) for ask, need in DETAIL_ASKS if ask.search(question)]
    if _asks_number_first(question):
        has_number = _matches(_HAS_NUMBER)
        asked = _quantities(question)
        nouns = [n for n in asked if _mentions(n)(text)] if text else []
        found = [Need(f"a number of {n}", _number_near(n), specific=True) for n in nouns]
        if not found:
            # A paper that never names what is counted ("how much memory") has no count of it.
            found = [Need(f"a number of {asked[0]}", _never)] if asked and text else [Need("a number", has_number)]
        if _ASKS_RATE.search(question):  # "what convergence rate": "linear", "O(1/n)" answer it too
            found = [Need(n.name, _any(n.met_by, _matches(_RATE_FORM))) for n in found]
        out += found
    if _PERCENT.search(question):
        out.append(Need("a percentage", _matches(_HAS_PERCENT)))
    if _ASKS_CAUSE.search(question):
        # A sentence naming a cause leads from anywhere; one with another causal link ("arises
        # from") only when close to the best.
        out.append(Need("a cause", _matches(_CAUSE_WORD), required=False, specific=True))
        out.append(Need("a causal link", _matches(_CAUSAL), required=False))
    if lm := _LIST_ASK.search(question):
        count = _COUNTS.get(lm.group(1).lower()) or int(lm.group(1))
        out.append(Need(f"a list of {count}", _lists(count), required=False, specific=True))
    elif _PLURAL_ASK.search(question) and not _ENTITY_ASK.search(question):
        out.append(Need("a list", lambda sentence: list_length(sentence) >= 3, required=False))
    m = _ENTITY_ASK.search(question)
    if m and _ENTITY_VERB.search(question) and not asks_own_noun(question[m.start() : m.start(1)]):
        known = {w.lower() for w in re.findall(r"[\w.-]+", f"{whole} {label}")}
        # The paper's own recurring acronyms ("CBMs") name its topic, not what it used.
        # Unless the question asks for the thing the paper itself built ("what benchmark was
        # introduced"): then the paper's own name is the answer.
        if not _OWN_THING.search(question):
            known |= {n.lower() for n in NAME.findall(text) if text.count(n) >= 2}
        verbs = [_mentions(v.group(0)) for v in _ENTITY_VERB.finditer(question)]
        about = _any(_mentions(m.group(1)), *verbs)
        named = _all(about, _names_other_than(known))
        # Baselines are often plain words ("best-of-N and self-repair"): a comparison names them.
        baselines = m.group(1).lower().startswith("baseline")
        met = _any(named, _matches(_COMPARED)) if baselines else named
        out.append(Need(f"names of {m.group(1)}", met, specific=True))
    elif _NAME_ASK.search(question):
        out.append(_name_need(question, whole, label, text))
    return out
