"""bookbuilder: raw Chinese web-novel chapters in, a clean EPUB 3 and PDF out.

As a library (README's "As a library" has the example a test runs):

    from bookbuilder import build, check, load_book

    loaded = load_book("my-novel")       # a book.toml project, a folder of chapter files, or one .txt
    diagnostics = check(loaded)          # what `bookbuilder check` lists (outputs=True: the built files too)
    path, notes = build(loaded, "epub")  # build/<name>.epub; "kepub", "pdf" and "azw3" alike

Each name is imported when first used (module __getattr__), so that `bookbuilder --version` and
`import bookbuilder` load no stage.
"""

from __future__ import annotations

import sys
import types

__version__ = "0.1.0"

# name → (module, attribute): what `from bookbuilder import …` gives, and where it is made
_API = {
    "load_book": ("bookbuilder.pipeline", "load_book"),
    "build": ("bookbuilder.pipeline", "build"),
    "check": ("bookbuilder.pipeline", "check"),
    "Loaded": ("bookbuilder.pipeline", "Loaded"),
    "BookError": ("bookbuilder.diagnostics", "BookError"),
    "Diagnostic": ("bookbuilder.diagnostics", "Diagnostic"),
}
__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name not in _API:
        raise AttributeError(f"module 'bookbuilder' has no attribute {name!r}")
    import importlib

    module, attribute = _API[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value  # the next use finds it at once
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


class _Package(types.ModuleType):
    """This package, keeping its API's names: importing the subpackage bookbuilder.check would bind
    it here as `check` (the import system sets a submodule on its parent), hiding check(). Code
    reaches the subpackage by its full name (`from bookbuilder.check import report`), which
    sys.modules answers, never as an attribute of this package."""

    def __setattr__(self, name: str, value) -> None:
        if name in _API and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)

    def __reduce__(self):
        # pickled by name, as a plain module is (a Dask worker's answer may hold it): imported there
        import importlib

        return importlib.import_module, (self.__name__,)


sys.modules[__name__].__class__ = _Package  # Python's documented way to customize a module
