/**
 * Validation issues as one line the model (or a person) can act on.
 *
 * @module
 */

import type { StandardIssue } from "./standard-schema.ts";

/** Formats validation issues as one line the model can act on: `city: expected string; days: too big`. */
export function formatIssues(issues: ReadonlyArray<StandardIssue>): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((segment) => String(typeof segment === "object" ? segment.key : segment))
        .join(".");
      return path === "" ? issue.message : `${path}: ${issue.message}`;
    })
    .join("; ");
}
