"""Ingest planning: which parsed papers must be (re-)indexed, which ids removed, and which
stored vectors the rewritten papers may reuse."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from rag.index.chunks import Chunk, Record, content_hash, paper_hash, same_model
from rag.types import Paper


class Plan(BaseModel):
    """Papers to (re-)index with their hash and chunks, ids to remove, and every parsed
    paper's (content hash, paper hash) per file stem, for the file records."""

    new: list[tuple[Paper, str, list[Chunk]]] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    hashes: dict[str, dict[str, tuple[str, str]]] = Field(default_factory=dict)
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    errors: list[str] = Field(default_factory=list)


def plan_changes(
    parsed: dict[str, list[Paper]],
    manifest: dict[str, Record],
    model: str,
    chunker: Callable[[Paper], list[Chunk]],
    known: dict[str, str],
) -> Plan:
    """Compare parsed papers with the manifest. A paper's hash covers its chunks, so the
    sentence rules are applied to every parsed paper, except one whose content hash `known`
    maps to its paper hash under the current rules (the file records' memory: re-parsing a
    large file with one new paper then splits one abstract, not all). A file with a paper
    id another file owns is dropped (reported)."""
    owner = {pid: str(n.metadata["source"]) for pid, n in manifest.items()}
    plan = Plan()
    for stem, papers in list(parsed.items()):
        clash = next((p for p in papers if owner.get(p.paper_id, stem) != stem), None)
        if clash:
            plan.errors.append(
                f"{stem}: duplicate paper id {clash.paper_id!r} (already indexed from {owner[clash.paper_id]!r})"
            )
            del parsed[stem]
            continue
        current = {p.paper_id for p in papers}
        plan.removed += [pid for pid, src in owner.items() if src == stem and pid not in current]
        plan.hashes[stem] = {}
        for p in papers:
            _plan_paper(plan, stem, p, manifest.get(p.paper_id), model, chunker, known)
    return plan


def _plan_paper(
    plan: Plan,
    stem: str,
    p: Paper,
    old: Record | None,
    model: str,
    chunker: Callable[[Paper], list[Chunk]],
    known: dict[str, str],
) -> None:
    c = content_hash(p, model)
    chunks = None if c in known else chunker(p)
    h = known[c] if chunks is None else paper_hash(p, model, chunks)
    plan.hashes[stem][p.paper_id] = (c, h)
    if old is not None and old.metadata["paper_hash"] == h:
        plan.unchanged += 1
        return
    plan.new.append((p, h, chunker(p) if chunks is None else chunks))
    if old is None:
        plan.added += 1
    else:
        plan.updated += 1


def prune(plan: Plan, manifest: dict[str, Record], keep: set[str]) -> None:
    """Also remove papers of every source not in `keep` (an ingest of the whole corpus)."""
    owner = {pid: str(n.metadata["source"]) for pid, n in manifest.items()}
    plan.removed += [pid for pid, src in owner.items() if src not in keep and pid not in plan.removed]


def reusable_hashes(plan: Plan, manifest: dict[str, Record], model: str) -> list[str]:
    """Paper hashes whose stored vectors the plan's papers may reuse by sentence text: their
    new hashes (chunks a crashed ingest wrote; the hash covers the model) and their old ones
    where the old vectors are this model's. A paper whose sentence rules or one sentence
    changed thus re-embeds only the sentences whose text is new."""
    hashes = {h for _, h, _ in plan.new}
    for p, _, _ in plan.new:
        old = manifest.get(p.paper_id)
        if old is not None and same_model(old, model):
            hashes.add(str(old.metadata["paper_hash"]))
    return sorted(hashes)
