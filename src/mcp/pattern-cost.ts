/**
 * How much work a schema's `pattern` may cost a backtracking regex engine (V8, JavaScriptCore and
 * SpiderMonkey all are one), read from the pattern's source, so that a pattern from an MCP server is
 * only run when that work is known to be small. `^(a+)+$` against `aaaa…a!` doubles its work with
 * each `a`, and no signal or timer can stop a running `RegExp#test`: the whole event loop waits.
 *
 * Only one shape of pattern gets a bound: a plain sequence of single-character atoms (literals,
 * escapes, classes, `.`) and assertions (`^`, `$`, `\b`, `\B`), each with an optional quantifier —
 * no groups, no alternation, no lookarounds, no backreferences (without groups there is nothing to
 * refer back to). For such a pattern every path the engine can explore is fixed by how many
 * characters each quantified atom takes, and no atom is entered twice on one path, so the work has
 * the bound {@link worstCaseSteps} computes for a given text length. Any other shape (`(a+)+`,
 * `(a|aa)*`, `(?=…)`) has no bound here and is not run on a server's behalf at all.
 *
 * @module
 */

/** How often one atom of a pattern may repeat: `*` is `{ min: 0, max: Infinity }`, none `{ 1, 1 }`. */
interface Repeat {
  min: number;
  max: number;
}

/** A pattern of the one shape whose cost is bounded: its atoms in order, and whether `^` opens it. */
export interface PatternShape {
  /** Whether the pattern starts with an unquantified `^`: a match can then only start at 0. */
  anchored: boolean;
  atoms: Repeat[];
}

const HEX = /^[0-9a-fA-F]$/;
const isHex = (text: string | undefined): boolean => text !== undefined && HEX.test(text);
/** `{n}`, `{n,}` or `{n,m}` (a braced quantifier), read where `lastIndex` says. */
const BRACED = /\{(\d+)(,(\d*))?\}/y;

/** Where the escape starting at `start` (a `\`) ends; undefined for one not read here. */
function escapeEnd(source: string, start: number, unicode: boolean): number | undefined {
  const next = source[start + 1];
  if (next === undefined) return undefined;
  if (next === "u") {
    if (unicode && source[start + 2] === "{") {
      const close = source.indexOf("}", start + 3);
      return close > start + 3 && [...source.slice(start + 3, close)].every(isHex) ? close + 1 : undefined;
    }
    const four = source.slice(start + 2, start + 6);
    if (four.length === 4 && [...four].every(isHex)) return start + 6;
    return unicode ? undefined : start + 2; // without u, `\u` is the letter u
  }
  if (next === "x") {
    if (isHex(source[start + 2]) && isHex(source[start + 3])) return start + 4;
    return unicode ? undefined : start + 2;
  }
  if (next === "c") return /^[a-zA-Z]$/.test(source[start + 2] ?? "") ? start + 3 : undefined;
  if ((next === "p" || next === "P") && unicode) {
    if (source[start + 2] !== "{") return undefined;
    const close = source.indexOf("}", start + 3);
    return close > start + 3 && /^[\w=]+$/.test(source.slice(start + 3, close)) ? close + 1 : undefined;
  }
  // `\d`, `\.`, `\b`, and (read as one atom or more, never fewer) `\0` and legacy octal `\12`.
  return start + 2;
}

/** Where the class starting at `start` (a `[`) ends, past its `]`; undefined when it never ends. */
function classEnd(source: string, start: number): number | undefined {
  let index = start + 1;
  while (index < source.length) {
    if (source[index] === "\\") index += 2;
    else if (source[index] === "]") return index + 1;
    else index++;
  }
  return undefined;
}

/** The quantifier at `start`, if any, and where it ends (a lazy `?` included). */
function quantifier(source: string, start: number): { repeat: Repeat; end: number } | undefined {
  const char = source[start];
  let repeat: Repeat;
  let end = start + 1;
  if (char === "*") repeat = { min: 0, max: Number.POSITIVE_INFINITY };
  else if (char === "+") repeat = { min: 1, max: Number.POSITIVE_INFINITY };
  else if (char === "?") repeat = { min: 0, max: 1 };
  else {
    BRACED.lastIndex = start;
    const braced = char === "{" ? BRACED.exec(source) : null;
    if (braced === null) return undefined;
    const min = Number(braced[1]);
    const max =
      braced[2] === undefined ? min : braced[3] === "" ? Number.POSITIVE_INFINITY : Number(braced[3]);
    repeat = { min, max };
    end = start + braced[0].length;
  }
  if (source[end] === "?") end++;
  return { repeat, end };
}

/**
 * The shape of a pattern the engine accepted (`unicode`: read with the `u` flag), or undefined when
 * it is not a sequence of quantified single-character atoms: a group, an alternation, anything not
 * read here. Reading an atom as several (a surrogate pair, an octal escape) only overstates the
 * cost; nothing is ever read as fewer atoms or fewer repeats than the engine sees.
 */
export function patternShape(source: string, unicode: boolean): PatternShape | undefined {
  const atoms: Repeat[] = [];
  let anchored = false;
  let index = 0;
  while (index < source.length) {
    const char = source[index] as string;
    if (char === "(" || char === ")" || char === "|" || quantifier(source, index) !== undefined)
      return undefined;
    const end =
      char === "\\" ? escapeEnd(source, index, unicode) : char === "[" ? classEnd(source, index) : index + 1;
    if (end === undefined) return undefined;
    const quantified = quantifier(source, end);
    if (index === 0 && char === "^" && quantified === undefined) anchored = true;
    atoms.push(quantified?.repeat ?? { min: 1, max: 1 });
    index = quantified?.end ?? end;
    if (quantifier(source, index) !== undefined) return undefined; // `a**`: not a pattern
  }
  return { anchored, atoms };
}

/**
 * An upper bound on the steps (atom attempts) a backtracking engine takes to test a pattern of this
 * shape against a text of `length` UTF-16 units. Working from the last atom back: an atom that
 * always repeats the same number of times tries at most that many characters and then its rest
 * once; one that may repeat from `min` to `max` times tries at most `min(max, length)` characters
 * and then its rest once for each count it can stop at, `min(max − min, length) + 1` of them. Each
 * of the `length + 1` places a match may start pays for that, or only the first when the pattern is
 * anchored (every other start fails on `^` at once). One unbounded quantifier costs about
 * `length × atoms`; each further one multiplies by `length`.
 */
export function worstCaseSteps(shape: PatternShape, length: number): number {
  let rest = 1;
  for (let index = shape.atoms.length - 1; index >= 0; index--) {
    const { min, max } = shape.atoms[index] as Repeat;
    const tried = Math.min(max, length) + 1;
    rest = max === min ? tried + rest : tried + (Math.min(max - min, length) + 1) * rest;
  }
  return (shape.anchored ? rest : (length + 1) * rest) + length + 1;
}
