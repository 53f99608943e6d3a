"""What blind rounds 63 and 64's readers judged weak or wrong (bench/blind/round63, round64),
fixed after the rounds: a submodule's import whose full path the code reads (patched by a
function that imports the package again), a template engine's autoescape off where nothing is
HTML (a project generator writing Python from a `.py-tpl`), and a grammar module whose banner
gives the date it was generated. An import nothing reads, and autoescape off where a page is
rendered, are still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic

PATCHED = '''import bonobo.util.environ
import json


def override(parser):
    import bonobo

    saved = bonobo.util.environ.get_argument_parser
    bonobo.util.environ.get_argument_parser = parser
    return saved
'''


def test_a_submodule_import_whose_path_is_read_is_used():
    assert said_lines(PATCHED, Topic.UNUSED_IMPORT) == {2}


GENERATOR = '''import os

from jinja2 import Environment, FileSystemLoader


def create(template, filename):
    env = Environment(loader=FileSystemLoader("templates"))
    source = env.get_template(template + ".py-tpl")
    with open(filename, "w") as f:
        f.write(source.render(name=os.path.basename(filename)))
'''
PAGE = GENERATOR.replace('".py-tpl"', '".html"')


def test_autoescape_off_is_said_only_where_html_is_rendered():
    assert said_lines(GENERATOR, Topic.XSS) == set()
    assert said_lines(PAGE, Topic.XSS) == {7}


def test_a_banner_dating_the_generation_marks_a_generated_file():
    banner = "# Generated on 2020-07-14 06:23:48.749257\n\nimport os\n"
    assert analyze(banner, "python").generated
    assert not analyze("# ids generated on the fly\n\nimport os\n", "python").generated
