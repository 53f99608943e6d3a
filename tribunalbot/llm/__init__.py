"""The contract with the models (`base`): what a call asks and answers, the providers that
answer it (hosted ones over HTTP, the offline player, a recording played back), and what the
calls cost. It knows nothing of the game that asks.

These are the names the rest of the project uses (tests/test_public_faces.py holds the list to
what is imported from outside). A submodule still answers for everything else it defines.
"""

from tribunalbot.llm.adapter import HttpLLM
from tribunalbot.llm.base import LLM, LLMError, Model, OfflineHints, Prompt, SeatRole, Task
from tribunalbot.llm.errors import (
    InvalidReply,
    ModelNotFound,
    ProviderError,
    ProviderUnavailable,
    excerpt,
    plain_words,
    redact,
)
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.recording import RecordingLLM
from tribunalbot.llm.registry import ProviderPool, build_llm, build_provider, provider_problem
from tribunalbot.llm.replies import (
    NOTES_MARK,
    PLANTED_PREFIX,
    REVIEW_MARK,
    DebateReply,
    ParsedReview,
    VoteReply,
    debate_schema,
    parse_review,
    vote_schema,
)
from tribunalbot.llm.usage import (
    CallRecord,
    OnCall,
    Prices,
    Tokens,
    UsageLedger,
    dollars,
    price_of,
    prices_from_config,
    summarize,
    total_cost,
)

__all__ = [
    "LLM", "NOTES_MARK", "PLANTED_PREFIX", "REVIEW_MARK", "CallRecord", "DebateReply",
    "HttpLLM", "InvalidReply", "LLMError", "Model", "ModelNotFound", "OfflineHints",
    "OfflineLLM", "OnCall", "ParsedReview", "Prices", "Prompt", "ProviderError", "ProviderPool",
    "ProviderUnavailable", "RecordingLLM", "SeatRole", "Task", "Tokens", "UsageLedger",
    "VoteReply", "build_llm", "build_provider", "debate_schema", "dollars", "excerpt",
    "parse_review", "plain_words", "price_of", "prices_from_config", "provider_problem",
    "redact", "summarize", "total_cost", "vote_schema",
]
