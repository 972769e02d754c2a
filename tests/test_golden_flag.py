import os

import pytest


def test_regenerate_flag_is_off_in_ci() -> None:
    """A snapshot regenerated in CI would pass unreviewed; refuse that."""
    if os.environ.get("CI") and os.environ.get("ARTIFACTCHECK_REGEN_GOLDEN") == "1":
        pytest.fail("ARTIFACTCHECK_REGEN_GOLDEN=1 is set in CI; golden files must be reviewed")
    assert os.environ.get("ARTIFACTCHECK_REGEN_GOLDEN") in (None, "", "0", "1")
