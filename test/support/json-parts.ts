/**
 * Checks on values parsed while they were still arriving (structured output's partial objects).
 */

/** Whether `partial` is a part of `whole`: strings cut short, containers with fewer members. */
export function isPartOf(partial: unknown, whole: unknown): boolean {
  if (typeof whole === "string") return typeof partial === "string" && whole.startsWith(partial);
  if (Array.isArray(whole))
    return (
      Array.isArray(partial) &&
      partial.length <= whole.length &&
      partial.every((item, index) => isPartOf(item, whole[index]))
    );
  if (typeof whole === "object" && whole !== null)
    return (
      typeof partial === "object" &&
      partial !== null &&
      !Array.isArray(partial) &&
      Object.entries(partial).every(
        ([key, value]) =>
          Object.hasOwn(whole, key) && isPartOf(value, (whole as Record<string, unknown>)[key]),
      )
    );
  return partial === whole;
}
