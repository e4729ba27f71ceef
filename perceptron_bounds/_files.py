"""Files written whole or not at all: a write goes to a temporary name, renamed when done.

Saved runs, figures, CSV tables and reports are written this way, so that a
Ctrl-C or an error half way leaves no partial file under the real name.
"""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager, suppress


@contextmanager
def replacing(path):
    """Yield a temporary path beside ``path``; renamed over ``path`` only if the block ends well.

    An interrupted or failed write leaves ``path`` as it was (absent, or the
    old file whole) and no temporary file behind. The temporary name keeps
    the extension of ``path``, for writers that choose a format by it.
    """
    path = os.fspath(path)
    folder, name = os.path.split(path)
    temp = os.path.join(folder, f".{secrets.token_hex(6)}.{name}")
    try:
        yield temp
        os.replace(temp, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.remove(temp)
        raise
