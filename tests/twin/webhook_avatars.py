"""Webhook avatars the way Discord keeps them: a webhook is created with `avatar` image data (a
data URI), Discord stores the image under a hash, and every message the webhook sends without
an `avatar_url` shows it (author.avatar is that hash). Tests read back the stored bytes."""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from typing import Any

from .errors import FieldError
from .model import Message
from .world import World

# Avatar data (api:reference.mdx "Image Data"): data:image/{png,jpeg,gif};base64,BASE64.
DATA_URI = re.compile(r"data:(image/(?:png|jpeg|gif));base64,([A-Za-z0-9+/]*={0,2})", re.I)
SIGNATURES = {"image/png": (b"\x89PNG\r\n\x1a\n",), "image/jpeg": (b"\xff\xd8\xff",),
              "image/gif": (b"GIF87a", b"GIF89a")}
MAX_AVATAR_BYTES = 10 * 1024 * 1024  # Discord's avatar upload limit (10240 kb)


def decode_avatar(value: Any, field: str = "avatar") -> tuple[bytes | None, list[FieldError]]:
    """The image in a create-webhook `avatar`, or Discord's complaint about it (50035).
    `None` (or an absent key) means no avatar."""
    if value is None:
        return None, []
    match = DATA_URI.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None, [invalid(field)]
    try:
        image = base64.b64decode(match.group(2), validate=True)
    except binascii.Error:
        return None, [invalid(field)]
    if len(image) > MAX_AVATAR_BYTES:
        return None, [FieldError((field,), "BINARY_TYPE_MAX_SIZE",
                                 "File cannot be larger than 10240.0 kb.")]
    # Discord decodes the image: bytes that are not the declared type are refused.
    if not image.startswith(SIGNATURES[match.group(1).lower()]):
        return None, [invalid(field)]
    return image, []


def invalid(field: str) -> FieldError:
    return FieldError((field,), "IMAGE_INVALID", "Invalid image data")


def avatar_hash(image: bytes) -> str:
    # Discord names a stored avatar by a 32-hex-digit hash; a digest of the bytes stands in.
    return hashlib.md5(image, usedforsecurity=False).hexdigest()


def shown_avatar(world: World, message: Message) -> bytes | None:
    """The image a message's author avatar shows when it is its webhook's own: None for a
    bot or human message, an `avatar_url` override (a hosted image), or an avatar-less hook."""
    if message.webhook_id is None or message.avatar_url:
        return None
    hook = world.webhooks.get(message.webhook_id)
    return hook.avatar_image if hook is not None else None
