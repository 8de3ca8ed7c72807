/**
 * Static files for the example servers: files under `root`, only from the folders listed (no `..`
 * escapes), with the content types the pages need.
 */
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".map": "application/json",
};

/**
 * A function answering a URL path with the file it names, or 404.
 * @param {string} root the project root
 * @param {string[]} served the folders (relative to `root`, ending in `/`) that may be read
 * @returns {(pathname: string) => Promise<Response>}
 */
export function staticFiles(root, served) {
  return async (pathname) => {
    const path = normalize(decodeURIComponent(pathname)).slice(1);
    if (path.includes(`..${sep}`) || !served.some((prefix) => path.startsWith(prefix))) {
      return new Response("Not found", { status: 404 });
    }
    try {
      const body = await readFile(join(root, path));
      return new Response(body, {
        headers: { "content-type": TYPES[extname(path)] ?? "application/octet-stream" },
      });
    } catch {
      return new Response("Not found", { status: 404 });
    }
  };
}

/** The content type of JavaScript. */
export const JAVASCRIPT = TYPES[".js"];
