"""Tribunal: code review as a social-deduction game."""

__version__ = "0.1.0"
