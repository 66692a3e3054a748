"""Write an artifact atomically: a temporary file in the same folder, renamed over the target.

A build that fails or is interrupted leaves the previous artifact byte for byte."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import tempfile
from pathlib import Path

from bookbuilder.diagnostics import BookError

_interrupted = False


def watch_interrupts() -> None:
    """From here on, Ctrl-C stops the build and no artifact is put in place after it. Python raises
    KeyboardInterrupt wherever the signal lands, and one that lands in a destructor (WeasyPrint's
    font configuration has one) is printed and lost: the build would carry on and replace the
    earlier artifact. So the interrupt is also remembered, and atomic_path refuses to finish."""
    global _interrupted
    _interrupted = False

    def interrupted(signum, frame):
        global _interrupted
        _interrupted = True
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupted)
    default = sys.__unraisablehook__

    def unraisable(info):  # the one in a destructor is remembered above: no traceback for it
        if not issubclass(info.exc_type, KeyboardInterrupt):
            default(info)

    sys.unraisablehook = unraisable


def was_interrupted() -> bool:
    return _interrupted


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
        if _interrupted:
            raise KeyboardInterrupt
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
