"""`tribunalbot invite`: the OAuth2 URL that adds the bot to a server with exactly the
permissions it uses. Asking for more (Administrator, say) makes server admins rightly wary;
asking for less makes games fail on their first post."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from urllib.parse import urlencode

import discord

from tribunalbot.config import Config
from tribunalbot.terminal.exits import EXIT_USAGE, fail

AUTHORIZE_URL = "https://discord.com/oauth2/authorize"
SCOPES = ("bot", "applications.commands")  # the bot user, and its slash commands
_SNOWFLAKE = re.compile(r"^[0-9]{17,20}$")

# Each permission and what the bot does with it; `/review` checks the first six in the
# channel before a game starts (discordbot/cogs/review.py NEEDED).
USES: dict[str, tuple[str, str]] = {
    "send_messages": ("Send Messages", "a note in the channel when a game is closed"),
    "send_messages_in_threads": ("Send Messages in Threads",
                                 "the status, ballot and reveal in the game's thread"),
    "create_public_threads": ("Create Public Threads", "each game's thread"),
    "manage_webhooks": ("Manage Webhooks", "the reviewers' names and avatars"),
    "embed_links": ("Embed Links", "the announcement and the reveal"),
    "attach_files": ("Attach Files", "the transcript"),
    "read_message_history": ("Read Message History",
                             "after a crash, find a post that went out unrecorded"),
    "view_channel": ("View Channels",
                     "see the channel and its threads (every request about them needs it)"),
}
BOT_PERMISSIONS = discord.Permissions(**dict.fromkeys(USES, True))


def permission_names() -> list[str]:
    """The permissions as Discord's server settings name them."""
    return [label for label, _use in USES.values()]


def invite_url(client_id: str, permissions: discord.Permissions = BOT_PERMISSIONS) -> str:
    query = urlencode({"client_id": client_id, "scope": " ".join(SCOPES),
                       "permissions": permissions.value})
    return f"{AUTHORIZE_URL}?{query}"  # urlencode writes the scope's space as "+"


def invite_command(client_id: str | None, config: Config,
                   environ: Mapping[str, str] = os.environ) -> int:
    """Print the invite URL and what each permission is for."""
    env_name = config.discord.application_id_env
    chosen = (client_id or environ.get(env_name, "")).strip()
    if not chosen:
        return fail(f"pass --client-id or set ${env_name} to the bot's Application ID (the "
                    "developer portal, your application, General Information)", EXIT_USAGE)
    if not _SNOWFLAKE.match(chosen):
        return fail(f"{chosen!r} is not an application id: it is a number of 17 to 20 digits "
                    "(Application ID on the developer portal's General Information page)",
                    EXIT_USAGE)
    print(invite_url(chosen))
    print("\nThe bot asks for these permissions and no others:")
    for label, use in USES.values():
        print(f"  {label}: {use}")
    return 0
