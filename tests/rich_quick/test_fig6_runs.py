"""The Fig. 6 runs (``numerics.rich_quick.experiments``): the paper-scale configurations record
the paper's settings where it gives them (their Setups deviate only in what the paper leaves
open), the ci ones are not faithful, and every code path runs a few steps on small inputs."""
import numpy as np
import pytest
import torch

from numerics import image_data as idata
from numerics.rich_quick import configs as C
from numerics.rich_quick import experiments as X
from numerics.rich_quick import image_nets as inet
from verify.rich_quick import evidence as E


@pytest.fixture
def fake_images(monkeypatch, tmp_path):
    """MNIST / CIFAR-10 loaders returning a few random images (the loaders have their own tests)."""
    rng = np.random.default_rng(0)

    def images(n, ch, side):
        return rng.uniform(0, 1, (n, ch, side, side)), rng.integers(0, 10, n)
    monkeypatch.setattr(idata, "data_dir", lambda: tmp_path)
    monkeypatch.setattr(idata, "load_mnist", lambda folder, split="train": images(40, 1, 28))
    monkeypatch.setattr(idata, "load_cifar10", lambda folder, split="train": images(8, 3, 32))


def test_kernel_run_reports_what_it_trained_on():
    """GRQ-Exp-Fig6a: the ci run's Ran says 1,000 images, one epoch, 16 SGD steps (not the
    paper's 60,000 images and 500 epochs), so its Setup deviates there."""
    run = X.kernel(C.FIG6A.ci.replace(alphas=(1.0, 3.0), seeds=(0,)))
    assert run.ran["training images"] == 1000 and run.ran["SGD steps"] == 16
    deviating = {d.setting for d in E.fig6_setup(run, "a").deviations}
    assert {"training images", "SGD steps", "epochs", "data"} <= deviating


def test_paper_scale_kernel_run_runs(fake_images):
    run = X.kernel(C.FIG6A.full.replace(epochs=1, batch=16, ntk_images=4, seeds=(10_000,)))
    assert run.S.shape == (3, 1) and run.ran["training images"] == 40


def test_paper_scale_filters_run_runs_on_cifar_shaped_inputs(fake_images):
    run = X.filters(C.FIG6B.full.replace(epochs=1, batch=4, alphas=(1.0,), seeds=(10_000,)))
    assert run.rough_end.shape == (1, 1) and run.rough_end != run.rough_init
    assert run.ran["first-layer filter size"] == "15x15"


def test_dawn_network_is_invariant_to_the_alpha_scaling_at_init():
    """Batch norm after every conv: dividing the filters by alpha leaves the function unchanged
    (up to BN's epsilon), as D.3 intends ('which keeps the network functionally the same')."""
    x = torch.as_tensor(np.random.default_rng(1).uniform(0, 1, (4, 3, 32, 32)), dtype=torch.float32)
    f = {a: inet.dawn_forward(inet.stack([inet.dawn_init(0, a)]), x) for a in (0.3, 1.0)}
    assert torch.allclose(f[0.3], f[1.0], rtol=1e-3, atol=1e-4)


def test_paper_scale_hierarchy_settings_are_the_papers_but_the_sizes():
    """GRQ-Exp-Fig6c: a few steps at the paper's configuration; its Setup deviates only in the
    training sizes D.3 does not give, and its data pass D.3's description."""
    cfg = C.FIG6C.full.replace(sizes=(64,), epochs=1, alphas=(1.0, 10.0), seeds=(10_000,),
                               test=256)
    run = X.hierarchy(cfg)
    assert run.accuracy.shape == (1, 1, 2)
    missing = {d.setting for d in E.fig6_setup(run, "c").missing}
    assert missing == {"training sizes", "epochs", "alphas", "runs per alpha", "test inputs"}
    assert all(m.passed for m in E.fig6c_data(run))


def test_paper_scale_grokking_run_runs():
    run = X.grokking(C.FIG6D.full.replace(steps=2, alphas=(1.0, 3.0), taus=(1.0,),
                                          seeds=(10_000,)))
    assert run.hit_test.shape == (1, 2, 1) and 0 < run.embedding_share < 0.06
