"""The pytest plugin of the claims suite (loaded through the ``pytest11`` entry point).

* ``@pytest.mark.claim("ID", ...)`` ties a test to claims of ``theory``'s registry; unknown IDs are
  a usage error at collection, as are unknown ``--claim`` / ``--paper`` values and hypothesis
  profiles (each with the valid choices or a did-you-mean).
* The ``claim`` fixture is the test's :class:`verify.outcome.ClaimRecorder`; ``scale`` runs a test
  at ``'ci'`` always and at ``'full'`` with ``--scale=full``.
* ``report_figure(fig, caption)`` saves a matplotlib figure for the reports of the test's claims.
* A claim is judged when every test tied to it runs: a verdict item ``claim[ID]`` after its last
  test compares the aggregated verdict with the registry's expected verdict and fails with both
  verdicts and the evidence.  With ``-v`` it prints ``claim[ID] <verdict> (expected <verdict>)``.
* ``--stale`` decides again, at paper scale, only the claims whose paper-scale record may predate
  the code that decides it (:func:`verify.report.paper_scale.stale_claims`); with ``--claim`` /
  ``--paper``, only those among the claims named.

Installed in a virtual environment, the plugin is loaded by every pytest session there, so it is
inert until a session is the suite's (docs/DESIGN.md, "The plugin"): at start-up it adds its
options and markers and checks the options given, importing neither torch, sympy nor the
registry.  A session that collects claim-marked tests (an xdist controller: one whose workers
collected verdict items) starts a :class:`ClaimsSession`, as pytest-xdist starts its ``DSession``
only in distribution mode: only then is the registry loaded, the record read, hypothesis' ``ci``
profile and torch's thread count set.  A session rooted in the suite's checkout (``pytest
tests``) gets the profile and the thread count too; any other session keeps its own.

The state of a claims run lives in the :class:`~verify.session.ClaimsSession`
(:mod:`verify.session`).  Tests and verdict items hand
what the controller needs -- a :class:`ChecksPayload` (claims, figures) or a
:class:`VerdictPayload` (the typed :class:`~verify.report.record.ClaimRecord`) -- as an attribute
of their test report, which pytest-xdist serialises with the report; the controller decodes it
into the same types and hands a typed :class:`~verify.report.record.RunRecord` to the writer,
which publishes every report of the run together (:mod:`verify.report.generations`).

Under pytest-xdist, the tests of claims that share tests and their verdict items form one block
run in order on one worker (:mod:`verify.blocks`), so a serial run and ``-n auto`` give the same
record.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from verify import heap
from verify.report import record as R
from verify.session import ClaimsGate
from verify.stash import FIGURES, GATE, SESSION, claim_ids

def pytest_addoption(parser):
    group = parser.getgroup("claims", "claims suite")
    group.addoption("--reports-dir", default=None,
                    help="where claims.json, the PDFs and html/ go (default: <rootdir>/reports)")
    group.addoption("--no-pdf", action="store_true",
                    help="write claims.json only: no figure files, no PDFs, no HTML")
    group.addoption("--claim", action="append", default=[], metavar="ID",
                    help="run only the tests of this claim (repeatable)")
    group.addoption("--paper", action="append", default=[], metavar="KEY",
                    help="run only the tests of this paper's claims (repeatable)")
    group.addoption("--scale", choices=("ci", "full"), default="ci",
                    help="'full' also runs the full-scale reproductions marked 'full' and writes "
                         "their records to <reports-dir>/paper_scale/")
    group.addoption("--stale", action="store_true",
                    help="decide again, at paper scale, only the claims whose paper-scale record "
                         "may predate the code that decides it (a project file it imports "
                         "changed since, or the record does not say); with --claim / --paper, "
                         "only those among the claims named")
    group.addoption("--dask", default=None, metavar="ADDRESS",
                    help="run sweeps on this Dask scheduler (default: $DASK_SCHEDULER_ADDRESS, "
                         "else the local machine)")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    config.addinivalue_line("markers", "claim(*ids): ties a verify test to claim IDs")
    config.addinivalue_line("markers", "full: a full-scale reproduction (runs only with --scale=full)")
    _check_hypothesis_profile(config)
    _check_selection(config)
    if config.getoption("--dask"):
        os.environ["DASK_SCHEDULER_ADDRESS"] = config.getoption("--dask")
    gate = ClaimsGate(config)
    config.pluginmanager.register(gate, GATE)
    if gate.owned:
        heap.opened()


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    gate = config.pluginmanager.get_plugin(GATE)
    if gate is not None and gate.owned:
        heap.closed()


def _check_selection(config):
    """--paper and --claim name papers and catalogue IDs: checked against the paper records
    alone, so a misspelt name answers before anything heavy is imported."""
    papers, claims = config.getoption("--paper"), config.getoption("--claim")
    if not papers and not claims:
        return
    from theory.names import did_you_mean
    from theory.papers import PAPERS
    from theory.registry import catalogue_ids
    for key in papers:
        if key not in PAPERS:
            raise pytest.UsageError("--paper: " + did_you_mean(key, list(PAPERS), "paper"))
    known = catalogue_ids()
    for cid in claims:
        if cid not in known:
            raise pytest.UsageError("--claim: " + did_you_mean(cid, list(known), "claim"))


def _check_hypothesis_profile(config):
    """A profile named on the command line must be known when hypothesis' own plugin loads it:
    the suite's are registered here (only then: hypothesis is imported only where it is used)."""
    name = config.getoption("hypothesis_profile", None)
    if not name:
        return
    from hypothesis import settings
    from hypothesis.errors import InvalidArgument
    from verify.profiles import PROFILES, register_profiles
    if name in PROFILES:
        register_profiles(Path(str(config.rootpath)))
        return
    try:
        settings.get_profile(name)  # a profile the user registered themselves is fine too
    except InvalidArgument:
        from theory.names import did_you_mean
        raise pytest.UsageError("--hypothesis-profile: " + did_you_mean(name, PROFILES, "profile")) from None


def pytest_generate_tests(metafunc):
    """The one scale concept: a test that asks for ``scale`` runs at ``'ci'`` always and at
    ``'full'`` (marked ``full``) with ``--scale=full``; it picks its configuration from its
    paper's ``numerics.ran.Scales`` records (``configs.DEPTH[scale]``)."""
    if "scale" in metafunc.fixturenames:
        # session scope: module- and session-scoped fixtures that run a configuration may take it
        metafunc.parametrize("scale", ["ci", pytest.param("full", marks=pytest.mark.full)],
                             scope="session")


def _marked(request, fixture: str) -> tuple[str, ...]:
    """The claims of the test asking for ``fixture``: a usage error when it has none."""
    ids = claim_ids(request.node)
    if not ids:
        raise pytest.UsageError(f"{request.node.nodeid} uses {fixture!r} without @pytest.mark.claim")
    return ids


@pytest.fixture
def claim(request):
    """The test's :class:`verify.outcome.ClaimRecorder`."""
    from verify.outcome import ClaimRecorder
    ids = _marked(request, "claim")
    return ClaimRecorder(request.config.stash[SESSION].results, ids, test=request.node.name)


@pytest.fixture
def report_figure(request):
    """``report_figure(fig, caption)``: save ``fig`` for the reports of this test's claims."""
    ids = _marked(request, "report_figure")
    session = request.config.stash[SESSION]
    saved = request.node.stash.setdefault(FIGURES, [])

    def add(fig, caption: str):
        if not caption:
            raise ValueError("caption must say what the figure shows")
        from verify.report.figures import save, slug
        if not session.pdf:  # --no-pdf: no report shows it, and the record keeps the last saved one
            import matplotlib.pyplot as plt
            plt.close(fig)
            return fig
        # staged until the run publishes its reports together (verify.report.generations)
        paths = save(fig, session.stage / "figures",
                     slug(f"{request.node.nodeid}-{len(saved) + 1}"))
        saved.append(R.FigureRecord(paths["png"], caption, ids, request.node.nodeid))
        return fig
    return add
