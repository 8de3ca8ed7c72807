/**
 * The strict check of a `permissions` policy (permission-rules.ts), seen through runAgent and
 * `session.setPermissions`: each malformed policy is a ConfigError whose message and path name the
 * field and what it should be — a policy that is not an object, an unknown field, a list that is not an array, an entry of the wrong
 * syntax in allow, deny and acceptClasses, and a list over 1,000 entries (1,000 is fine).
 */
import { describe, expect, it } from "vitest";
import { createAgentSession, runAgent } from "../../src/index.ts";
import { says, scripted } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

async function refusal(permissions: unknown) {
  const { options } = scripted([says("done")]);
  return failure(await runAgent(options({ permissions: permissions as never })));
}

describe("a malformed permissions option", () => {
  it("given to setPermissions, one that is not an object says what a policy is", async () => {
    const { options } = scripted([says("done")]);
    const { prompt: _, ...sessionOptions } = options();
    const session = okValue(await createAgentSession(sessionOptions));
    expect(failure(await session.setPermissions("plan" as never))).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "permissions",
      message: 'permissions must be a policy object ({ mode, allow, deny, acceptClasses }), got "plan"',
    });
  });

  it("with an unknown field names it as a permissions field", async () => {
    const error = await refusal({ mode: "plan", allwo: ["read"] });
    expect(error).toMatchObject({ code: "CONFIG_INVALID", path: "permissions.allwo" });
    expect(error.message).toMatch(/^Unknown permissions field "allwo"/);
  });

  it("with a list that is not an array says what the list holds", async () => {
    expect(await refusal({ allow: "read" })).toMatchObject({
      path: "permissions.allow",
      message: 'permissions.allow must be an array of tool name or patterns, got "read"',
    });
  });

  it.each([
    ["allow", ["read", "no spaces"], "permissions.allow.1", "tool name or pattern", "^[a-zA-Z0-9_*-]{1,64}$"],
    ["deny", ["no spaces"], "permissions.deny.0", "tool name or pattern", "^[a-zA-Z0-9_*-]{1,64}$"],
    [
      "acceptClasses",
      ["edit", "no spaces"],
      "permissions.acceptClasses.1",
      "permission class",
      "^[a-zA-Z0-9_-]{1,64}$",
    ],
  ])("with a bad entry in %s names the entry and its syntax", async (field, list, path, what, syntax) => {
    expect(await refusal({ [field]: list })).toMatchObject({
      path,
      message: `${path} must be a ${what} (${syntax}), got "no spaces"`,
    });
  });

  it("a list given as undefined (from plain JavaScript) is the same as an absent one", async () => {
    const { options } = scripted([says("done")]);
    const result = await runAgent(options({ permissions: { mode: "default", allow: undefined } as never }));
    expect(result.ok && result.value.text).toBe("done");
  });

  it("with more than 1,000 entries in a list is refused; 1,000 are fine", async () => {
    const names = (count: number) => Array.from({ length: count }, (_, index) => `tool_${index}`);
    expect(await refusal({ deny: names(1001) })).toMatchObject({
      path: "permissions.deny",
      message: "permissions.deny may hold at most 1000 entries",
    });
    const { options } = scripted([says("done")]);
    const result = await runAgent(options({ permissions: { deny: names(1000) } }));
    expect(result.ok && result.value.text).toBe("done");
  });
});
