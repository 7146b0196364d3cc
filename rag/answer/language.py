"""Does a question look like it is not in English? A cheap, model-free guess.

The corpus and the embedding model (all-MiniLM-L6-v2) are English-only, so a question in
another language still gets an answer attempt, plus a note that results may be poor. The
guess errs towards "English": a wrong note on an English question would be confusing,
a missing note on a foreign one only withholds a hint.
"""

from __future__ import annotations

import re
import unicodedata

NON_ENGLISH_NOTE = (
    "The question does not look English; the abstracts and the embedding model are English only, "
    "so results may be poor. Asking in English works best."
)

SAMPLE_CHARS = 4000  # a prefix decides; keeps the cost bounded on a 100 KB question
NON_LATIN_SHARE = 0.3  # share of letters outside the Latin script that marks another language

# Greek letters are formula symbols in English ML questions (α, β, λ, θ); only runs of
# three or more read as Greek words.
_GREEK_WORD = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]{3,}")
_LATIN_WORD = re.compile(r"[^\W\d_]+")
_ET_AL = re.compile(r"\bet\s+al\b", re.I)

# Function words of English and of the other big Latin-script languages of the field.
# Words that are common in both (a, in, an, as, do, no, per, non, was, die, par, con…)
# are in neither list: they would vote for both.
_ENGLISH = frozenset(
    """the of and to is are what which how does did for with that this on by from it its be were has have
    had why when who whom whose can could should would their they them than between into or at about
    many much any there these those been being will not each other such only also more most used""".split()
)
_FOREIGN = frozenset(
    # French
    """le la les des du une est et que qui quel quelle quels quelles comment pourquoi pour dans sur avec
    ce cette ces sont pas au aux leur leurs elle ils ne entre"""
    # German
    """ der das und ist sind wie welche welcher welches ein eine einen einem einer mit für auf den dem
    nicht von zu im werden wird warum viele durch oder auch sich bei aus dieser diese dieses über"""
    # Spanish
    """ el los las del qué cómo cuál cuáles cuántos cuántas cuánto es en una por para se lo al su sus
    este esta esto sobre pero según"""
    # Italian
    """ il gli di che è quale quali quanti quante sono della delle degli nel nella perché cosa questo
    questa anche"""
    # Portuguese
    """ os da dos das qual quais é em um uma não são na ao pelo pela isso quantos quantas""".split()
)
# Question words and copulas that never occur in English text: each is worth two votes, so
# a short "Was ist GENIE?" or "Welche Lernrate …?" is caught.
_STRONG = frozenset(
    """quel quelle quels quelles pourquoi combien est sont wie welche welcher welches warum ist sind und
    nicht qué cómo cuál cuáles cuántos cuántas cuánto según quale quali quanti quante perché sono qual
    quais quantos quantas não são""".split()
)
_INVERTED = re.compile(r"[¿¡]")  # Spanish opening marks: a strong sign on their own


def non_latin_share(text: str) -> float:
    """Share of the letters that belong to a script other than Latin (Greek symbols ignored)."""
    latin = other = 0
    for ch in text:
        if not ch.isalpha():
            continue
        name = unicodedata.name(ch, "")
        if "LATIN" in name:
            latin += 1
        elif not name.startswith(("GREEK", "MATHEMATICAL", "COPTIC")):
            other += 1
    other += sum(len(m) for m in _GREEK_WORD.findall(text))
    total = latin + other
    return other / total if total else 0.0


def function_word_votes(text: str) -> tuple[int, int]:
    """(English, foreign) function words in the text; "et al." is English usage, and
    all-caps tokens are acronyms (EM, OS, ES, DE), not words."""
    words = _LATIN_WORD.findall(_ET_AL.sub(" ", text))
    tokens = [w.lower() for w in words if not (len(w) > 1 and w.isupper())]
    english = sum(t in _ENGLISH for t in tokens)
    foreign = sum((t in _FOREIGN) + (t in _STRONG) for t in tokens) + len(_INVERTED.findall(text))
    return english, foreign


def _accented_words(text: str) -> int:
    # Names in ML carry accents too (Rényi, Fréchet, Gödel), so this only tips the balance.
    return sum(any(ord(c) > 0x7F for c in w) for w in _LATIN_WORD.findall(text))


def looks_non_english(text: str) -> bool:
    """True when the text is mostly another script, or Latin-script with more foreign than
    English function words. Formulas, acronyms, numbers and emoji count for nothing."""
    sample = text[:SAMPLE_CHARS]
    if non_latin_share(sample) >= NON_LATIN_SHARE:
        return True
    english, foreign = function_word_votes(sample)
    if foreign >= 2 and foreign > english:
        return True
    # Short questions carry few function words: one foreign one plus an accented word.
    return foreign == 1 and english == 0 and _accented_words(sample) >= 1


def language_note(question: str, note: str | None = None) -> str | None:
    """`note` with the non-English hint added when the question looks foreign."""
    if not looks_non_english(question):
        return note
    return f"{note} {NON_ENGLISH_NOTE}" if note else NON_ENGLISH_NOTE
