/**
 * Permission policies (issue 40) in one run: the deny list, plan mode, bypass, the allow list and
 * acceptEdits decide tool calls in the documented order (docs/permissions.md), each decision seen in a
 * `permission-decision` event and in what the model reads; patterns; strict validation; what tools
 * and MCP tools declare.
 */
import { describe, expect, it } from "vitest";
import { matchesPattern, policyApproval, policyRefusal } from "../../src/agent/permission-decisions.ts";
import {
  type AgentEvent,
  defineTool,
  type Hooks,
  isSdkError,
  type PermissionPolicy,
  runAgent,
  runAgentStream,
} from "../../src/index.ts";
import { annotationPermissions } from "../../src/mcp/mcp-permissions.ts";
import { toWispTools } from "../../src/mcp/mcp-tools.ts";
import { calls, collect, says, scripted } from "../support/agent.ts";
import { permissionTools } from "../support/permission-tools.ts";
import { failure } from "../support/results.ts";

/** `read`, `write` and `shell` (test/support/permission-tools.ts), as a list, and what they ran. */
function tools() {
  const { ran, read, write, shell } = permissionTools();
  return { ran, list: [read, write, shell] };
}

/** Runs one turn calling each of `names` (with args), then a closing answer; returns what happened. */
async function turn(permissions: PermissionPolicy | undefined, names: string[], hooks?: Hooks) {
  const { ran, list } = tools();
  const args: Record<string, Record<string, unknown>> = {
    read: { path: "a.txt" },
    write: { path: "b.txt" },
    shell: { command: "ls" },
  };
  const { model, options } = scripted([
    calls(...names.map((name) => [name, args[name] ?? {}] as [string, Record<string, unknown>])),
    says("ok"),
  ]);
  const run = runAgentStream(
    options({
      tools: list,
      ...(permissions === undefined ? {} : { permissions }),
      ...(hooks ? { hooks } : {}),
    }),
  );
  const events = await collect(run);
  const result = await run.result;
  if (!result.ok) throw result.error;
  const decisions = events.flatMap((event: AgentEvent) =>
    event.type === "permission-decision" ? [[event.toolCall.name, event.verdict]] : [],
  );
  const outputs = Object.fromEntries(
    result.value.toolCalls.map((call) => [call.toolCall.name, call.result.output]),
  );
  return { ran, result: result.value, decisions, outputs, requests: model.requests.length };
}

describe("the deny list and plan mode refuse before anything else", () => {
  it("a denied tool never runs, no hook sees it, and the model reads who denied it", async () => {
    const seen: string[] = [];
    const hooks: Hooks = {
      preToolUse: ({ toolCall }) => {
        seen.push(toolCall.name);
        return undefined;
      },
    };
    const { ran, result, decisions, outputs } = await turn({ deny: ["sh*"] }, ["read", "shell"], hooks);
    expect(ran).toEqual(["read a.txt"]);
    expect(seen).toEqual(["read"]);
    expect(result.stopReason).toBe("complete");
    expect(outputs.shell).toBe('Denied by the permission policy: "shell" matches its deny list ("sh*")');
    expect(result.toolCalls.find((call) => call.toolCall.name === "shell")?.result.isError).toBe(true);
    expect(decisions).toEqual([["shell", { decision: "deny", rule: "deny-list", match: "sh*" }]]);
  });

  it("the deny list wins over bypass and the allow list", async () => {
    const { ran, decisions } = await turn({ mode: "bypass", allow: ["*"], deny: ["write"] }, [
      "write",
      "shell",
    ]);
    expect(ran).toEqual(["shell ls"]);
    expect(decisions).toEqual([
      ["write", { decision: "deny", rule: "deny-list", match: "write" }],
      ["shell", { decision: "allow", rule: "bypass" }],
    ]);
  });

  it("plan mode runs only the tools declared without side effects; the run goes on", async () => {
    const { ran, result, decisions, outputs } = await turn({ mode: "plan" }, ["read", "write", "shell"]);
    expect(ran).toEqual(["read a.txt"]);
    expect(result.stopReason).toBe("complete");
    expect(result.pendingApprovals).toBeUndefined();
    expect(outputs.write).toMatch(
      /^Not run: the permission policy is in plan mode.*"write" may have side effects/,
    );
    expect(decisions.map(([name, verdict]) => [name, (verdict as { rule: string }).rule])).toEqual([
      ["write", "plan"],
      ["shell", "plan"],
    ]);
  });

  it("plan mode refuses a tool that declared nothing (side effects are the default)", async () => {
    const plain = defineTool({
      name: "plain",
      description: "?",
      inputSchema: { type: "object" },
      execute: () => "x",
    });
    expect(policyRefusal({ mode: "plan" }, plain)).toEqual({ decision: "deny", rule: "plan" });
    expect(policyRefusal({ mode: "plan" }, { name: "r", sideEffects: false })).toBeUndefined();
    expect(policyRefusal({ mode: "default" }, plain)).toBeUndefined();
  });
});

describe("calls that would wait for a person", () => {
  it("without a policy they pause the run, as before", async () => {
    const { ran, result, decisions } = await turn(undefined, ["write", "shell"]);
    expect(ran).toEqual([]);
    expect(result.stopReason).toBe("approval");
    expect(result.pendingApprovals?.map((approval) => approval.toolName)).toEqual(["write", "shell"]);
    expect(decisions).toEqual([]);
  });

  it("bypass runs them without asking", async () => {
    const { ran, result } = await turn({ mode: "bypass" }, ["write", "shell"]);
    expect(ran.sort()).toEqual(["shell ls", "write b.txt"]); // parallel tools: either order
    expect(result.stopReason).toBe("complete");
  });

  it("the allow list runs the tools it matches; the others still wait", async () => {
    const { ran, result, decisions } = await turn({ allow: ["wr*"] }, ["write", "shell"]);
    expect(ran).toEqual(["write b.txt"]);
    expect(result.stopReason).toBe("approval");
    expect(result.pendingApprovals?.map((approval) => approval.toolName)).toEqual(["shell"]);
    expect(decisions).toEqual([["write", { decision: "allow", rule: "allow-list", match: "wr*" }]]);
  });

  it("acceptEdits runs the accepted classes (default edit) and asks for the rest", async () => {
    const accepted = await turn({ mode: "acceptEdits" }, ["write", "shell"]);
    expect(accepted.ran).toEqual(["write b.txt"]);
    expect(accepted.decisions).toEqual([
      ["write", { decision: "allow", rule: "accept-edits", match: "edit" }],
    ]);
    expect(accepted.result.pendingApprovals?.map((approval) => approval.toolName)).toEqual(["shell"]);
    const other = await turn({ mode: "acceptEdits", acceptClasses: ["network"] }, ["write"]);
    expect(other.ran).toEqual([]);
    expect(other.result.stopReason).toBe("approval");
  });

  it("a hook's ask is answered by the allow list; a hook's deny is not overridden", async () => {
    const hooks: Hooks = {
      preToolUse: ({ toolCall }) =>
        toolCall.name === "read"
          ? { decision: "ask", reason: "check" }
          : { decision: "deny", reason: "hook says no" },
    };
    const { ran, result, outputs } = await turn(
      { mode: "bypass", allow: ["read"] },
      ["read", "shell"],
      hooks,
    );
    expect(ran).toEqual(["read a.txt"]);
    expect(outputs.shell).toBe("hook says no");
    expect(result.stopReason).toBe("complete");
  });

  it("the policy answers only what would be asked: a call that needs no approval emits nothing", async () => {
    const { ran, decisions } = await turn({ mode: "bypass", allow: ["read"] }, ["read"]);
    expect(ran).toEqual(["read a.txt"]);
    expect(decisions).toEqual([]);
  });
});

describe("patterns", () => {
  it.each([
    ["search", "search", true],
    ["search", "search2", false],
    ["mcp_notes_*", "mcp_notes_list", true],
    ["mcp_notes_*", "mcp_notes_", true],
    ["mcp_notes_*", "mcp_note", false],
    ["*", "anything", true],
    ["*_delete", "files_delete", true],
    ["*_delete", "files_delete_all", false],
    ["a*b*c", "abc", true],
    ["a*b*c", "aXbYc", true],
    ["a*b*c", "acb", false],
    ["a*a", "a", false],
  ])("%s against %s: %s", (pattern, name, expected) => {
    expect(matchesPattern(pattern, name)).toBe(expected);
  });

  it("the first matching pattern is the one reported", () => {
    expect(policyApproval({ allow: ["x", "w*", "write"] }, { name: "write" })).toEqual({
      decision: "allow",
      rule: "allow-list",
      match: "w*",
    });
  });
});

describe("a policy is checked strictly", () => {
  it.each([
    [{ mode: "yolo" }, "permissions.mode"],
    [{ mode: "acceptedits" }, "permissions.mode"],
    [{ allow: "read" }, "permissions.allow"],
    [{ deny: ["ok", "bad name"] }, "permissions.deny.1"],
    [{ deny: [""] }, "permissions.deny.0"],
    [{ allow: [42] }, "permissions.allow.0"],
    [{ acceptClasses: ["ed*t"] }, "permissions.acceptClasses.0"],
    [{ alow: ["read"] }, "permissions.alow"],
    ["bypass", "permissions"],
    [null, "permissions"],
  ])("%j is a ConfigError at %s, and nothing is sent", async (permissions, path) => {
    const { model, options } = scripted([says("never")]);
    const result = await runAgent(options({ permissions: permissions as PermissionPolicy }));
    const error = failure(result);
    expect(isSdkError(error) && [error.code, error.path]).toEqual(["CONFIG_INVALID", path]);
    expect(model.requests).toHaveLength(0);
  });

  it("a misspelt mode gets a did-you-mean", async () => {
    const { options } = scripted([says("never")]);
    const error = failure(await runAgent(options({ permissions: { mode: "bypas" as "bypass" } })));
    expect(error.message).toContain('did you mean "bypass"');
  });
});

describe("what tools declare", () => {
  it("defineTool keeps sideEffects and permissionClass and refuses bad ones with a ConfigError", () => {
    const base = { name: "t", description: "d", inputSchema: { type: "object" }, execute: () => "" };
    const tool = defineTool({ ...base, sideEffects: false, permissionClass: "edit" });
    expect([tool.sideEffects, tool.permissionClass]).toEqual([false, "edit"]);
    expect("sideEffects" in defineTool(base)).toBe(false);
    const bad = (extra: object) => {
      try {
        defineTool({ ...base, ...extra } as typeof base);
        return undefined;
      } catch (error) {
        return isSdkError(error) ? [error.code, error.path] : error;
      }
    };
    expect(bad({ sideEffects: "no" })).toEqual(["CONFIG_INVALID", "sideEffects"]);
    expect(bad({ permissionClass: "has space" })).toEqual(["CONFIG_INVALID", "permissionClass"]);
  });

  it("a plain tool object with a bad declaration is refused by the run's tools check", async () => {
    const { options } = scripted([says("never")]);
    const tool = {
      name: "t",
      description: "d",
      inputSchema: { type: "object" },
      execute: () => "",
      sideEffects: 1,
    };
    const error = failure(await runAgent(options({ tools: [tool as never] })));
    expect(isSdkError(error) && [error.code, error.path]).toEqual(["CONFIG_INVALID", "tools.0.sideEffects"]);
  });

  it("MCP annotations: readOnlyHint is free of side effects; a non-destructive, closed-world writer is an edit", () => {
    expect(annotationPermissions({ readOnlyHint: true, destructiveHint: true })).toEqual({
      sideEffects: false,
    });
    expect(
      annotationPermissions({ readOnlyHint: false, destructiveHint: false, openWorldHint: false }),
    ).toEqual({ permissionClass: "edit" });
    // Reaching the open world (mail, payments, posts) is never an edit: the protocol's default is true.
    expect(annotationPermissions({ destructiveHint: false })).toEqual({});
    expect(annotationPermissions({ destructiveHint: false, openWorldHint: true })).toEqual({});
    expect(annotationPermissions({ destructiveHint: true })).toEqual({});
    expect(annotationPermissions({})).toEqual({});
    expect(annotationPermissions(undefined)).toEqual({});
    const context = { client: {} as never, prefix: "mcp_notes_" };
    const wisp = toWispTools(
      [
        { name: "list", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
        {
          name: "append",
          inputSchema: { type: "object" },
          annotations: { destructiveHint: false, openWorldHint: false },
        },
        { name: "delete", inputSchema: { type: "object" } },
      ],
      context,
    );
    expect(wisp.map((tool) => [tool.name, tool.sideEffects, tool.permissionClass])).toEqual([
      ["mcp_notes_list", false, undefined],
      ["mcp_notes_append", undefined, "edit"],
      ["mcp_notes_delete", undefined, undefined],
    ]);
    expect(policyRefusal({ mode: "plan" }, wisp[0] as never)).toBeUndefined();
    expect(policyRefusal({ mode: "plan" }, wisp[2] as never)?.rule).toBe("plan");
  });
});
