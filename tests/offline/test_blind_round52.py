"""What blind round 52's readers judged wrong (bench/blind/round52), fixed after the round: an
import a string names as a type (`DestinationLoadJob["pyarrow.RecordBatch"]`), and the name a
secret is looked up by taken for the secret. Each beside a case still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

TYPED = '''from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dlt.common.libs.pyarrow import pyarrow
    from dlt.common.libs import pandas


class ParquetLoadJob(LoadJob["pyarrow.RecordBatch"]):
    batch_size = 1000
'''


def test_an_import_a_string_names_as_a_type_is_used():
    assert said_lines(TYPED, Topic.UNUSED_IMPORT) == {5}


NAMES = '''GIT_SSH_PRIVATE_KEY_SECRET_NAME = 'mage_git_ssh_private_key_b64'
API_TOKEN = 'a81f2c9e77d04b1fa3c5e6d7'


def key_name():
    return GIT_SSH_PRIVATE_KEY_SECRET_NAME, API_TOKEN
'''


def test_the_name_a_secret_is_looked_up_by_is_no_secret():
    assert said_lines(NAMES, Topic.SECRET) == {2}
