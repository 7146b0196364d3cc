"""Text utilities: markdown normalisation, sentence spans, content words, numbers."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import Stemmer

# The span of `**x**`/`__x__` may not run past the next delimiter: with a bare `.+?` every
# unmatched `**` scanned to the end of the line, quadratic in the number of `**`.
_EMPH = re.compile(r"(\*\*|__)(?=\S)((?:(?!\1).)+?)(?<=\S)\1|(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_EMPH_MAX_DEPTH = 8  # nesting levels unwrapped; bounds the passes on "****…x…****"
_WS = re.compile(r"\s+")
_ENUM_START = re.compile(r"^\(?(?:[ivx]{1,4}|[a-h]|\d{1,2})\)\s")
# "Jin et al. [ICML'21] show ...": pysbd ends a sentence at "al." when a bracket, a year or
# a possessive follows; those never open a sentence there.
_ET_AL_END = re.compile(r"\bet al\.$")
_CITATION_REST = re.compile(r"^[\[(~\u2019'\\\d]")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-]*[A-Za-z0-9]|[A-Za-z]")
_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s?(%|x|×|-fold))?")

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most
    my myself no nor not now of off on once only or other our ours ourselves out over own same she
    should so some such than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom why will with
    would you your yours yourself yourselves also via using use used uses paper papers work works study
    studies abstract abstracts propose proposes proposed approach method methods new novel show shows
    shown tell describe describes described explain does did one two based way ways well among across
    within without there mention mentioned mentions say says said given give gives kind type
    aren couldn didn doesn don hadn hasn haven isn mustn needn shouldn wasn weren won wouldn""".split()
)  # the last line: what a negative contraction leaves ("doesn't" -> "doesn" "t"), as "not" is


def normalize_markdown(text: str) -> str:
    """Strip markdown emphasis (`**x**`, `*x*`, `__x__`) for display and matching."""
    prev = None
    for _ in range(_EMPH_MAX_DEPTH):
        if prev == text:
            break
        prev = text
        text = _EMPH.sub(lambda m: m.group(2) if m.group(2) is not None else m.group(3), text)
    return text


def clean(text: str) -> str:
    """Display form: emphasis removed, LaTeX quote marks straightened, whitespace collapsed."""
    text = normalize_markdown(text).replace("``", '"').replace("''", '"')
    return _WS.sub(" ", text).strip()


_MARKS = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")


def fold(text: str) -> str:
    """Accents and compatibility forms folded to plain letters: "TÜLU" -> "TULU", "Rényi" ->
    "Renyi", a PDF's "classiﬁcation" -> "classification", "MGD³" -> "MGD3". Readers type names
    without accents, and a ligature splits a word in two for every ASCII word pattern. Not for
    display or offsets (a ligature folds to two letters)."""
    if text.isascii():
        return text
    return _MARKS.sub("", unicodedata.normalize("NFKD", text))


def writes_name(text: str, name: str) -> bool:
    """`text` writes `name` as a whole word (case-sensitive), accents and ligatures folded on
    both sides: "Tulu 3" writes "TÜLU 3"."""
    text, name = fold(text), fold(name)
    return bool(name) and name in text and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def squash(text: str) -> str:
    """Lowercase letters and digits only: "Lomb--Scargle" and "lomb-scargle" meet."""
    return re.sub(r"[^a-z0-9]+", "", fold(text).lower())


def capitals_written(text: str) -> set[str]:
    """The all-caps words (three letters or more) the text writes in capitals, a plural "s"
    dropped: "ARM" for "ARMs", never the "arm" of "linear models" or of "bandit arms"."""
    return {m.group(1) for m in _CAPITALS.finditer(text)}


_CAPITALS = re.compile(r"(?<![A-Za-z0-9])([A-Z]{3,})s?(?![A-Za-z0-9])")


_WORD_RUN = re.compile(r"[^\W_]+")


# Proceedings mark a short version in the title ("… Corruptions (extended abstract)"); the
# paper's name is the rest, as a reader writes it.
_VERSION_MARK = re.compile(r"\s*\(?\s*extended\s+abstract\s*\)?\s*$", re.I)


def bare_title(title: str | None) -> str:
    """The title as a name: without a proceedings' "(extended abstract)" mark."""
    return _VERSION_MARK.sub("", title or "")


def spaced_words(text: str) -> str:
    """Lowercase words one space apart, with a space at each end (a phrase is found in it by
    `in`, on word boundaries): "Lomb–Scargle" and "lomb-scargle" meet."""
    return " " + " ".join(_WORD_RUN.findall(fold(text).casefold())) + " "


def match_form(text: str) -> str:
    """The form quotes are compared in: no `*`, `_` or backticks, collapsed whitespace, lowercase."""
    return _WS.sub(" ", re.sub(r"[*_`]", "", text)).strip().lower()


@lru_cache(maxsize=1)
def _segmenter():  # type: ignore[no-untyped-def]
    from rag.text.sbd import segmenter

    return segmenter()


def sentence_spans(text: str, *, glue_short: bool = True) -> list[tuple[int, int]]:
    """Character spans of the sentences of `text` (abbreviations, decimals, e.g., LaTeX safe).

    pysbd does the splitting; emphasis markers are blanked first (same length, so offsets
    hold) because they hide boundaries, and enumerations like "(ii) ..." or lowercase
    fragments are glued back to the sentence they belong to.
    """
    if not text.strip():
        return []
    probe = re.sub(r"[*`]", " ", text)
    spans: list[list[int]] = []
    for seg in _segmenter().segment(probe):
        start, end = seg.start, seg.end
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        start += lead
        end = start + len(piece.strip())
        # Emphasis markers blanked in the probe belong to the sentence they open.
        while start > (spans[-1][1] if spans else 0) and text[start - 1] in "*`":
            start -= 1
        if end <= start:
            continue
        frag = text[start:end]
        before = text[spans[-1][0] : spans[-1][1]].rstrip() if spans else ""
        glue = spans and (
            _ENUM_START.match(frag)
            or (_ET_AL_END.search(before) and _CITATION_REST.match(frag))
            or frag[0].islower()
            or frag.startswith("\\ ")  # LaTeX's "vs.\ previous": a period that ends no sentence
            or (glue_short and len(frag.split()) < 3)
            or not before.endswith((".", "?", "!", ".)", '."', ".'", ":"))
        )
        if glue:
            spans[-1][1] = end
        else:
            spans.append([start, end])
    return [(s, e) for s, e in spans]


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


def words(text: str) -> list[str]:
    """Lowercased word tokens (hyphenated words kept whole and also split)."""
    out: list[str] = []
    for w in _WORD.findall(normalize_markdown(fold(text))):
        lw = w.lower()
        out.append(lw)
        if "-" in lw:
            out.extend(p for p in lw.split("-") if p)
    return out


def looks_plural(word: str) -> bool:
    """A plural (or third-person) form by its ending: "models", not "loss", "basis", "bonus"."""
    return word.endswith("s") and not word.endswith(("ss", "is", "us"))


def content_stems(text: str) -> list[str]:
    """Stemmed content words (stopwords and 1-letter tokens dropped), in order."""
    return list(_memo_stems(text) if len(text) <= MEMO_CHARS else _stems(text))


# Answers stem the same abstract sentences for every question, so sentence-length texts are
# memoised (whole abstracts are not: they would hold memory for a once-per-index use).
MEMO_CHARS = 1000


def _stems(text: str) -> tuple[str, ...]:
    ws = [w for w in words(text) if w not in STOPWORDS and len(w) > 1]
    # Stemmed twice: Snowball strips one suffix of a stacked pair, so "preconditioner" and
    # "preconditioning" would stem apart ("precondition" / "precondit"); stemming a stem is
    # a no-op for most words and joins such pairs.
    st = _stemmer()
    return tuple(st.stemWords(st.stemWords(ws)))


@lru_cache(maxsize=1 << 16)
def _memo_stems(text: str) -> tuple[str, ...]:
    return _stems(text)


def numbers(text: str) -> set[str]:
    """Numbers as written, normalised: "6,658" -> "6658", "31.5%" -> "31.5"."""
    return {m.group(1).replace(",", "") for m in _NUMBER.finditer(text)}


def is_verbatim(quote: str, text: str) -> bool:
    """`quote` occurs in `text`, up to markdown, whitespace and typography (`match_form`)."""
    return bool(quote.strip()) and match_form(quote) in match_form(text)
