"""What a game accepts as the code under review, checked before anything is spent on it: a
pasted or attached file, a unified diff, a pull or merge request fetched by its link. Shared by
the terminal and Discord; it knows neither, and nothing of the game (the engine reads the
change model in `tribunalbot.diffs`)."""

from tribunalbot.faces import lazy_face

__all__, __getattr__ = lazy_face(__name__, {
    "prfetch": ("Fetcher", "Sleep", "rate_limited"),
    "prlink": ("PullRequest", "Revision", "commit_of", "gitlab_revision"),
    "pullrequest": (
        "BUSY", "MEMBERS", "PullRequestError", "fetch_submission", "link_in", "parse_link"),
    "submission": ("DIFF_SUFFIXES", "CodeInputError", "Submission", "check_code"),
})
