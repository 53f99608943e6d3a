"""The Discord layer: one discord.py extension per feature (to come with the Discord bot)."""
