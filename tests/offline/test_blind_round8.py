"""What blind round 8's readers judged wrong (bench/blind/round8), one idiom a test, each on a
small piece of code written for the test, next to the same construct where the finding
stands: a detector that cannot be precise on an idiom says nothing there (issue 24)."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze


def found(code: str, language: str = "python") -> set[tuple[int, str]]:
    return {(f.line, str(f.topic)) for f in analyze(code, language).findings}


def test_an_ignored_failure_whose_missing_result_is_tested_is_not_swallowed() -> None:
    probe = ("async function keepMode (target, opts) {\n"
             "  const info = await fsp.stat(target).catch(() => {})\n"
             "  if (info) {\n    opts.mode = info.mode\n  }\n  return opts\n}\n")
    dropped = ("async function save (target, data) {\n"
               "  await fsp.writeFile(target, data).catch(() => {})\n  return target\n}\n")
    assert (2, "swallowed_error") not in found(probe, "javascript")
    assert (2, "swallowed_error") in found(dropped, "javascript")


def test_removing_a_temp_file_that_may_be_gone_expects_the_failure() -> None:
    cleanup = ("async function publish (dest, data) {\n  const scratch = dest + '.part'\n"
               "  try {\n    await fsp.writeFile(scratch, data)\n"
               "    await fsp.rename(scratch, dest)\n  } finally {\n"
               "    await fsp.unlink(scratch).catch(() => {})\n  }\n}\n")
    temp = ("function drop (tmpPath) {\n  try {\n    fs.unlinkSync(tmpPath)\n"
            "  } catch {}\n  return true\n}\n")
    user_file = ("function forget (record) {\n  try {\n    fs.unlinkSync(record.path)\n"
                 "  } catch {}\n  return true\n}\n")
    assert (7, "swallowed_error") not in found(cleanup, "javascript")
    assert (4, "swallowed_error") not in found(temp, "javascript")
    assert (4, "swallowed_error") in found(user_file, "javascript")


def test_a_lookup_that_answers_nothing_is_fine_as_the_last_fallback() -> None:
    lookup = ("function hostLabel () {\n  try {\n    return require('os').hostname()\n"
              "  } catch {}\n}\n\nconst label = process.env.HOST || hostLabel()\n"
              "module.exports = { label }\n")
    relied_on = ("function hostLabel () {\n  try {\n    return require('os').hostname()\n"
                 "  } catch {}\n}\n\nconst label = hostLabel().toUpperCase()\n"
                 "module.exports = { label }\n")
    assert (4, "swallowed_error") not in found(lookup, "javascript")
    assert (4, "swallowed_error") in found(relied_on, "javascript")


def test_a_number_the_comment_heading_its_branch_explains_is_not_magic() -> None:
    def code(comment: str) -> str:
        return ("def pad(room, text):\n    if room >= 7:\n" + comment +
                "        return text + ' ' * room\n    return text\n")
    explained = code("        # seven columns fit the widest weekday name\n")
    bare = code("")
    assert (2, "magic_number") not in found(explained)
    assert (2, "magic_number") in found(bare)


def test_a_number_repeated_through_its_function_stays_magic_despite_a_comment() -> None:
    header = ("def frames(buf):\n    # wait for a whole header before reading it\n"
              "    if len(buf) < 11:\n        return None\n    head = buf[:11]\n"
              "    size = int(head[1:3])\n    if len(buf) < size + 11:\n        return None\n"
              "    return head, buf[11:11 + size]\n")
    assert (3, "magic_number") in found(header)


def test_a_public_base_class_that_leaves_methods_to_subclasses_is_no_needless_layer() -> None:
    def code(name: str, method: str) -> str:
        return (f"from abc import ABC, abstractmethod\n\n\nclass {name}(ABC):\n"
                f"{method}    def describe(self) -> str:\n        return 'plugin'\n\n\n"
                f"class Zip{name}({name}):\n    def describe(self) -> str:\n"
                "        return 'zip'\n")
    abstract = "    @abstractmethod\n    def run(self) -> None:\n        ...\n\n"
    concrete = "    def run(self) -> None:\n        return None\n\n"
    assert (4, "needless_abstraction") not in found(code("Plugin", abstract))
    assert (4, "needless_abstraction") in found(code("Plugin", concrete))
    assert (4, "needless_abstraction") in found(code("_Plugin", abstract))


def test_an_assert_deep_in_a_module_that_asserts_its_state_is_an_invariant() -> None:
    def code(method: str) -> str:
        return ("class Pipe:\n    def __init__(self):\n        self._buffer = None\n"
                "        self._open = True\n\n    def read(self):\n"
                "        assert self._buffer is not None\n        return self._buffer\n\n"
                "    def close(self):\n        assert self._open\n        self._open = False\n\n"
                + method)
    invariant = ("    def write(self, kind, data):\n        if self._buffer is None:\n"
                 "            assert kind != 'tail'\n            self._buffer = data\n"
                 "        return kind\n")
    precondition = ("    def write(self, kind, data):\n        assert kind != 'tail'\n"
                    "        self._buffer = data\n        return kind\n")
    assert (16, "assert_in_code") not in found(code(invariant))
    assert (15, "assert_in_code") in found(code(precondition))


def test_awaits_in_a_loop_over_ordered_or_timed_steps_are_not_serialised_by_mistake() -> None:
    steps = ("async function run (ctx) {\n  const out = {}\n"
             "  for (const stage of [prepare, build, publish]) {\n"
             "    const r = await stage(ctx)\n    out[stage.name] = r\n  }\n  return out\n}\n")
    timed = ("async def timings(jobs):\n    spent = {}\n    for job in jobs:\n"
             "        began = time.monotonic()\n        result = await job.run()\n"
             "        spent[job.name] = result\n        spent[job.name + '_s'] = "
             "time.monotonic() - began\n    return spent\n")
    paged = ("async def all_pages(client):\n    seen = []\n    cursor = None\n"
             "    for _ in range(50):\n        cursor = await client.page(cursor)\n"
             "        seen.append(cursor)\n    return seen\n")
    fetches = ("async function fetchAll (urls) {\n  const out = []\n"
               "  for (const url of urls) {\n    const r = await fetch(url)\n"
               "    out.push(r)\n  }\n  return out\n}\n")
    assert (4, "await_in_loop") not in found(steps, "javascript")
    assert (5, "await_in_loop") not in found(timed)
    assert (5, "await_in_loop") not in found(paged)
    assert (4, "await_in_loop") in found(fetches, "javascript")
