"""Conversation focus: which paper(s) a follow-up question is about.

The papers of a conversation are read turn by turn: the `paper_ids` an answer carried, else
the papers its text names (labels, title heads, distinctive title words). A question that
refers back is about the most recently discussed paper(s); a question that points at some of
them ("the second one", "both", a name) narrows that to exactly those.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rag.answer.enumerated import listed_pair
from rag.answer.last_exchange import confirmed_allusion, last_exchange, settled, turns_text
from rag.answer.references import asks_by_position, by_name, by_position, compares
from rag.answer.turns import named_in_question, names_a_paper, turn_papers
from rag.index.snapshot import Snapshot
from rag.retrieval.retriever import Retriever
from rag.text.normalize import content_stems
from rag.types import Query

# A question that says it moves on stands on its own, whatever pronouns it uses.
_MOVES_ON = re.compile(
    r"\b(?:new|different|another|other|unrelated|separate)\s+(?:topic|subject|question|thing)\b"
    r"|\bchang(?:e|ing)\s+(?:the\s+)?(?:topic|subject)\b|\bswitch(?:ing)?\s+(?:topics?|gears|subjects?)\b"
    # "… Python or something else?" offers an alternative answer; it does not move on.
    r"|(?<!\bor\s)\bsomething\s+(?:else|different)\b|\bon\s+another\s+note\b|\bmoving\s+on\b",
    re.I,
)


_PAPER_BY_POSITION = re.compile(
    r"\bthe\s+(?:first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+(?:one|paper|work|study)\b"
    r"|\bthe\s+(?:former|latter)\b",
    re.I,
)


def moves_on(question: str) -> bool:
    return bool(_MOVES_ON.search(question))


# "Now, switching topics: what does …?": a lead-in that only says the question moves on.
_MOVING_ON_LEAD = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|so|now|alright|all\s+right|next)\b[\s,]*)*(?:let'?s\s+)?(?:"
    r"(?:switch(?:ing)?|chang(?:e|ing))\s+(?:the\s+)?(?:topics?|subjects?|gears)|moving\s+on|on\s+another\s+note"
    r"|(?:a\s+)?(?:new|different|separate|unrelated)\s+(?:topic|subject|question))"
    r"\s*(?:[:,;.!\u2013\u2014-]+\s*|\s+(?=(?:what|which|who|how|why|when|where|is|are|does|do|can)\b))",
    re.I,
)


def after_moving_on(question: str) -> str | None:
    """The question after a lead-in that says it moves on ("Now switch topics: what does the
    paper on X prove?" -> "what does the paper on X prove?"), else None: the lead-in is no
    part of what is asked, and read with it a paper's own question matched it less."""
    m = _MOVING_ON_LEAD.match(question)
    rest = question[m.end() :].strip() if m else ""
    return rest[:1].upper() + rest[1:] if len(rest.split()) >= 3 else None


# Title and label words too common in the corpus to single a paper out.
NAME_WORD_MAX_SHARE = 0.2


@dataclass
class Focus:
    papers: list[str] = field(default_factory=list)
    explicit: bool = False  # the question itself points at these papers
    why: str = ""
    discussed: list[str] = field(default_factory=list)  # every paper the conversation named
    compared: bool = False  # the question itself compares these papers by name
    same_name: bool = False  # the question uses a title's name that these papers' titles share
    namesakes: list[str] = field(default_factory=list)  # the papers of a compared name several have


def _name_stems(pids: list[str], snap: Snapshot) -> dict[str, set[str]]:
    vocab = snap.vocabulary
    limit = NAME_WORD_MAX_SHARE * vocab.n
    out = {}
    for pid in pids:
        p = snap.papers[pid]
        stems = set(content_stems(f"{p.label} {p.title or ''}"))
        out[pid] = {s for s in stems if vocab.df.get(s, 0) <= limit}
    return out


def pointed_papers(
    question: str, per_turn: list[list[str]], snap: Snapshot, asked: list[str] | None = None
) -> list[str] | None:
    """The papers of the most recent multi-paper answer the question points at, if it does.
    `asked`: each turn's text where it is a user turn (else ""), to see what earlier questions pointed at."""
    # An answer's list: a user turn that matches several papers ("an open problem paper about …"
    # fits every "Open Problem: …" title) offers none to point into.
    k = next((i for i in range(len(per_turn) - 1, -1, -1) if len(per_turn[i]) >= 2 and not (asked and asked[i])), None)
    if k is None:
        return None
    listed = per_turn[k]
    # "Setting X aside, … the other one": a later turn or the question itself singles X out.
    later = [p for turn in per_turn[k + 1 :] for p in turn] + snap.mentions.find(question, strong_only=True)
    # "The first one … ?" answered by a turn that cites both (the second only for contrast):
    # the question that turn answered singled the first out.
    if asked and k >= 1 and asked[k - 1]:
        earlier = pointed_papers(asked[k - 1], per_turn[: k - 1], snap, asked[: k - 1]) or []
        later += earlier if len(earlier) < len(listed) else []
    singled = [p for p in dict.fromkeys(later) if p in listed]
    found = by_position(question, listed, singled)
    if found is None:
        found = by_name(set(content_stems(question)), listed, _name_stems(listed, snap))
        # A name that fits every listed paper points at none in particular.
        found = found if found and len(found) < len(listed) else None
    return found


def resolve_focus(query: Query, retriever: Retriever) -> Focus:
    """The paper(s) the conversation is about, among those the query allows (`papers`): a
    conversation about another paper leaves a question restricted to others on its own."""
    focus = _resolve_focus(query, retriever)
    if query.papers is not None:
        focus.papers = [p for p in focus.papers if p in query.papers]
    return focus


def _resolve_focus(query: Query, retriever: Retriever) -> Focus:
    """The paper(s) the conversation is about: pointed at by the question, else the most
    recently discussed, else the best match for the last exchange's text."""
    history = query.history or []
    if not history:
        return Focus()
    snap = retriever.snapshot
    context = turns_text(history)
    per_turn = [turn_papers(t, snap, context) for t in history]
    discussed = list(dict.fromkeys(p for turn in per_turn for p in turn))
    asked = [str(t.get("content", "")) if t.get("role") == "user" else "" for t in history]
    pointed = None
    if len(per_turn[-1]) < 2 and history[-1].get("role") == "assistant":  # the list just offered
        pointed = _pointed_in_pair(query.question, str(history[-1].get("content", "")), retriever)
    pointed = pointed or pointed_papers(query.question, per_turn, snap, asked)
    if not pointed and _PAPER_BY_POSITION.search(query.question):
        # "The first one" of papers the conversation named one turn at a time: no answer
        # listed them together, so their order is the order they were named in. Only a paper's
        # own pointers: "the second method" may be one of a paper's methods.
        pointed = by_position(query.question, discussed, [])
    if pointed:
        return Focus(pointed, explicit=True, why=f"the question points at {pointed}", discussed=discussed)
    # The last exchange decides: an older turn's paper is not what "it" means after the
    # conversation moved on, even when the last answer named its paper in words we miss.
    said = settled(history, per_turn)
    tail, tail_found = said[-2:], per_turn[: len(said)][-2:]
    named = [names_a_paper(t, snap) for t in tail]
    recent = last_exchange(tail, tail_found, named, snap)
    if recent and not any(named):
        recent = confirmed_allusion(recent, tail, query, retriever)
    back = _named_back(query.question, discussed, recent or [], snap)
    if back:
        return Focus(back, explicit=True, why=f"the question names {back}", discussed=discussed)
    if recent:
        return Focus(recent, why=f"the conversation was last about {recent}", discussed=discussed)
    text = turns_text(tail)
    if not text.strip():
        return Focus()
    ctx = retriever.retrieve(text, top_k=1, papers=query.papers, files=query.files, cache=query.cache)
    return Focus([ctx.hits[0].paper_id], why="best match for the last exchange") if ctx.hits else Focus()


def _named_back(question: str, discussed: list[str], recent: list[str], snap: Snapshot) -> list[str]:
    """ "Going back to X, which benchmark …?": earlier papers of the conversation the question
    names, when it names none of the last exchange's (one that compares them is left to
    `compared_with_discussed`)."""
    if compares(question):
        return []
    named = papers_named(question, snap) | set(snap.titles.referenced_among(question, discussed))
    if named & set(recent):
        return []
    return [p for p in discussed if p in named]


def _pointed_in_pair(question: str, answer: str, retriever: Retriever) -> list[str] | None:
    """ "The first one" of an answer that offers two papers but names fewer than two."""
    if not asks_by_position(question):
        return None
    pair = listed_pair(answer, retriever.snapshot, retriever)
    return by_position(question, pair, []) if pair else None


def papers_named(question: str, snap: Snapshot) -> set[str]:
    """Papers the question names: by label, title head or whole title, or by its title's words."""
    return named_in_question(question, snap) | snap.named_in(question)
