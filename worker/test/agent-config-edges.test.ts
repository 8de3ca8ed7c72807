/**
 * Which model the demo's sessions run on and with which options: each provider's key chooses that
 * provider (and its default model unless MODEL is set), no key means the scripted demo model (MODEL
 * then ignored), an OpenAI base URL is passed on, and OTEL_EXPORTER_OTLP_ENDPOINT adds the tracer.
 */
import { describe, expect, it } from "vitest";
import { agentOptions, configuredModel, isScripted } from "../agent-config.ts";
import { DEMO_MODEL } from "../demo-model.ts";
import type { Env } from "../env.ts";
import { workerTelemetry } from "../telemetry.ts";

/** An environment with only the given variables (no binding is read here). */
function env(variables: Partial<Env>): Env {
  return variables as Env;
}

describe("configuredModel", () => {
  it("is each provider's default model when only its key is set", () => {
    expect(configuredModel(env({ ANTHROPIC_API_KEY: "sk-ant" }))).toBe("anthropic/claude-sonnet-4-5");
    expect(configuredModel(env({ OPENAI_API_KEY: "sk-oa" }))).toBe("openai/gpt-4o-mini");
    expect(configuredModel(env({ GEMINI_API_KEY: "g-key" }))).toBe("google/gemini-2.5-flash");
  });

  it("is MODEL when a key is set, the Anthropic key winning over the others", () => {
    expect(configuredModel(env({ ANTHROPIC_API_KEY: "sk-ant", MODEL: "anthropic/claude-opus-4-1" }))).toBe(
      "anthropic/claude-opus-4-1",
    );
    expect(configuredModel(env({ ANTHROPIC_API_KEY: "sk-ant", OPENAI_API_KEY: "sk-oa" }))).toBe(
      "anthropic/claude-sonnet-4-5",
    );
  });

  it("is the scripted demo model without a key, whatever MODEL says", () => {
    expect(configuredModel(env({}))).toBe(DEMO_MODEL);
    expect(configuredModel(env({ MODEL: "openai/gpt-4o" }))).toBe(DEMO_MODEL);
  });
});

describe("isScripted", () => {
  it("is true with no provider key, and false when any one of them is set", () => {
    expect(isScripted(env({}))).toBe(true);
    expect(isScripted(env({ ANTHROPIC_API_KEY: "sk-ant" }))).toBe(false);
    expect(isScripted(env({ OPENAI_API_KEY: "sk-oa" }))).toBe(false);
    expect(isScripted(env({ GEMINI_API_KEY: "g-key" }))).toBe(false);
  });
});

describe("agentOptions", () => {
  it("passes the Anthropic key, and the Gemini key, to a real provider (no scripted fetch)", () => {
    const anthropic = agentOptions(env({ ANTHROPIC_API_KEY: "sk-ant" }));
    expect(anthropic.apiKey).toBe("sk-ant");
    expect(anthropic.fetch).toBeUndefined();
    const gemini = agentOptions(env({ GEMINI_API_KEY: "g-key" }));
    expect(gemini.apiKey).toBe("g-key");
    expect(gemini.fetch).toBeUndefined();
  });

  it("runs the scripted model through its own fetch, with no key", () => {
    const scripted = agentOptions(env({}));
    expect(scripted.fetch).toBeTypeOf("function");
    expect(scripted.apiKey).toBeUndefined();
  });

  it("passes the OpenAI key, and OPENAI_BASE_URL only when set", () => {
    const plain = agentOptions(env({ OPENAI_API_KEY: "sk-oa" }));
    expect(plain.apiKey).toBe("sk-oa");
    expect(plain).not.toHaveProperty("baseURL");
    const local = agentOptions(
      env({ OPENAI_API_KEY: "sk-oa", OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" }),
    );
    expect(local.apiKey).toBe("sk-oa");
    expect(local.baseURL).toBe("http://127.0.0.1:11434/v1");
    expect(local.fetch).toBeUndefined();
  });

  it("traces runs with the Worker's tracer when OTEL_EXPORTER_OTLP_ENDPOINT is set, and not otherwise", () => {
    const traced = env({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://agent-config-edges.test:4318" });
    const options = agentOptions(traced);
    expect(options.telemetry?.tracer).toBeDefined();
    expect(options.telemetry?.tracer).toBe(workerTelemetry(traced)?.tracer);
    expect(agentOptions(env({}))).not.toHaveProperty("telemetry");
  });

  it("streams the scripted model to its end when DEMO_CHUNK_DELAY_MS is not a finite number (the default pace then)", async () => {
    const options = agentOptions(env({ DEMO_CHUNK_DELAY_MS: "Infinity" }));
    const response = await options.fetch!("https://api.anthropic.com/v1/messages", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-sonnet-4-5",
        max_tokens: 256,
        stream: true,
        messages: [
          { role: "user", content: [{ type: "text", text: 'call calculator {"op":"add","a":2,"b":3}' }] },
        ],
        tools: [{ name: "calculator", input_schema: { type: "object" } }],
      }),
    });
    expect(response.status).toBe(200);
    // Every word and the tool call arrive, and the stream ends (an infinite pause would never end it).
    const text = await response.text();
    expect(text).toContain('"name":"calculator"');
    expect(text).toContain("event: message_stop");
  });
});
