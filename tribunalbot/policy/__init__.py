"""The operator's policy for the bot, without Discord: what a server's admins may change and
within which limits, the money budgets, which provider and model play each seat, and which
process runs which game. The Discord layer asks; these modules answer from the config and the
store."""

from tribunalbot.policy.admission import Refused
from tribunalbot.policy.leases import LeaseKeeper, Owner
from tribunalbot.policy.routing import language_notice, route_recorder
from tribunalbot.policy.server_settings import HELP, KEYS, RESET, SettingError, SettingRules
from tribunalbot.policy.services import GuildServices
from tribunalbot.policy.spending import SpendLine, price_book, spend_periods

__all__ = ["HELP", "KEYS", "RESET", "GuildServices", "LeaseKeeper", "Owner", "Refused",
           "SettingError", "SettingRules", "SpendLine", "language_notice", "price_book",
           "route_recorder", "spend_periods"]
