"""Write an artifact atomically: a temporary file in the same folder, renamed over the target.

A build that fails or is interrupted leaves the previous artifact byte for byte."""
from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from bookbuilder.diagnostics import BookError


@contextlib.contextmanager
def atomic_path(target: Path):
    """Yield a temporary path beside `target`; on success it replaces `target`."""
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as e:
        raise BookError("E007", f"cannot write here: {e.strerror}", str(target.parent)) from None
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
