"""The analysis package loads its names on first use: the settings and the catalogue read
two small modules of it (the kinds' names, the watched terms' rules), and every command
loads those, so the classifier behind the package's names must not come with them."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
import quietedit.config.catalogue, quietedit.config.settings
before = sorted(m for m in sys.modules if m.startswith("quietedit.analysis"))
from quietedit.analysis import Significance, classify_change, diff_revisions
print(json.dumps({"before": before, "classify": classify_change.__module__,
                  "diff": diff_revisions.__module__, "low": Significance(0).name}))
"""


def test_the_configuration_loads_no_classifier_and_the_names_still_resolve() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    found = json.loads(done.stdout)
    assert found["before"] == [
        "quietedit.analysis",
        "quietedit.analysis.findings",
        "quietedit.analysis.watch",
    ]
    assert found["classify"] == "quietedit.analysis.classify"
    assert found["diff"] == "quietedit.analysis.diff"
    assert found["low"]
