"""A paper named by its link: "What does https://openreview.net/forum?id=… propose?",
"Summarize the paper at openreview.net/forum?id=…". No abstract writes its own address, so such
a question was refused. A link a paper's record gives is read as that paper, named as a user
would name it; a link an abstract writes (its code, its data) is a phrase asked word for word.
Pure functions of the question and the snapshot."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.answer.authored import spoken_name
from rag.index.links import links_in
from rag.index.snapshot import Snapshot

# "the paper at <link>", "this paper: <link>": the link's lead is part of the name it stands for
_LEAD = re.compile(
    r"\b(?:the\s+|this\s+|that\s+)?(?:paper|work|article|abstract|submission|one)\s*(?:at|in|on|from)?\s*:?\s*$", re.I
)


@dataclass(frozen=True)
class Linked:
    """A question's links: the papers they name, and the question with those papers named in
    their place; `unknown`, the links no record gives."""

    question: str
    papers: list[str]
    read: list[tuple[str, str]]  # (link, title) for each link read as a paper
    unknown: list[str]


def read_links(question: str, snap: Snapshot) -> Linked | None:
    """The question's links read as the papers whose records give them; None without links."""
    links = links_in(question)
    if not links:
        return None
    by_record = {(s, e): pids for s, e, pids in snap.links.find(question)}
    out, papers, read, unknown, at = [], [], [], [], 0
    for start, end, url in links:
        pids = by_record.get((start, end))
        if not pids:
            unknown.append(url)
            continue
        lead = _LEAD.search(question[at:start])
        cut = at + lead.start() if lead else start
        # By its title: a user who pastes a link read the page's title ("According to the SBS
        # paper, …" was refused where "… the Predicting the Susceptibility of Examples to
        # Catastrophic Forgetting paper, …" is answered).
        out += [question[at:cut], spoken_name(pids[0], snap, coined_first=False)]
        papers.append(pids[0])
        read.append((url, snap.papers[pids[0]].title or snap.papers[pids[0]].label))
        at = end
    out.append(question[at:])
    rewritten = re.sub(r"\s{2,}", " ", "".join(out)).strip()
    return Linked(question=rewritten, papers=papers, read=read, unknown=unknown)


def link_note(linked: Linked) -> str:
    """How the links were read: "Read <link> as “title”."."""
    return " ".join(f"Read {url} as “{title}”." for url, title in linked.read)
