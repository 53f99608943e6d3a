"""Plain text that every table tells alike (the Discord thread, the terminal, the game page):
each renderer adds its own markup around it."""
