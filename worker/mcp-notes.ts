/**
 * The demo's own MCP server at `/mcp`: a small notes store (add, list, read, delete), built with the
 * official MCP TypeScript SDK's McpServer behind its web-standard Streamable HTTP transport. Stateless
 * (a fresh server per request, no session id) and answering in JSON, which suits a Worker: nothing is
 * held between requests but the notes themselves, kept in KV under `note:<id>`. The SDK's schema
 * validator (Ajv, which generates code) is replaced by one on Wisp's `checkJsonSchema`.
 *
 * @module
 */

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { checkJsonSchema, formatSchemaIssues } from "wisp-agent/mcp";
import { z } from "zod";

/** Where the notes live: a KV namespace (the demo uses its sessions namespace, keys `note:<id>`). */
export interface NotesStore {
  get(key: string): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  list(options: { prefix: string; limit?: number }): Promise<{ keys: Array<{ name: string }> }>;
}

interface Note {
  id: string;
  title: string;
  text: string;
  createdAt: number;
}

/** Most notes the store keeps; most characters a note may hold. */
const MAX_NOTES = 200;
const MAX_NOTE_CHARS = 2_000;

const noteSchema = { id: z.string(), title: z.string(), text: z.string(), createdAt: z.number() };

/** The SDK's validator interface on Wisp's checker: no code generation in the Worker. */
const wispValidator: jsonSchemaValidator = {
  getValidator: (schema) => (input) => {
    const issues = checkJsonSchema(schema, input);
    return issues.length === 0
      ? { valid: true, data: input as never, errorMessage: undefined }
      : { valid: false, data: undefined, errorMessage: formatSchemaIssues(issues) };
  },
};

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** A new McpServer with the notes tools over `store`. */
function notesServer(store: NotesStore): McpServer {
  const server = new McpServer(
    { name: "wisp-demo-notes", version: "1.0.0" },
    { jsonSchemaValidator: wispValidator, instructions: "A notes store: add, list, read and delete notes." },
  );
  const read = async (id: string): Promise<Note | undefined> => {
    const stored = await store.get(`note:${id}`);
    return stored === null ? undefined : (JSON.parse(stored) as Note);
  };
  server.registerTool(
    "add",
    {
      description: "Saves a note and returns its id",
      inputSchema: { title: z.string().min(1).max(80), text: z.string().min(1).max(MAX_NOTE_CHARS) },
      outputSchema: noteSchema,
    },
    async ({ title, text: body }) => {
      const { keys } = await store.list({ prefix: "note:", limit: MAX_NOTES });
      if (keys.length >= MAX_NOTES)
        return { isError: true, ...text(`The store is full (${MAX_NOTES} notes)`) };
      const note: Note = { id: crypto.randomUUID().slice(0, 8), title, text: body, createdAt: Date.now() };
      await store.put(`note:${note.id}`, JSON.stringify(note));
      return { ...text(`Saved note ${note.id}: ${title}`), structuredContent: { ...note } };
    },
  );
  server.registerTool("list", { description: "Lists the saved notes (id and title)" }, async () => {
    const { keys } = await store.list({ prefix: "note:", limit: MAX_NOTES });
    const notes = (await Promise.all(keys.map((key) => read(key.name.slice(5))))).filter(
      (note): note is Note => note !== undefined,
    );
    notes.sort((a, b) => a.createdAt - b.createdAt);
    return text(
      notes.length === 0 ? "No notes yet" : notes.map((note) => `${note.id}: ${note.title}`).join("\n"),
    );
  });
  server.registerTool(
    "read",
    { description: "Reads one note by id", inputSchema: { id: z.string().min(1).max(40) } },
    async ({ id }) => {
      const note = await read(id);
      return note === undefined
        ? { isError: true, ...text(`No note ${id}`) }
        : text(`${note.title}\n\n${note.text}`);
    },
  );
  server.registerTool(
    "delete",
    { description: "Deletes one note by id", inputSchema: { id: z.string().min(1).max(40) } },
    async ({ id }) => {
      if ((await read(id)) === undefined) return { isError: true, ...text(`No note ${id}`) };
      await store.delete(`note:${id}`);
      return text(`Deleted note ${id}`);
    },
  );
  return server;
}

/** Answers one request to `/mcp` with a fresh stateless server (GET and DELETE get 405). */
export async function handleMcp(request: Request, store: NotesStore): Promise<Response> {
  // No sessionIdGenerator: stateless.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  const server = notesServer(store);
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
