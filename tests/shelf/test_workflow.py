"""The sharded shelf workflow says what it does: N shards, each a `--shard K/N` build, and a last
job that gathers them and writes the catalogue."""

import yaml

from tests.conftest import REPO


def test_the_matrix_builds_every_shard_once_and_the_last_job_gathers_them():
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "shelf.yml").read_text("utf-8"))
    shards = int(workflow["env"]["SHARDS"])
    build = workflow["jobs"]["build"]
    assert build["strategy"]["matrix"]["shard"] == list(range(1, shards + 1))
    runs = [step.get("run", "") for step in build["steps"]]
    assert any("--shard ${{ matrix.shard }}/$SHARDS" in run for run in runs)
    catalog = workflow["jobs"]["catalog"]
    assert catalog["needs"] == "build"
    steps = catalog["steps"]
    gather = next(s for s in steps if s.get("uses", "").startswith("actions/download-artifact"))
    assert gather["with"]["merge-multiple"] is True
    assert any('bookbuilder catalog "$SHELF"' in s.get("run", "") for s in steps)
