"""A long-running process that reads camera frames frees image-sized blocks all the time.

glibc's allocator maps a block of at least its threshold on its own and unmaps it when freed,
but it raises that threshold to the size of each mapped block freed (up to 32 MB on 64-bit), so
before long a frame's arrays come from the heap, whose top it returns to the system only when
nothing above is still held: the resident size creeps up to the most ever held at once, and
more. :func:`lean_malloc` fixes the threshold at ``threshold`` bytes, so image-sized blocks are
mapped and unmapped on their own and the process holds about what it uses.
"""

from __future__ import annotations

import ctypes
import ctypes.util

#: ``mallopt``'s parameter for the mapping threshold (glibc's malloc.h).
_M_MMAP_THRESHOLD = -3


#: The largest threshold glibc takes on 64-bit (half its largest heap).
MAX_THRESHOLD = 32 * 1024 * 1024


def lean_malloc(threshold: int = 256 * 1024) -> bool:
    """Fix glibc's mapping threshold at ``threshold`` bytes (1 to :data:`MAX_THRESHOLD`, else
    ValueError); False where the C library has no ``mallopt`` (nothing is changed)."""
    if not 0 < threshold <= MAX_THRESHOLD:
        raise ValueError(f"a mapping threshold is 1 to {MAX_THRESHOLD} bytes, not {threshold}")
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, threshold))
