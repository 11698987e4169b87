"""Handlers of specs/everything.toolc.yaml: the results the MCP conformance suite's
server scenarios expect, one function per tool.

The session's tools (progress, logging, sampling, elicitation) use the `RunContext`
methods a handler reaches its client with (`ctx.report_progress`, `ctx.log`,
`ctx.sample`, `ctx.elicit`: issue 25's item 2)."""

from __future__ import annotations

import json
from typing import Any

import anyio
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


STEP_S = 0.05  # the pauses the suite asks for between notifications


async def with_progress(ctx: RunContext[Any]) -> str:
    for done in (0, 50, 100):  # nothing is sent when the client gave no progress token
        await ctx.report_progress(done, 100)
        if done < 100:
            await anyio.sleep(STEP_S)
    return "Progress reported: 0, 50 and 100 of 100."


async def with_logging(ctx: RunContext[Any]) -> str:
    for i, said in enumerate(("Tool execution started", "Tool processing data",
                              "Tool execution completed")):
        if i:
            await anyio.sleep(STEP_S)
        await ctx.log("info", said)
    return "Logged three messages."


async def sampling(ctx: RunContext[Any], prompt: str) -> str:
    sampled = await ctx.sample(prompt, max_tokens=100)
    text = " ".join(c.get("text", "") for c in sampled.content if c.get("type") == "text")
    return f"LLM response: {text}"


ASK_USER = {"type": "object", "properties": {
    "username": {"type": "string", "description": "User's response"},
    "email": {"type": "string", "description": "User's email address"}},
    "required": ["username", "email"]}

DEFAULTS = {"type": "object", "properties": {
    "name": {"type": "string", "default": "John Doe"},
    "age": {"type": "integer", "default": 30},
    "score": {"type": "number", "default": 95.5},
    "status": {"type": "string", "enum": ["active", "inactive", "pending"],
               "default": "active"},
    "verified": {"type": "boolean", "default": True}}}

ENUMS = {"type": "object", "properties": {
    "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
    "titledSingle": {"type": "string", "oneOf": [
        {"const": "value1", "title": "First Option"},
        {"const": "value2", "title": "Second Option"},
        {"const": "value3", "title": "Third Option"}]},
    "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                   "enumNames": ["Option One", "Option Two", "Option Three"]},
    "untitledMulti": {"type": "array",
                      "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
    "titledMulti": {"type": "array", "items": {"anyOf": [
        {"const": "value1", "title": "First Choice"},
        {"const": "value2", "title": "Second Choice"},
        {"const": "value3", "title": "Third Choice"}]}}}}


async def elicitation(ctx: RunContext[Any], message: str) -> str:
    answer = await ctx.elicit(message, ASK_USER)
    return f"User response: action={answer.action}, content={json.dumps(answer.content)}"


async def elicitation_defaults(ctx: RunContext[Any]) -> str:
    answer = await ctx.elicit("Confirm or change the defaults.", DEFAULTS)
    return f"Elicitation completed: action={answer.action}, content={json.dumps(answer.content)}"


async def elicitation_enums(ctx: RunContext[Any]) -> str:
    answer = await ctx.elicit("Pick from each kind of list.", ENUMS)
    return f"Elicitation completed: action={answer.action}, content={json.dumps(answer.content)}"
