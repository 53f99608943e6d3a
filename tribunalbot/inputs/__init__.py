"""What a game accepts as the code under review, checked before anything is spent on it: a
pasted or attached file, a unified diff, a pull or merge request fetched by its link. Shared by
the terminal and Discord; it knows neither, and nothing of the game (the engine reads the
change model in `tribunalbot.diffs`)."""

from tribunalbot.inputs.pullrequest import (
    BUSY,
    MEMBERS,
    PullRequestError,
    fetch_submission,
    link_in,
    parse_link,
)
from tribunalbot.inputs.submission import DIFF_SUFFIXES, CodeInputError, Submission, check_code

__all__ = ["BUSY", "DIFF_SUFFIXES", "MEMBERS", "CodeInputError", "PullRequestError",
           "Submission", "check_code", "fetch_submission", "link_in", "parse_link"]
