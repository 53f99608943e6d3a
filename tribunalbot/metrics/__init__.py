"""What an operator measures of a running bot: Prometheus metrics in a registry of the bot's
own, fed through small callbacks the lower layers are handed (an `OnCall` for model calls, a
statement observer for the store, a trace for Discord's REST traffic), and an endpoint with
`/metrics` and `/healthz`. Nothing here imports discord; the Discord layer wires it."""

from tribunalbot.metrics.discord_http import discord_trace, route_kind
from tribunalbot.metrics.registry import ABORT_REASONS, BotMetrics
from tribunalbot.metrics.server import Health, MetricsError, MetricsService, sample_loop_lag

__all__ = ["ABORT_REASONS", "BotMetrics", "Health", "MetricsError", "MetricsService",
           "discord_trace", "route_kind", "sample_loop_lag"]
