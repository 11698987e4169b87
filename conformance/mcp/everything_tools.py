"""Handlers of specs/everything.toolc.yaml: the results the MCP conformance suite's
server scenarios expect, one function per tool."""

from __future__ import annotations

import json
from typing import Any

from toolc.runtime import (
    AudioContent,
    ContentBlock,
    EmbeddedResource,
    ImageContent,
    RunContext,
    TextContent,
    ToolError,
)

# A 1x1 PNG and a silent WAV, base64: the suite checks the type and that data is there.
PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJ"
       "RU5ErkJggg==")
WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA="


def simple_text(ctx: RunContext[Any]) -> str:
    return "This is a simple text response for testing."


def image_content(ctx: RunContext[Any]) -> ImageContent:
    return ImageContent(PNG, "image/png")


def audio_content(ctx: RunContext[Any]) -> AudioContent:
    return AudioContent(WAV, "audio/wav")


def embedded_resource(ctx: RunContext[Any]) -> EmbeddedResource:
    return EmbeddedResource("test://embedded-resource", mime_type="text/plain",
                            text="This is an embedded resource content.")


def multiple_content_types(ctx: RunContext[Any]) -> list[ContentBlock]:
    return [
        TextContent("Multiple content types test:"),
        ImageContent(PNG, "image/png"),
        EmbeddedResource("test://mixed-content-resource", mime_type="application/json",
                         text=json.dumps({"test": "data", "value": 123})),
    ]


def error_handling(ctx: RunContext[Any]) -> str:
    raise ToolError("This tool intentionally returns an error for testing")


def reconnection(ctx: RunContext[Any]) -> str:
    return ("Reconnection test completed successfully. If you received this, the client "
            "properly reconnected after stream closure.")
