"""The tree-sitter grammars the script readings parse with, loaded without their packages' start-up.

A grammar wheel (`tree_sitter_bash`, `tree_sitter_javascript`, `tree_sitter_typescript`) is a package whose
`__init__` imports `importlib.resources` for a highlighting query this project never reads, and that import
pulls in `pathlib`, `tempfile`, `shutil`, `bz2`, `lzma`, `random` and `urllib.parse`: 7 to 14 ms of every
process that parses one shell block (both processes of a spread `check`), more than parsing every script of
a 128-skill tree. The grammar itself is the package's compiled `_binding` module: `binding` finds the
package's folder without running the package and loads that module from it. Where a wheel is laid out
otherwise (no `_binding` beside its `__init__`), or the package is already imported, the package itself is
used, as before.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from types import ModuleType


def binding(package: str) -> ModuleType:
    """The module holding `package`'s grammar functions (`language()`, `language_typescript()`...): its
    `_binding`, loaded alone. Raises ImportError when the package is not installed."""
    if package in sys.modules:
        return sys.modules[package]
    name = f"{package}._binding"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.machinery.PathFinder.find_spec(package)  # finds the folder; runs nothing
    folders = spec.submodule_search_locations if spec is not None else None
    inner = importlib.machinery.PathFinder.find_spec(name, list(folders)) if folders else None
    if inner is None or not isinstance(inner.loader, importlib.machinery.ExtensionFileLoader):
        return importlib.import_module(package)  # another layout: the package's own import (or ImportError)
    module = importlib.util.module_from_spec(inner)
    inner.loader.exec_module(module)
    # under its own name, so that an `import` of the package later (another tool in the process) finds it
    sys.modules[name] = module
    return module
