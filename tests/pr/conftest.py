from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.pr.fake_hosts import FakeHosts, Pull

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SESSION_DIFF = (EXAMPLES / "session_store.diff").read_text()
THUMBNAIL_DIFF = (EXAMPLES / "thumbnail_paths.diff").read_text()

GITLAB_FILES = [
    {"old_path": "lib/pay.rb", "new_path": "lib/pay.rb", "a_mode": "100644",
     "b_mode": "100644", "new_file": False, "renamed_file": False, "deleted_file": False,
     "diff": "@@ -1,3 +1,3 @@\n def charge(amount)\n-  gateway.charge(amount)\n"
             "+  gateway.charge(amount, retries: 10)\n end\n"},
    {"old_path": "lib/old_util.rb", "new_path": "lib/util.rb", "a_mode": "100644",
     "b_mode": "100644", "new_file": False, "renamed_file": True, "deleted_file": False,
     "diff": ""},
    {"old_path": "app/token.py", "new_path": "app/token.py", "a_mode": "0", "b_mode": "100644",
     "new_file": True, "renamed_file": False, "deleted_file": False,
     "diff": "@@ -0,0 +1,2 @@\n+API_TOKEN = \"abcdef123456\"\n+print(API_TOKEN)\n"},
    {"old_path": "vendor/big.min.js", "new_path": "vendor/big.min.js", "a_mode": "100644",
     "b_mode": "100644", "new_file": False, "renamed_file": False, "deleted_file": False,
     "diff": "", "too_large": True, "collapsed": True},
]


# More than one page of 100: the fetch must follow X-Next-Page.
MANY_FILES = [
    {"old_path": f"src/mod_{i}.py", "new_path": f"src/mod_{i}.py", "new_file": False,
     "renamed_file": False, "deleted_file": False,
     "diff": f"@@ -1 +1 @@\n-LIMIT_{i} = 1\n+LIMIT_{i} = 2\n"} for i in range(110)]


@pytest.fixture
async def hosts() -> AsyncIterator[FakeHosts]:
    fake = FakeHosts(
        github={("acme/shop", 7): Pull(SESSION_DIFF),
                ("acme/secret", 3): Pull(THUMBNAIL_DIFF, private=True),
                ("acme/huge", 1): Pull(SESSION_DIFF, too_large="files", changed_files=512,
                                       additions=30_000, deletions=12_000),
                ("acme/long", 2): Pull(SESSION_DIFF, too_large="lines", changed_files=40,
                                       additions=25_000, deletions=100)},
        gitlab={("group/sub/proj", 12): GITLAB_FILES + MANY_FILES},
        gitlab_private={("group/sub/proj", 12)})
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture(autouse=True)
def _no_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests decide which token is set, whatever the machine's environment holds."""
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    monkeypatch.delenv("GITLAB_TOKEN", raising=False)
