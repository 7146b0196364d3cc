"""What kind of data, family of method or setting a question is about (video, proteins,
reinforcement learning, language models, non-convex objectives, …), and whether a paper ever
mentions it.

A near-miss question asks about a related paper's method on data it never touches ("… for
video?" of an image method) or in a setting it never considers ("… in reinforcement learning
agents?" of a supervised method): the topic matches, the answer is not there. General ML
vocabulary, grouped by facet; each group lists the words an abstract uses for it, so a
paraphrase on either side ("pictures", "visual"; "LLMs", "language models") still matches."""

from __future__ import annotations

import re
from functools import lru_cache

_GROUPS: dict[str, str] = {
    # Data types.
    "images": r"imag(?:e|es|ing|ery)|visual\w*|vision|pixels?|photo\w*",
    "video": r"videos?|movies?",
    "audio": r"audio|speech|acoustic\w*|voices?|music\w*|spoken",
    "graphs": r"graphs?|gnns?|dags?|acyclic|vert(?:ex|ices)|(?:in|out)-?degrees?",
    "3D data": r"point[- ]clouds?|lidar|3-?d|meshes|mesh",
    "molecules": r"molecul\w*|chemi\w*|drugs?",
    "proteins": r"proteins?|amino|peptides?|enzymes?|antibod\w*",
    "medical data": r"medic\w*|clinic\w*|health\w*|patients?|diseases?|hospital\w*|ehrs?",
    "time series": r"time[- ]series|forecast\w*",
    "tabular data": r"tabular|tables?",
    "robots": r"robot\w*",
    # Method families and learning settings.
    "reinforcement learning": r"reinforcement|rl|rlhf|mdps?|markov decision\w*|rewards?|polic(?:y|ies)",
    "continual learning": r"continual\w*|lifelong|incremental\w*|forgetting",
    "federated learning": r"federated|clients?",
    "diffusion models": r"diffusions?|score-based|denois\w*",
    "language models": r"(?:m|v)?llms?|lms?|language models?|gpt\S*|chatgpt|chatbots?|llama\S*",
    "Bayesian methods": r"bayes\w*|posteriors?|thompson",  # Thompson sampling samples the posterior
    # Computing, not physics: "quantum Hamiltonians" of materials is no question about quantum computers.
    "quantum computing": r"quantum[- ](?:comput\w*|circuits?|devices?|hardware|processors?|annealers?|algorithms?"
    r"|machine[- ]learning|neural[- ]networks?|kernels?|advantage|error[- ]correction)|qubits?",
    # Settings and guarantees a theory paper states when it covers them.
    "non-convex settings": r"non[- ]?convex",
    "function approximation": r"function approximat\w*",
    "continuous state or action spaces": r"continuous[- ](?:state|action)s?",
    "finite-sample guarantees": r"finite[- ]sample|non[- ]?asymptotic",
    "multi-agent settings": r"multi[- ]?agent",
    "differential privacy": r"differential(?:ly)? privacy|differentially[- ]private",
}
# A lowercase letter before a capital: the seam of a compound name ("Image|Net").
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_PATTERNS = {name: re.compile(rf"\b(?:{words})\b", re.I) for name, words in _GROUPS.items()}


# A wh-question with do-support whose wh-phrase is the object ends with its verb ("What does
# the benchmark reward?"): a facet word used so names no kind of data or family of methods.
_WH_DO = re.compile(r"^\s*(?:what|which)\b[^?]*?\b(?:do|does|did)\s+((?:[\w-]+\s+){1,4}?)([A-Za-z]+)\s*\?\s*$", re.I)
_PREPOSITIONS = frozenset("with on for in to from of by about at into over under across".split())


def _without_final_verb(question: str) -> str:
    m = _WH_DO.match(question)
    if m is None or m.group(1).split()[-1].lower() in _PREPOSITIONS:  # "… do with video?"
        return question
    return question[: m.start(2)] + question[m.end(2) :]


def missing_facets(question: str, text: str) -> list[str]:
    """The data types and method families the question names that the paper's text never mentions."""
    return [name for name in _facets(_without_final_verb(question)) if not _mentions(text, name)]


@lru_cache(maxsize=1024)
def _facets(text: str) -> tuple[str, ...]:
    """The facets a question names."""
    return tuple(name for name, p in _PATTERNS.items() if p.search(text))


@lru_cache(maxsize=16384)  # a paper's text is read for every question it is a candidate for
def _mentions(text: str, name: str) -> bool:
    """The text mentions the facet, also in a name built from its word ("ImageNet" is images,
    "VideoMAE" video). Only the question's facets are looked for: a question names one or two,
    and matching all of them against each candidate's abstract took a seventh of the answer path."""
    p = _PATTERNS[name]
    return p.search(text) is not None or p.search(_CAMEL.sub(" ", text)) is not None
