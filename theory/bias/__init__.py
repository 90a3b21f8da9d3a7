"""Claims of "Bias-mediated early linearization drives simplicity bias in ReLU networks (BL-)".

Every module of this package registers its claims when imported; all are imported here.
"""
from theory._autoload import import_submodules

import_submodules(__name__, __path__)
