/**
 * A session that outlives its process: a conversation through the send/receive API with a tool and a
 * permission callback, exported to a JSON file, restored from it in a new session, and continued —
 * the restored session's request holds the whole earlier conversation.
 * Exits non-zero if anything differs from what is expected.
 *
 * Run: npm run demo
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSession, defineTool, unwrap } from "wisp-agent";
import { createScriptedModel } from "wisp-agent/testing";
import { serveScriptedModel } from "wisp-agent/testing/node";
import { z } from "zod";

const notes: string[] = [];
const remember = defineTool({
  name: "remember",
  description: "Stores a note for later",
  input: z.object({ note: z.string() }),
  execute: ({ note }) => {
    notes.push(note);
    return `stored (${notes.length} notes)`;
  },
});

const model = createScriptedModel({
  script: [
    {
      content: [
        { type: "thinking", text: "The user wants me to keep this.", signature: "sig-demo" },
        { type: "tool_call", name: "remember", args: { note: "Pelicans nest on islands" } },
        { type: "tool_call", name: "remember", args: { note: "My password is hunter2" } },
      ],
    },
    { content: [{ type: "text", text: "I noted the first; I will not store passwords." }] },
    { content: [{ type: "text", text: "You told me pelicans nest on islands." }] },
  ],
});
const server = await serveScriptedModel(model);
const options = { apiKey: "demo", baseURL: server.url, tools: [remember] };
let failures = 0;
const check = (ok: boolean, what: string) => {
  if (!ok) failures++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};

// 1. Send a prompt and receive whole messages; the permission callback refuses anything secret.
const first = unwrap(
  await createSession({
    ...options,
    model: "anthropic/claude-sonnet-5-5",
    thinking: "low",
    canUseTool: (_name, input) =>
      /password/i.test(String(input.note))
        ? { behavior: "deny", message: "Secrets are not stored." }
        : { behavior: "allow" },
  }),
);
await first.send("Remember: pelicans nest on islands. Also my password is hunter2.");
for await (const message of first.receive()) {
  if (message.type === "system") console.log(`session ${message.sessionId} on ${message.model}`);
  if (message.type === "assistant") {
    for (const part of message.message.content) {
      if (part.type === "text") console.log(`  assistant: ${part.text}`);
      if (part.type === "tool_call") console.log(`  → ${part.name}(${JSON.stringify(part.args)})`);
    }
  }
  if (message.type === "user" && message.message.role === "tool_result") {
    for (const part of message.message.content) console.log(`  ← ${part.output}`);
  }
  if (message.type === "result") console.log(`  result: ${message.subtype}, ${message.turns} turns`);
}
check(
  notes.length === 1 && notes[0] === "Pelicans nest on islands",
  "the callback let one call run and denied the other",
);

// 2. Export to a file, as a process about to exit would, and close.
const dir = await mkdtemp(join(tmpdir(), "wisp-session-"));
const file = join(dir, "session.json");
await writeFile(file, JSON.stringify(first.export()));
const sessionId = first.sessionId;
await first.close();
console.log(`\nsaved to ${file}`);

// 3. Restore from the file (model, thinking and history come from it) and continue.
const restored = unwrap(
  await createSession({ ...options, restore: JSON.parse(await readFile(file, "utf8")) }),
);
await restored.send("What did I tell you about pelicans?");
let answer = "";
for await (const message of restored.receive()) if (message.type === "result") answer = message.text;
console.log(`  restored assistant: ${answer}`);
const sent = model.requests.at(-1)?.bodyText ?? "";
check(restored.sessionId === sessionId, "the restored session keeps its id");
check(
  answer.includes("islands") && sent.includes("sig-demo") && sent.includes("Secrets are not stored."),
  "the restored request carried the whole conversation, thinking signature included",
);

await restored.close();
await rm(dir, { recursive: true });
await server.close();
process.exit(failures === 0 ? 0 : 1);
