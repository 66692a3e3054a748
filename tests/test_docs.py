from pathlib import Path

from bookbuilder.diagnostics import CODES

REPO = Path(__file__).resolve().parent.parent


def test_diagnostics_catalogue_documents_every_code():
    doc = (REPO / "docs" / "diagnostics.md").read_text("utf-8")
    for code, (severity, meaning) in CODES.items():
        assert f"| {code} | {severity} | {meaning} |" in doc


def test_readme_has_the_two_commands_that_ci_runs():
    readme = (REPO / "README.md").read_text("utf-8")
    ci = (REPO / ".ci" / "run").read_text("utf-8")
    assert "bash scripts/setup.sh" in readme and "bash scripts/setup.sh" in ci
    assert ".venv/bin/python -m pytest" in readme and ".venv/bin/python -m pytest" in ci
