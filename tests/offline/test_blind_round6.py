"""What blind round 6's readers judged wrong (bench/blind/round6), one idiom a test, each on a
small piece of code written for the test, next to the same construct where the finding
stands: a detector that cannot be precise on an idiom says nothing there (issue 24)."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze


def found(code: str) -> set[tuple[int, str]]:
    return {(f.line, str(f.topic)) for f in analyze(code, "python").findings}


def topics(code: str) -> set[str]:
    return {t for _, t in found(code)}


def test_every_name_of_a_parenthesised_import_from_a_private_module_is_passed_on() -> None:
    reexport = ("from _speedups import (fast_sum, fast_max,\n"
                "                       fast_min, _scratch)\n")
    plain = ("from mathutils import (fast_sum, fast_max,\n"
             "                       fast_min)\nprint(1)\n")
    assert "unused_import" not in topics(reexport)
    assert (2, "unused_import") in found(plain)


def test_a_continued_import_inside_an_import_error_guard_is_a_probe() -> None:
    guarded = ("try:\n    from readline import (parse_and_bind,\n"
               "                          set_completer)\nexcept ImportError:\n    pass\n")
    assert "unused_import" not in topics(guarded)


def test_a_helper_the_module_deletes_after_building_its_table_is_no_undefined_name() -> None:
    cleaned = ("table = {}\n\n\ndef put(name, code):\n    table[name] = code\n\n\n"
               "def put_jump(name, code):\n    put(name, code)\n\n\n"
               "put_jump('JUMP', 1)\n\ndel put, put_jump\n")
    never = "def put_jump(name, code):\n    put(name, code)\n"
    used_too_early = "put(1)\n\n\ndef put(x):\n    return x\n"
    assert "undefined_name" not in topics(cleaned)
    assert (2, "undefined_name") in found(never)
    assert (1, "undefined_name") in found(used_too_early)


def test_names_a_module_makes_at_run_time_are_not_called_undefined() -> None:
    lazy = ("__all__ = ['Loader']\n\n\ndef __getattr__(name):\n"
            "    import importlib\n    return importlib.import_module('.' + name, __name__)\n")
    written = ("__all__ = ['RED']\nfor n, v in [('RED', 1)]:\n    globals()[n] = v\n\n\n"
               "def first():\n    return RED\n")
    package = "from pkgutil import extend_path\n__path__ = extend_path(__path__, __name__)\n"
    assert "undefined_name" not in topics(lazy) | topics(written) | topics(package)
    assert (2, "undefined_name") in found("def load():\n    return Loader\n")


def test_a_raise_through_catch_all_cleanup_that_raises_again_is_not_tangled() -> None:
    cleanup = ("def ask(worker):\n    try:\n        reply = worker.read()\n"
               "        if not reply.startswith(b'OK'):\n"
               "            raise RuntimeError('bad reply')\n    except BaseException as exc:\n"
               "        worker.kill()\n        if isinstance(exc, KeyboardInterrupt):\n"
               "            raise\n        else:\n"
               "            raise OSError('worker died') from exc\n"
               "    return reply\n")
    jump = ("def split(line):\n    try:\n        name, value = line.split('=', 1)\n"
            "        if ':' in name:\n            raise ValueError()\n    except ValueError:\n"
            "        name, value = line.split(':', 1)\n    return name, value\n")
    assert "error_flow" not in topics(cleanup)
    assert (5, "error_flow") in found(jump)


def test_a_raise_that_is_the_whole_try_is_raised_to_be_caught() -> None:
    code = ("try:\n    raise KeyError\nexcept KeyError as caught:\n"
            "    TracebackKind = type(caught.__traceback__)\n")
    assert "error_flow" not in topics(code)


def test_pickle_over_the_pipe_to_a_worker_the_module_starts_is_its_protocol() -> None:
    worker = ("import pickle\nimport subprocess\nimport sys\n\n\ndef call(func, *args):\n"
              "    child = subprocess.Popen([sys.executable, '-m', 'pool'],\n"
              "                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)\n"
              "    child.stdin.write(pickle.dumps((func, args)))\n"
              "    return pickle.loads(child.stdout.read())\n")
    reader = "import pickle\n\n\ndef read(blob):\n    return pickle.loads(blob)\n"
    assert "unsafe_deserialize" not in topics(worker)
    assert (5, "unsafe_deserialize") in found(reader)


def test_a_command_s_main_and_the_loop_it_drives_print_to_their_user() -> None:
    code = ("import time\n\n\nclass Watcher:\n    def __init__(self, paths):\n"
            "        self.paths = paths\n\n    def changed(self):\n"
            "        for path in self.paths:\n            print('# changed', path)\n"
            "        return bool(self.paths)\n\n    def wait(self):\n"
            "        while not self.changed():\n            time.sleep(1)\n\n\n"
            "def watch_main(paths):\n    try:\n        Watcher(paths).wait()\n"
            "    except KeyboardInterrupt:\n        print()\n")
    library = ("class Store:\n    def save(self, item):\n        print('saved', item)\n"
               "        return item\n")
    assert "print_output" not in topics(code)
    assert (3, "print_output") in found(library)


def test_a_function_whose_job_is_to_print_prints() -> None:
    code = ("def show_summary(counts):\n    for name, count in counts.items():\n"
            "        print(name, count)\n")
    assert "print_output" not in topics(code)


def test_a_list_of_an_instance_made_for_one_call_does_not_outgrow_it() -> None:
    session = ("class Session:\n    def __init__(self):\n        self.failures = []\n\n"
               "    def record(self, report):\n        self.failures.append(report)\n\n"
               "    def main(self):\n        return list(self.failures)\n\n\n"
               "def run():\n    return Session().main()\n")
    kept = session.replace("return Session().main()", "SESSION = Session()\n    return SESSION")
    assert "unbounded_growth" not in topics(session)
    assert (6, "unbounded_growth") in found(kept)


def test_a_sleep_in_a_function_whose_job_is_to_wait_is_that_job() -> None:
    waits = ("import time\n\n\ndef wait_for_change(check):\n    while not check():\n"
             "        time.sleep(2)\n")
    retries = ("import time\n\n\ndef fetch(get):\n    while True:\n        try:\n"
               "            return get()\n        except OSError:\n            time.sleep(2)\n")
    assert "blocking_sleep" not in topics(waits)
    assert (9, "blocking_sleep") in found(retries)


def test_a_star_import_of_an_optional_accelerator_is_whatever_it_provides() -> None:
    guarded = ("MODE_FAST = 1\n\ntry:\n    from _fastmodes import *\nexcept ImportError:\n"
               "    pass\n")
    assert "import_style" not in topics(guarded)
    assert (1, "import_style") in found("from helpers import *\n")
