"""Labelled code snippets for bench/retrieval.py (written for this project)."""
