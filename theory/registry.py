"""The claim registry: one :class:`Claim` per catalogue ID (docs/DESIGN.md, "A claim").

A claim carries its statement as printed, the sympy objects that encode it as printed, the
corrected form beside it where the printed one fails, and the team's expected verdict (the
regression baseline that ``pytest verify`` compares against).  The admissible IDs are the papers'
catalogue ID lists (``theory.papers``; the five papers' lists are the project's own copy
``theory/ids.tsv`` of the shared index, so nothing here reads ``../shared`` at run time).
"""
from __future__ import annotations

import importlib
from contextlib import contextmanager
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from theory import papers
from theory.validation import InvalidArgument
from theory.verdicts import KINDS, validate_verdict

class _PaperField(Mapping):
    """paper key -> one field of its :class:`theory.papers.Paper` record (a live view)."""

    def __init__(self, attribute: str):
        self._attribute = attribute

    def __getitem__(self, key):
        return getattr(papers.PAPERS[key], self._attribute)

    def __iter__(self):
        return iter(papers.PAPERS)

    def __len__(self):
        return len(papers.PAPERS)


#: paper key -> claim-ID prefix; paper key -> title (views of ``theory.papers.PAPERS``).
PAPERS = _PaperField("prefix")
TITLES = _PaperField("title")


#: (claim ID, side, part) of every sympy encoding a check has read in this process (part ""
#: for a side that is one object): an encoding a claim registers and no check reads is a
#: defect, reported by the claim's verdict item (``unread``).
READS: set[tuple[str, str, str]] = set()
#: while positive, reads are not logged: a picture of a formula (a validity map, a report) reads
#: the encodings without evaluating whether the claim holds
_UNLOGGED = [0]


@contextmanager
def unlogged():
    """Read encodings without counting as a check that evaluates them (validity maps, reports)."""
    _UNLOGGED[0] += 1
    try:
        yield
    finally:
        _UNLOGGED[0] -= 1


def _is_sympy(value) -> bool:
    import sympy as sp
    return isinstance(value, (sp.Basic, sp.MatrixBase))


def _holds_sympy(value) -> bool:
    """A sympy object, or a container (a dict, tuple, list or :class:`Forms`) holding one: an
    encoding a check must read."""
    if isinstance(value, Forms):
        value = object.__getattribute__(value, "_named")
    if isinstance(value, Mapping):
        return any(_holds_sympy(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return any(_holds_sympy(v) for v in value)
    return _is_sympy(value)


class Forms:
    """The named sympy objects of a printed or corrected form: ``Forms(dw1=..., rhs=...)``.

    Read them by name (``claim.printed.rhs`` or ``claim.printed["rhs"]``), or all of them
    (``items()``, ``values()``); every read is logged for the unread-encoding check.  Unpacking by
    position is refused, so reordering a form can never silently bind the wrong object.  A claim
    registered with a plain dict gets it as Forms (:meth:`of`: its keys may be any hashable, a
    sympy symbol or a panel number), so the check covers every encoding.
    """

    __slots__ = ("_named", "_owner")

    def __init__(self, **named):
        if not named:
            raise InvalidArgument("Forms needs at least one named object")
        object.__setattr__(self, "_named", dict(named))
        object.__setattr__(self, "_owner", [])

    @classmethod
    def of(cls, parts: Mapping) -> Forms:
        """``parts`` (a mapping of any hashable keys) as Forms."""
        if not parts:
            raise InvalidArgument("Forms needs at least one named object")
        form = cls.__new__(cls)
        object.__setattr__(form, "_named", dict(parts))
        object.__setattr__(form, "_owner", [])
        return form

    def _read(self, name):
        value = object.__getattribute__(self, "_named")[name]
        if not _UNLOGGED[0] and _holds_sympy(value):
            READS.update((*owner, name) for owner in object.__getattribute__(self, "_owner"))
        return value

    def _parts(self) -> str:
        return ", ".join(sorted(map(repr, object.__getattribute__(self, "_named"))))

    def __getattr__(self, name):
        try:
            return self._read(name)
        except KeyError:
            raise AttributeError(f"form has no part {name!r}; it has {self._parts()}") from None

    def __getitem__(self, name):
        try:
            return self._read(name)
        except KeyError:
            raise KeyError(f"form has no part {name!r}; it has {self._parts()}") from None

    def get(self, name, default=None):
        return self._read(name) if name in self else default

    def __contains__(self, name) -> bool:
        return name in object.__getattribute__(self, "_named")

    def __len__(self) -> int:
        return len(object.__getattribute__(self, "_named"))

    def __setattr__(self, name, value):
        raise AttributeError("Forms is immutable")

    def __iter__(self):
        raise InvalidArgument("Forms are read by name, not unpacked by position: use .name, ['name'], "
                              "keys() or items()")

    def keys(self):
        return object.__getattribute__(self, "_named").keys()

    def values(self) -> list:
        return [self._read(k) for k in self.keys()]

    def items(self) -> list[tuple]:
        return [(k, self._read(k)) for k in self.keys()]

    def __repr__(self):
        return "Forms(" + ", ".join(f"{k}={v!r}" for k, v in self._named.items()) + ")"


class RegistryError(ValueError):
    """A claim that cannot be registered: unknown or duplicate ID, wrong paper, bad field."""


@dataclass(frozen=True)
class Claim:
    """One claim of one paper.

    ``printed`` holds the sympy object(s) of the statement exactly as printed; ``corrected`` the
    corrected form where the printed one fails (never an edit of ``printed``); several objects go
    in a :class:`Forms` by name, never in a positional tuple.  ``condition`` names
    the extra hypothesis of a ``holds-if`` claim.  ``reconstructed`` marks statements rebuilt by the
    catalogue because the paper's text lost them (paper 004).
    """

    id: str
    paper: str
    where: str
    statement: str
    kind: str
    expected: str
    title: str = ""
    printed: Any = None
    corrected: Any = None
    corrected_statement: str = ""
    condition: str = ""
    #: the baseline under ``--scale=full`` where a faithful paper-scale run decides otherwise than
    #: the reduced ci run (empty: the same as ``expected``)
    expected_full: str = ""
    reconstructed: bool = False
    notes: str = ""
    symbols: dict = field(default_factory=dict)
    #: an empirical claim's sentence clause by clause (docs/DESIGN.md, "Every clause decided"):
    #: each clause, quoted from the statement, -> the name (or a part of the name) of the
    #: measurement that decides it, or "not testable: why"
    clauses: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.paper not in PAPERS:
            raise RegistryError(f"paper={self.paper!r} is not one of {sorted(PAPERS)}")
        if not self.id.startswith(PAPERS[self.paper]):
            raise RegistryError(
                f"id={self.id!r} does not carry the prefix {PAPERS[self.paper]!r} of paper "
                f"{self.paper!r}")
        if self.kind not in KINDS:
            raise RegistryError(f"kind={self.kind!r} for {self.id} is not one of {sorted(KINDS)}")
        try:
            validate_verdict(self.expected, "expected")
        except ValueError as exc:
            raise RegistryError(f"{self.id}: {exc}") from None
        if self.expected_full:
            try:
                validate_verdict(self.expected_full, "expected_full")
            except ValueError as exc:
                raise RegistryError(f"{self.id}: {exc}") from None
            if self.kind != "empirical":
                raise RegistryError(f"{self.id}: expected_full is for empirical claims only")
        for name in ("printed", "corrected"):
            if isinstance(getattr(self, name), (tuple, list)):
                raise RegistryError(f"{self.id}: {name} is a positional {type(getattr(self, name)).__name__}; "
                                    "name its parts with Forms(part=...)")
        if self.expected == "erratum" and self.corrected is None and not self.corrected_statement:
            raise RegistryError(f"{self.id}: an expected erratum needs the corrected form beside it")
        if self.expected == "holds-if" and not self.condition:
            raise RegistryError(f"{self.id}: an expected holds-if needs the condition named")
        if not self.where or not self.statement:
            raise RegistryError(f"{self.id}: where and statement are required")
        if self.clauses and self.kind != "empirical":
            raise RegistryError(f"{self.id}: clauses are for empirical claims only")
        for clause, decided_by in self.clauses.items():
            if not (isinstance(clause, str) and clause.strip() and isinstance(decided_by, str)
                    and decided_by.strip()):
                raise RegistryError(f"{self.id}: clauses maps each clause of the sentence to the "
                                    "measurement deciding it or 'not testable: why'")
            if decided_by.startswith("not testable") and not decided_by.partition(":")[2].strip():
                raise RegistryError(f"{self.id}: clause {clause!r} is not testable: say why")
        for side in ("printed", "corrected"):
            form = object.__getattribute__(self, side)
            if isinstance(form, Mapping):  # a dict's parts are checked like a Forms' parts
                form = Forms.of(form)
                object.__setattr__(self, side, form)
            if isinstance(form, Forms):
                object.__getattribute__(form, "_owner").append((self.id, side))

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        if name in ("printed", "corrected") and _is_sympy(value) and not _UNLOGGED[0]:
            READS.add((object.__getattribute__(self, "id"), name, ""))
        return value

    def encodings(self) -> list[tuple[str, str]]:
        """(side, part) of every sympy object the claim registers (part "" for a bare object)."""
        out = []
        for side in ("printed", "corrected"):
            form = object.__getattribute__(self, side)
            if isinstance(form, Forms):
                out += [(side, k) for k, v in object.__getattribute__(form, "_named").items()
                        if _holds_sympy(v)]
            elif _is_sympy(form):
                out.append((side, ""))
        return out

    def unread(self) -> list[str]:
        """The encodings of this claim that no check has read in this process."""
        return [f"{side}.{part}" if part else side for side, part in self.encodings()
                if (self.id, side, part) not in READS]

    def baseline(self, scale: str = "ci") -> str:
        """The expected verdict of a run at ``scale`` (``expected_full`` under ``full`` if set)."""
        if scale not in ("ci", "full"):
            raise InvalidArgument(f"scale={scale!r} is not 'ci' or 'full'")
        return self.expected_full if scale == "full" and self.expected_full else self.expected


def catalogue_ids() -> dict[str, str]:
    """ID -> paper key, over every paper record's catalogue ID list."""
    return {cid: p.key for p in papers.PAPERS.values() for cid in p.ids}


class Registry:
    """Claims by ID.  Registering an unknown or duplicate ID raises :class:`RegistryError`."""

    def __init__(self, allowed: dict[str, str] | None = None):
        self._fixed = allowed
        self._claims: dict[str, Claim] = {}

    @property
    def _allowed(self) -> dict[str, str]:
        # Read at use, not at construction: a paper added later (theory.papers.add_paper) counts.
        return catalogue_ids() if self._fixed is None else self._fixed

    def add(self, claim: Claim) -> Claim:
        if claim.id not in self._allowed:
            raise RegistryError(f"id={claim.id!r} is not in theory/ids.tsv (nor in any paper "
                                f"record's ids)")
        if self._allowed[claim.id] != claim.paper:
            raise RegistryError(
                f"id={claim.id!r} belongs to paper {self._allowed[claim.id]!r}, not {claim.paper!r}")
        if claim.id in self._claims:
            raise RegistryError(f"id={claim.id!r} is registered twice")
        self._claims[claim.id] = claim
        return claim

    def __getitem__(self, claim_id: str) -> Claim:
        try:
            return self._claims[claim_id]
        except KeyError:
            raise KeyError(f"claim {claim_id!r} is not registered") from None

    def __contains__(self, claim_id: str) -> bool:
        return claim_id in self._claims

    def __iter__(self):
        order = list(self._allowed)
        return iter(sorted(self._claims.values(), key=lambda c: order.index(c.id)))

    def __len__(self) -> int:
        return len(self._claims)

    def missing(self) -> list[str]:
        """Catalogue IDs not yet registered."""
        return [i for i in self._allowed if i not in self._claims]


REGISTRY = Registry()


def register(**fields) -> Claim:
    """Create a :class:`Claim` from keyword fields and add it to the global registry."""
    return REGISTRY.add(Claim(**fields))


def load_all() -> Registry:
    """Import every paper's theory package, which registers its claims; idempotent."""
    for record in list(papers.PAPERS.values()):
        importlib.import_module(record.package)
    return REGISTRY
