"""The Fig. 6 runs (``numerics.rich_quick.experiments``): the full-scale configurations are the
paper's settings (a faithful Setup), and their code paths run for a few steps on small inputs."""
import numpy as np
import pytest
import torch

from numerics import image_data as idata
from numerics.rich_quick import experiments as runs
from numerics.rich_quick import image_nets as inet
from theory.rich_quick.experiments import PAPER_SETTINGS, PAPER_SOURCES
from verify.measurement import Setup


@pytest.mark.parametrize("cid, settings", [("GRQ-Exp-Fig6a", runs.kernel_settings),
                                           ("GRQ-Exp-Fig6b", runs.filters_settings),
                                           ("GRQ-Exp-Fig6c", runs.hierarchy_settings),
                                           ("GRQ-Exp-Fig6d", runs.grokking_settings)])
def test_full_scale_settings_are_the_papers(cid, settings):
    full = Setup(scale="full", ran=settings("full"), paper=PAPER_SETTINGS[cid],
                 paper_source=PAPER_SOURCES[cid], cost="(test)")
    ci = Setup(scale="ci", ran=settings("ci"), paper=PAPER_SETTINGS[cid],
               paper_source=PAPER_SOURCES[cid], cost="(test)")
    assert full.faithful, full.text()
    assert not ci.faithful


@pytest.fixture
def fake_images(monkeypatch, tmp_path):
    """MNIST / CIFAR-10 loaders returning a few random images (the loaders have their own tests)."""
    rng = np.random.default_rng(0)

    def images(n, ch, side):
        return rng.uniform(0, 1, (n, ch, side, side)), rng.integers(0, 10, n)
    monkeypatch.setattr(idata, "data_dir", lambda: tmp_path)
    monkeypatch.setattr(idata, "load_mnist", lambda folder, split="train": images(40, 1, 28))
    monkeypatch.setattr(idata, "load_cifar10", lambda folder, split="train": images(8, 3, 32))


def test_full_kernel_distance_run_runs(monkeypatch, fake_images):
    monkeypatch.setitem(runs.KERNEL, "full", {**runs.KERNEL["full"], "epochs": 1, "batch": 16,
                                              "ntk_images": 4, "seeds": (0,)})
    result, _ = runs.kernel_run.__wrapped__("full")
    assert set(result) == {"S", "hamming", "param", "accuracy"} and result["S"].shape == (3,)


def test_full_filters_run_runs_on_cifar_shaped_inputs(monkeypatch, fake_images):
    monkeypatch.setitem(runs.FILTERS, "full", {**runs.FILTERS["full"], "epochs": 1, "batch": 4,
                                               "alphas": (1.0,), "seeds": (0,)})
    result, _ = runs.filters_run.__wrapped__("full")
    assert result["rough_end"].shape == (1,) and result["rough_end"] != result["rough_init"]


def test_dawn_network_is_invariant_to_the_alpha_scaling_at_init():
    """Batch norm after every conv: dividing the filters by alpha leaves the function unchanged
    (up to BN's epsilon), as D.3 intends ('which keeps the network functionally the same')."""
    x = torch.as_tensor(np.random.default_rng(1).uniform(0, 1, (4, 3, 32, 32)), dtype=torch.float32)
    f = {a: inet.dawn_forward(inet.stack([inet.dawn_init(0, a)]), x) for a in (0.3, 1.0)}
    assert torch.allclose(f[0.3], f[1.0], rtol=1e-3, atol=1e-4)


def test_full_hierarchy_run_runs(monkeypatch):
    monkeypatch.setitem(runs.HIERARCHY, "full", {**runs.HIERARCHY["full"], "sizes": (64,),
                                                 "epochs": 1, "seeds": (0,)})
    result, _ = runs.hierarchy_run.__wrapped__("full")
    assert result["accuracy"][64].shape == (6,)


def test_full_grokking_run_runs(monkeypatch):
    monkeypatch.setitem(runs.GROKKING, "full", {**runs.GROKKING["full"], "steps": 2,
                                                "alphas": (1.0, 3.0), "taus": (1.0,), "seeds": (0,)})
    result, _ = runs.grokking_run.__wrapped__("full")
    assert result["hit_test"].shape == (2,) and 0 < result["embedding_share"] < 0.06


def test_full_scale_panels_record_a_verdict(monkeypatch):
    """The verify side of the full tests (panel measurements and Setup) on a few steps."""
    from verify.outcome import ClaimRecorder
    from verify.rich_quick import test_fig6 as panels
    monkeypatch.setitem(runs.GROKKING, "full", {**runs.GROKKING["full"], "steps": 2,
                                                "alphas": (1.0, 3.0), "taus": (1.0,), "seeds": (0,)})
    monkeypatch.setitem(runs.HIERARCHY, "full", {**runs.HIERARCHY["full"], "sizes": (64,),
                                                 "epochs": 1, "seeds": (0,)})
    monkeypatch.setattr(runs, "grokking_run", runs.grokking_run.__wrapped__)
    monkeypatch.setattr(runs, "hierarchy_run", runs.hierarchy_run.__wrapped__)
    results = {}
    for cid, panel in (("GRQ-Exp-Fig6d", panels.grokking_panel),
                       ("GRQ-Exp-Fig6c", panels.hierarchy_panel)):
        recorder = ClaimRecorder(results, [cid])
        ms, setup, _, _ = panel(recorder, "full")
        recorder.reproduced(*ms, setup=setup)
        assert setup.scale == "full" and results[cid].verdict in ("holds", "inconclusive")
