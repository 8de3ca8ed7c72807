/**
 * Tool-call ids made acceptable to an API that constrains their form. A session moving between
 * providers carries ids minted by another one (Anthropic's `toolu_…`, OpenAI's `call_…`, Gemini's
 * optional ids, our own); an id that already fits is sent as is, and any other is mapped, the same
 * way for the call and for its result, so the pairing survives.
 *
 * @module
 */

/** The form an API accepts. */
export interface IdRule {
  pattern: RegExp;
  maxLength: number;
}

/** FNV-1a, 32 bits, of `text`'s UTF-16 code units from `seed`, as 8 hex digits. Not cryptographic. */
export function fnv1a(text: string, seed: number): string {
  let hash = seed;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * `id` if it fits `rule`, else a deterministic id that does: its allowed characters (others become
 * `_`), cut to leave room for a 16-hex-digit hash of the whole original id.
 */
export function toolCallIdFor(id: string, rule: IdRule): string {
  if (id.length > 0 && id.length <= rule.maxLength && rule.pattern.test(id)) return id;
  const hash = fnv1a(id, 0x811c9dc5) + fnv1a(id, 0x01000193);
  const kept = id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, Math.max(0, rule.maxLength - hash.length - 1));
  return `${kept}_${hash}`;
}
