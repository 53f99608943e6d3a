"""The Discord layer: one discord.py extension per feature (`/review`, `/tribunal`, the vote
buttons, the game runner and the thread's poster). Thin: each cog parses the interaction, asks
the engine, the store or `tribunalbot.policy`, and renders the answer."""
