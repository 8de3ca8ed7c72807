/**
 * The oldest Node the package claims to support (the lowest version in package.json's `engines`),
 * as a real binary: the official build from the npm registry's `node-<platform>-<arch>` package,
 * fetched once with `npm pack` into node_modules/.cache and reused. Tests run on it so the claim in
 * `engines` is tested at its exact minimum, not on whatever Node the machine happens to have.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

/** The lowest version `engines.node` admits, e.g. "20.19.0" for `^20.19.0 || >=22.12.0`. */
export function minimumNodeVersion(): string {
  const { engines } = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } };
  const versions = [...engines.node.matchAll(/(\d+)\.(\d+)\.(\d+)/g)].map((match) =>
    match.slice(1).map(Number),
  );
  versions.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!);
  const lowest = versions[0];
  if (lowest === undefined) throw new Error(`engines.node has no full version: ${engines.node}`);
  return lowest.join(".");
}

/** The path of a Node binary of exactly {@link minimumNodeVersion}, fetched from npm on first use. */
export function minimumNode(): string {
  const version = minimumNodeVersion();
  const dir = resolve("node_modules/.cache/wisp-minimum-node", version);
  const binary = join(dir, "package/bin/node");
  if (existsSync(binary)) return binary;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const name = `node-${process.platform}-${process.arch}`;
  const tarball = execFileSync("npm", ["pack", `${name}@${version}`, "--silent"], {
    cwd: dir,
    encoding: "utf8",
  }).trim();
  execFileSync("tar", ["xzf", tarball], { cwd: dir });
  rmSync(join(dir, tarball));
  return binary;
}
