"""App. D settings that can be checked without training: the compute paragraph's figure
references (GRQ-Exp-Compute, L943), the Fig. 1 set-up (GRQ-Exp-D1, L945-958) and the single-neuron
ODE settings of Figs. 2-4 (GRQ-Exp-D2, L972-974; time is gradient-flow time t)."""
import pytest

from theory.registry import REGISTRY
from theory.rich_quick.experiments import FIGURE_PANELS
from verify.measurement import exact
from verify.rich_quick import evidence as E


@pytest.mark.claim("GRQ-Exp-Compute")
def test_compute_paragraph_refers_to_figure6_panels(claim):
    r = REGISTRY["GRQ-Exp-Compute"]

    def missing(form):
        return sorted(set(form.panels) - set(FIGURE_PANELS[form.figure]))
    claim.erratum(
        printed=claim.measure(f"panels referenced in {r.printed.figure} that it does not have",
                              len(missing(r.printed)), "==", 0, source=exact("set difference")),
        corrected=claim.measure(f"panels referenced in {r.corrected.figure} that it does not have",
                                len(missing(r.corrected)), "==", 0, source=exact("set difference")),
        counterexample=f"'{r.printed.figure}({missing(r.printed)[0]})' does not exist (Fig. 5 is the "
                       "single ReLU surface figure)",
        note="the runtimes (A100-hours) are not reproducible here; the suite's runs are timed in "
             "claims.json")


@pytest.mark.claim("GRQ-Exp-D2")
def test_single_neuron_settings_are_consistent_and_accurate_enough(claim):
    claim.defined(*E.d2_settings(REGISTRY["GRQ-Exp-D2"].printed))


@pytest.mark.claim("GRQ-Exp-D1")
def test_fig1_setup_and_the_delta_squared_typo(claim):
    r = REGISTRY["GRQ-Exp-D1"]
    printed, corrected = E.d1_geometry(r.printed, r.corrected)
    claim.erratum(printed=printed, corrected=corrected,
                  note="D.1's 'mean square loss' is the plain mean (the released fit_nn_gd); the "
                       "Fig. 1 runs train on it")
