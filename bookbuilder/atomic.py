"""Write an artifact atomically: a temporary file in the same folder, renamed over the target.

A build that fails or is interrupted leaves the previous artifact byte for byte."""
from __future__ import annotations

import contextlib
import errno
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
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError) and e.errno in _CANNOT_WRITE:  # a full disk is the user's to fix: one line
            raise BookError("E007", f"cannot write: {e.strerror}", str(target)) from None
        raise


# Errors that can only mean the artifact could not be written, whatever step of the build met them.
_CANNOT_WRITE = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS}
