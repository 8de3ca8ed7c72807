/**
 * A schema's `pattern` and `patternProperties` regexes, compiled once per check and run only within
 * the check's regex budget ({@link MAX_PATTERN_STEPS}) unless the schema is trusted: a pattern whose
 * worst case is unknown or too large is left undecided, never run.
 *
 * @module
 */

import { type PatternShape, patternShape, worstCaseSteps } from "./pattern-cost.ts";

/**
 * The most regex work (in steps of pattern-cost.ts's bound) one call may spend on the patterns of an
 * untrusted schema; patterns past it are not enforced. Measured in Node, a step of the bound costs at
 * most about 0.3 ns (the bound overstates most patterns' real work), so this is a few milliseconds at
 * worst (`x*y` on 1 580 x's, the whole budget's worth: 3 ms). It keeps `^[a-z][a-z0-9_]*$` enforced on texts of two million characters, `x*y` and
 * `^a*a*$` (quadratic) up to about 1 500, `^[^@]+@[^@]+\.[^@]+$` (cubic) up to about 130.
 */
export const MAX_PATTERN_STEPS = 10_000_000;

/** A pattern as compiled once per call: its RegExp (undefined when unreadable) and its shape. */
interface CompiledPattern {
  regex: RegExp | undefined;
  shape: PatternShape | undefined;
}

/** What the walks of one call share about patterns. */
export interface Patterns {
  trusted: boolean;
  /** Regex work left, in steps of pattern-cost.ts's bound. */
  steps: number;
  compiled: Map<string, CompiledPattern>;
}

/**
 * A schema's pattern as a RegExp: with the `u` flag when it reads so (JSON Schema's patterns are
 * Unicode-aware), else without (patterns written for plain ECMA-262, such as `\a` for the letter
 * a); undefined for one this runtime cannot read at all, which then constrains nothing. Its shape
 * (for the cost bound) is read the same way the engine reads it.
 */
function compilePattern(source: string): CompiledPattern {
  for (const unicode of [true, false]) {
    try {
      const regex = new RegExp(source, unicode ? "u" : "");
      return { regex, shape: patternShape(source, unicode) };
    } catch {
      // try the next reading
    }
  }
  return { regex: undefined, shape: undefined };
}

/**
 * Whether `text` matches the pattern, or undefined when that is not decided: a pattern this runtime
 * cannot read, or (unless the schema is trusted) one whose worst case is unknown or does not fit the
 * regex budget left. Nothing is run that could take longer than that budget.
 */
export function matches(patterns: Patterns, source: string, text: string): boolean | undefined {
  let compiled = patterns.compiled.get(source);
  if (compiled === undefined) {
    compiled = compilePattern(source);
    patterns.compiled.set(source, compiled);
  }
  const { regex, shape } = compiled;
  if (regex === undefined) return undefined;
  if (!patterns.trusted) {
    const cost = shape === undefined ? Number.POSITIVE_INFINITY : worstCaseSteps(shape, text.length);
    if (cost > patterns.steps) return undefined;
    patterns.steps -= cost;
  }
  try {
    return regex.test(text);
  } catch {
    return undefined; // an engine out of backtracking stack: the checker never throws
  }
}
