"""What a game accepts as the code under review, checked before anything is spent on it: a
pasted or attached file, a unified diff, a pull or merge request fetched by its link. Shared by
the terminal and Discord; it knows neither, and nothing of the game (the engine reads the
change model in `tribunalbot.diffs`)."""
