/**
 * Tells when a request cannot read the prompt cache the previous one wrote, and why: the model, the
 * system prompt or the tools changed, or an earlier message is not what was sent before. Providers
 * cache a prompt's prefix, so anything that changes it makes every token after the change a miss.
 *
 * @module
 */

import type { Message, ModelRequest } from "../types.ts";

/** A session's (or a run's) view of its previous request. */
export class PrefixWatch {
  #model: string | undefined;
  #system: string | undefined;
  #toolSpecs: unknown;
  // The text of "no tools": absent and empty lists send the same request.
  #tools = "[]";
  #messages: readonly Message[] = [];

  /** Why `request` to `model` misses the cache the previous request wrote, or undefined; then remembers it. */
  check(model: string, request: ModelRequest): string | undefined {
    // The tools' text is rebuilt only when the list is another one (a run keeps one list).
    const tools = request.tools === this.#toolSpecs ? this.#tools : JSON.stringify(request.tools ?? []);
    this.#toolSpecs = request.tools;
    const previous = this.#messages;
    let reason: string | undefined;
    if (this.#model !== undefined) {
      if (model !== this.#model) reason = "the model changed";
      else if (request.systemPrompt !== this.#system) reason = "the system prompt changed";
      else if (tools !== this.#tools) reason = "the tools changed";
      else {
        const shared = Math.min(previous.length, request.messages.length);
        for (let index = 0; index < shared && reason === undefined; index++) {
          const before = previous[index];
          const now = request.messages[index];
          if (now !== before && JSON.stringify(now) !== JSON.stringify(before))
            reason = now?.id.startsWith("compaction-")
              ? "the conversation was compacted"
              : `message ${index + 1} is not the one sent before`;
        }
      }
    }
    this.#model = model;
    this.#system = request.systemPrompt;
    this.#tools = tools;
    this.#messages = request.messages.slice();
    return reason;
  }
}
