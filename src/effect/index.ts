/**
 * `wisp-agent/effect`: the Effect face of Wisp's API (in progress).
 *
 * @module
 */

export {};
