"""Every metric the bot exposes, in a registry of its own: never prometheus-client's global
default, so that two bots in one process (tests, shards run side by side) never share or
collide on a series. The table in docs/deploying.md ("Metrics and health") lists them; keep
the two in step."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from tribunalbot.config import Config
from tribunalbot.llm.usage import CallRecord, price_of, prices_from_config

# A model call takes from a few milliseconds (the offline player) to minutes (a slow model).
MODEL_SECONDS = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160, 300)
DB_SECONDS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10)
LAG_SECONDS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)
# Why a game stopped before its reveal: a label with these values only.
ABORT_REASONS = ("provider", "internal", "ended", "thread_gone")
TOKEN_KINDS = ("input", "cached", "output")


class BotMetrics:
    """The bot's counters, gauges and histograms, and the callbacks that feed them. Counting
    costs microseconds, so the bot counts whether or not the endpoint is served."""

    def __init__(self, config: Config | None = None) -> None:
        self.registry = CollectorRegistry()
        self.prices = prices_from_config(config.providers) if config is not None else {}
        self._games()
        self._models()
        self._discord()
        self._runtime()

    def _games(self) -> None:
        r = self.registry
        self.games_started = Counter(
            "tribunal_games_started", "Games started by /review or Send to Tribunal",
            registry=r)
        self.games_resumed = Counter(
            "tribunal_games_resumed", "Unfinished games taken up again after a restart or "
            "from another process", registry=r)
        self.games_finished = Counter(
            "tribunal_games_finished", "Games played to the reveal", registry=r)
        self.games_aborted = Counter(
            "tribunal_games_aborted", "Games stopped before the reveal, by reason",
            ["reason"], registry=r)
        for reason in ABORT_REASONS:  # each at 0 from the start, so a rate can be taken
            self.games_aborted.labels(reason)
        self.games_running = Gauge(
            "tribunal_games_running", "Games this process runs now", registry=r)

    def _models(self) -> None:
        r, pm = self.registry, ["provider", "model"]
        self.model_calls = Counter(
            "tribunal_model_calls", "Model calls by provider, model and outcome (ok or the "
            "error kind)", [*pm, "outcome"], registry=r)
        self.model_seconds = Histogram(
            "tribunal_model_call_seconds", "Model call latency, retries included",
            pm, buckets=MODEL_SECONDS, registry=r)
        self.model_tokens = Counter(
            "tribunal_model_tokens", "Tokens by kind: input (the cached part included), "
            "cached, output", [*pm, "kind"], registry=r)
        self.model_cost = Counter(
            "tribunal_model_cost_dollars", "Estimated cost in USD from the configured prices "
            "(priced providers only)", pm, registry=r)

    def _discord(self) -> None:
        r = self.registry
        self.discord_requests = Counter(
            "tribunal_discord_requests", "Discord REST requests by route kind, method and "
            "status (\"error\": no response)", ["route", "method", "status"], registry=r)
        self.discord_posts = Counter(
            "tribunal_discord_posts", "Messages the bot created on Discord, by route kind",
            ["route"], registry=r)
        self.discord_rate_limited = Counter(
            "tribunal_discord_rate_limited", "Discord 429 answers by route kind",
            ["route"], registry=r)

    def _runtime(self) -> None:
        r = self.registry
        self.loop_lag = Histogram(
            "tribunal_event_loop_lag_seconds", "How late the event loop woke a sampler that "
            "sleeps a fixed interval", buckets=LAG_SECONDS, registry=r)
        self.db_seconds = Histogram(
            "tribunal_db_statement_seconds", "Database latency by statement kind (a whole "
            "transaction as \"transaction\")", ["statement"], buckets=DB_SECONDS, registry=r)

    # ---- the callbacks the layers below are given ----------------------------------------

    def game_started(self) -> None:
        self.games_started.inc()

    def game_resumed(self) -> None:
        self.games_resumed.inc()

    def game_finished(self) -> None:
        self.games_finished.inc()

    def game_aborted(self, reason: str) -> None:
        self.games_aborted.labels(reason if reason in ABORT_REASONS else "internal").inc()

    def count_running(self, running: Callable[[], int]) -> None:
        self.games_running.set_function(running)

    def model_call(self, record: CallRecord) -> None:
        """An `OnCall`: one record per provider request (tribunalbot/llm/usage.py)."""
        pm = (record.provider, record.model)
        self.model_calls.labels(*pm, record.outcome).inc()
        self.model_seconds.labels(*pm).observe(record.latency_ms / 1000)
        for kind, count in zip(TOKEN_KINDS, (record.input_tokens, record.cached_tokens,
                                             record.output_tokens), strict=True):
            if count:
                self.model_tokens.labels(*pm, kind).inc(count)
        price = price_of(self.prices, *pm)
        if price is not None:
            self.model_cost.labels(*pm).inc(price.cost(record))

    def statement(self, kind: str, seconds: float) -> None:
        """A `StatementObserver` (tribunalbot/store/timing.py)."""
        self.db_seconds.labels(kind).observe(seconds)

    def lag(self, seconds: float) -> None:
        self.loop_lag.observe(seconds)

    def discord_response(self, route: str, method: str, status: int | None,
                         creates_message: bool) -> None:
        """One Discord REST request ended (tribunalbot/metrics/discord_http.py)."""
        self.discord_requests.labels(route, method, str(status or "error")).inc()
        if status == 429:
            self.discord_rate_limited.labels(route).inc()
        elif creates_message and status is not None and 200 <= status < 300:
            self.discord_posts.labels(route).inc()
