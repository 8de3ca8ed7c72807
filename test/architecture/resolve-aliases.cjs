/**
 * How dependency-cruiser resolves `wisp-agent` and its subpaths (the demo Worker imports Wisp by its
 * package name): the `paths` of worker/tsconfig.json, read from there so the two cannot differ.
 */
const { readFileSync } = require("node:fs");
const { resolve } = require("node:path");

const workerDir = resolve(__dirname, "../../worker");
const { paths } = JSON.parse(readFileSync(resolve(workerDir, "tsconfig.json"), "utf8")).compilerOptions;

module.exports = {
  resolve: {
    alias: Object.fromEntries(
      Object.entries(paths).map(([name, [target]]) => [`${name}$`, resolve(workerDir, target)]),
    ),
  },
};
