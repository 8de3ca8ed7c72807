/**
 * A schema's `pattern` and `patternProperties` regexes: run, compiled once per check, only when the
 * schema is trusted (one you wrote); an untrusted schema's patterns (an MCP server's) are annotations,
 * never run, so a hostile regex cannot block the event loop.
 *
 * @module
 */

/** What the walks of one call share about patterns. */
export interface Patterns {
  /** Whether patterns are run; otherwise each decides nothing. */
  trusted: boolean;
  /** Each pattern as compiled once per call; undefined for one this runtime cannot read. */
  compiled: Map<string, RegExp | undefined>;
}

/**
 * A schema's pattern as a RegExp: with the `u` flag when it reads so (JSON Schema's patterns are
 * Unicode-aware), else without (patterns written for plain ECMA-262, such as `\a` for the letter
 * a); undefined for one this runtime cannot read at all, which then constrains nothing.
 */
function compilePattern(source: string): RegExp | undefined {
  for (const flags of ["u", ""]) {
    try {
      return new RegExp(source, flags);
    } catch {
      // try the next reading
    }
  }
  return undefined;
}

/**
 * Whether `text` matches the pattern, or undefined when that is not decided: an untrusted schema's
 * pattern (never run), or one this runtime cannot read.
 */
export function matches(patterns: Patterns, source: string, text: string): boolean | undefined {
  if (!patterns.trusted) return undefined;
  if (!patterns.compiled.has(source)) patterns.compiled.set(source, compilePattern(source));
  const regex = patterns.compiled.get(source);
  if (regex === undefined) return undefined;
  try {
    return regex.test(text);
  } catch {
    return undefined; // an engine out of backtracking stack: the checker never throws
  }
}
