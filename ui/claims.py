"""The Papers tab's "Check claims" box: pasted text with `[paper_id]` markers, each sentence
checked against the papers it cites (the same judge as `rag verify`). Output is escaped HTML."""

from __future__ import annotations

from rag.answer.claims import check_claim, marked_claims
from ui.render import escape_html
from ui.state import get_engine

MAX_CLAIM_CHARS = 20_000


def check_claims_html(text: str) -> str:
    """One row per (sentence, cited paper): supported or not, why, and the sentence it rests on."""
    text = (text or "")[:MAX_CLAIM_CHARS]
    claims = marked_claims(text)
    if not claims:
        return "<p>Paste sentences that end with the paper they cite, like <code>… [000_3578a6a037ed62e9#1]</code>.</p>"
    engine = get_engine()
    rows = []
    for claim, ids in claims:
        if not ids:
            rows.append(_row(claim, "", "no [paper_id] marker", None, None))
            continue
        for pid in ids:
            paper = engine.papers.get(pid)
            if paper is None:
                rows.append(_row(claim, pid, "unknown paper id", None, None))
                continue
            sentences = [q for _, q in engine.retriever.snapshot.paper_quotes(pid)]
            c = check_claim(claim, sentences, cosine=engine.retriever.cosine, label=paper.label)
            rows.append(_row(claim, pid, c.reason or "", c.supported, c.evidence_quote))
    head = "<tr><th>claim</th><th>paper</th><th>verdict</th><th>why</th><th>evidence</th></tr>"
    return f'<table class="claim-checks">{head}{"".join(rows)}</table>'


def _row(claim: str, pid: str, reason: str, supported: bool | None, quote: str | None) -> str:
    verdict = "—" if supported is None else ("supported" if supported else "not supported")
    cells = [claim, pid, verdict, reason, quote or ""]
    return "<tr>" + "".join(f"<td>{escape_html(c)}</td>" for c in cells) + "</tr>"
