/**
 * The decisions of a permission policy (permission-decisions.ts): `*` patterns with parts between
 * the stars (each found in order, none overlapping the next or the end), and acceptEdits — accepted
 * classes run without asking only in that mode, and a policy given without acceptClasses accepts none.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { matchesPattern, policyApproval } from "../../src/agent/permission-decisions.ts";
import { defineTool, type PermissionPolicy, runAgent } from "../../src/index.ts";
import { calls, says, scripted } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

describe("patterns with parts between the stars", () => {
  it.each([
    ["a*b*c", "axc", false], // the middle part is missing
    ["a*b*c", "abxc", true],
    ["a*bc*c", "abc", false], // the middle part would overlap the last
    ["a*bc*c", "abcc", true],
    ["a*b*b*c", "abc", false], // one b cannot be both middle parts
    ["a*b*b*c", "abbc", true],
    ["x*_*_*y", "x_a_y", true],
    ["x*_*_*y", "x__y", true],
    ["x*_*_*y", "x_y", false],
  ])("%s against %s: %s", (pattern, name, expected) => {
    expect(matchesPattern(pattern, name)).toBe(expected);
  });

  it("a deny pattern with a middle part refuses only the names that have it", async () => {
    const ran: string[] = [];
    const tool = (name: string) =>
      defineTool({
        name,
        description: "Does",
        inputSchema: { type: "object" },
        execute: () => {
          ran.push(name);
          return "done";
        },
      });
    const { options } = scripted([calls(["files_delete_all", {}], ["files_list_all", {}]), says("ok")]);
    const result = okValue(
      await runAgent(
        options({
          tools: [tool("files_delete_all"), tool("files_list_all")],
          permissions: { deny: ["files*delete*all"] },
        }),
      ),
    );
    expect(ran).toEqual(["files_list_all"]);
    expect(result.toolCalls.map((call) => [call.toolCall.name, call.result.isError])).toEqual([
      ["files_delete_all", true],
      ["files_list_all", false],
    ]);
  });
});

describe("acceptEdits", () => {
  const write = defineTool({
    name: "write",
    description: "Writes a file",
    input: z.object({ path: z.string() }),
    permissionClass: "edit",
    needsApproval: true,
    execute: () => "wrote",
  });

  async function runWith(permissions: PermissionPolicy) {
    const { options } = scripted([calls(["write", { path: "a.txt" }]), says("ok")]);
    return okValue(await runAgent(options({ tools: [write], permissions })));
  }

  it("accepted classes run without asking only in acceptEdits mode", async () => {
    expect((await runWith({ mode: "acceptEdits", acceptClasses: ["edit"] })).stopReason).toBe("complete");
    const asked = await runWith({ mode: "default", acceptClasses: ["edit"] });
    expect(asked.stopReason).toBe("approval");
    expect(asked.pendingApprovals?.map((approval) => approval.toolName)).toEqual(["write"]);
  });

  it("a policy given without acceptClasses accepts no class", () => {
    expect(
      policyApproval({ mode: "acceptEdits" }, { name: "write", permissionClass: "edit" }),
    ).toBeUndefined();
    expect(
      policyApproval(
        { mode: "acceptEdits", acceptClasses: ["edit"] },
        { name: "write", permissionClass: "edit" },
      ),
    ).toEqual({ decision: "allow", rule: "accept-edits", match: "edit" });
  });
});
