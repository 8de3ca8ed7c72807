/**
 * The limits a stored session keeps to, apart from the schema that checks them (which a program
 * reading only these numbers should not have to download).
 *
 * @module
 */

import { MAX_STRING_LENGTH } from "../message/storable-values.ts";

/** Most messages a restored session may hold. */
export const MAX_STATE_MESSAGES = 100_000;

/** Longest string (text, thinking, image data, tool output) a restored session may hold: what Wisp stores. */
export const MAX_STATE_STRING = MAX_STRING_LENGTH;
