"""Asks for a number or an order of growth: what a question counts, and whether a sentence has it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from rag.answer.clauses import ask_clause
from rag.answer.need import NEAR_WORDS, Need, all_of, any_of, matches, mentions, near, never, rejoined
from rag.text.normalize import content_stems

# A wh-phrase headed by one of these asks for papers, not for a quantity or a paper's things.
PAPER_HEADS = r"(?:papers|works|studies|articles|abstracts)\b"

_AUX = r"(?:do|does|did|is|are|was|were|has|have|had|can|could|will|would|should)"
# A word of the wh-phrase before the measure: not "papers" (see below), not an auxiliary.
_MODIFIER = rf"(?!{PAPER_HEADS}|{_AUX}\b)\w+[- ]"
_NUMBER_WORDS = r"\b(?:single|once|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|dozens|hundred|hundreds|thousand|million|billion|trillion|half|double|twice)\b"
# A quantity, not a digit inside a name ("GSM8K", "GPT-4", "FlashAttention-2" count nothing).
_HAS_NUMBER = re.compile(r"(?<![A-Za-z])(?<![A-Za-z]-)\d|" + _NUMBER_WORDS, re.I)

_ASKS_NUMBER = re.compile(
    r"\b(?:how many|how much|how large|how big|what (?:percentage|percent|fraction|number|size|proportion)"
    r"|by what (?:factor|margin)|what is the (?:speed-?up|size)"
    # "which dimensions" (plural) asks for aspects, not for a number; "what embedding dimension" does.
    # "Which papers bound the regret …": a wh-phrase headed by "papers" asks for papers; the word
    # after it is their verb.
    # "What quantities do those bounds depend on?": the words before the measure modify it, and
    # an auxiliary ends the wh-phrase ("bounds" is then the subject, not what is asked).
    rf"|(?:what|which|in which)\s+(?:{_AUX}\s+(?:{_MODIFIER}){{0,2}}|(?:{_MODIFIER}){{0,3}})(?:(?:rate|ratio|size|year|temperature|threshold|budget|count|degree|length|accuracy"
    r"|speed-?up|exponent|bound|latenc(?:y|ie)|slope|value|throughput)s?|dimension))\b"
    # "What inference speed": a speed right after the wh-word ("what observation about learning
    # speed" asks for an observation).
    r"|\b(?:what|which)\s+(?:[\w-]+[- ])?speeds?\b",
    re.I,
)


# "how many annotators", "what codebook size", "how much memory": the number must be a
# number of that thing, so one sentence has to hold both.
_HOW_MANY = re.compile(r"\bhow\s+many\s+(?:[a-z][\w-]*\s+){0,2}?([a-z][\w-]*s)\b", re.I)
_WHAT_MEASURE = re.compile(
    # "what decoding throughput speedup", "what cumulative regret bound": the counted thing is
    # the word before the measure, after at most one more modifier.
    r"\bwhat\s+(?:is\s+|are\s+|was\s+|were\s+)?(?:the\s+|its\s+|their\s+)?(?:[a-z][\w-]*\s+)?([a-z][\w-]*)\s+"
    r"(size|count|degree|dimension|rate|ratio|budget|exponent|speed(?:-?up)?|bound|latency|slope|value|throughput)s?\b",
    re.I,
)
_HOW_MUCH = re.compile(
    r"\bhow\s+much\s+(?:of\s+(?:the\s+|its\s+|their\s+)?)?"
    r"(?!does|do|did|is|are|was|were|can|could|will|would|more|less|better|faster)([a-z][\w-]*)\b",
    re.I,
)
# "How much space and preprocessing time?", "how much does each machine need to communicate?"
# are answered by "$O(nd)$ space", "linear in its sparsity" as a rate is.
_ASKS_RATE = re.compile(
    r"\b(?:rates?|exponents?|complexity|order|bounds?)\b"
    r"|\bhow\s+much\b[^?]{0,40}?\b(?:space|memory|storage|communicat\w*|(?:running|query|preprocessing)\s+time)\b",
    re.I,
)
# An order of growth answers a question about a rate without a number.
_RATE_FORM = re.compile(
    r"\b(?:sub|super)?linear(?:ly)?\b|\b(?:quadratic|cubic|exponential|polynomial|logarithmic)(?:ly)?\b"
    r"|\bO\(|\\mathcal\{O\}|\\tilde|\\sqrt|\bsquare[- ]root"
    # An expression in the variables: "$\\log(M)/n$", "$n^{-1/2}$", "$\\frac{d}{\\epsilon^2}$".
    r"|\$[^$]*(?:\\log|\\frac|/|\^)[^$]*\$"
    # A rate named by what it matches: "attains the minimax optimal rate".
    r"|\b(?:mini-?max|minimax)[- ]optimal\b|\boptimal\s+(?:convergence\s+|learning\s+|statistical\s+)?rates?\b",
    re.I,
)
_PERCENT = re.compile(r"\b(?:what|which)\s+percentage\b|\bby\s+what\s+percent", re.I)
_HAS_PERCENT = re.compile(r"%|\bper\s?cent", re.I)
SKIP_NOUNS = {"times", "ways", "steps", "things", "examples", "cases", "kinds", "types", "others", "each", "the"}
COMPARATIVES = {
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


_NUMBER_TOKEN = re.compile(r"[\w.,%-]+")


def _number_of(noun: str, measure: str | None, question: str) -> Callable[[str], bool]:
    """A number of `noun`, or, for a speed or speedup, of the speed however the sentence names
    what is faster ("what inference speedup": "a 3× speedup over FP16"). Not for other measures: "what
    codebook size" is not met by "reduces KV cache size by 87.5%"."""
    near_noun = _number_near(noun, question)
    if _COMPUTE.match(noun):  # "how much compute": "trained with just one GPU hour"
        return any_of(near_noun, _number_of_compute)
    if _is_latency(measure):  # "what per-token latency": "0.108s/token"
        return any_of(near_noun, matches(_DURATION))
    if measure and _SPEEDUP.match(measure):
        return any_of(near_noun, _number_near(measure))
    return any_of(near_noun, _counted_against(noun))


# A count stated against another quantity: "a number of probes equal to the number of
# parameters", "samples linear in the dimension" (the word, then "in" or "to").
_RELATION = re.compile(
    r"(?:equal|proportional|(?:sub|super)?linear(?:ly)?|quadratic(?:ally)?|polynomial(?:ly)?|exponential(?:ly)?)", re.I
)


def _counted_against(noun: str) -> Callable[[str], bool]:
    stems = set(content_stems(noun))

    def check(sentence: str) -> bool:
        tokens = _NUMBER_TOKEN.findall(rejoined(sentence))
        at_noun = [i for i, t in enumerate(tokens) if stems & set(content_stems(t))]
        at_relation = [
            j for j, t in enumerate(tokens[:-1]) if _RELATION.fullmatch(t) and tokens[j + 1].lower() in ("in", "to")
        ]
        return any(0 < j - i <= NEAR_WORDS for i in at_noun for j in at_relation)

    return check


_COMPUTE = re.compile(r"^comput(?:e|ation|ing)$", re.I)
_COMPUTE_UNIT = re.compile(
    r"^(?:[GT]PUs?|(?:GPU|TPU|node)-?(?:hours?|days?)|(?:peta|exa|tera)?FLOPs?|hours?|days?)\W*$", re.I
)


def _number_of_compute(sentence: str) -> bool:
    """A number within a few words of a unit of compute (GPUs, GPU hours, FLOPs, days)."""
    tokens = _NUMBER_TOKEN.findall(rejoined(sentence))
    units = [i for i, t in enumerate(tokens) if _COMPUTE_UNIT.match(t)]
    return any(abs(i - j) <= NEAR_WORDS for i in units for j, t in enumerate(tokens) if _is_number(t))


_SPEEDUP = re.compile(r"speed(?:-?up)?$", re.I)
# A length of time: "0.108s/token", "120 ms", "3.5 seconds".
_DURATION = re.compile(r"\d(?:[\d.,]*\d)?\s?(?:ms|s|sec|seconds?|milliseconds?|minutes?|hours?)\b", re.I)


def _is_latency(measure: str | None) -> bool:
    return bool(measure and measure.lower().startswith("latenc"))


def _named_in(noun: str, measure: str | None, text: str) -> bool:
    """The abstract names the counted thing, or, for a speed, the speed ("30 FPS inference
    speed" answers "what decoding speed" without the word "decoding")."""
    if _COMPUTE.match(noun) and _number_of_compute(text):
        return True
    if _is_latency(measure) and _DURATION.search(text):
        return True
    return mentions(noun)(text) or bool(measure and _SPEEDUP.match(measure) and mentions(measure)(text))


_PLURAL = re.compile(r"[a-z][a-z-]{2,}[^s]s")  # "classifiers", not "loss"


def _number_near(noun: str, question: str = "") -> Callable[[str], bool]:
    """A number within a few words of `noun` ("6,658 questions", "saves over 6 months"), or of
    an acronym for the question's words for it ("how many language models": "six LLMs"), or
    right before the question's modifier of it with the noun a few words on ("how many
    benchmark tasks": "seven benchmark forward and inverse tasks")."""
    close = near(noun, _is_number, _NUMBER_TOKEN, _initials(question, noun))
    modifiers = _modifiers(question, noun)
    if not modifiers:
        return close
    stems = set(content_stems(noun))

    # The noun a few words on, or another plural there: "how many pretrained models" is
    # answered by "84 pretrained ImageNet classifiers".
    def counted(u: str) -> bool:
        return bool(stems & set(content_stems(u))) or _PLURAL.fullmatch(u) is not None

    def before_modifier(sentence: str) -> bool:
        tokens = _NUMBER_TOKEN.findall(rejoined(sentence))
        return any(
            _is_number(t)
            and set(content_stems(tokens[i + 1])) & modifiers
            and any(counted(u) for u in tokens[i + 2 : i + 3 + NEAR_WORDS])
            for i, t in enumerate(tokens[:-1])
        )

    return any_of(close, before_modifier)


def _is_number(token: str) -> bool:
    return _HAS_NUMBER.search(token) is not None


def _counted_words(question: str, noun: str) -> list[str]:
    """The words of "how many <modifiers> <noun>" after "how many" ("benchmark tasks"), or []."""
    m = next((m for m in _HOW_MANY.finditer(question) if m.group(1) == noun), None)
    return m.group(0).split()[2:] if m else []


def _modifiers(question: str, noun: str) -> set[str]:
    """The stems of the words between "how many" and `noun` ("benchmark" in "how many benchmark tasks")."""
    return {s for w in _counted_words(question, noun)[:-1] for s in content_stems(w)}


def _initials(question: str, noun: str) -> str:
    """The initials of "how many <modifiers> <noun>" ("language models": "LM")."""
    return "".join(w[0] for w in _counted_words(question, noun)).upper()


def _quantities(question: str) -> dict[str, str | None]:
    """The things a number is asked of ("how many annotators … and how many tasks"), each with
    the measure a "what <thing> <measure>" question asks of it (`_number_of`)."""
    out: dict[str, str | None] = {}
    for pattern in (_HOW_MANY, _WHAT_MEASURE, _HOW_MUCH):
        for m in pattern.finditer(question):
            word = m.group(1).lower()
            if word not in SKIP_NOUNS and word not in COMPARATIVES and content_stems(word):
                out.setdefault(m.group(1), m.group(2) if pattern is _WHAT_MEASURE else None)
    return out


def _asks_number_first(question: str) -> bool:
    # The clause that asks: a relative "where"/"when" before it ("… learning where rewards
    # are hidden, across how many benchmarks …?") opens no question.
    start = max(0, len(question.rstrip()) - len(ask_clause(question)))
    wh = _FIRST_WH.search(question, start)
    m = next((m for m in _ASKS_NUMBER.finditer(question) if m.end() > start), None)
    return m is not None and (wh is None or m.start() <= wh.start() + 1)


# "How many baselines does it beat?": an abstract counts them as the methods it outperforms
# ("outperforms 12 state-of-the-art DMVC methods"), seldom as "baselines".
_RIVAL_ASK = re.compile(r"^(?:baselines?|competitors?)$", re.I)
_RIVAL = re.compile(r"^(?:methods|models|approaches|algorithms|baselines|competitors)\W*$", re.I)
_BEATS = re.compile(r"\b(?:outperform|beat|surpass|exceed|compar|against|better\s+than|over)\w*", re.I)


def _rivals_need(text: str) -> list[Need]:
    return [Need("a number of baselines", all_of(_rivals_counted, matches(_BEATS)), specific=True)]


def _rivals_counted(sentence: str) -> bool:
    """A number within a few words of a word for the methods compared against."""
    tokens = _NUMBER_TOKEN.findall(rejoined(sentence))
    rivals = [i for i, t in enumerate(tokens) if _RIVAL.match(t)]
    numbers = [i for i, t in enumerate(tokens) if _HAS_NUMBER.search(t)]
    return any(abs(i - j) <= NEAR_WORDS for i in rivals for j in numbers)


def number_needs(question: str, text: str) -> list[Need]:
    """A number asked for ("how many annotators", "what codebook size", "by what percentage").
    `text` is the paper's abstract: a thing the question counts must be named beside its
    number, and a paper that never names it cannot answer (measured on fresh questions: more
    near misses refused than paraphrased counts lost)."""
    out: list[Need] = []
    if _asks_number_first(question):
        asked = _quantities(question)
        nouns = [n for n in asked if _named_in(n, asked[n], text)] if text else []
        found = [Need(f"a number of {n}", _number_of(n, asked[n], question), specific=True) for n in nouns]
        if len(found) > 1:
            # "How many algorithms and how many test problems?": a sentence with one of the counts
            # answers in part ("10 benchmark algorithms … across 30 synthetic functions"); each
            # still leads where it is found.
            either = Need(" or ".join(n.name for n in found), any_of(*(n.met_by for n in found)), specific=True)
            found = [either, *(replace(n, required=False) for n in found)]
        if not found and text and any(_RIVAL_ASK.match(n) for n in asked):
            found = _rivals_need(text)
        if not found:
            # A paper that never names what is counted ("how much memory") has no count of it.
            found = (
                [Need(f"a number of {next(iter(asked))}", never)]
                if asked and text
                else [Need("a number", matches(_HAS_NUMBER))]
            )
        if _ASKS_RATE.search(question):  # "what convergence rate": "linear", "O(1/n)" answer it too
            found = [Need(n.name, any_of(n.met_by, matches(_RATE_FORM))) for n in found]
        out += found
    if _PERCENT.search(question):
        out.append(Need("a percentage", matches(_HAS_PERCENT)))
    return out
