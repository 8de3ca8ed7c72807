/**
 * examples/node/cli-chat.ts, run as a user would: twice in one directory with prompts piped to stdin
 * and no API key (so it serves its scripted model on loopback). The second run must restore the
 * session file the first one wrote and continue that conversation: its request carries the earlier
 * prompts, which the scripted model recalls. Runs against the built package (`npm run build` first).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, expect, it } from "vitest";

const EXAMPLE = resolve(import.meta.dirname, "../../examples/node/cli-chat.ts");
const directory = mkdtempSync(join(tmpdir(), "wisp-cli-chat-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface ChatRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the chat with `input` on stdin, without any provider key; killed (by its PID) after 30 s. */
function chat(input: string): Promise<ChatRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.ANTHROPIC_API_KEY;
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ["--experimental-strip-types", "--no-warnings", EXAMPLE, "session.json"],
      { cwd: directory, env },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

function savedMessages(): Array<{ role: string }> {
  return JSON.parse(readFileSync(join(directory, "session.json"), "utf8")).messages;
}

it("a second run restores the session file and continues the first run's conversation", async () => {
  const first = await chat("Remember the word pelican.\nWhat is 6 * 7?\n\nWhat time is it in Oslo?\n");
  expect(first.stderr).toBe("");
  expect(first.code).toBe(0);
  expect(first.stdout).not.toContain("restored");
  expect(first.stdout).toContain("You have sent me 1 prompt; the first was: Remember the word pelican.");
  // Both tools ran, with arguments validated against their zod schemas.
  expect(first.stdout).toContain('→ calculator({"op":"multiply","a":6,"b":7})');
  expect(first.stdout).toContain("The tools said: 42.");
  expect(first.stdout).toContain('→ clock({"timeZone":"Europe/Oslo"})');
  // Three prompts (the blank line is skipped), two with a tool round trip: 3 + 2 × 2 + 3 messages.
  expect(savedMessages()).toHaveLength(10);
  expect(first.stdout).toContain("saved 10 messages to session.json");

  const second = await chat("What did I say first?\n");
  expect(second.stderr).toBe("");
  expect(second.code).toBe(0);
  expect(second.stdout).toContain("restored 10 messages from session.json");
  // The model was sent the restored history: it counts four prompts and recalls the first.
  expect(second.stdout).toContain("You have sent me 4 prompts; the first was: Remember the word pelican.");
  expect(savedMessages()).toHaveLength(12);
}, 60_000);
