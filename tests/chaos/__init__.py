"""Chaos tests: the real bot as a subprocess against the Discord twin, killed (SIGKILL) and
stopped (SIGTERM) at fixed points of a game and restarted until the reveal. The thread must
read exactly as an uninterrupted game's thread for the same seed (DESIGN §5.1).

Run: `python -m pytest tests/chaos -q -m chaos`. Modules: botproc (the bot process),
process (its lives), zygote and forks (lives forked from one interpreter that imported the
bot once), faults (kill points inside the twin's handlers), scenarios (the kill points),
harness (one game through a scenario), thread (normalized threads and their differences),
checks (the assertions, as lists of precise problems)."""
