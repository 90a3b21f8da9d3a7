"""Imports every module of a paper package, so that adding a module registers its claims."""
import importlib
import pkgutil


def import_submodules(package_name: str, package_path) -> None:
    for info in sorted(pkgutil.iter_modules(package_path), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package_name}.{info.name}")
