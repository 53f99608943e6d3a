"""A GitLab merge request's changed files, as the API lists them, written as one git-style
unified diff: the form every other way of submitting a change arrives in."""

from __future__ import annotations

from typing import Any

from tribunalbot.diffs.model import OMITTED_PREFIX


def gitlab_diff(files: list[dict[str, Any]]) -> str:
    """GitLab's changed files as one git-style diff; a file GitLab would not send (too
    large, collapsed) is named as left out."""
    out: list[str] = []
    left_out: list[str] = []
    for item in files:
        old, new = str(item.get("old_path") or ""), str(item.get("new_path") or "")
        hunks = str(item.get("diff") or "")
        if not hunks.strip() and (item.get("too_large") or item.get("collapsed")):
            left_out.append(new or old)
            continue
        out.append(f"diff --git a/{old or new} b/{new or old}")
        if item.get("new_file"):
            out.append(f"new file mode {item.get('b_mode') or '100644'}")
        elif item.get("deleted_file"):
            out.append(f"deleted file mode {item.get('a_mode') or '100644'}")
        elif item.get("renamed_file"):
            out += [f"rename from {old}", f"rename to {new}"]
        if hunks.strip():
            source = "/dev/null" if item.get("new_file") else f"a/{old}"
            target = "/dev/null" if item.get("deleted_file") else f"b/{new}"
            out += [f"--- {source}", f"+++ {target}", hunks.rstrip("\n")]
    note = [OMITTED_PREFIX + ", ".join(left_out)] if left_out else []
    return "\n".join(note + out) + "\n"
