/**
 * A server's resources at their edges, against a server in place: the fields of listed resources
 * and templates as sent (none made up), a size of 0 kept, templates with an empty URI template left
 * out, and `readResource`'s signal.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/types.ts";
import { failure, okValue } from "../support/results.ts";
import { connectAnswering } from "./support/session-server.ts";

describe("listResources", () => {
  it("keeps a size of 0 and gives no field the server did not send", async () => {
    const connection = await connectAnswering({
      "resources/list": { resources: [{ uri: "notes://empty", size: 0 }, { uri: "notes://today" }] },
    });
    expect(okValue(await connection.listResources())).toStrictEqual([
      { uri: "notes://empty", name: "notes://empty", size: 0 },
      { uri: "notes://today", name: "notes://today" },
    ]);
    await connection.close();
  });
});

describe("listResourceTemplates", () => {
  it("reads title, description and mimeType, and leaves out a template with an empty URI template", async () => {
    const connection = await connectAnswering({
      "resources/templates/list": {
        resourceTemplates: [
          { uriTemplate: "", name: "nothing" },
          {
            uriTemplate: "notes://{id}",
            name: "note",
            title: "A note",
            description: "One note by id",
            mimeType: "text/markdown",
          },
        ],
      },
    });
    expect(okValue(await connection.listResourceTemplates())).toStrictEqual([
      {
        uriTemplate: "notes://{id}",
        name: "note",
        title: "A note",
        description: "One note by id",
        mimeType: "text/markdown",
      },
    ]);
    await connection.close();
  });
});

describe("readResource", () => {
  it("fails with an AbortError, asking the server nothing, when its signal has aborted", async () => {
    const asked: JsonObject[] = [];
    const connection = await connectAnswering(
      { "resources/read": { contents: [{ uri: "notes://today", text: "Shipped." }] } },
      asked,
    );
    const error = failure(await connection.readResource("notes://today", AbortSignal.abort()));
    expect(error._tag).toBe("AbortError");
    expect(asked).toEqual([]);
    await connection.close();
  });
});
