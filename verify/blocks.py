"""Claim blocks under pytest-xdist: the tests of claims that share tests, and their verdict items,
run in order on one worker, so every verdict item sees every check of its claim.

Workers order their collection block by block (:func:`order_blocks`): files joined by the claims
their tests share and by the runs they share (a fixture of a paper's conftest: the runners cache
what they train once per process, so two workers would train it twice), in the order of their
first item, each block's verdict items last, tests of no claim at the end.  The controller,
which collects nothing, finds the blocks again in the node IDs the workers report
(:func:`block_scopes`: a block ends with its verdict items) and sends each block to one worker
through xdist's public ``pytest_xdist_make_scheduler`` hook (:func:`scheduler_class`), longest
block first by the last run's timings.  xdist's own ``loadgroup`` cannot serve: it renames items
through a private pytest attribute that pytest 9 no longer reads.
"""
from __future__ import annotations

import re

#: the node ID of a verdict item: ``<path>::claim[ID]``
VERDICT_ID = re.compile(r"::claim\[.*\]$")
#: xdist distribution modes under which the claim blocks are kept together (not ``each``)
DISTRIBUTED = ("load", "loadscope", "loadfile", "loadgroup", "worksteal")


def order_blocks(items, ids_of, is_verdict, runs_of=lambda item: ()) -> list:
    """``items`` block by block; ``ids_of(item)`` are an item's claims, ``is_verdict(item)`` says
    whether it is a verdict item, ``runs_of(item)`` names the runs it shares with other files
    (:func:`conftest_fixtures`)."""
    parent: dict[str, str] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x
    first_file: dict[str, str] = {}
    for item in items:
        file = item.nodeid.split("::")[0]
        claims = ids_of(item)
        if not claims:
            continue
        for cid in (*claims, *(("run", r) for r in runs_of(item))):
            a, b = find(file), find(first_file.setdefault(cid, file))
            if a != b:
                parent[max(a, b)] = min(a, b)
    blocks: dict[str, tuple[list, list]] = {}
    plain = []
    for item in items:
        if not ids_of(item):
            plain.append(item)
            continue
        tests, verdicts = blocks.setdefault(find(item.nodeid.split("::")[0]), ([], []))
        (verdicts if is_verdict(item) else tests).append(item)
    return [i for tests, verdicts in blocks.values() for i in tests + verdicts] + plain


def conftest_fixtures(item) -> tuple:
    """The conftest fixtures (a paper's runs) that ``item`` uses, as (module, name) of their
    definition, so a run another folder's conftest imports is the same run; none where pytest
    does not tell (the blocks are then joined by claims alone)."""
    defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    return tuple((d.func.__module__, name) for name, ds in defs.items() for d in ds
                 if d.func.__module__.rpartition(".")[2] == "conftest")


def block_scopes(nodeids) -> dict[str, str]:
    """The xdist scope of each node ID of a collection ordered by :func:`order_blocks`: a block
    runs up to the verdict items that end it; the items after the last verdict item (tests of no
    judged claim) are a scope each."""
    nodeids = list(nodeids)
    last = max((k for k, n in enumerate(nodeids) if VERDICT_ID.search(n)), default=-1)
    out, scope, after_verdict = {}, 0, False
    for k, nodeid in enumerate(nodeids):
        verdict = bool(VERDICT_ID.search(nodeid))
        if (after_verdict and not verdict) or k > last:
            scope += 1
        out[nodeid] = f"claims-block-{scope}"
        after_verdict = verdict
    return out


def block_cost(nodeids, seconds: dict) -> float:
    """The expected seconds of a block: its tests' ``seconds`` from the last run, a test not
    timed there at the median of those that were (1 each when none was); verdict items cost
    nothing."""
    tests = [n for n in nodeids if not VERDICT_ID.search(n)]
    known = sorted(seconds[n] for n in tests if n in seconds)
    default = known[len(known) // 2] if known else 1.0
    return sum(seconds.get(n, default) for n in tests)


def scheduler_class(seconds: dict | None = None):
    """xdist's scope scheduling with a claim block as the scope (imported only under xdist).

    The blocks are handed out longest first by :func:`block_cost` over ``seconds`` (node ID ->
    seconds of the last run, ``timings.json``), so the two workers finish together: xdist's own
    order (most tests first) left a 50-second block of two tests to the end of a run."""
    from xdist.scheduler import LoadScopeScheduling

    class ClaimBlockScheduling(LoadScopeScheduling):
        def schedule(self):
            if self.collection is None and self.registered_collections:
                self._claim_scopes = block_scopes(next(iter(self.registered_collections.values())))
                self._ordered = False
            super().schedule()

        def _assign_work_unit(self, node):
            # the first assignment comes after xdist has queued every block: order them once
            if not self._ordered:
                self._ordered = True
                queue = sorted(self.workqueue.items(),
                               key=lambda unit: -block_cost(unit[1], seconds or {}))
                self.workqueue.clear()
                self.workqueue.update(queue)
            super()._assign_work_unit(node)

        def _split_scope(self, nodeid):
            return self._claim_scopes.get(nodeid, nodeid)
    return ClaimBlockScheduling
