/**
 * A compile-time check that a list of option names covers an interface: `true` when every key of `T`
 * is in `K`, `never` (so assigning `true` fails to compile) when one is missing.
 *
 * @module
 */

/** `true` when every key of `T` is in `K`; `never` when one is missing. */
export type ListsEvery<T, K> = [Exclude<keyof T, K>] extends [never] ? true : never;
