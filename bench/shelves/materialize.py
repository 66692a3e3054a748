"""Write the books of a shelf .tsv out of local git copies of their repositories.

Usage:
    python bench/shelves/materialize.py bench/shelves/heldout.tsv --repos DIR --out /tmp/shelf/heldout

DIR holds one git copy per repository, named ``<owner>+<repo>`` (a bare clone, a normal
clone, or a snapshot that keeps its git dir in ``repo/`` or ``repo/.git``). Each copy must
contain the row's commit. Only the standard library and the ``git`` command are used.

A ``file`` row becomes ``OUT/<local_name>`` with the blob's exact bytes (no decoding: the
encoding column is a guess for the reader, the bytes are the test). A ``folder`` row becomes
``OUT/<local_name>/`` holding every ``.txt`` file directly inside the repository's folder,
under its own name (a ``目录.txt`` included).
"""

import argparse
import csv
import os
import subprocess
import sys

COLUMNS = ["repo", "commit", "path", "kind", "bytes", "encoding", "local_name"]


def git_dir(repos, repo):
    """The git dir of ``repo`` under ``repos``, whatever layout the copy has."""
    base = os.path.join(repos, repo.replace("/", "+", 1))
    for cand in (
        base,
        os.path.join(base, ".git"),
        os.path.join(base, "repo"),
        os.path.join(base, "repo", ".git"),
    ):
        if os.path.isfile(os.path.join(cand, "HEAD")) and os.path.isdir(os.path.join(cand, "objects")):
            return cand
    raise SystemExit(f"no git copy of {repo} under {base}")


def git(gdir, *args):
    """Run git on ``gdir`` and return stdout as bytes; stop with git's message on failure."""
    proc = subprocess.run(["git", "--git-dir", gdir, *args], capture_output=True)
    if proc.returncode:
        raise SystemExit(f"git {' '.join(args)} in {gdir}: {proc.stderr.decode('utf-8', 'replace').strip()}")
    return proc.stdout


def folder_files(gdir, commit, path):
    """(name, blob id) of the .txt blobs directly inside ``path`` at ``commit``."""
    out = git(gdir, "ls-tree", "-z", commit, path.rstrip("/") + "/")
    files = []
    for entry in out.split(b"\0"):
        if not entry:
            continue
        meta, name = entry.split(b"\t", 1)
        _, kind, sha = meta.split()
        name = name.decode("utf-8")
        if kind == b"blob" and name.lower().endswith(".txt"):
            files.append((name.rsplit("/", 1)[-1], sha.decode()))
    return files


def write_row(row, repos, out):
    """Materialize one shelf row; return the number of bytes written."""
    gdir = git_dir(repos, row["repo"])
    target = os.path.join(out, row["local_name"])
    if row["kind"] == "file":
        data = git(gdir, "cat-file", "blob", f"{row['commit']}:{row['path']}")
        with open(target, "wb") as fh:
            fh.write(data)
        return len(data)
    if row["kind"] != "folder":
        raise SystemExit(f"unknown kind {row['kind']!r} for {row['repo']} {row['path']}")
    os.makedirs(target, exist_ok=True)
    total = 0
    for name, sha in folder_files(gdir, row["commit"], row["path"]):
        data = git(gdir, "cat-file", "blob", sha)
        with open(os.path.join(target, name), "wb") as fh:
            fh.write(data)
        total += len(data)
    return total


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tsv")
    ap.add_argument("--repos", required=True, help="folder of git copies named <owner>+<repo>")
    ap.add_argument("--out", required=True, help="folder to write the books into")
    ap.add_argument("--only", help="materialize only rows whose local_name contains this text")
    args = ap.parse_args(argv)
    with open(args.tsv, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    if not rows or list(rows[0]) != COLUMNS:
        raise SystemExit(f"{args.tsv}: expected columns {COLUMNS}")
    os.makedirs(args.out, exist_ok=True)
    mismatches = written = 0
    for row in rows:
        if args.only and args.only not in row["local_name"]:
            continue
        size = write_row(row, args.repos, args.out)
        written += 1
        if size != int(row["bytes"]):
            mismatches += 1
            print(f"size differs: {row['local_name']}: {size} != {row['bytes']}", file=sys.stderr)
    print(f"{written} of {len(rows)} rows written, {mismatches} size mismatches -> {args.out}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
