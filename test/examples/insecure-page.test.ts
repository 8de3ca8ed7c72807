/**
 * Wisp on a page that is not a secure context, in real Chromium: the browser example served from
 * `http://wisp.test:<port>` (Chromium's host resolver maps the name to the loopback address; `localhost`
 * and `127.0.0.1` would count as secure), where `crypto.randomUUID` and `crypto.subtle` do not exist.
 * The portability scenario passes there, a session pauses for approval and resumes, and an
 * `approvalSecret` is a ConfigError that says why — never a TypeError.
 */

import type { Browser } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.ts";
import { expectAllPassed, startExample } from "./run-example.ts";

describe("a page that is not a secure context (http://wisp.test)", () => {
  let browser: Browser | undefined;
  afterAll(() => browser?.close());

  it("runs the scenario, pauses and resumes an approval, and refuses an approvalSecret with a ConfigError", async () => {
    const server = await startExample(process.execPath, ["examples/browser/serve.mjs"]);
    try {
      browser = await launchChromium(["--host-resolver-rules=MAP wisp.test 127.0.0.1"]);
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      const port = new URL(server.url).port;
      await page.goto(`http://wisp.test:${port}/`);
      await page.waitForSelector("body[data-result]", { timeout: 30_000 });
      const context = await page.evaluate(() => ({
        secure: globalThis.isSecureContext,
        randomUUID: typeof globalThis.crypto.randomUUID,
        subtle: typeof globalThis.crypto.subtle,
      }));
      expect(context).toEqual({ secure: false, randomUUID: "undefined", subtle: "undefined" });
      expectAllPassed((await page.textContent("#log")) ?? "", 8);
      expect(await page.getAttribute("body", "data-result")).toBe("passed");

      // Plain JavaScript, run by the page itself (as a string, so the test's own bundler leaves its
      // imports alone): the page's import map resolves them to the built modules.
      const approvals = await page.evaluate(`(async () => {
        const wisp = await import("wisp-agent");
        const testing = await import("wisp-agent/testing");
        const ran = [];
        const send = wisp.defineTool({
          name: "send",
          description: "Sends a message",
          inputSchema: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
          needsApproval: true,
          execute: (args) => {
            ran.push(args);
            return "sent";
          },
        });
        const model = testing.createScriptedModel({
          script: [
            { content: [{ type: "tool_call", name: "send", args: { to: "ada" } }] },
            { content: [{ type: "text", text: "done" }] },
          ],
        });
        const options = {
          model: "anthropic/claude-sonnet-5-5",
          apiKey: "k",
          fetch: model.fetch,
          tools: [send],
        };
        const session = (await wisp.createAgentSession(options)).value;
        const paused = await session.chat("go");
        const state = JSON.parse(JSON.stringify(session.export()));
        const restored = (await wisp.createAgentSession({ ...options, restore: state })).value;
        const id = state.pendingApprovals[0].toolCallId;
        const resumed = await restored.resume([{ toolCallId: id, approved: true }]);
        const secret = await wisp.createAgentSession({
          ...options,
          approvalSecret: "a-server-side-secret-of-some-length",
        });
        const { _tag: tag, code, path, message } = secret.error ?? {};
        const refusal = { ok: secret.ok, tag, code, path, message };
        return {
          paused: paused.ok && paused.value.stopReason,
          digest: state.pendingApprovals[0].digest,
          resumed: resumed.ok && resumed.value.text,
          ran,
          refusal,
        };
      })()`);
      expect(approvals).toMatchObject({
        paused: "approval",
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        resumed: "done",
        ran: [{ to: "ada" }],
        refusal: {
          ok: false,
          tag: "ConfigError",
          code: "CONFIG_INVALID",
          path: "approvalSecret",
          message: expect.stringContaining("secure contexts"),
        },
      });
      expect(errors).toEqual([]);
    } finally {
      server.child.kill();
    }
  }, 90_000);
});
