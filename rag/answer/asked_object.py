"""The thing a yes/no question asks a paper about: "Does it prune the attention heads too?"
asks about heads. A paper that writes the verb but never that noun can say neither yes nor
no, and its sentences on the verb read as an answer."""

from __future__ import annotations

import re

from rag.text.normalize import content_stems

_DO = re.compile(r"^\s*(?:does|do|did|can|could|will|would)\s+(.+?)[\s?.!]*$", re.I)
# What stands before the verb besides the paper's name: a pronoun, or a determiner and a noun
# for a paper ("the method", "the first one").
_PRONOUNS = frozenset("it they".split())
_DETERMINERS = frozenset("this that these those the a an".split())
_POSSESSIVES = frozenset("its their our".split())
_PAPER_NOUNS = frozenset(
    "paper papers method methods approach model models work framework algorithm authors system technique study "
    "mechanism one first second third last other former latter both".split()
)
# Verbs of saying and finding take a claim, not a thing ("Did they show that the bound is tight?").
_REPORTING = frozenset(
    "find show say report observe claim prove demonstrate mention discuss note argue establish suggest conclude "
    "explain describe address consider study analyze analyse investigate explore look talk know tell".split()
)
# The object ends at a preposition, a conjunction, a relative or other clause, a trailing adverb.
_OBJECT_END = re.compile(
    r"\s+(?:of|for|in|on|about|with|without|to|from|at|by|as|than|when|while|if|or|and|but|so|too|also|either"
    r"|anymore|instead|during|before|after|like|via|into|over|under|compared|versus|vs|relative|that|which|who"
    r"|whose|where)\b|[,;:(]",
    re.I,
)
_NO_OBJECT = frozenset(
    "it them this that anything something everything one ones more less better worse well much any".split()
)
# An object that is a clause or a stand-in, not a thing ("… find that …", "… say anything …").
_CLAUSE_START = frozenset("that whether if how what which why it them anything something everything".split())
# A measure or kind of material is often put in other words than the paper's ("convergence
# speed" of a paper on its "convergence rate", "data" of one on its "dataset"): only a thing's
# own name is held to the paper.
_GENERIC = frozenset(
    "speed speeds rate rates time times cost costs performance accuracy quality efficiency error errors loss "
    "losses gain gains improvement improvements results overhead power capacity ability data".split()
)


def _subject_end(words: list[str], name: set[str]) -> int:
    """The index of the verb: after the paper's name, a pronoun, "its <noun>", or a determiner
    and up to three words ending in a noun for a paper; 0 when the subject is none of these."""
    first = words[0].lower()
    if first in _PRONOUNS or set(content_stems(words[0])) & name:
        i = 1
        while i < len(words) and set(content_stems(words[i])) & name:
            i += 1
        return i
    if first in _POSSESSIVES:
        return 2
    if first in _DETERMINERS:
        for i in range(1, min(4, len(words))):
            w = words[i].lower()
            if w in _PAPER_NOUNS or set(content_stems(words[i])) & name:
                while i + 1 < len(words) and (
                    words[i + 1].lower() in _PAPER_NOUNS or set(content_stems(words[i + 1])) & name
                ):
                    i += 1
                return i + 1
    return 0


def object_head(question: str, name: set[str]) -> str | None:
    """The stem of the noun a "does it <verb> <object>?" question asks about ("Does it prune
    the attention heads too?" -> "head"; "Does it need relabelling of the data?" -> "relabel").
    None when the question has no plain object (a clause, a prepositional phrase, a measure),
    or its subject is not the paper (its name `name`, a pronoun or "the method")."""
    m = _DO.match(question)
    if m is None:
        return None
    words = m.group(1).split()
    i = _subject_end(words, name)
    if i == 0 or i + 1 >= len(words) or words[i].lower() in _REPORTING:
        return None
    obj = _OBJECT_END.split(" " + " ".join(words[i + 1 :]), maxsplit=1)[0].split()
    if not obj or obj[0].lower() in _CLAUSE_START:
        return None
    head = obj[-1]
    if not re.fullmatch(r"[a-z]{3,}", head) or head in _NO_OBJECT | _GENERIC:
        return None
    stems = content_stems(head)
    return stems[0] if stems else None
