"""Who sits where on the page, and the shape of one persona's post."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tribunalbot.engine import events as ev
from tribunalbot.page.avatars import Avatar
from tribunalbot.page.backstage import Backstage
from tribunalbot.page.listing import Listing
from tribunalbot.page.text import esc, inline, rich


@dataclass(frozen=True)
class Cast:
    """Who sits where, each seat's avatar, the code they reviewed (which every citation in
    their words links to), how the AI votes moved (the reveal's public vote story, by round)
    and, once the game is over, what each seat wrote privately (`backstage`)."""

    players: Mapping[int, ev.PlayerInfo]
    avatars: Mapping[int, Avatar]
    listing: Listing = field(default_factory=Listing)
    story: Mapping[int, ev.VoteRoundStory] = field(default_factory=dict)
    backstage: Backstage = field(default_factory=Backstage)

    def inline(self, text: str) -> str:
        """A line of model text as HTML, its citations linked to the code."""
        return inline(text, self.listing.link)

    def rich(self, text: str) -> str:
        """A whole review or argument as HTML, its citations linked to the code."""
        return rich(text, self.listing.link)

    def name(self, seat: int | None) -> str:
        """The seat's name, escaped for HTML."""
        player = self.players.get(seat) if seat is not None else None
        return esc(player.name) if player else "nobody"

    def image(self, seat: int, css: str = "avatar") -> str:
        return (f'<img class="{css}" src="{self.avatars[seat].uri}" width="64" height="64" '
                f'alt="Avatar of {self.name(seat)}">')


def message(seat: int, cast: Cast, body: str, anchor: str = "", aside: str = "") -> str:
    """One post by a persona, as the thread shows it: avatar, name, words; `aside` (its
    folded private notes) goes beside the words."""
    ident = f' id="{anchor}"' if anchor else ""
    return (f'<article class="msg s{seat}"{ident}><span class="av av{seat}" aria-hidden="true">'
            f'</span><div class="body"><h3>{cast.name(seat)} <span class="seat">seat {seat}'
            f'</span></h3><div class="said">{body}</div>{aside}</div></article>')
