"""glibc's mapping threshold, fixed for the table's long runs."""

import platform

import pytest

from domino_common.lean_memory import MAX_THRESHOLD, lean_malloc


@pytest.mark.parametrize("threshold", [0, -1, MAX_THRESHOLD + 1])
def test_a_threshold_glibc_would_not_take_is_refused(threshold: int) -> None:
    with pytest.raises(ValueError, match="mapping threshold"):
        lean_malloc(threshold)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_the_mapping_threshold_is_set_through_glibc() -> None:
    assert lean_malloc() is True
