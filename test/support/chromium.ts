/**
 * Headless Chromium for end-to-end tests, driven by playwright-core. It uses the system's browser when
 * there is one (`CHROMIUM_PATH`, or `chromium` / `chromium-browser` / `google-chrome` in the usual
 * places); otherwise the Chromium that npm installed with `@sparticuz/chromium` (shipped inside the
 * package, unpacked into the temp directory on first use), so `npm install && npm test` passes on a
 * machine with no browser at all. Nothing is downloaded at run time. The network features that would
 * try to reach the closed network are turned off either way.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where a system Chromium is looked for, in order (after `CHROMIUM_PATH`). */
const SYSTEM_CHROMIUMS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/snap/bin/chromium",
];

/** Flags that keep Chromium off the network and quiet in a sandbox. */
const QUIET_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/**
 * `@sparticuz/chromium` defaults left out: those that would hide CORS, CSP or mixed-content problems,
 * and single-process mode, in which closing one browser context closes the whole browser.
 */
const DROPPED_FLAGS = ["--disable-web-security", "--allow-running-insecure-content", "--single-process"];

/** The Chromium a test will launch: a system one, or the npm-installed one. */
export interface ChromiumChoice {
  executablePath: string;
  source: "system" | "npm";
  args: string[];
}

/** Picks the system Chromium when present, otherwise unpacks the one `@sparticuz/chromium` ships. */
export async function findChromium(): Promise<ChromiumChoice> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured !== undefined && configured !== "") {
    if (!existsSync(configured))
      throw new Error(`CHROMIUM_PATH is set to ${configured}, which does not exist`);
    return { executablePath: configured, source: "system", args: QUIET_FLAGS };
  }
  const system = SYSTEM_CHROMIUMS.find((path) => existsSync(path));
  if (system !== undefined) return { executablePath: system, source: "system", args: QUIET_FLAGS };
  const { default: packaged } = await import("@sparticuz/chromium");
  const executablePath = await packaged.executablePath();
  // Its Lambda defaults turn web security off; the tests must see what a real browser enforces.
  const args = [...new Set([...packaged.args, ...QUIET_FLAGS])].filter(
    (flag) => !DROPPED_FLAGS.includes(flag),
  );
  return { executablePath, source: "npm", args };
}

/** Launches headless Chromium (see {@link findChromium} for which one), with `extraArgs` if given. */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const { executablePath, args } = await findChromium();
  return chromium.launch({ executablePath, headless: true, args: [...args, ...extraArgs] });
}
