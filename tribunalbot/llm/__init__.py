"""The contract with the models (`base`): what a call asks and answers, the providers that
answer it (hosted ones over HTTP, the offline player, a recording played back), and what the
calls cost. It knows nothing of the game that asks.

These are the names the rest of the project uses (tests/test_public_faces.py holds the list to
what is imported from outside). A submodule still answers for everything else it defines.
"""

from tribunalbot.faces import lazy_face

__all__, __getattr__ = lazy_face(__name__, {
    "adapter": ("HttpLLM",),
    "base": ("LLM", "LLMError", "Model", "OfflineHints", "Prompt", "SeatRole", "Task"),
    "errors": (
        "InvalidReply", "ModelNotFound", "ProviderError", "ProviderUnavailable", "excerpt",
        "plain_words", "redact"),
    "offline": ("OfflineLLM",),
    "recording": ("RecordingLLM",),
    "registry": ("ProviderPool", "build_llm", "build_provider", "provider_problem"),
    "replies": (
        "NOTES_MARK", "PLANTED_PREFIX", "REVIEW_MARK", "DebateReply", "ParsedReview",
        "VoteReply", "debate_schema", "parse_planted", "parse_review", "vote_schema"),
    "usage": (
        "CallRecord", "OnCall", "Prices", "Tokens", "UsageLedger", "dollars", "price_of",
        "prices_from_config", "summarize", "total_cost"),
})
