"""What blind round 107's readers judged wrong (bench/blind/round107), fixed after the round:
an import a comment above says loads an API's bindings (it registers types the module reads
through another name) called unused. An import with no such comment is still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

BINDINGS = '''import json
from pyVmomi import vim
# Import the vSAN API python bindings
import vsanmgmtObjects


def health(cluster):
    return vim.cluster.VsanVcClusterHealthSystem(cluster)
'''


def test_an_import_said_to_load_bindings_is_kept():
    assert said_lines(BINDINGS, Topic.UNUSED_IMPORT) == {1}
