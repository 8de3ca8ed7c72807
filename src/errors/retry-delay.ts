/**
 * Parses duration strings servers use to say how long to wait: Google's `"34.4s"` (RetryInfo) and
 * OpenAI's Go-style `"1m6.499s"` / `"11ms"` rate-limit resets.
 *
 * @module
 */

const UNIT_MS: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
  µs: 0.001,
  ns: 1e-6,
};
const PART = /(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/g;

/** Milliseconds for a duration like `34.4s`, `1m6.499s`, `11ms`; undefined when it is not one. */
export function parseRetryDelay(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  let total = 0;
  let consumed = 0;
  for (const match of trimmed.matchAll(PART)) {
    total += Number(match[1]) * (UNIT_MS[match[2] as string] ?? 0);
    consumed += match[0].length;
  }
  // The parts must make up the whole text: a gap or a stray character leaves some of it unconsumed.
  return consumed === trimmed.length ? Math.round(total) : undefined;
}
