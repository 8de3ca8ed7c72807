/**
 * A scripted model served on real loopback HTTP for the tests of one file or `describe` block:
 * started before them, closed after them.
 */
import { afterAll, beforeAll } from "vitest";
import { type LoopbackServer, serveScriptedModel } from "../../runtime/node/index.ts";
import { createScriptedModel, type ScriptedModel } from "../../src/testing/index.ts";

/** Registers the server's start and stop; `url` is readable from inside the tests. */
export function loopbackModel(): { readonly model: ScriptedModel; readonly url: string } {
  const model = createScriptedModel();
  let server: LoopbackServer | undefined;
  beforeAll(async () => {
    server = await serveScriptedModel(model);
  });
  afterAll(() => server?.close());
  return {
    model,
    get url(): string {
      if (server === undefined) throw new Error("the loopback server is read before it started");
      return server.url;
    },
  };
}
