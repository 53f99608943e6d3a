"""A local Discord twin: a stateful fake of Discord's REST API v10 and Gateway on loopback.

The real, unmodified discord.py client talks to it. Every request and response is checked
against Discord's official OpenAPI spec and against the limits the spec leaves out.
"""
