"""The two scales of the bias paper's toy-task tests (BL Figs 2-6, 9-12)."""
import pytest


@pytest.fixture(scope="module", params=["ci", pytest.param("full", marks=pytest.mark.full)])
def scale_name(request):
    """'ci' (lr 5e-3, 25x the paper's, 8 seeds), or 'full' (``--scale=full``): the paper's lr
    2e-4 and 10 seeds.  Cost of 'full' per task: 2 activations x 20-50 members x 37,500-75,000
    full-batch steps (30-60 t/tau) of a 64-unit network on 4 items, ~2e5 FLOP per member-step
    (~1e12 FLOP in all): launch-bound, ~1 min per task on one H100; measured on 2 shared CPU
    cores: 42 s for the c sweep, 132 s for the hierarchy, XOR, margin and parallel tasks."""
    return request.param
