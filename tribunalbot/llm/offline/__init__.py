"""The offline provider: no network, deterministic per game, grounded in static analysis."""

from tribunalbot.llm.offline.provider import OfflineLLM

__all__ = ["OfflineLLM"]
