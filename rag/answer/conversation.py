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
from rag.answer.references import asks_by_position, by_name, by_position, compares
from rag.index.snapshot import Snapshot
from rag.retrieval.retriever import Retriever
from rag.text.normalize import bare_title, content_stems, spaced_words, writes_name
from rag.types import Query

# A question that says it moves on stands on its own, whatever pronouns it uses.
_MOVES_ON = re.compile(
    r"\b(?:new|different|another|other|unrelated|separate)\s+(?:topic|subject|question|thing)\b"
    r"|\bchang(?:e|ing)\s+(?:the\s+)?(?:topic|subject)\b|\bswitch(?:ing)?\s+(?:topics?|gears|subjects?)\b"
    # "… Python or something else?" offers an alternative answer; it does not move on.
    r"|(?<!\bor\s)\bsomething\s+(?:else|different)\b|\bon\s+another\s+note\b|\bmoving\s+on\b",
    re.I,
)


def moves_on(question: str) -> bool:
    return bool(_MOVES_ON.search(question))


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


def turn_papers(turn: dict[str, object], snap: Snapshot, context: str = "") -> list[str]:
    """Papers a turn is about, in answer order: its `paper_ids`, else the papers it names (of
    papers sharing a title's name, the one the conversation's `context` is about)."""
    ids = turn.get("paper_ids")
    if isinstance(ids, list):
        known = [p for p in dict.fromkeys(ids) if isinstance(p, str) and p in snap.papers]
        if known:
            return known
    content = turn.get("content")
    if not isinstance(content, str):
        return []
    found = snap.mentions.find(content)
    if turn.get("role") == "assistant":  # allusions beside a paper the answer names are context
        found = _named_in_answer(content, found, snap) or found
    else:  # so are they beside a paper the question names ("the paper on <title words>")
        found = [p for p in found if p in _named_in_question(content, snap)] or found
    same_label = [g for g in snap.by_label(found).values() if len(g) > 1]
    for group in [*snap.shared_title_refs(content), *same_label]:
        inside = [p for p in group if p in found]
        best = _best_in_context(inside, context, snap) if len(inside) > 1 else None
        found = [p for p in found if p not in inside or p == best or best is None]
    return found


def _last_exchange(
    turns: list[dict[str, object]], found: list[list[str]], named: list[bool], snap: Snapshot
) -> list[str] | None:
    """The papers of the last exchange: those its question named whose sentences the answer
    quotes; else its latest turn's that has any, unless that turn only alludes to papers (rare
    title words) and the other one names a paper (`named`: `_names_a_paper` of each turn). An answer that
    quotes a paper's background ("… where privacy is paramount", "… pre-trained OLMo models")
    alluded to, or named, another paper, which then answered "Tell me more"."""
    latest = next((i for i in range(len(found) - 1, -1, -1) if found[i]), None)
    if latest is None:
        return None
    asked, said = (found[0], turns[1]) if len(turns) == 2 else ([], {})
    quoted = _quoted_in(said, asked, snap) if said.get("role") == "assistant" and "paper_ids" not in said else []
    if quoted:  # the answer quotes what the question named: the exchange is about that paper
        return quoted
    if not named[latest]:
        return next((found[i] for i in range(len(found) - 1, -1, -1) if found[i] and named[i]), found[latest])
    return found[latest]


QUOTED_MIN_WORDS = 6  # a sentence this long, written word for word, is a quote of its paper


def _quoted_in(turn: dict[str, object], pids: list[str], snap: Snapshot) -> list[str]:
    """The papers of `pids` one of whose sentences the turn writes word for word."""
    words = spaced_words(str(turn.get("content", "")))
    out = []
    for pid in pids:
        sentences = (spaced_words(q) for _, q in snap.paper_quotes(pid))
        if any(len(s.split()) >= QUOTED_MIN_WORDS and s in words for s in sentences):
            out.append(pid)
    return out


def _names_a_paper(turn: dict[str, object], snap: Snapshot) -> bool:
    """The turn names a paper: `paper_ids`, or a label or title in its words. An answer's words
    name a paper as `_named_in_answer` says: an answer quoting an abstract writes phrases such as
    "offline reinforcement learning", which a title may open with ("Offline Reinforcement
    Learning: Role of …") though the answer is about another paper."""
    ids = turn.get("paper_ids")
    if isinstance(ids, list) and any(isinstance(p, str) and p in snap.papers for p in ids):
        return True
    content = turn.get("content")
    if not isinstance(content, str):
        return False
    if turn.get("role") != "assistant":
        return bool(_named_in_question(content, snap))
    return bool(_named_in_answer(content, snap.mentions.find(content, strong_only=True), snap))


def _named_in_question(content: str, snap: Snapshot) -> set[str]:
    """Papers a user's words name: by label or title, or by their title's words."""
    return set(snap.mentions.find(content, strong_only=True)) | snap.referenced_in(content)


def _named_in_answer(content: str, found: list[str], snap: Snapshot) -> list[str]:
    """Of the papers an answer's words mention, those it names: by label, whole title, or the
    title's head as the title writes it ("Mind the Gap [2]", not "the open problem of")."""
    words = spaced_words(content)
    return [p for p in found if _names(content, words, snap.papers[p].label, bare_title(snap.papers[p].title))]


def _names(content: str, words: str, label: str, title: str) -> bool:
    head = title.split(":", 1)[0].strip() if ":" in title else ""
    as_word = writes_name(content, label)
    return as_word or spaced_words(title) in words or bool(head and head in content)


def _best_in_context(pids: list[str], context: str, snap: Snapshot) -> str | None:
    """Of papers with the same name ("Mind the Gap: …" twice, two papers labelled "ADEPT"), the
    one whose abstract has the most of the conversation's other words; None on a tie. Counting
    both as mentioned made "the second one" of a two-paper answer the namesake (2,416 papers)."""
    name = set.intersection(*(set(content_stems(snap.papers[p].title or "")) for p in pids))
    words = set(content_stems(context)) - name
    stems = snap.vocabulary.paper_stems
    scored = sorted(((len(words & stems.get(p, set())), p) for p in pids), reverse=True)
    return scored[0][1] if scored[0][0] > scored[1][0] else None


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
    context = _text(history)
    per_turn = [turn_papers(t, snap, context) for t in history]
    discussed = list(dict.fromkeys(p for turn in per_turn for p in turn))
    asked = [str(t.get("content", "")) if t.get("role") == "user" else "" for t in history]
    pointed = None
    if len(per_turn[-1]) < 2 and history[-1].get("role") == "assistant":  # the list just offered
        pointed = _pointed_in_pair(query.question, str(history[-1].get("content", "")), retriever)
    pointed = pointed or pointed_papers(query.question, per_turn, snap, asked)
    if pointed:
        return Focus(pointed, explicit=True, why=f"the question points at {pointed}", discussed=discussed)
    # The last exchange decides: an older turn's paper is not what "it" means after the
    # conversation moved on, even when the last answer named its paper in words we miss.
    named = [_names_a_paper(t, snap) for t in history[-2:]]
    recent = _last_exchange(history[-2:], per_turn[-2:], named, snap)
    if recent and not any(named):
        recent = _confirmed_allusion(recent, history[-2:], query, retriever)
    back = _named_back(query.question, discussed, recent or [], snap)
    if back:
        return Focus(back, explicit=True, why=f"the question names {back}", discussed=discussed)
    if recent:
        return Focus(recent, why=f"the conversation was last about {recent}", discussed=discussed)
    text = _text(history[-2:])
    if not text.strip():
        return Focus()
    ctx = retriever.retrieve(text, top_k=1, papers=query.papers, files=query.files, cache=query.cache)
    return Focus([ctx.hits[0].paper_id], why="best match for the last exchange") if ctx.hits else Focus()


# An allusion (a rare title word, a run of title words) is kept when the last exchange's text,
# retrieved as a query, puts its paper among this many; else that text's best match is meant.
ALLUSION_TOP = 10


def _confirmed_allusion(
    recent: list[str], turns: list[dict[str, object]], query: Query, retriever: Retriever
) -> list[str]:
    """The papers an exchange that names none only alludes to, if its text agrees: an answer
    that says "works with standard autodiff" alludes to a paper titled "Using Autodiff to …"
    while it describes another paper, which its words match best."""
    ctx = retriever.retrieve(
        _text(turns), top_k=ALLUSION_TOP, papers=query.papers, files=query.files, cache=query.cache
    )
    top = [h.paper_id for h in ctx.hits[:ALLUSION_TOP]]
    if not top or any(p in top for p in recent):
        return recent
    return top[:1]


def _text(turns: list[dict[str, object]]) -> str:
    return " ".join(str(t.get("content", "")) for t in turns)


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
    return _named_in_question(question, snap) | snap.named_in(question)
