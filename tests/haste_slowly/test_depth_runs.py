"""The Sec 6 depth runs (MHS-S6-C1..C3, MHS-Fig6) as used by their ci and full tests and by
``python -m numerics.full_scale``: fractions, records and dtypes."""
import numpy as np
import pytest
import torch

from numerics.haste_slowly import experiments as E

TINY = dict(width=8, std=1e-2, lr=4e-3, steps=40, seeds=(0, 1), record_every=10, dtype="float64")


def test_a_fraction_trains_that_share_of_the_steps_on_the_same_record_schedule():
    run = E.depth_runs(TINY, fraction=0.5, kinds=("relu",))["relu"]
    assert run.hist.steps.tolist() == [0, 10, 20]
    assert run.hist.loss.shape == (3, 2)
    assert run.hist.records["g2"].shape == (1, 2, 8, 24)      # gates at the end of training only


def test_float32_net_is_the_float64_net_rounded():
    n64 = E.depth_net("gdln", 8, 1e-2, (0, 1))
    n32 = E.depth_net("gdln", 8, 1e-2, (0, 1), dtype="float32")
    assert all(w.dtype == torch.float32 for w in n32.weights)
    assert all(np.allclose(a.numpy(), b.numpy(), rtol=1e-7) for a, b in zip(n32.weights, n64.weights))


@pytest.mark.parametrize("call, match", [
    (lambda: E.depth_runs(TINY, fraction=0.0), "fraction"),
    (lambda: E.depth_runs(TINY, fraction=1.5), "fraction"),
    (lambda: E.depth_net("wide", 8, 1e-2, (0,)), "kind"),
])
def test_bad_arguments_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_full_scale_cli_rejects_a_fraction_outside_the_unit_interval(capsys):
    from numerics import full_scale
    with pytest.raises(SystemExit):
        full_scale.main(["--fraction", "0", "--out", "/dev/null"])
    assert "fraction" in capsys.readouterr().err
