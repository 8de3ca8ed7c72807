/**
 * The output items of a Responses stream, each a part of the message keyed by its `output_index`.
 *
 * - A `function_call` opens when it is added (its name and `call_id` come then); its arguments stream
 *   as deltas, or arrive only whole in `function_call_arguments.done` or the finished item (LM
 *   Studio sends no deltas).
 * - A `message` streams `output_text` and `refusal` deltas; text that comes only in
 *   `output_text.done` / `refusal.done`, or only in the finished item, fills a part nothing streamed
 *   into.
 * - A `reasoning` item streams summary or raw reasoning text; finished, it is kept whole (with
 *   `encrypted_content`) as the thinking part's signature, to go back verbatim, and its summary (or
 *   raw text) fills a part nothing streamed into.
 * - Any other item is a built-in tool's (web search, code interpreter, MCP, …), kept verbatim as a
 *   provider part. It takes its place when it is added, so the content follows `output_index` even
 *   when built-in tools finish out of order, and holds the finished item once it is done.
 *
 * An item added but never finished by `output_item.done` is finished from the response's `output`
 * when the response completes (a server may leave out the `done` events of items it lists there).
 *
 * @module
 */

import type { MessageBuilder } from "../../message/message-builder.ts";
import type { JsonObject } from "../../types.ts";
import { type EventData, objectAt, stringAt } from "../parse-event-data.ts";

/** The key of an event's item: its `output_index`, else its `item_id`. */
export const itemKey = (data: EventData): string =>
  `item:${typeof data.output_index === "number" ? data.output_index : (stringAt(data, "item_id") ?? "")}`;

/** The item types read as parts of their own; any other is a built-in tool's, kept verbatim. */
const READ_ITEMS = new Set(["function_call", "message", "reasoning"]);

const entries = (value: unknown): EventData[] =>
  Array.isArray(value)
    ? value.filter((entry): entry is EventData => typeof entry === "object" && entry !== null)
    : [];

/** The text of a finished message item: its output text and refusals, and whether it refused. */
function messageText(item: EventData): { text: string; refused: boolean } {
  let text = "";
  let refused = false;
  for (const content of entries(item.content)) {
    const type = stringAt(content, "type");
    if (type === "output_text") text += stringAt(content, "text") ?? "";
    else if (type === "refusal") {
      text += stringAt(content, "refusal") ?? "";
      refused = true;
    }
  }
  return { text, refused };
}

/** The text of a finished reasoning item: its summary, else its raw reasoning text. */
function reasoningText(item: EventData): string {
  const summary = entries(item.summary).map((entry) => stringAt(entry, "text") ?? "");
  if (summary.length > 0) return summary.join("\n\n");
  return entries(item.content)
    .map((entry) => stringAt(entry, "text") ?? "")
    .join("");
}

/** The output items of one response, driving `builder`. */
export class OutputItems {
  /** True once a function call was seen. */
  hasToolCalls = false;
  /** True once refusal text was seen. */
  refused = false;
  readonly #builder: MessageBuilder;

  constructor(builder: MessageBuilder) {
    this.#builder = builder;
  }

  #startCall(key: string, item: EventData): void {
    this.hasToolCalls = true;
    this.#builder.toolCallStart(key, stringAt(item, "call_id") ?? "", stringAt(item, "name") ?? "");
  }

  /** `response.output_item.added`. */
  added(data: EventData): void {
    const item = objectAt(data, "item");
    const type = stringAt(item, "type");
    if (item === undefined || type === undefined) return;
    const key = itemKey(data);
    if (type === "function_call") {
      this.#startCall(key, item);
      const args = stringAt(item, "arguments");
      if (args) this.#builder.toolCallArgs(key, args);
    } else if (!READ_ITEMS.has(type)) this.#builder.providerStart(key, item as JsonObject);
  }

  /** `response.output_text.done` or `response.refusal.done`: the whole text of one content part. */
  textDone(data: EventData, refusal: boolean): void {
    const key = itemKey(data);
    const text = stringAt(data, refusal ? "refusal" : "text");
    if (!text || !this.#builder.isEmpty(key)) return;
    if (refusal) this.refused = true;
    this.#builder.text(key, text);
  }

  /** `response.function_call_arguments.done`: the call's whole arguments. */
  argumentsDone(data: EventData): void {
    const key = itemKey(data);
    const args = stringAt(data, "arguments");
    if (args && this.#builder.isOpen(key) && this.#builder.isEmpty(key))
      this.#builder.toolCallArgs(key, args);
  }

  /** `response.output_item.done`: the item finished, whole. */
  done(data: EventData): void {
    const item = objectAt(data, "item");
    if (item === undefined) return;
    const key = itemKey(data);
    const builder = this.#builder;
    switch (stringAt(item, "type")) {
      case "reasoning":
        if (builder.isEmpty(key)) builder.thinking(key, reasoningText(item));
        // Kept whole: the item (id, summary, encrypted_content) goes back as it came.
        builder.setSignature(key, JSON.stringify(item));
        break;
      case "function_call":
        if (!builder.isOpen(key)) this.#startCall(key, item); // a call that arrived only whole
        if (builder.isEmpty(key)) builder.toolCallArgs(key, stringAt(item, "arguments") ?? "");
        break;
      case "message": {
        if (!builder.isEmpty(key)) break;
        const { text, refused } = messageText(item);
        if (text !== "") builder.text(key, text);
        if (refused) this.refused = true;
        break;
      }
      case undefined:
        break;
      default:
        if (builder.isOpen(key)) builder.providerBlock(key, item as JsonObject);
        else builder.providerPart(item as JsonObject);
    }
    builder.close(key);
  }

  /** The response completed (or stopped incomplete): items still open are finished from its `output`. */
  completed(response: EventData | undefined): void {
    entries(response?.output).forEach((item, index) => {
      if (this.#builder.isOpen(`item:${index}`)) this.done({ output_index: index, item });
    });
  }
}
