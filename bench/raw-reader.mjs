/**
 * The raw reader every decoding benchmark compares against: the body decoded with TextDecoder, split
 * into events by eventsource-parser, each event's JSON parsed and its text, arguments (and thinking)
 * taken by `TAKE` (realistic-streams.mjs). The least any client must do.
 */
import { createParser } from "eventsource-parser";
import { TAKE } from "./realistic-streams.mjs";

/**
 * Reads one SSE response of `api` into `out` and returns it.
 * @param {Response} response
 * @param {"anthropic" | "openai" | "responses"} api
 * @param {{ text: string, args: string, thinking?: string }} out
 */
export async function readRaw(response, api, out) {
  const take = TAKE[api];
  const parser = createParser({
    onEvent(event) {
      if (event.data !== "[DONE]") take(JSON.parse(event.data), out);
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }));
  return out;
}
