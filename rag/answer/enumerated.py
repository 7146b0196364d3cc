"""An answer that offers two papers, one or both only described ("Two come to mind: one
reporting a 'coreset effect' …, and The Unlearning Mirage, which …"): its two items in order,
each the paper it names or, when it only describes one, the paper its description retrieves.
"The first one" of such an answer was read as the only paper it names (2,416 papers)."""

from __future__ import annotations

import re

from rag.index.snapshot import Snapshot
from rag.retrieval.retriever import Retriever

# "Two options: ", "Two relevant papers: ": what opens the list.
_INTRO = re.compile(r"^[^:.!?]{0,80}:\s+")
# The second item opens after ", and" or ";" with a name or a noun phrase: "…, and BumbleBee, which",
# "…, and a systematic study of …"; not an apposition (", a black-box attack") or a clause (", which").
_SECOND = re.compile(r"(?:,\s+and|;(?:\s+and)?)\s+(?=(?i:a|an|one|another|the)\b|[A-Z0-9])")
# A description this far from every sentence of its best paper names no paper.
ITEM_MIN_COSINE = 0.45


def two_items(text: str) -> tuple[str, str] | None:
    """The two items of an answer that lists two things, or None."""
    body = _INTRO.sub("", text.strip(), count=1)
    m = _SECOND.search(body)
    if m is None:
        return None
    first, second = body[: m.start()].strip(), body[m.end() :].strip()
    return (first, second) if first and second else None


def listed_pair(text: str, snap: Snapshot, retriever: Retriever) -> list[str] | None:
    """The papers of the two items, in order: named, else retrieved by the item's words (with
    the question it answered added, one of three described items found its paper and another
    lost it: the item's own words describe it best)."""
    items = two_items(text)
    if items is None:
        return None
    named = [snap.mentions.find(item, strong_only=True) for item in items]
    out: list[str] = []
    for item, names in zip(items, named, strict=True):
        taken = set(out) | {p for ns in named for p in ns}
        if names:
            out.append(names[0])
            continue
        hits = [h for h in retriever.retrieve(item, top_k=3).hits if h.paper_id not in taken]
        if not hits or hits[0].best_cosine < ITEM_MIN_COSINE:
            return None
        out.append(hits[0].paper_id)
    return out if len(set(out)) == 2 else None
