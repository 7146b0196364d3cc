"""Yes/no questions whether a paper's result reaches further ("Does it extend to transformers?",
"Can it handle continuous observation spaces?", "Do the bounds carry over to off-policy TD?",
"Is it evaluated on offline benchmarks?"):
what is asked is the setting named after the verb, and an abstract that does not write it
does not say. Such a question shares every other word with its paper, so its coverage and
similarity are as high as an answerable one's."""

from __future__ import annotations

import re
from collections.abc import Set

from rag.text.english import is_common
from rag.text.normalize import content_stems

_PREP = r"(?:\s+(?:for|to|when|with|in|on|under|if))?"
_EXTENSION = re.compile(
    r"^\s*(?:does|do|did|can|could|is|are|was|were|has|have|would|will)\b[^?]*?\b(?:"
    r"extend(?:s|ed)?\s+to|carr(?:y|ies)\s+over\s+to|generali[sz]e[sd]?\s+to|transfer(?:s|red)?\s+to"
    rf"|also\s+(?:hold|apply|work|cover|handle|address|support)s?{_PREP}"
    rf"|still\s+(?:hold|apply|work|converge)s?{_PREP}"
    r"|handle|cope\s+with|be\s+applied\s+to|(?:been\s+)?applied\s+to|applicable\s+to|work\s+(?:for|with|on|when|under)"
    # "Does it scale to millions of nodes?", "Is it evaluated on offline benchmarks?", "Does the
    # benchmark include legal contracts?", "Is the gain guaranteed for logistic regression?":
    # whether the paper reaches a setting, asked as plainly
    r"|scale[sd]?\s+(?:up\s+)?to|(?:evaluated|tested|validated|benchmarked)\s+on|includes?"
    r"|(?:guaranteed|proven|proved)\s+for"
    r")\s+(?P<setting>[^?]+)",
    re.I,
)
# The setting ends where a second question starts ("…, and how well does it do there?").
_SECOND = re.compile(r",?\s+(?:and|or|but)\s+(?:how|what|which|why|does|do|is|are|can)\b.*$|,.*$", re.I)
# One uncommon word of four may be put differently; more missing is a setting the paper lacks.
WRITTEN_SHARE = 0.75
EVERYDAY_WRITTEN_SHARE = 0.5
# "continual learning benchmarks", "multi-agent environments": a last noun that only says where
# a setting is tried names no further setting; the words before it are the setting ("Does it
# work for continual learning benchmarks?" of a paper that evaluates "in online continual
# learning" had been refused). Alone, it stays the setting ("Does it work on benchmarks?").
_TRIED_IN = re.compile(r"(?:benchmark|dataset|task|setting|scenario|problem|environment|application|domain)s?", re.I)


def asked_setting(question: str) -> str | None:
    """The setting a yes/no extension question asks about, or None."""
    m = _EXTENSION.search(question)
    if m is None:
        return None
    return _SECOND.sub("", m.group("setting")).strip() or None


_PRO_FORMS = frozenset({"one", "ones", "kind", "kinds", "type", "types"})
_SHORT_FORM = 4  # "conv", "norm": a clipped word is written by the word it clips


def _written(word: str, stems: Set[str]) -> bool:
    """A word is written when its stem is, or a longer stem it clips; a compound also by all
    of its parts ("self" and "attention" for "self-attention"), not by one ("policy" is no
    "off-policy")."""
    forms = content_stems(word)
    if not forms:
        return False
    whole = forms[0]
    return (
        whole in stems
        or (len(whole) >= _SHORT_FORM and any(s.startswith(whole) for s in stems))
        or (len(forms) > 2 and all(f in stems for f in forms[1:]))
    )


def unwritten_setting(question: str, stems: Set[str]) -> str | None:
    """The setting asked about when the paper (its `stems`) writes too few of its uncommon
    words, else None."""
    setting = asked_setting(question)
    if setting is None:
        return None
    content = [w for w in re.findall(r"[\w-]+", setting) if content_stems(w)]
    # A setting in everyday words ("real legal contracts") is held to all of them: with none
    # uncommon, nothing else says whether the paper reaches it. Not one named by a pro-form
    # ("deep and wide ones"), which stands for the paper's own things.
    words = [w for w in content if not is_common(w)]
    bar = WRITTEN_SHARE
    if not words and content and content[-1].lower() not in _PRO_FORMS:
        # Everyday words are put otherwise more often, and some only qualify ("still images"):
        # the paper must lack most of them.
        words, bar = content, EVERYDAY_WRITTEN_SHARE
    if len(words) > 1 and _TRIED_IN.fullmatch(words[-1]):
        words = words[:-1]
    if not words:
        return None
    share = sum(_written(w, stems) for w in words) / len(words)
    return setting if share < bar else None
