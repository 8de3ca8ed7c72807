/**
 * "Did you mean …": the known name closest to a mistyped one, for error messages that say what to
 * write instead (`baseUrl` → `baseURL`, `max_tokens` → `maxTokens`, `systemPromt` → `systemPrompt`).
 *
 * @module
 */

/** A name with case, `_` and `-` removed: `max_tokens`, `maxTokens` and `MAX-TOKENS` are the same. */
function normalized(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, "");
}

/** Levenshtein distance, stopping early once it passes `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate closest to `name`, if any: the same letters ignoring case and `_`/`-`, else a few
 * edits away, else the shortest candidate `name` begins (`maxCost` → `maxCostUsd`, at least 4 letters).
 */
export function didYouMean(name: string, candidates: readonly string[]): string | undefined {
  const wanted = normalized(name);
  const same = candidates.find((candidate) => normalized(candidate) === wanted);
  if (same !== undefined) return same;
  const limit = Math.max(1, Math.floor(wanted.length / 4));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const d = distance(wanted, normalized(candidate), limit);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best !== undefined || wanted.length < 4) return best;
  const longer = candidates.filter((candidate) => normalized(candidate).startsWith(wanted));
  return longer.sort((a, b) => a.length - b.length)[0];
}
