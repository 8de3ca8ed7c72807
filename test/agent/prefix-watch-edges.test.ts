/**
 * PrefixWatch (prefix-watch.ts), called directly: the reason a request misses the prompt cache the
 * previous one wrote — the model, the system prompt, or message N changed — as the `cache-miss` event
 * carries it; equal messages rebuilt as new objects miss nothing; and a conversation array edited in
 * place after a request is still compared with what was sent.
 */
import { describe, expect, it } from "vitest";
import { PrefixWatch } from "../../src/agent/prefix-watch.ts";
import type { Message, ModelRequest } from "../../src/index.ts";

function user(id: string, text: string): Message {
  return { id, role: "user", content: [{ type: "text", text }], timestamp: 0 };
}

const first = (): Message[] => [user("1", "Hi"), user("2", "Still there?")];

describe("PrefixWatch", () => {
  it("names a changed model, then a changed system prompt", () => {
    const watch = new PrefixWatch();
    const request: ModelRequest = { messages: first(), systemPrompt: "Be brief." };
    expect(watch.check("a", request)).toBeUndefined();
    expect(watch.check("b", request)).toBe("the model changed");
    expect(watch.check("b", { ...request, systemPrompt: "Be long." })).toBe("the system prompt changed");
    expect(watch.check("b", { ...request, systemPrompt: "Be long." })).toBeUndefined();
  });

  it("misses nothing when the same messages come again as new objects, and more are appended", () => {
    const watch = new PrefixWatch();
    expect(watch.check("a", { messages: first() })).toBeUndefined();
    const again = structuredClone(first());
    expect(watch.check("a", { messages: [...again, user("3", "Hello?")] })).toBeUndefined();
  });

  it("names the first message that is not the one sent before", () => {
    const watch = new PrefixWatch();
    watch.check("a", { messages: [...first(), user("3", "Hello?")] });
    const edited = [user("1", "Hi"), user("2", "Edited"), user("3", "Also edited")];
    expect(watch.check("a", { messages: edited })).toBe("message 2 is not the one sent before");
  });

  it("says the conversation was compacted when the changed message is a compaction summary", () => {
    const watch = new PrefixWatch();
    watch.check("a", { messages: first() });
    expect(watch.check("a", { messages: [user("compaction-1", "Summary"), user("2", "Still there?")] })).toBe(
      "the conversation was compacted",
    );
  });

  it("compares with what was sent even when the caller edits the same array in place afterwards", () => {
    const watch = new PrefixWatch();
    const messages = first();
    watch.check("a", { messages });
    messages[0] = user("1", "Hi, edited");
    expect(watch.check("a", { messages })).toBe("message 1 is not the one sent before");
  });
});

describe("PrefixWatch and tool lists", () => {
  const spec = { name: "clock", description: "Tells the time", inputSchema: { type: "object" } };

  it("an absent and an empty tool list are the same (no tools), either way round", () => {
    const watch = new PrefixWatch();
    expect(watch.check("a", { messages: first() })).toBeUndefined();
    expect(watch.check("a", { messages: first(), tools: [] })).toBeUndefined();
    expect(watch.check("a", { messages: first(), tools: [spec] })).toBe("the tools changed");
    expect(watch.check("a", { messages: first() })).toBe("the tools changed");
    expect(watch.check("a", { messages: first(), tools: [] })).toBeUndefined();
  });
});
