/**
 * Where each provider sends its request for a given `baseURL`. One rule for all: trailing slashes
 * ignored, a query kept, a full endpoint pasted as `baseURL` used as it is; Anthropic and Gemini add
 * their API version when the base has none (their own SDKs take the host alone), OpenAI's APIs use the
 * base as given (it carries `/v1` or a compatible server's own prefix).
 */
import { describe, expect, it } from "vitest";
import { buildAnthropicRequest } from "../../src/providers/anthropic/request.ts";
import { endpointUrl } from "../../src/providers/endpoint-url.ts";
import { buildGeminiRequest } from "../../src/providers/google/request.ts";
import { buildOpenAIChatRequest } from "../../src/providers/openai-chat/request.ts";
import { buildResponsesRequest } from "../../src/providers/openai-responses/request.ts";
import type { ProviderConfig, WireRequest } from "../../src/providers/provider.ts";
import type { ModelRequest } from "../../src/types.ts";

const request: ModelRequest = {
  messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi" }], timestamp: 0 }],
};

function urlFor(build: (request: ModelRequest, config: ProviderConfig) => WireRequest, baseURL: string) {
  return build(request, { model: "m", baseURL, apiKey: "k" }).url;
}

describe("Anthropic's baseURL", () => {
  it.each([
    "https://api.anthropic.com",
    "https://api.anthropic.com/",
    "https://api.anthropic.com/v1",
    "https://api.anthropic.com/v1/",
    "https://api.anthropic.com/v1//",
    "https://api.anthropic.com/v1/messages",
  ])("%s ends at https://api.anthropic.com/v1/messages", (baseURL) => {
    expect(urlFor(buildAnthropicRequest, baseURL)).toBe("https://api.anthropic.com/v1/messages");
  });

  it("puts /v1/messages after a gateway's prefix and keeps the base's query", () => {
    expect(urlFor(buildAnthropicRequest, "https://gateway.test/acct/anthropic/?team=a")).toBe(
      "https://gateway.test/acct/anthropic/v1/messages?team=a",
    );
  });
});

describe("OpenAI's baseURL (Chat Completions and Responses)", () => {
  it.each([
    ["https://api.openai.com/v1", "https://api.openai.com/v1/chat/completions"],
    ["https://api.openai.com/v1/", "https://api.openai.com/v1/chat/completions"],
    ["https://api.openai.com/v1/chat/completions", "https://api.openai.com/v1/chat/completions"],
    ["http://localhost:11434/v1", "http://localhost:11434/v1/chat/completions"],
    ["https://api.groq.com/openai/v1/", "https://api.groq.com/openai/v1/chat/completions"],
    [
      "https://r.openai.azure.com/openai/v1?api-version=preview",
      "https://r.openai.azure.com/openai/v1/chat/completions?api-version=preview",
    ],
  ])("Chat Completions: %s → %s (used as given, nothing inserted)", (baseURL, url) => {
    expect(urlFor(buildOpenAIChatRequest, baseURL)).toBe(url);
  });

  it.each([
    ["https://api.openai.com/v1", "https://api.openai.com/v1/responses"],
    ["https://api.openai.com/v1/", "https://api.openai.com/v1/responses"],
    ["https://api.openai.com/v1/responses", "https://api.openai.com/v1/responses"],
  ])("Responses: %s → %s", (baseURL, url) => {
    expect(urlFor(buildResponsesRequest, baseURL)).toBe(url);
  });
});

describe("Gemini's baseURL", () => {
  const endpoint = "/models/m:streamGenerateContent?alt=sse";
  it.each([
    [
      "https://generativelanguage.googleapis.com/v1beta",
      `https://generativelanguage.googleapis.com/v1beta${endpoint}`,
    ],
    [
      "https://generativelanguage.googleapis.com/v1beta/",
      `https://generativelanguage.googleapis.com/v1beta${endpoint}`,
    ],
    [
      "https://generativelanguage.googleapis.com",
      `https://generativelanguage.googleapis.com/v1beta${endpoint}`,
    ],
    [
      "https://generativelanguage.googleapis.com/",
      `https://generativelanguage.googleapis.com/v1beta${endpoint}`,
    ],
    [
      "https://generativelanguage.googleapis.com/v1alpha",
      `https://generativelanguage.googleapis.com/v1alpha${endpoint}`,
    ],
    [
      "https://gateway.test/acct/google-ai-studio",
      `https://gateway.test/acct/google-ai-studio/v1beta${endpoint}`,
    ],
    [
      "https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent",
      `https://generativelanguage.googleapis.com/v1beta${endpoint}`,
    ],
  ])("%s → %s", (baseURL, url) => {
    expect(urlFor(buildGeminiRequest, baseURL)).toBe(url);
  });
});

describe("endpointUrl", () => {
  it("keeps the base's query, adds its own parameters, and replaces a parameter of the same name", () => {
    expect(endpointUrl("https://x.test/v1/?a=1&alt=json", "/p", { query: { alt: "sse" } })).toBe(
      "https://x.test/v1/p?a=1&alt=sse",
    );
  });
});
