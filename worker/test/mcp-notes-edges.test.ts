/**
 * Edges of the demo's notes MCP server (worker/mcp-notes.ts), reached through Wisp's `connectMcp` with
 * an in-memory store that lists keys like KV (sorted, by prefix, at most `limit`): its name, the tools'
 * descriptions, the list's order and wording, the 200-note cap, keys that are not notes, a listed note
 * already gone, and deleting a note.
 */
import { describe, expect, it } from "vitest";
import { connectMcp, type McpConnection } from "wisp-agent/mcp";
import { toolContext } from "../../test/support/tool-context.ts";
import { handleMcp, type NotesStore } from "../mcp-notes.ts";

const context = toolContext();

/** A store like KV; `stale` names are listed although their values are gone (KV's list lags a delete). */
function memoryStore(stale: string[] = []) {
  const values = new Map<string, string>();
  const store: NotesStore = {
    get: async (key) => values.get(key) ?? null,
    put: async (key, value) => {
      values.set(key, value);
    },
    delete: async (key) => {
      values.delete(key);
    },
    list: async ({ prefix, limit = 1000 }) => ({
      keys: [...values.keys(), ...stale]
        .filter((name) => name.startsWith(prefix))
        .sort()
        .slice(0, limit)
        .map((name) => ({ name })),
    }),
  };
  const note = (id: string, title: string, createdAt: number) =>
    values.set(`note:${id}`, JSON.stringify({ id, title, text: `${title} text`, createdAt }));
  return { store, values, note };
}

async function connect(store: NotesStore): Promise<McpConnection> {
  const connected = await connectMcp({
    url: "https://notes.test/mcp",
    fetch: (input, init) => handleMcp(new Request(input, init), store),
    prefix: "notes_",
  });
  if (!connected.ok) throw connected.error;
  return connected.value;
}

function run(mcp: McpConnection, name: string, args: Record<string, string> = {}): Promise<unknown> {
  const tool = mcp.tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return Promise.resolve(tool.execute(args, context));
}

describe("the notes MCP server", () => {
  it("names itself and says what it is for when a client connects", async () => {
    const mcp = await connect(memoryStore().store);
    expect(mcp.serverInfo).toEqual({ name: "wisp-demo-notes", version: "1.0.0" });
    expect(mcp.instructions).toBe("A notes store: add, list, read and delete notes.");
    await mcp.close();
  });

  it("describes each tool to the model", async () => {
    const mcp = await connect(memoryStore().store);
    expect(Object.fromEntries(mcp.tools.map((tool) => [tool.name, tool.description]))).toEqual({
      notes_add: "Saves a note and returns its id",
      notes_list: "Lists the saved notes (id and title)",
      notes_read: "Reads one note by id",
      notes_delete: "Deletes one note by id",
    });
    await mcp.close();
  });

  it("lists notes oldest first, one per line, and says when there are none", async () => {
    const { store, note } = memoryStore();
    const mcp = await connect(store);
    expect(await run(mcp, "notes_list")).toBe("No notes yet");
    note("a3", "Third", 3_000);
    note("c1", "First", 1_000);
    note("b2", "Second", 2_000);
    expect(await run(mcp, "notes_list")).toBe("c1: First\nb2: Second\na3: Third");
    await mcp.close();
  });

  it("leaves out a note the store still lists but no longer holds", async () => {
    const { store, note } = memoryStore(["note:gone"]);
    note("kept", "Kept", 1_000);
    const mcp = await connect(store);
    expect(await run(mcp, "notes_list")).toBe("kept: Kept");
    await mcp.close();
  });

  it("counts only notes: other keys of the namespace neither fill the store nor crowd notes out of the list", async () => {
    const { store, values, note } = memoryStore();
    for (let i = 0; i < 250; i++) values.set(`account:${String(i).padStart(3, "0")}`, "{}");
    note("only", "Only", 1_000);
    const mcp = await connect(store);
    expect(await run(mcp, "notes_list")).toBe("only: Only");
    expect(String(await run(mcp, "notes_add", { title: "Milk", text: "Buy milk" }))).toMatch(
      /^Saved note \w+: Milk$/,
    );
    await mcp.close();
  });

  it("refuses a note past 200 with a clear error, saving nothing", async () => {
    const { store, values, note } = memoryStore();
    for (let i = 0; i < 200; i++) note(`n${String(i).padStart(3, "0")}`, `Note ${i}`, i);
    const mcp = await connect(store);
    await expect(run(mcp, "notes_add", { title: "One more", text: "x" })).rejects.toThrow(
      "The store is full (200 notes)",
    );
    expect(values.size).toBe(200);
    await mcp.close();
  });

  it("deletes a note by id, and refuses an id it does not hold", async () => {
    const { store, values, note } = memoryStore();
    note("a3", "Third", 3_000);
    note("b2", "Second", 2_000);
    const mcp = await connect(store);
    expect(await run(mcp, "notes_delete", { id: "a3" })).toBe("Deleted note a3");
    expect([...values.keys()]).toEqual(["note:b2"]);
    await expect(run(mcp, "notes_read", { id: "a3" })).rejects.toThrow("No note a3");
    await expect(run(mcp, "notes_delete", { id: "a3" })).rejects.toThrow("No note a3");
    expect(await run(mcp, "notes_list")).toBe("b2: Second");
    await mcp.close();
  });
});
