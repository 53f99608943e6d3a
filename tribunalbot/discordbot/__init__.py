"""The Discord front door: the game runner, the thread a game is shown in, the ballot's
buttons and the answers the commands give. The discord.py extensions that register the
commands are in `cogs/`; `tribunalbot.bot` builds the client and loads them by name. Thin:
each part parses what Discord sends, asks the engine, the store or `tribunalbot.policy`,
and renders the answer."""
