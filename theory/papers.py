"""The papers the suite referees: one :class:`Paper` record each (docs/DESIGN.md, "Papers").

A record holds everything the rest of the suite needs to know about a paper: its key, its claim-ID
prefix, its title, its loss normalisation and clock (:class:`theory.conventions.Convention`), its
catalogue ID list, and the theory package that registers its claims.  Each paper keeps its record
in its own package, ``theory/<key>/paper.json``; :func:`discover` reads them, so adding a paper is
one theory package (with its record), one numerics package, one verify folder and one tests
folder, and no core file changes (``docs/adding-a-paper.md``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from theory.conventions import MEAN_HALF, SUM_HALF, Convention, LossNorm
from theory.names import suggest
from theory.validation import InvalidArgument


@dataclass(frozen=True)
class Paper:
    """One refereed paper.  ``ids`` is its catalogue ID list, each ID starting with ``prefix``;
    ``package`` is the module whose import registers its claims (default ``theory.<key>``)."""

    key: str
    prefix: str
    title: str
    convention: Convention
    ids: tuple[str, ...]
    package: str = ""
    #: the paper's place in the reports (the shared index numbers the five papers 0-4)
    position: int = 100

    def __post_init__(self):
        if not (isinstance(self.key, str) and self.key.isidentifier()):
            raise InvalidArgument(f"key={self.key!r} must be a Python identifier (it names packages)")
        if not (isinstance(self.prefix, str) and self.prefix.endswith("-") and len(self.prefix) > 1):
            raise InvalidArgument(f"prefix={self.prefix!r} must be letters ending in '-', e.g. 'BL-'")
        if not isinstance(self.title, str) or not self.title.strip():
            raise InvalidArgument("title must be the paper's title")
        if not isinstance(self.convention, Convention) or self.convention.paper != self.key:
            raise InvalidArgument(f"convention must be a Convention for paper {self.key!r}")
        if not self.ids or len(set(self.ids)) != len(self.ids):
            raise InvalidArgument(f"ids of paper {self.key!r} must be a non-empty list without repeats")
        stray = [i for i in self.ids if not i.startswith(self.prefix)]
        if stray:
            raise InvalidArgument(f"ids {stray[:3]} of paper {self.key!r} lack its prefix {self.prefix!r}")
        if not self.package:
            object.__setattr__(self, "package", f"theory.{self.key}")


@cache
def _catalogue() -> dict[str, tuple[str, ...]]:
    """paper key -> catalogue IDs, from the project's copy ``theory/ids.tsv`` of the shared index.

    Read with a plain split: the csv module drops rows after an unmatched quote in a title.
    """
    lines = Path(__file__).with_name("ids.tsv").read_text(encoding="utf-8").splitlines()
    out: dict[str, list[str]] = {}
    for row in (line.split("\t") for line in lines):
        if row[0] and not row[0].startswith("#"):
            out.setdefault(row[1], []).append(row[0])
    return {k: tuple(v) for k, v in out.items()}


def catalogue(key: str) -> tuple[str, ...]:
    """The IDs that ``theory/ids.tsv`` lists for paper ``key``."""
    try:
        return _catalogue()[key]
    except KeyError:
        raise InvalidArgument(f"paper {key!r} has no IDs in theory/ids.tsv") from None


#: The project's index of the five papers' catalogue IDs, as a paper record names it.
INDEX = "theory/ids.tsv"
RECORD = "paper.json"
_NORMS = {"sum_half": SUM_HALF, "mean_half": MEAN_HALF}


def _norm(value, where: str) -> LossNorm:
    if isinstance(value, str) and value in _NORMS:
        return _NORMS[value]
    if isinstance(value, dict) and set(value) == {"mean", "half"} and \
            all(isinstance(v, bool) for v in value.values()):
        return LossNorm(**value)
    raise InvalidArgument(f"{where}={value!r} must be one of {sorted(_NORMS)} or "
                          "{\"mean\": bool, \"half\": bool}")


def read_record(path: Path) -> Paper:
    """The :class:`Paper` of a paper package's ``paper.json``: key, prefix, title, position (report
    order), convention (``flow``, ``train``, ``clock``, optional ``experiments`` and ``why``) and
    ``ids`` (a list of catalogue IDs, or ``"theory/ids.tsv"`` for the project's index)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidArgument(f"{path}: not a readable paper record ({exc})") from None
    fields = {"key", "prefix", "title", "position", "convention", "ids"}
    if not isinstance(doc, dict) or set(doc) != fields:
        raise InvalidArgument(f"{path}: a paper record has exactly the fields {sorted(fields)}")
    conv = doc["convention"]
    allowed = {"flow", "train", "clock", "experiments", "why"}
    if not isinstance(conv, dict) or not {"flow", "train", "clock"} <= set(conv) <= allowed:
        raise InvalidArgument(f"{path}: convention needs flow, train and clock (and may give "
                              "experiments and why)")
    key = doc["key"]
    if path.parent.name != key:
        raise InvalidArgument(f"{path}: key {key!r} must name its package folder {path.parent.name!r}")
    ids = catalogue(key) if doc["ids"] == INDEX else doc["ids"]
    if not isinstance(ids, list | tuple) or not all(isinstance(i, str) for i in ids):
        raise InvalidArgument(f"{path}: ids must be a list of claim IDs or {INDEX!r}")
    if isinstance(doc["position"], bool) or not isinstance(doc["position"], int):
        raise InvalidArgument(f"{path}: position must be an integer (the paper's place in reports)")
    convention = Convention(key, flow=_norm(conv["flow"], "convention.flow"),
                            train=_norm(conv["train"], "convention.train"), clock=conv["clock"],
                            experiments=(_norm(conv["experiments"], "convention.experiments")
                                         if "experiments" in conv else None),
                            why=conv.get("why", ""))
    return Paper(key, doc["prefix"], doc["title"], convention, tuple(ids), position=doc["position"])


def discover() -> dict[str, Paper]:
    """Every paper package under ``theory/`` with a ``paper.json``, by key, in report order
    (``position``, then key).  Adding a paper adds a folder; no file of the core changes."""
    found = [read_record(path) for path in sorted(Path(__file__).parent.glob(f"*/{RECORD}"))]
    prefixes = [p.prefix for p in found]
    twice = sorted({p for p in prefixes if prefixes.count(p) > 1})
    if twice:
        raise InvalidArgument(f"the paper records share the prefixes {twice}")
    return {p.key: p for p in sorted(found, key=lambda p: (p.position, p.key))}


#: Every paper, by key, in report order.
PAPERS: dict[str, Paper] = discover()


def add_paper(paper: Paper) -> Paper:
    """Add a paper outside the discovered ones (a draft in a session): key, prefix and IDs new."""
    if not isinstance(paper, Paper):
        raise InvalidArgument(f"paper must be a Paper record, got {type(paper).__name__}")
    if paper.key in PAPERS:
        raise InvalidArgument(f"paper key {paper.key!r} is taken")
    if any(p.prefix == paper.prefix for p in PAPERS.values()):
        raise InvalidArgument(f"prefix {paper.prefix!r} is taken")
    PAPERS[paper.key] = paper
    return paper


def paper(key: str) -> Paper:
    """The record of paper ``key``; an unknown key names the valid ones (with a near match)."""
    try:
        return PAPERS[key]
    except KeyError:
        raise InvalidArgument(f"paper={key!r} is not known; {suggest(key, PAPERS)}") from None
