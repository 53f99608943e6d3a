"""The operator's policy for the bot, without Discord: what a server's admins may change and
within which limits, the money budgets, which provider and model play each seat, and which
process runs which game. The Discord layer asks; these modules answer from the config and the
store."""

from tribunalbot.faces import lazy_face

__all__, __getattr__ = lazy_face(__name__, {
    "admission": ("Refused",),
    "leases": ("LeaseKeeper", "Owner"),
    "routing": ("language_notice", "route_recorder"),
    "server_settings": ("HELP", "KEYS", "RESET", "SettingError", "SettingRules"),
    "services": ("GuildServices",),
    "spending": ("SpendLine", "price_book", "spend_periods"),
})
