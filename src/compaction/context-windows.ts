/**
 * The context windows of known models, in tokens, for compaction's threshold (`fraction` of the
 * window). Families, newest first; a model not listed has no known window.
 *
 * @module
 */

const WINDOWS: ReadonlyArray<[pattern: RegExp, tokens: number]> = [
  [/^claude-/, 200_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-5/, 400_000],
  [/^gpt-4o/, 128_000],
  [/^o[134]/, 200_000],
  [/^gemini-(2\.5|[3-9])/, 1_048_576],
];

/** The context window of `model` (its name without the provider), or undefined when unknown. */
export function contextWindowOf(model: string): number | undefined {
  return WINDOWS.find(([pattern]) => pattern.test(model))?.[1];
}
