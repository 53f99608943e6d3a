"""Chaos tests: the real bot as a subprocess against the Discord twin, killed (SIGKILL) and
stopped (SIGTERM) at fixed points of a game and restarted until the reveal. The thread must
read exactly as an uninterrupted game's thread for the same seed (DESIGN §5.1)."""
