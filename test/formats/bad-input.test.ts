/**
 * Hostile and broken transcripts: what can be read comes back with warnings naming line numbers,
 * what cannot is a typed error — never a throw, never a hang, and whatever is returned restores.
 */
import { describe, expect, it } from "vitest";
import { fromClaudeCode, fromPi, toClaudeCode, toPi } from "../../src/formats/index.ts";
import { parseSessionState } from "../../src/index.ts";
import { expectConsistent } from "../support/agent.ts";
import { fixtureText, seededRandom } from "../support/fixtures.ts";

const SHORT = fixtureText("sessions/claude-code-short.jsonl");
const HEAVY = fixtureText("sessions/claude-code-tool-heavy.jsonl");
const PI = fixtureText("sessions/pi-session-v1-large.jsonl");

/** `text` as a stream of chunks cut at seeded random places. */
function chunked(text: string, seed: number): ReadableStream<string> {
  const random = seededRandom(seed);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= text.length) return controller.close();
      const size = 1 + Math.floor(random() * 5000);
      controller.enqueue(text.slice(offset, (offset += size)));
    },
  });
}

const jsonl = (...objects: object[]) => `${objects.map((line) => JSON.stringify(line)).join("\n")}\n`;
const envelope = {
  isSidechain: false,
  userType: "external",
  cwd: "/p",
  sessionId: "s",
  version: "2.1.39",
  gitBranch: "",
};
const user = (uuid: string, parentUuid: string | null, content: string) => ({
  parentUuid,
  ...envelope,
  type: "user",
  message: { role: "user", content },
  uuid,
  timestamp: "2026-01-01T00:00:00.000Z",
});

/** A pi session header of `version`. */
const piHeader = (version: number) => ({
  type: "session",
  version,
  id: "p",
  timestamp: "2026-01-01T00:00:00.000Z",
  cwd: "/p",
});

/** A pi message entry. */
const piMessage = (id: string, parentId: string | null, message: object) => ({
  type: "message",
  id,
  parentId,
  timestamp: "2026-01-01T00:00:01.000Z",
  message,
});

/** An assistant line answering `u1` with `content`, as `model` wrote it. */
const reply = (content: object[], model = "claude-sonnet-4-5") => ({
  parentUuid: "u1",
  ...envelope,
  type: "assistant",
  uuid: "a1",
  timestamp: "2026-01-01T00:00:01.000Z",
  message: {
    model,
    id: "msg_1",
    role: "assistant",
    content,
    stop_reason: "end_turn",
    usage: { input_tokens: 1, output_tokens: 1 },
  },
});

describe.each([
  ["fromClaudeCode", fromClaudeCode, HEAVY],
  ["fromPi", fromPi, PI],
] as const)("%s", (_name, read, file) => {
  it("takes null options from plain JavaScript as no options: it resolves, never rejects", async () => {
    expect(await read(file, null as never)).toEqual(await read(file));
  });

  it("reads a stream cut anywhere the same as the whole string", async () => {
    const whole = await read(file);
    for (const seed of [1, 2, 3]) expect(await read(chunked(file, seed))).toEqual(whole);
  });

  it("a truncated last line is skipped with a warning naming it; the rest is read", async () => {
    const cut = file.slice(0, file.lastIndexOf("\n", file.length - 2) + 40);
    const result = await read(cut);
    const lineCount = cut.split("\n").length;
    expect(result.ok && result.value.warnings).toContainEqual({
      line: lineCount,
      message: expect.stringContaining("cut off"),
    });
  });

  it("a stray non-JSON line and a JSON line that is not an object are skipped by number", async () => {
    const lines = file.trimEnd().split("\n");
    lines.splice(3, 0, "npm WARN something", "[1,2,3]");
    const result = await read(`${lines.join("\n")}\n`);
    expect(result.ok && result.value.warnings.slice(0, 2)).toEqual([
      { line: 4, message: expect.stringContaining("not JSON") },
      { line: 5, message: "not a JSON object; skipped" },
    ]);
  });

  it("an empty file is TRANSCRIPT_INVALID", async () => {
    for (const empty of ["", "\n\n", "   \n"]) {
      const result = await read(empty);
      expect(!result.ok && [result.error._tag, result.error.code]).toEqual([
        "ParseError",
        "TRANSCRIPT_INVALID",
      ]);
    }
  });

  it("a stream that fails is a typed error, not a rejection", async () => {
    const failing = new ReadableStream<string>({
      start(controller) {
        controller.enqueue(file.slice(0, 1000));
        controller.error(new Error("network lost"));
      },
    });
    const result = await read(failing);
    expect(!result.ok && result.error.code).toBe("TRANSCRIPT_INVALID");
  });

  it("never throws on a mangled file, and what it returns restores", async () => {
    const random = seededRandom(7);
    const lines = file.trimEnd().split("\n").slice(0, 120);
    for (let round = 0; round < 60; round++) {
      const mangled = lines.map((line) => {
        const roll = random();
        if (roll < 0.05) return line.slice(0, Math.floor(random() * line.length));
        if (roll < 0.1) {
          const value = JSON.parse(line);
          const keys = Object.keys(value);
          const key = keys[Math.floor(random() * keys.length)] as string;
          const junk = [null, 42, -1e308, "x".repeat(3), [], {}, true][Math.floor(random() * 7)];
          value[key] = junk;
          return JSON.stringify(value);
        }
        if (roll < 0.13) return lines[Math.floor(random() * lines.length)];
        return line;
      });
      const result = await read(`${mangled.join("\n")}\n`);
      if (!result.ok) {
        expect(result.error.code).toMatch(/TRANSCRIPT_INVALID|CONFIG_INVALID/);
        continue;
      }
      const state = result.value.state;
      const warned = result.value.warnings.map((warning) => warning.line);
      expect(warned).toEqual([...warned].sort((a, b) => a - b));
      expect(parseSessionState(JSON.parse(JSON.stringify(state)))).toEqual(state);
      expectConsistent(state.messages);
      expect(typeof toClaudeCode(state)).toBe("string");
      expect(typeof toPi(state)).toBe("string");
    }
  });
});

describe("Claude Code links", () => {
  it("a parentUuid cycle ends the walk with a warning, not a hang", async () => {
    const file = jsonl(
      user("a", "c", "one"),
      user("b", "a", "two"),
      user("c", "b", "three"),
      user("d", "c", "four"),
    );
    const result = await fromClaudeCode(file);
    expect(result.ok && result.value.warnings).toContainEqual({
      line: expect.any(Number),
      message: expect.stringContaining("cycle"),
    });
    expect(result.ok && result.value.state.messages.map((message) => message.content[0])).toEqual(
      ["one", "two", "three", "four"].map((text) => ({ type: "text", text })),
    );
  });

  it.each([
    ["two lines that are each other's parent", [user("d", "e", "x"), user("e", "d", "y")], [1, 2]],
    ["a line that is its own parent", [user("d", "d", "x")], [1]],
    [
      "a cycle with a branch hanging from it",
      [user("d", "f", "x"), user("e", "d", "y"), user("f", "e", "z"), user("g", "d", "w")],
      [1, 2, 3],
    ],
  ])("%s, off the conversation's path, is a warning naming its lines", async (_name, cycle, lines) => {
    const result = await fromClaudeCode(jsonl(...cycle, user("a", null, "one"), user("b", "a", "two")));
    expect(result.ok && result.value.state.messages).toHaveLength(2);
    const warnings = result.ok ? result.value.warnings : [];
    expect(warnings).toEqual([
      { line: lines[0], message: expect.stringContaining(`cycle (lines ${lines.join(", ")})`) },
    ]);
  });

  it("a missing parent starts the conversation there, with a warning", async () => {
    const result = await fromClaudeCode(jsonl(user("b", "gone", "two"), user("c", "b", "three")));
    expect(result.ok && result.value.warnings).toEqual([
      { line: 1, message: expect.stringContaining("gone") },
    ]);
    expect(result.ok && result.value.state.messages).toHaveLength(2);
  });

  it("a duplicate uuid keeps the first line and warns about the second", async () => {
    const result = await fromClaudeCode(
      jsonl(user("a", null, "one"), user("a", null, "impostor"), user("b", "a", "two")),
    );
    expect(result.ok && result.value.warnings).toEqual([
      { line: 2, message: expect.stringContaining("repeats line 1") },
    ]);
    expect(JSON.stringify(result.ok && result.value.state.messages)).not.toContain("impostor");
  });

  it("an unknown line type from a newer version is kept for writing back, not read", async () => {
    const lines = SHORT.trimEnd().split("\n");
    lines.splice(
      2,
      0,
      JSON.stringify({ type: "hologram", uuid: "h-1", parentUuid: null, payload: { x: 1 } }),
    );
    const file = `${lines.join("\n")}\n`;
    const result = await fromClaudeCode(file);
    expect(result.ok && toClaudeCode(result.value.state)).toBe(file);
    const onPath = jsonl(
      user("u1", null, "hi"),
      { type: "hologram", uuid: "h-1", parentUuid: "u1", payload: { x: 1 } },
      user("u2", "h-1", "still here"),
    );
    const warned = await fromClaudeCode(onPath);
    expect(warned.ok && warned.value.warnings).toEqual([
      { line: 2, message: 'a line of type "hologram" (a newer Claude Code?); kept, not read' },
    ]);
    expect(JSON.stringify(result.ok && result.value.state.messages)).not.toContain("hologram");
  });

  it("ids thousands of characters long are shortened the same way for a call and its result", async () => {
    const long = "x".repeat(5000);
    const reply = {
      parentUuid: long,
      ...envelope,
      message: {
        model: "claude-sonnet-4-5",
        id: "msg_1",
        type: "message",
        role: "assistant",
        content: [{ type: "tool_use", id: `toolu_${long}`, name: "ls", input: {} }],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      type: "assistant",
      uuid: "r",
      timestamp: "2026-01-01T00:00:01.000Z",
    };
    const result = {
      ...user("t", "r", ""),
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: `toolu_${long}`, content: "a.txt" }],
      },
    };
    const read = await fromClaudeCode(jsonl(user(long, null, "list"), reply, result));
    expect(read.ok && read.value.warnings).toEqual([]);
    const messages = read.ok ? read.value.state.messages : [];
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool_result"]);
    expect(messages[0]?.id.length).toBeLessThanOrEqual(1000);
    expect(messages[2]?.content).toEqual([expect.objectContaining({ output: "a.txt", isError: false })]);
  });

  it("a file of only meta lines is TRANSCRIPT_INVALID", async () => {
    const result = await fromClaudeCode(
      jsonl({ type: "file-history-snapshot", messageId: "m", snapshot: {} }),
    );
    expect(!result.ok && result.error.message).toMatch(/no user or assistant line/);
  });
});

describe("lines that cannot be read as they are", () => {
  it("lines that form only a cycle still read, from the last one, with a warning where it closes", async () => {
    for (const file of [jsonl(user("a", "b", "one"), user("b", "a", "two")), jsonl(user("a", "a", "self"))]) {
      const result = await fromClaudeCode(file);
      expect(result.ok && result.value.warnings).toEqual([
        { line: expect.any(Number), message: expect.stringContaining("cycle") },
      ]);
      expect(result.ok && result.value.state.messages.length).toBeGreaterThan(0);
    }
  });

  it("a malformed block of a type Wisp reads is skipped with a warning, never sent back", async () => {
    const result = await fromClaudeCode(
      jsonl(
        user("u1", null, "hi"),
        reply([
          { type: "tool_use" },
          { type: "text" },
          { type: "text", text: "kept" },
          { type: "server_tool_use", id: "s" },
        ]),
      ),
    );
    if (!result.ok) throw result.error;
    expect(result.value.warnings).toEqual([
      { line: 2, message: "a malformed tool_use block; skipped" },
      { line: 2, message: "a malformed text block; skipped" },
    ]);
    expect(result.value.state.messages[1]?.content).toEqual([
      { type: "text", text: "kept" },
      { type: "provider", provider: "anthropic", block: { type: "server_tool_use", id: "s" } },
    ]);
  });

  it("content that is no list of blocks, or blocks that are not objects, are skipped with a warning", async () => {
    const nullContent = { ...reply([]), message: { ...reply([]).message, content: null } };
    const claude = await fromClaudeCode(
      jsonl(user("u1", null, "hi"), nullContent, {
        ...reply([5 as never, { type: "text", text: "kept" }]),
        uuid: "a2",
        parentUuid: "a1",
      }),
    );
    if (!claude.ok) throw claude.error;
    expect(claude.value.warnings).toEqual([
      { line: 2, message: "an assistant line whose content is null; skipped" },
      { line: 3, message: "a block of an assistant line that is not an object; skipped" },
    ]);
    const pi = jsonl(
      piHeader(3),
      piMessage("m1", null, { role: "user", content: null }),
      piMessage("m2", "m1", { role: "user", content: "hi" }),
      piMessage("m3", "m2", {
        role: "assistant",
        content: 7,
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        stopReason: "stop",
      }),
    );
    const fromPiFile = await fromPi(pi);
    if (!fromPiFile.ok) throw fromPiFile.error;
    expect(fromPiFile.value.warnings).toEqual([
      { line: 2, message: "a user message with no text or image Wisp keeps (its content is null); skipped" },
      { line: 4, message: "a reply whose content is a number; kept empty" },
    ]);
    expect(fromPiFile.value.state.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
  });

  it("a byte order mark before the first line (a file read as text) is no part of it", async () => {
    const claude = await fromClaudeCode(`\uFEFF${SHORT}`);
    const plain = await fromClaudeCode(SHORT);
    if (!claude.ok || !plain.ok) throw new Error("not read");
    expect(claude.value.warnings).toEqual(plain.value.warnings);
    expect(claude.value.state.messages).toEqual(plain.value.state.messages);
    const pi = await fromPi(`\uFEFF${PI}`);
    const piPlain = await fromPi(PI);
    if (!pi.ok || !piPlain.ok) throw new Error("not read");
    expect(pi.value.state.messages).toEqual(piPlain.value.state.messages);
  });

  it("a line whose type is not a string is named by the value it has", async () => {
    const claude = await fromClaudeCode(
      jsonl(user("u1", null, "hi"), { ...user("u2", "u1", "x"), type: 5 }, user("u3", "u2", "again")),
    );
    expect(claude.ok && claude.value.warnings).toContainEqual({
      line: 2,
      message: "a line of type 5 (a newer Claude Code?); kept, not read",
    });
  });

  it("a user line without content is skipped with a warning; a file of nothing else is TRANSCRIPT_INVALID", async () => {
    const empty = { ...user("e", "u1", "x"), message: null };
    const mixed = await fromClaudeCode(jsonl(user("u1", null, "hi"), empty));
    expect(mixed.ok && mixed.value.warnings).toEqual([
      { line: 2, message: "a user line with no message content; skipped" },
    ]);
    const nothing = await fromClaudeCode(
      jsonl({ ...user("e", null, "x"), message: { role: "user", content: 42 } }),
    );
    expect(!nothing.ok && [nothing.error.code, nothing.error.message]).toEqual([
      "TRANSCRIPT_INVALID",
      expect.stringContaining("No line of the transcript holds a message"),
    ]);
  });

  it("a file that is not JSONL, or a stream of bytes, is refused saying so", async () => {
    const pretty = JSON.stringify({ version: 2, sessionId: "s", messages: [] }, null, 2);
    for (const read of [fromClaudeCode, fromPi]) {
      const notJsonl = await read(pretty);
      expect(!notJsonl.ok && notJsonl.error.message).toMatch(
        /^None of the transcript's 5 lines is a JSON object .*not JSONL.*parseSessionState/,
      );
      const oneLine = await read("not json\n");
      expect(!oneLine.ok && oneLine.error.message).toMatch(
        /^The transcript's one line is not a JSON object \(the warnings say why\): it is not JSONL/,
      );
      const bytes = await read(new Response(SHORT).body as unknown as ReadableStream<string>);
      expect(!bytes.ok && bytes.error.message).toContain("TextDecoderStream");
      const neither = await read(new TextEncoder().encode(SHORT) as unknown as string);
      expect(!neither.ok && [neither.error.code, neither.error.message]).toEqual([
        "TRANSCRIPT_INVALID",
        expect.stringContaining(
          "expected the file's text or a ReadableStream of it, got bytes (a Uint8Array)",
        ),
      ]);
    }
  });

  it("<thinking> text in Claude's own reply stays text; Wisp's marker in another provider's reply reads as thinking", async () => {
    const marked = [{ type: "text", text: "<thinking>\nvisible answer\n</thinking>" }];
    const own = await fromClaudeCode(jsonl(user("u1", null, "hi"), reply(marked)));
    expect(own.ok && own.value.state.messages[1]?.content).toEqual([
      { type: "text", text: "<thinking>\nvisible answer\n</thinking>" },
    ]);
    const foreign = await fromClaudeCode(
      jsonl(user("u1", null, "hi"), reply(marked, "openai-responses/gpt-5")),
    );
    expect(foreign.ok && foreign.value.state.messages[1]?.content).toEqual([
      { type: "thinking", text: "visible answer" },
    ]);
  });
});

describe("pi headers", () => {
  it("a file without a session header is refused with its line number", async () => {
    const result = await fromPi(PI.slice(PI.indexOf("\n") + 1));
    expect(!result.ok && [result.error.code, result.error.details]).toEqual([
      "TRANSCRIPT_INVALID",
      { line: 1 },
    ]);
  });

  it("a newer version is read as version 3, with a warning", async () => {
    const file = jsonl(piHeader(9), piMessage("e1", null, { role: "user", content: "hi", timestamp: 1 }));
    const result = await fromPi(file);
    expect(result.ok && result.value.warnings).toEqual([
      { line: 1, message: expect.stringContaining("newer") },
    ]);
    expect(result.ok && result.value.state.messages).toHaveLength(1);
  });
});
