/**
 * Pieces for reading a provider's most frequent event (a text or argument delta) by one regular
 * expression instead of `JSON.parse`. A stream of 20,000 events spends most of its decoding time in
 * `JSON.parse`, building objects and strings the handler never reads (ids, model names, the
 * obfuscation padding). An expression that matches the event's exact compact form, capturing only
 * what the handler reads, takes a third to a half of `JSON.parse`'s time on a short delta; anything
 * it does not match, or any event past its reader's length limit, is parsed as before. Each reader
 * was kept by an A/B in the benchmark that runs every reader alone (bench/decoding-honest.mjs,
 * bench/results.md): with it, streams of short deltas decode 19–36% faster; without it, its
 * provider's 20,000-delta stream read with `for await` takes 1.18–1.31 times raw decoding, past the
 * goal of 1.15.
 *
 * Each expression accepts only text that is valid JSON and builds what `JSON.parse` would give for the
 * fields its handler reads (the tests compare the two on the recordings, crafted near misses and
 * seeded random mutations). The pieces keep that true: strings whose escapes are paired and that hold
 * no raw control character, numbers as JSON writes them, JSON's own whitespace.
 *
 * @module
 */

/** A JSON string, quotes included, captured; the validity of its escapes is checked by {@link unquoted}. */
export const STRING = String.raw`("(?:[^"\\\x00-\x1f]|\\.)*")`;

/** A JSON string without escapes, quotes included, not captured (an id, a model name, padding). */
export const PLAIN = String.raw`"[^"\\\x00-\x1f]*"`;

/** A non-negative integer as JSON writes it, not captured. */
export const INTEGER = String.raw`(?:0|[1-9]\d*)`;

/**
 * An index, captured: a JSON integer of at most 9 digits, so that `Number` reads it back exactly and
 * `String` of that number gives the same text.
 */
export const INDEX = String.raw`(0|[1-9]\d{0,8})`;

/** JSON's whitespace (not `\s`, which takes more than JSON does). */
export const SPACE = String.raw`[ \t\n\r]*`;

/**
 * The expression matching `source` as the whole text. Matching stays linear: each alternative of
 * {@link STRING} starts with a different character, so a failed match backtracks at most once per
 * character.
 */
export function wholeForm(source: string): RegExp {
  return new RegExp(`^${source}$`);
}

/**
 * `form`'s match of `data`, or null when it does not match or `data` is longer than `maxChars`.
 *
 * Each reader sets its own limit, past which its events are left to `JSON.parse`: the expression saves
 * by the event (the objects `JSON.parse` builds and the handler never reads) but costs by the character
 * (it reads the string, then {@link unquoted} reads it again), so past a length that depends on how
 * much an event holds besides its delta, `JSON.parse` alone is faster. A 1,000-character Anthropic
 * delta read this way cost 1.6 times `JSON.parse` (V8, bench/decoding-honest.mjs, "long deltas"). The
 * limit also keeps the expression's backtracking stack small: V8 throws a RangeError on a delta of 30
 * million characters, and JavaScriptCore gives up on one of a million.
 */
export function matchWhole(form: RegExp, data: string, maxChars: number): RegExpExecArray | null {
  return data.length > maxChars ? null : form.exec(data);
}

/**
 * The string a {@link STRING} capture stands for, read by `JSON.parse` (a string alone parses in a
 * fraction of the event's time); undefined for an escape JSON refuses (`\x41`, `\u12`), which the
 * caller then leaves to `JSON.parse` to report. Slicing the capture out would be faster, but a slice
 * keeps the text it was cut from: every delta a consumer keeps would hold its whole network chunk.
 */
export function unquoted(captured: string): string | undefined {
  try {
    return JSON.parse(captured) as string;
  } catch {
    return undefined;
  }
}

/**
 * {@link unquoted} for a string that repeats from event to event (a response id): a capture equal to
 * the previous one gives the previous string without parsing it again. It keeps the last capture, and
 * with it one network chunk, until the next differs or the stream ends.
 */
export function repeatedUnquoted(): (captured: string) => string | undefined {
  let last = ""; // never a capture: those keep their quotes
  let value: string | undefined;
  return (captured) => {
    if (captured !== last) {
      value = unquoted(captured);
      last = captured;
    }
    return value;
  };
}
