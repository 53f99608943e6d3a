"""What a person at a terminal runs: the `tribunalbot` command line and each of its commands
(`play`, `resume`, `history`, `stats`, `export`, `doctor`, `invite`, `migrate-store`), and the
screen a terminal game is played on. Nothing else in the project imports this package."""
