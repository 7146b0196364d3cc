"""The papers a question points at by name: those it compares ("X vs Y", "how does it compare
to Y?"), those sharing the name it uses, and whether it names a paper the conversation was
not about."""

from __future__ import annotations

from rag.answer.conversation import Focus, moves_on, papers_named
from rag.answer.evidence import is_referring
from rag.answer.references import compared, compares, may_ask_of_each
from rag.index.title_refs import SHARED_MAX
from rag.retrieval.retriever import Retriever
from rag.text.normalize import writes_name


def names_another_paper(question: str, focus: Focus, retriever: Retriever) -> bool:
    """The question names a paper the conversation was not about: it stands on its own."""
    if moves_on(question):
        return True
    snap = retriever.snapshot
    named = papers_named(question, snap)
    # "On TOFU, how much can they forget?": a name the discussed paper's abstract itself writes
    # is something that paper uses (a benchmark, a baseline), though another paper coins it.
    if named:
        used = {p for p in named - set(focus.papers) if _written_by(focus.papers, snap.papers[p].label, retriever)}
        return not named - used <= set(focus.papers) | set(focus.discussed)
    return snap.names_any(question) and not focus.explicit


def _written_by(pids: list[str], label: str, retriever: Retriever) -> bool:
    papers = retriever.snapshot.papers
    return any(p in papers and writes_name(papers[p].abstract, label) for p in pids)


def compared_focus(question: str, retriever: Retriever) -> Focus:
    """The papers the question compares by name (`references.compared`), as the focus. A name
    two or three papers have ("CPO vs JDI-CP" with three indexed papers coining "CPO") stands
    for each of them, closest to the question first; the answer's note names them (taking the
    closest alone compared, at 2,416 papers, a causal-inference "CPO" with JDI-CP)."""
    snap = retriever.snapshot
    named = {p: snap.papers[p].label for p in snap.named_in(question) if p in snap.papers}
    others: dict[str, list[str]] = {}  # the closest of a shared name -> its namesakes
    if len(named) >= 2 and may_ask_of_each(question):
        for group in snap.by_label(named).values():
            if 1 < len(group) <= SHARED_MAX:
                ranked = [h.paper_id for h in retriever.retrieve(question, top_k=len(group), papers=group).hits]
                named = {p: label for p, label in named.items() if p not in group or p == ranked[0]}
                others[ranked[0]] = ranked[1:]
    papers = compared(question, named) if len(named) >= 2 else []
    if not papers:
        return Focus()
    papers = [q for p in papers for q in [p, *others.get(p, [])]]
    namesakes = [q for p in papers if p in others for q in [p, *others[p]]]
    return Focus(papers, explicit=True, why=f"the question compares {papers}", compared=True, namesakes=namesakes)


def same_name_focus(question: str, focus: Focus, retriever: Retriever) -> Focus | None:
    """ "The Mind the Gap paper" when two indexed titles are "Mind the Gap: …": each of them, or
    the one the conversation is about. Answering from whichever paper retrieval ranks first
    answered from neither at 2,416 papers (a paper on "theory of mind" games ranked first)."""
    snap = retriever.snapshot
    by_label = snap.by_label(snap.named_in(question))
    labels = [g for g in by_label.values() if 1 < len(g) <= SHARED_MAX]  # "SBS", coined by two
    groups = snap.shared_title_refs(question) + labels
    if len(groups) != 1 or len(by_label) > len(labels) or snap.referenced_in(question):
        return None
    papers = [p for p in groups[0] if p in focus.papers] or groups[0]
    why = f"papers {groups[0]} share the name the question uses"
    return Focus(papers, explicit=True, why=why, discussed=focus.discussed, same_name=len(papers) > 1)


def same_name_note(papers: list[str], retriever: Retriever) -> str:
    titles = "; ".join(f"“{retriever.snapshot.papers[p].title or p}”" for p in papers)
    return f"{len(papers)} indexed papers have this name: {titles}; the answer cites those that answer the question."


def compared_with_discussed(question: str, focus: Focus, retriever: Retriever) -> Focus | None:
    """ "How does it compare to Y?": the paper under discussion and the one(s) the question
    names, each by a name no other paper has."""
    if not focus.papers or not compares(question) or not is_referring(question):
        return None
    snap = retriever.snapshot
    by_title = snap.referenced_in(question)  # "… compare to the <title words> paper?"
    named = sorted(p for p in snap.named_in(question) | by_title if p in snap.papers and p not in focus.papers)
    labels = {snap.papers[p].label for p in named}
    if not named or len(labels) != len(named):  # a name two papers share: which one is unknown
        return None
    papers = focus.papers + named
    return Focus(papers, explicit=True, why=f"the question compares {papers}", discussed=focus.discussed, compared=True)
