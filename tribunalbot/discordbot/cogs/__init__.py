"""The discord.py extensions: each module registers its commands on the bot in `setup`.
Nothing imports them; `tribunalbot.bot` loads them by these names."""

EXTENSIONS = (f"{__name__}.review", f"{__name__}.tribunal")
