"""What a list question asks: whether it asks for several things at all, for papers from
the whole index or for a paper's own things; its alternatives; and the note on a list's length."""

from __future__ import annotations

import re

from rag.text.normalize import fold

# A "which papers" list: candidates looked at, and papers listed (a conference has dozens per topic).
# 120, not 80: at conference scale gold papers of dev's list questions ranked 84-120 (dev multi
# set recall +0.019 at 1,057 papers and +0.032 at 2,416, for ~2.5 more papers per list).
LIST_POOL = 120
LIST_MAX = 60

# "papers that …" asks for several; "the paper that …" describes one.
_MULTI = re.compile(
    r"^\s*(?:which|what|list|name|are there|any)\b[^?]{0,40}?\b(?:papers|works|studies|abstracts|articles|approaches"
    r"|methods|contributions)\b|\bpapers (?:that|which)\b|\bwhich of the papers\b"
    # Asked as a request or a count: "Show me papers on X", "I'm looking for papers on X",
    # "How many papers study X?", "papers on X".
    r"|^\s*how\s+many\s+(?:papers|works|studies|articles)\b"
    # Asked whether any exists: "Does any paper use X?", "Do any of the papers study X?"
    r"|^\s*(?:does|do|did|are|were)\s+any\s+(?:of\s+the\s+)?(?:indexed\s+)?(?:papers?|works?|studies|abstracts?|articles?)\b"
    r"|^\s*(?:show(?:\s+me)?|find(?:\s+me)?|give\s+me|get\s+me|recommend|suggest|search\s+for"
    r"|(?:i'?m|i\s+am)\s+(?:looking|searching)\s+for|looking\s+for"
    r"|(?:can|could)\s+you\s+(?:find|list|show(?:\s+me)?|recommend|suggest|name))\b[^?]{0,40}?\b"
    r"(?:papers|works|studies|articles|(?<!the )(?:work|research)\s+(?:on|about))\b"
    r"|^\s*(?:papers|works|studies|articles)\s+(?:on|about|that|which|using|studying|proposing|for)\b",
    re.I,
)
_PAPERS = re.compile(
    r"\b(?:papers?|works|studies|abstracts|articles|(?<!the )(?:work|research)\s+(?:on|about))\b", re.I
)


# "What do existing approaches to X require …?", "What limitation of prior methods does it
# address?": the wh-word asks for something else (it has an auxiliary or a noun of its own), and
# the methods are a paper's background, not a list to draw up.
_NOT_ASKED = re.compile(
    r"^\s*(?:which|what|how\s+many)\s+(?:(?!kinds?\b|types?\b|sorts?\b|families\b|family\b)[\w-]+\s+of\b"
    r"|(?:[\w-]+\s+){0,2}?(?:do|does|did|has|have|had|can|could|would|will|should)\b)",
    re.I,
)


# "Which paper studies X?", "Which method works best?": after a singular noun (or "that"),
# "studies" and "works" are verbs, and the question asks for one paper, not a list.
_VERB = re.compile(
    r"\b(?:paper|work|study|article|abstract|method|approach|model|algorithm|framework|system|one|that)\s+"
    r"(studies|works)\b",
    re.I,
)


def _multi(question: str) -> re.Match[str] | None:
    """`_MULTI` in the question, its verbs "studies" and "works" masked (offsets kept)."""
    masked = _VERB.sub(lambda m: m.group(0)[: m.start(1) - m.start()] + "_" * len(m.group(1)), question)
    return _MULTI.search(masked)


def is_multi(question: str) -> bool:
    m = _multi(question)
    return m is not None and not (m.start() == 0 and _NOT_ASKED.match(m.group(0)))


def asked_of(question: str, labels: list[str]) -> bool:
    """ "What kind of methods does <named paper> reward?": the list's wh-phrase is the object of
    a question whose subject is a paper the question names; it asks about that paper's content,
    not for a list of papers ("Which approaches besides <name> …" stays a list)."""
    m = _multi(question)
    if m is None or not labels or _PAPERS.search(question):
        return False
    names = "|".join(re.escape(fold(label)) for label in labels)
    return re.match(rf"\s+(?:do|does|did)\s+(?:the\s+)?(?:{names})(?![\w-])", fold(question[m.end() :])) is not None


_HOW_MANY = re.compile(r"^\s*how\s+many\s+(?:papers|works|studies|articles)\b", re.I)


def counted_note(question: str, n: int) -> str | None:
    """ "How many papers study X?": how many the answer lists, and what that count is. A
    "which papers" list cut at `LIST_MAX` says so: at conference scale a broad topic has more
    papers than a list shows, and the reader should not take the list for all of them."""
    if n == 0:
        return None
    if _HOW_MANY.match(question) is None:
        if n < LIST_MAX or not asks_for_papers(question):
            return None
        return (
            f"The list stops at {LIST_MAX} papers, closest first; more indexed papers may answer this, "
            "and a narrower question (a setting, a method, a result) lists them."
        )
    if n >= LIST_MAX:
        return f"At least {n} indexed papers answer this (the papers listed; a list stops at {LIST_MAX})."
    return f"{n} indexed {'paper answers' if n == 1 else 'papers answer'} this (the papers listed)."


def asks_for_papers(question: str) -> bool:
    """A list question about papers themselves ("which papers …"), not about a paper's methods
    or tasks ("which methods did it compare?"): its list is drawn from the whole index."""
    return is_multi(question) and bool(_PAPERS.search(question))


_OR = re.compile(r"\s*,?\s+(?:and/)?or\s+", re.I)
ALTERNATIVES_MAX = 3


def alternatives(question: str) -> list[str]:
    """A "which papers …" question with alternatives ("… use flow matching or probability
    paths?") as one question per alternative: each is covered by different papers, none of
    which matches the whole question as well as a paper matches a single topic. The first
    keeps the question up to its first "or"; a later one is the question's frame plus what
    follows its "or". [] when the question has no alternatives."""
    m = _multi(question)
    if m is None:
        return []
    frame, topic = question[: m.end()].strip(), question[m.end() :]
    parts = [p.strip(" ,;?") for p in _OR.split(topic)]
    # "design or analyze X": two verbs of one topic, not two topics.
    while len(parts) >= 2 and len(parts[0].split()) == 1:
        parts[:2] = [f"{parts[0]} or {parts[1]}"]
    if len(parts) < 2 or any(not p for p in parts):
        return []
    subs = [f"{frame} {parts[0]}?"] + [f"{frame} {p}?" for p in parts[1:]]
    return subs[:ALTERNATIVES_MAX]


def list_topic(question: str) -> str:
    """What follows a list question's frame ("which papers …"): its topic."""
    m = _multi(question)
    return question[m.end() :] if m else question
