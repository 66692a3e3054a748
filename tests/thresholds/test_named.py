"""Every threshold has its row (in the stages' modules beside this one, or in NO_FIXTURE with why),
and no bare number decides in normalize/ or structure/."""

import ast
import importlib
from pathlib import Path

import bookbuilder

# module.NAME → why no input lets it alone decide (none so far)
NO_FIXTURE: dict[str, str] = {}


def _numeric_constants() -> set[str]:
    """module.NAME of every upper-case module-level number (or tuple of numbers) in normalize/,
    structure/ and the workbench's judges (serve/guard.py, serve/preview.py)."""
    found = set()
    root = Path(bookbuilder.__file__).parent
    judged = [
        (stage, path) for stage in ("normalize", "structure") for path in sorted((root / stage).glob("*.py"))
    ]
    judged += [("serve", root / "serve" / "guard.py"), ("serve", root / "serve" / "preview.py")]
    for stage, path in judged:
        module = importlib.import_module(f"bookbuilder.{stage}.{path.stem}")
        for node in ast.parse(path.read_text("utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                for name in target.elts if isinstance(target, ast.Tuple) else [target]:
                    value = getattr(module, getattr(name, "id", ""), None)
                    values = value if isinstance(value, tuple) and value else (value,)
                    if (
                        name.id.isupper()
                        and not name.id.startswith("_")
                        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
                    ):
                        found.add(f"{path.stem}.{name.id}")
    return found


def _rows() -> list:
    """Every stage's rows: the ROWS of each test module beside this one."""
    here = Path(__file__)
    return [
        row
        for path in sorted(here.parent.glob("test_*.py"))
        if path != here
        for row in importlib.import_module(f"tests.thresholds.{path.stem}").ROWS
    ]


def test_every_threshold_is_named():
    constants = _numeric_constants()
    rows = {t.constant for t in _rows()}
    assert constants - rows - set(NO_FIXTURE) == set(), "a threshold with no fixture"
    assert (rows | set(NO_FIXTURE)) - constants == set(), "a name that is no constant"
    assert not rows & set(NO_FIXTURE)


_PLAIN_NUMBERS = {0, 1, 2, -1}  # an empty, one, a pair, the last: not thresholds


def _bare_numbers() -> list[str]:
    """path:line: number of each number other than 0, 1, 2, -1 written in a comparison in normalize/
    and structure/ (a threshold with no name)."""
    found = []
    root = Path(bookbuilder.__file__).parent
    for stage in ("normalize", "structure"):
        for path in sorted((root / stage).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if not isinstance(node, ast.Compare):
                    continue
                for side in (node.left, *node.comparators):
                    negative = isinstance(side, ast.UnaryOp) and isinstance(side.op, ast.USub)
                    number = side.operand if negative else side
                    if (
                        isinstance(number, ast.Constant)
                        and isinstance(number.value, (int, float))
                        and not isinstance(number.value, bool)
                        and (-number.value if negative else number.value) not in _PLAIN_NUMBERS
                    ):
                        found.append(f"{stage}/{path.name}:{node.lineno}: {ast.unparse(side)}")
    return found


def test_no_bare_number_decides():
    """A threshold in a comparison is a named constant (with its row in its stage's module), never a bare
    number."""
    assert _bare_numbers() == []
