"""What one turn of a conversation names: the papers it is about (`paper_ids`, else labels,
titles, title heads and distinctive title words in its text), and the sentences it quotes."""

from __future__ import annotations

from rag.index.snapshot import Snapshot
from rag.text.normalize import bare_title, content_stems, spaced_words, writes_name


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
        found = named_in_answer(content, found, snap) or found
    else:  # so are they beside a paper the question names ("the paper on <title words>")
        found = [p for p in found if p in named_in_question(content, snap)] or found
    found = _by_rest_of_title(content, found, snap)
    same_label = [g for g in snap.by_label(found).values() if len(g) > 1]
    for group in [*snap.shared_title_refs(content), *same_label]:
        inside = [p for p in group if p in found]
        best = _best_in_context(inside, context, snap) if len(inside) > 1 else None
        found = [p for p in found if p not in inside or p == best or best is None]
    return found


QUOTED_MIN_WORDS = 6  # a sentence this long, written word for word, is a quote of its paper


def quoted_in(turn: dict[str, object], pids: list[str], snap: Snapshot) -> list[str]:
    """The papers of `pids` one of whose sentences the turn writes word for word."""
    words = spaced_words(str(turn.get("content", "")))
    out = []
    for pid in pids:
        sentences = (spaced_words(q) for _, q in snap.paper_quotes(pid))
        if any(len(s.split()) >= QUOTED_MIN_WORDS and s in words for s in sentences):
            out.append(pid)
    return out


def names_a_paper(turn: dict[str, object], snap: Snapshot) -> bool:
    """The turn names a paper: `paper_ids`, or a label or title in its words. An answer's words
    name a paper as `named_in_answer` says: an answer quoting an abstract writes phrases such as
    "offline reinforcement learning", which a title may open with ("Offline Reinforcement
    Learning: Role of …") though the answer is about another paper."""
    ids = turn.get("paper_ids")
    if isinstance(ids, list) and any(isinstance(p, str) and p in snap.papers for p in ids):
        return True
    content = turn.get("content")
    if not isinstance(content, str):
        return False
    if turn.get("role") != "assistant":
        return bool(named_in_question(content, snap))
    return bool(named_in_answer(content, snap.mentions.find(content, strong_only=True), snap))


def named_in_question(content: str, snap: Snapshot) -> set[str]:
    """Papers a user's words name: by label or title, or by their title's words."""
    return set(snap.mentions.find(content, strong_only=True)) | snap.referenced_in(content)


def named_in_answer(content: str, found: list[str], snap: Snapshot) -> list[str]:
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


def _by_rest_of_title(content: str, found: list[str], snap: Snapshot) -> list[str]:
    """Papers whose titles open with one head ("Open Problem: …") all match a turn that writes
    it; the words of the rest of a title the turn also writes say which it means ("the open
    problem about sparse recovery"). Unchanged when no title's rest is written."""
    if len(found) < 2:
        return found
    titles = [snap.papers[p].title or "" for p in found]
    heads = {t.split(":", 1)[0].strip().lower() for t in titles if ":" in t}
    if len(heads) != 1 or any(":" not in t for t in titles):
        return found
    head = set(content_stems(next(iter(heads))))
    words = set(content_stems(content))
    score = {
        p: len(words & (set(content_stems(t.split(":", 1)[1])) - head)) for p, t in zip(found, titles, strict=True)
    }
    top = max(score.values())
    return [p for p in found if score[p] == top] if top > 0 else found
