/**
 * joinStateTail at its edges: saved messages that do not line up with a tail are refused even when
 * their last id happens to match, and the refusal says what a store holds and where the tail starts.
 */
import { describe, expect, it } from "vitest";
import { createAgentSession, joinStateTail, type Message } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

/** A session after two exchanges, the two messages a store saved after the first, and a tail from 2. */
async function twoTurns() {
  const model = createScriptedModel({ script: [says("one"), says("two")] });
  const session = okValue(
    await createAgentSession({ model: "anthropic/claude-sonnet-5-5", apiKey: "k", fetch: model.fetch }),
  );
  okValue(await session.chat("first"));
  const saved = session.export().messages;
  okValue(await session.chat("second"));
  return { session, saved, tail: session.exportTail(2) };
}

const refused = (path = "messagesFrom") => ({ _tag: "ConfigError", code: "CONFIG_INVALID", path });

describe("joinStateTail refuses saved messages that do not line up", () => {
  it("another length, even when the last saved id is the tail's previousId", async () => {
    const { saved, tail } = await twoTurns();
    const longer: Message[] = [{ ...(saved[0] as Message), id: "extra" }, ...saved];
    expect(longer.at(-1)?.id).toBe(tail.previousId);
    expect(() => joinStateTail(longer, tail)).toThrow(
      expect.objectContaining({
        ...refused(),
        message: "The saved messages do not line up with the tail: 3 saved, the tail starts at 2",
      }),
    );
  });

  it("the same length with another last id: names the message the tail follows", async () => {
    const { saved, tail } = await twoTurns();
    const other = [saved[0] as Message, { ...(saved[1] as Message), id: "elsewhere" }];
    expect(() => joinStateTail(other, tail)).toThrow(
      expect.objectContaining({
        ...refused(),
        message: `The saved messages do not line up with the tail: 2 saved, the tail starts at 2 after message ${tail.previousId}`,
      }),
    );
  });

  it("a tail that names no previous message after the start: says so", async () => {
    const { saved, tail } = await twoTurns();
    const { previousId: _, ...without } = tail;
    expect(() => joinStateTail(saved, without)).toThrow(
      expect.objectContaining({
        ...refused(),
        message:
          "The saved messages do not line up with the tail: 2 saved, the tail starts at 2 after message (none)",
      }),
    );
    expect(joinStateTail(saved, tail).messages).toHaveLength(4);
  });
});
