"""The JSON error codes of Discord's API that the bot acts on, each in one place."""

ARCHIVED_THREAD = 50083  # an edit inside an archived thread (a new message unarchives it)
MAX_WEBHOOKS = 30007  # "Maximum number of webhooks reached (15)" in a channel
