/**
 * defineTool at its edges: what each bad definition (not an object, a bad or missing name, no
 * description or execute, a schema of no object, a wrong needsApproval, sideEffects or
 * permissionClass) throws, as the ConfigError message and path a user reads; and a defined tool
 * carries only the options given.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, defineTool } from "../../src/index.ts";

/** What `define` throws; fails the test when it does not throw. */
function thrown(define: () => unknown): unknown {
  try {
    define();
  } catch (error) {
    return error;
  }
  throw new Error("expected defineTool to throw");
}

/** defineTool of a working definition with `fields` changed, as plain JavaScript may pass it. */
function defineWith(fields: Record<string, unknown>) {
  return () =>
    defineTool({
      name: "t",
      description: "A tool",
      inputSchema: { type: "object" },
      execute: () => "ok",
      ...fields,
    } as never);
}

describe("defineTool refuses", () => {
  it.each([null, 5, "t"])("%j, which is no definition object", (definition) => {
    const error = thrown(() => defineTool(definition as never));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      code: "CONFIG_INVALID",
      path: "",
      message: "defineTool needs an object: { name, description, input, execute }",
    });
  });

  it("a missing name, saying it is missing", () => {
    expect(thrown(defineWith({ name: undefined }))).toMatchObject({
      path: "name",
      message: "Tool name (missing) must match ^[a-zA-Z0-9_-]{1,64}$",
    });
  });

  it("a name providers refuse, quoting it", () => {
    expect(thrown(defineWith({ name: "has space" }))).toMatchObject({
      path: "name",
      message: 'Tool name "has space" must match ^[a-zA-Z0-9_-]{1,64}$',
    });
  });

  it("a missing description or execute, naming the tool", () => {
    expect(thrown(defineWith({ description: undefined }))).toMatchObject({
      path: "description",
      message: 'Tool "t" needs a description (a string the model reads to decide when to call it)',
    });
    expect(thrown(defineWith({ execute: "run" }))).toMatchObject({
      path: "execute",
      message: 'Tool "t" needs an execute function',
    });
  });

  it("an input schema that describes no object", () => {
    expect(thrown(defineWith({ inputSchema: { type: "string" } }))).toMatchObject({
      path: "inputSchema.type",
      message: 'Tool "t": the input schema must describe an object',
    });
  });

  it("a needsApproval, sideEffects or permissionClass of the wrong kind, at its own path", () => {
    expect(thrown(defineWith({ needsApproval: "yes" }))).toMatchObject({
      code: "CONFIG_INVALID",
      path: "needsApproval",
      message: 'Tool "t": needsApproval must be true, false or a function',
    });
    expect(thrown(defineWith({ sideEffects: "no" }))).toMatchObject({
      path: "sideEffects",
      message: 'Tool "t": sideEffects must be true or false',
    });
    expect(thrown(defineWith({ permissionClass: "bad class" }))).toMatchObject({
      path: "permissionClass",
      message: 'Tool "t": permissionClass must be 1 to 64 letters, digits, _ or -',
    });
  });
});

describe("a defined tool", () => {
  it("carries only the options given: no key left undefined", () => {
    expect(Object.keys(defineWith({})())).toEqual(["name", "description", "inputSchema", "execute"]);
    const full = defineWith({
      timeoutMs: 500,
      sideEffects: false,
      permissionClass: "edit",
      needsApproval: true,
    })();
    expect(full).toMatchObject({
      timeoutMs: 500,
      sideEffects: false,
      permissionClass: "edit",
      needsApproval: true,
    });
  });
});
