"""What blind round 48's readers judged wrong or weak (bench/blind/round48), fixed after the
round: unused imports in a file that says it is generated, `exec` in a command made to run
code, blocking I/O in a command-line wizard that imports a web client, and `dict.get` urged
inside the `get` a mapping class defines. Each beside a case still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

GENERATED = '''# # # # # # # # # # # # # # # # # # # # # # # #
#               !!! WARNING !!!               #
#          This is a generated file!          #
# All changes made in this file will be lost! #
# # # # # # # # # # # # # # # # # # # # # # # #

from typing import Union
from pyrogram import raw

Color = Union[int, str]


def read(data):
    return Color(data)
'''


def test_a_generated_file_s_imports_are_the_generator_s():
    assert said_lines(GENERATED, Topic.UNUSED_IMPORT) == set()
    assert said_lines(GENERATED.replace("This is a generated file!", "This is a plain file!")
                      .replace("All changes made in this file will be lost!", "Edit freely."),
                      Topic.UNUSED_IMPORT) == {8}


DEBUG = '''class Debug:
    @slash_command("debug", sub_cmd_name="exec", sub_cmd_description="Run arbitrary code")
    async def debug_tool(self, ctx, body):
        exec(body, {"ctx": ctx})

    async def preview(self, ctx, body):
        exec(body, {"ctx": ctx})
'''


def test_exec_in_a_command_made_to_run_code_is_its_purpose():
    assert said_lines(DEBUG, Topic.EVAL) == {7}


WIZARD = '''import argparse
import asyncio

import aiohttp


async def generate_bot(path):
    with open(path, "w") as out:
        out.write("TOKEN=")


def main():
    asyncio.run(generate_bot(argparse.ArgumentParser().parse_args().path))
'''


def test_a_cli_that_imports_a_web_client_serves_nothing():
    assert said_lines(WIZARD, Topic.BLOCKING_IO) == set()
    served = WIZARD.replace("import aiohttp", "from aiohttp import web")
    assert said_lines(served, Topic.BLOCKING_IO) == {8}


MAPPING = '''class Features(dict):
    def get(self, name, default=None):
        return self[name] if name in self else default

    def limit(self, name):
        return self[name] if name in self else 0
'''


def test_the_get_a_mapping_defines_is_not_told_to_call_get():
    assert said_lines(MAPPING, Topic.SIMPLIFY, source="SIM401") == {6}
