"""Evidence-first question answering over paper abstracts."""

from __future__ import annotations

import os

# Offline by default, in the process itself (not only in the Makefile): these must be
# set before transformers / chromadb / gradio are imported anywhere.
for _key, _value in {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "ANONYMIZED_TELEMETRY": "False",
    "GRADIO_ANALYTICS_ENABLED": "False",
    "TOKENIZERS_PARALLELISM": "false",
    # numpy's OpenBLAS threads spin for a while after each product (2^28 cycles by default)
    # and hold the two cores the next question's ONNX embedding needs; 2^4 lets them sleep
    # (`rag bench`, answer p50 at 2,416 papers: 24.6 -> 14.0 ms). Read when numpy loads.
    "OPENBLAS_THREAD_TIMEOUT": "4",
}.items():
    os.environ.setdefault(_key, _value)

__version__ = "0.1.0"
