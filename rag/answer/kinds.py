"""A kind asked for: "What condition is introduced to …?", "Which assumption … is not needed?",
"What dependence measure does it use?". The answer names a kind of that thing ("a
distinguishability condition", "the completeness assumption"): the asked noun with a modifier
the question does not have. General English, never per paper."""

from __future__ import annotations

import re

from rag.answer.counts import SKIP_NOUNS
from rag.answer.need import Need
from rag.text.normalize import content_stems, looks_plural

# The asked noun is the head of the wh-phrase: the word right before its verb (an auxiliary or
# a participle: "what condition is", "which assumption required by").
_AUX = r"(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|had|[a-z]+ed)"
_HEAD = re.compile(
    r"\b(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?((?:[\w-]+\s+){0,2}?)([a-z][a-z-]{2,})\s+" + _AUX + r"\b",
    re.I,
)
_IS_AUX = re.compile(_AUX + "$", re.I)
# "what happens when symmetrization is applied": the wh-word is not the noun's.
_CLAUSE_WORDS = frozenset("when if where how why happens happen happened not".split())
# Words that end a noun phrase's modifiers, read backwards from the noun ("integrate this layer":
# "integrate" is no kind of layer), and words that say nothing of the kind.
_NOT_A_KIND = frozenset(
    "the a an our its their this that these those to of for in on with by and or as from we is are be it"
    " new novel proposed such each both two three first second main key"
    # vague: "under very general conditions", "mild assumptions" name no kind
    " very general mild certain some several many various standard suitable additional other same".split()
)
_MODIFIERS = 2


def asked_kind(question: str) -> str | None:
    """The noun a singular "what/which <noun> <verb> …" question asks a kind of, if any."""
    m = _HEAD.search(question)
    if m is None:
        return None
    words, noun = m.group(1).split(), m.group(2)
    if noun != noun.lower() or any(_IS_AUX.match(w) or w.lower() in _CLAUSE_WORDS for w in [*words, noun]):
        return None
    # A plural asks for several things ("what shortcomings …"): a list, not a kind.
    if looks_plural(noun) or noun in SKIP_NOUNS or noun in _NOT_A_KIND:
        return None
    return noun


def kind_need(asked: str, whole: str) -> Need | None:
    """The sentence that names a kind of the noun `asked` (the question's asking part) asks
    for; it may lead from as far below the best as a second ask (`loose`), and never refuses:
    an answer may name the thing otherwise (a procedure by its name). `asks.needs` asks it
    only when nothing more definite is asked (a number, a name, a list)."""
    noun = asked_kind(asked)
    if noun is None:
        return None
    known = set(content_stems(whole))
    occurs = re.compile(r"((?:\S+\s+){1," + str(_MODIFIERS) + r"})" + re.escape(noun) + r"(?:s|es)?\b", re.I)

    def names_a_kind(sentence: str) -> bool:
        for m in occurs.finditer(sentence):
            for word in reversed(m.group(1).split()):
                if word.lower() in _NOT_A_KIND or not word.replace("-", "").isalpha():
                    break
                stems = set(content_stems(word))
                if stems and not stems & known:
                    return True
        return False

    return Need(f"a kind of {noun}", names_a_kind, required=False, loose=True)
