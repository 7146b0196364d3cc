"""Retrieval: hybrid sentence search (dense + BM25) fused with paper-level signals."""
