"""The operator's policy for the bot, without Discord: what a server's admins may change and
within which limits, the money budgets, which provider and model play each seat, and which
process runs which game. The Discord layer asks; these modules answer from the config and the
store."""
