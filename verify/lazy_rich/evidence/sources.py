"""The authors' released code the LR- setups cite."""

REPO = "Nico31415/LinearNetworkDynamics"
NOTEBOOK = f"{REPO}/qqt_dynamics_figure.ipynb"
UTILS = f"{REPO}/utils.py"
