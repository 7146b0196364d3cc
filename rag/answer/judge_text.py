"""Text as the support judge sees it: LaTeX and markdown removed, words with stems and clauses."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import Stemmer

from rag.text.normalize import STOPWORDS, clean

_LATEX_WRAP = re.compile(r"\\(?:textit|textbf|emph|text|mathrm|mathbf|mathcal|operatorname|em)\s*\{([^{}]*)\}")
_LATEX_CMD = re.compile(r"\\([A-Za-z]+)")
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?(?:-[A-Za-z0-9]+)*|[,;:!?()\u2014\u2013]|\.(?!\d)")
# Words that end the reach of a negation or quantifier: punctuation and clause connectives.
_BOUNDARY = frozenset(
    ", ; : ! ? ( ) — – but while whereas although though however yet and which because since so".split()
)
# Forms of "be": before a participle they make the passive voice ("is driven by").
BE_FORMS = frozenset("is are was were be been being".split())
# Function words kept out of the content stems but not stopwords of the retriever.
_EXTRA_STOP = frozenset("s t can may might must shall would could also even still well much just".split())
_NEGATION_WORDS = frozenset(
    """not no never none neither nor without cannot can't won't don't doesn't didn't isn't aren't wasn't weren't
    couldn't wouldn't shouldn't hasn't haven't hadn't mustn't needn't nothing nobody nowhere
    lack lacks lacking lacked unable absence absent fail fails failed failing eliminate eliminates eliminated
    eliminating remove removes removed removing avoid avoids avoided avoiding obviate obviates obviating
    bypass bypasses bypassing circumvent circumvents circumvented circumventing sidestep sidesteps
    sidestepped sidestepping free frees freed freeing zero""".split()
)
# Words that negate without a negation word ("hidden" = "not revealed", "prevents X" = "does
# not let X", "does away with X" = "eliminates X"): they license a negation of the other text
# about the same words, but never make a mismatch themselves (most are also plain content
# words: "hidden states", "missing data").
IMPLICIT_NEGATIVES = frozenset(
    """hidden hide hides hiding conceal conceals concealed concealing private privately secret secretly omit omits
    omitted omitting ignore ignores ignored ignoring neglect neglects neglected neglecting missing miss misses
    missed forgo forgoes forgoing refrain refrains instead rather prevent prevents prevented preventing stop stops
    stopped block blocks blocked prohibit prohibits prohibited forbid forbids forbidden exclude excludes excluded
    excluding deny denies denied little few rarely seldom hardly barely unseen unknown unaware impossible
    infeasible insufficient skip skips skipping dispense dispenses
    discard discards discarded spare spares drop drops dropped dropping erase erases erased erasing delete deletes
    deleted deleting prune prunes pruned pruning short away unless differently lose loses losing lost""".split()
)
# "without sacrificing accuracy" = "while preserving accuracy", "no change in score" = "the same
# score": a negated loss or change is restated by a keeping word about the same words.
LOSS_VERBS = frozenset(
    """sacrifice sacrifices sacrificing compromise compromises compromising lose loses losing loss hurt hurts
    hurting harm harms harming degrade degrades degrading degradation change changes changing changed""".split()
)
KEEP_VERBS = frozenset(
    """preserve preserves preserved preserving maintain maintains maintained maintaining retain retains retained
    retaining keep keeps kept keeping same identical unchanged""".split()
)


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


@dataclass(frozen=True)
class Tok:
    """One word (or punctuation mark) of a normalised text."""

    word: str  # lowercase surface form, hyphens kept
    raw: str  # as written (case kept)
    stem: str
    content: bool
    boundary: bool


# Inline math glued to a word ("$f$-PO", "AL$\\ell_0$CORE") is part of that word's name.
_GLUED_MATH = re.compile(r"(?<=[A-Za-z0-9])\$([^$\s]{1,30})\$|\$([^$\s]{1,30})\$(?=[-A-Za-z0-9])")
# Greek and letterlike symbols a claim writes for the evidence's LaTeX ("ℓ" for "\\ell").
_MATH_LETTER = re.compile(r"[\u0370-\u03ff\u2100-\u214f]")


@lru_cache(maxsize=256)
def _letter_name(ch: str) -> str:
    """ "ℓ" -> "ell", "Θ" -> "Theta": the LaTeX name, as the evidence's command reads once plain."""
    from pylatexenc.latexencode import unicode_to_latex

    names = re.findall(r"\\([A-Za-z]+)", unicode_to_latex(ch))  # "\\ensuremath{\\ell}": the last
    name = names[-1] if names else ch
    # "ε" encodes as \varepsilon, which papers write \epsilon: the variant is the same letter
    return name[3:] if name.startswith("var") and len(name) > 3 else name


# A relation or operator in math glued to a number ("${\sim}$94%", "10$\times$") is no name part.
_MATH_OPERATORS = {"sim": " ", "approx": " ", "times": " times ", "le": " ", "leq": " ", "ge": " ", "geq": " "}


def _unglued(m: re.Match[str]) -> str:
    math = re.sub(r"[\\_^{}]", "", m.group(1) or m.group(2))
    return _MATH_OPERATORS.get(math, math)


# Control characters a PDF extraction left inside words ("state-of-the\x02art") are no text.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def plain(text: str) -> str:
    """Markdown, LaTeX commands, math delimiters and typographic quotes removed."""
    text = _CONTROL.sub("", clean(text or ""))
    text = _MATH_LETTER.sub(lambda m: _letter_name(m.group(0)), text)
    text = _GLUED_MATH.sub(_unglued, text)
    for _ in range(3):
        text = _LATEX_WRAP.sub(r"\1", text)
    text = _LATEX_CMD.sub(r" \1 ", text)
    text = re.sub(r"[${}^_~\\]", " ", text)
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = re.sub(r"---?", " — ", text)
    text = re.sub(r"\b([Nn]on) (?=[a-z]{4})", r"\1-", text)  # "non asymptotic" is "non-asymptotic"
    return re.sub(r"\s+", " ", text).strip()


@lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[Tok, ...]:
    """The words of `text` in order (lowercase, stemmed, content flag, clause boundaries)."""
    out: list[Tok] = []
    stem = _stemmer().stemWord
    for m in _TOKEN.finditer(plain(text)):
        raw = m.group(0)
        word = re.sub(r"['’]s$", "", raw.lower())
        boundary = word in _BOUNDARY or word == "."
        content = (
            not boundary
            and word not in STOPWORDS
            and word not in _EXTRA_STOP
            and word not in _NEGATION_WORDS
            and len(word) > 1
            and not word.isdigit()
        )
        out.append(Tok(word, raw, stem(word), content, boundary))
    return tuple(out)


def stems(text: str) -> set[str]:
    """Content stems, hyphenated words also by their parts."""
    out: set[str] = set()
    stem = _stemmer().stemWord
    for t in tokens(text):
        if t.content:
            out.add(t.stem)
            if "-" in t.word:
                out.update(stem(p) for p in t.word.split("-") if len(p) > 1 and p not in STOPWORDS)
    return out


def window(toks: tuple[Tok, ...], i: int, *, before: int = 0, after: int = 4, clause: bool = True) -> set[str]:
    """Content stems near token i (`after` following, `before` preceding); with `clause`,
    stopping at a clause boundary."""
    out: set[str] = set()
    for step, limit in ((1, after), (-1, before)):
        j, got = i + step, 0
        while 0 <= j < len(toks) and got < limit:
            if clause and toks[j].boundary:
                break
            if toks[j].content:
                out.add(toks[j].stem)
                got += 1
            j += step
    return out


def is_negation(tok: Tok) -> bool:
    return tok.word in _NEGATION_WORDS


def is_free_compound(word: str) -> bool:
    """ "training-free", "tuning-free": a negation of the word before "-free"."""
    return word.endswith("-free") and len(word) > 6


Opcode = tuple[str, int, int, int, int]


def align(a: list[str], b: list[str]) -> list[Opcode]:
    """difflib-style opcodes of a longest common subsequence of `a` and `b`. difflib matches
    the longest contiguous run first, so a word moved to the front ("introduced" in a
    passive claim) can pull the alignment off the words around a swapped term."""
    n, m = len(a), len(b)
    best = [[0] * (m + 1) for _ in range(n + 1)]  # best[i][j]: LCS length of a[i:], b[j:]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = best[i + 1][j + 1] + 1 if a[i] == b[j] else max(best[i + 1][j], best[i][j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    ops: list[Opcode] = []
    i = j = 0
    for pi, pj in [*pairs, (n, m)]:
        if i < pi or j < pj:
            tag = "replace" if i < pi and j < pj else ("delete" if i < pi else "insert")
            ops.append((tag, i, pi, j, pj))
        if pi < n:
            ops.append(("equal", pi, pi + 1, pj, pj + 1))
        i, j = pi + 1, pj + 1
    return ops
