/**
 * The Vitest configuration Stryker runs (`npm run mutate`, see stryker.config.mjs): vitest.config.ts
 * with one of its projects, the one `WISP_MUTATE_PROJECT` names ("node" unless set). Stryker's
 * Vitest runner has no option to pick a project, and the two need different handling: the src/
 * folders are tested by the "node" project (Vitest's related-files mode finds their tests), the
 * demo Worker by the "worker" project inside workerd (its tests reach the Worker through
 * `exports.default.fetch`, which no import graph shows, so related mode must be off there).
 */
import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

const wanted = process.env.WISP_MUTATE_PROJECT ?? "node";
const projects = (base.test?.projects ?? []).filter(
  (project) => typeof project === "object" && "test" in project && project.test?.name === wanted,
);
if (projects.length !== 1) {
  throw new Error(`stryker.vitest.config.ts: vitest.config.ts has no project named "${wanted}"`);
}

export default defineConfig({ ...base, test: { ...base.test, projects } });
