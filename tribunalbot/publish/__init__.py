"""A finished game's verdict posted back on its pull or merge request, as a review: the
review built from the verdict (`review`), GitHub's and GitLab's APIs asked with a write token
(`forge`, `hosts`), and the posting made once per game (`service`). No Discord here: the
Discord layer asks, this package answers."""

from tribunalbot.faces import lazy_face

__all__, __getattr__ = lazy_face(__name__, {
    "service": ("Posted", "Publisher", "offered", "remember"),
})
