"""The chunk schema: paper hashes, chunk ids, and the node records stored for sentences and papers."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rag.text.guard import FLAG_KEY, instruction_like
from rag.text.normalize import clean, sentence_spans
from rag.types import Paper

if TYPE_CHECKING:
    from llama_index.core.schema import TextNode

# Keys llama-index adds to a node's Chroma metadata (its own serialisation), not ours.
_NODE_KEYS = frozenset({"_node_content", "_node_type", "document_id", "doc_id", "ref_doc_id"})


@dataclass(slots=True)
class Record:
    """A stored sentence or paper as readers need it: id, text, flat metadata. Reading the
    index builds these instead of llama-index nodes, whose import alone costs ~1 s per
    process; writers (ingest) still build `TextNode`s."""

    node_id: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)

    def get_content(self) -> str:
        return self.text

    @classmethod
    def from_chroma(cls, cid: str, doc: str | None, meta: Any) -> Record:
        return cls(cid, doc or "", {k: v for k, v in dict(meta or {}).items() if k not in _NODE_KEYS})


Chunk = tuple[int, int, str]  # (start, end) in the abstract, and the text embedded


class TokenCounter(Protocol):
    max_tokens: int

    def count_tokens(self, text: str) -> int: ...


def split_chunks(paper: Paper, embedder: TokenCounter) -> list[Chunk]:
    """(start, end, text) per chunk: one sentence each, split further only if it would
    overflow the model window (so nothing is ever silently truncated)."""
    out: list[Chunk] = []
    for start, end in sentence_spans(paper.abstract):
        text = clean(paper.abstract[start:end])
        if not text:
            continue
        if embedder.count_tokens(text) <= embedder.max_tokens:
            out.append((start, end, text))
            continue
        piece: list[str] = []
        for word in text.split():
            if piece and embedder.count_tokens(" ".join([*piece, word])) > embedder.max_tokens:
                out.append((start, end, " ".join(piece)))
                piece = piece[-8:]  # a little overlap keeps the cut readable
            piece.append(word)
        if piece:
            out.append((start, end, " ".join(piece)))
    return out


def content_hash(paper: Paper, model: str) -> str:
    """Hash of a paper's fields under an embedding model (an index's whole paper hash
    before the chunks joined it)."""
    fields: list[Any] = [paper.abstract, paper.title, paper.authors, paper.url, paper.label, model]
    if paper.venue or paper.year:  # added later: papers without them keep their old hash
        fields += [paper.venue, paper.year]
    key = json.dumps(fields)
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def paper_hash(paper: Paper, model: str, chunks: list[Chunk]) -> str:
    """Hash deciding whether a paper's index entries must be rewritten: its fields under the
    model and its chunks, so a change of the sentence rules reaches an existing index (the
    vectors of unchanged sentences are reused, not re-embedded)."""
    key = json.dumps([content_hash(paper, model), chunks])
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def same_model(old: Record, model: str) -> bool:
    """Whether a stored paper's vectors were made by `model`: its content hash, recomputed
    from the stored fields under `model`, is the one it was stored with (for indexes older
    than `content_hash`, the paper hash itself)."""
    stored = {old.metadata.get("content_hash"), old.metadata.get("paper_hash")}
    return content_hash(node_to_paper(old), model) in stored


def chunk_id(paper_id: str, phash: str, i: int) -> str:
    return f"{paper_id}::{phash}::{i}"


def sentence_node(paper: Paper, phash: str, i: int, start: int, end: int, text: str) -> TextNode:
    from llama_index.core.schema import TextNode

    meta: dict[str, Any] = {
        "paper_id": paper.paper_id,
        "sent_index": i,
        "start": start,
        "end": end,
        "label": paper.label,
        "title": paper.title or "",
        "source": paper.source,
        "paper_hash": phash,
        # Corpus text is untrusted: a sentence that reads as an instruction to an assistant
        # is flagged here (reason, "" if clean) and never used as evidence.
        FLAG_KEY: instruction_like(paper.abstract[start:end]) or "",
    }
    return TextNode(
        id_=chunk_id(paper.paper_id, phash, i),
        text=text,
        metadata=meta,
        excluded_embed_metadata_keys=list(meta),
        excluded_llm_metadata_keys=list(meta),
    )


def paper_node(paper: Paper, phash: str, n_chunks: int, content: str = "") -> TextNode:
    from llama_index.core.schema import TextNode

    meta: dict[str, Any] = {
        "paper_id": paper.paper_id,
        "source": paper.source,
        "position": paper.position,
        "label": paper.label,
        "title": paper.title or "",
        "authors": json.dumps(paper.authors or []),
        "url": paper.url or "",
        "venue": paper.venue or "",
        "year": paper.year or 0,
        "paper_hash": phash,
        "content_hash": content,
        "n_chunks": n_chunks,
    }
    return TextNode(
        id_=paper.paper_id,
        text=paper.abstract,
        metadata=meta,
        excluded_embed_metadata_keys=list(meta),
        excluded_llm_metadata_keys=list(meta),
    )


def node_to_paper(node: TextNode | Record) -> Paper:
    m = node.metadata
    return Paper(
        paper_id=m["paper_id"],
        source=m["source"],
        position=int(m["position"]),
        abstract=node.get_content(),
        label=m["label"],
        title=m.get("title") or None,
        authors=json.loads(m.get("authors") or "[]") or None,
        url=m.get("url") or None,
        venue=m.get("venue") or None,
        year=int(m.get("year") or 0) or None,
    )


def parse_chunk_id(cid: str) -> tuple[str, str, int]:
    """(paper_id, paper_hash, index) of a chunk id made by `chunk_id`."""
    pid, _, rest = cid.partition("::")
    phash, _, i = rest.partition("::")
    return pid, phash, int(i) if i.isdigit() else -1
