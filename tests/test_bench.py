"""The benchmark's pieces on tiny sizes: the batched and looped runs agree exactly, and both sides
of the closed-form comparison agree (speed itself is measured by ``python -m numerics.bench``)."""
from numerics.bench import batched_vs_loop, closed_form_vs_ode


def test_batched_and_looped_training_give_identical_weights():
    result = batched_vs_loop(steps=5)
    assert result["identical_to_1e-12"] and result["K"] == 64


def test_closed_forms_agree_with_the_integrated_flows():
    result = closed_form_vs_ode(points=200)
    assert result["mode_law"]["max_rel_diff"] < 1e-8
    assert result["lambda_balanced_qq"]["max_rel_diff"] < 1e-8
