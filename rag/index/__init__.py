"""The index: chunk schema and ids, the Chroma store, the snapshot with BM25, ingest, health."""
