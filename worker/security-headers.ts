/**
 * Headers every API answer carries: nothing that holds a token or a session is cached, nothing is
 * sniffed as another type or framed, and an answer opened as a page can run nothing. The page and its
 * assets get theirs from `worker/public/_headers`.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import { ApiError, errorResponse } from "./api-error.ts";

/** The headers set on every `/api/` response. */
export const API_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
};

/** Longest URL the API reads. */
const MAX_URL_LENGTH = 8 * 1024;

/** Refuses over-long URLs (414) and stamps {@link API_HEADERS} on whatever the API answers. */
export const apiHeaders: MiddlewareHandler = async (c, next) => {
  if (c.req.url.length > MAX_URL_LENGTH) {
    c.res = errorResponse(
      new ApiError(414, "URI_TOO_LONG", `The URL is longer than ${MAX_URL_LENGTH} characters`),
    );
  } else {
    await next();
  }
  // Responses from the Durable Object have immutable headers: copy before stamping.
  const response = new Response(c.res.body, c.res);
  for (const [name, value] of Object.entries(API_HEADERS)) response.headers.set(name, value);
  c.res = response;
};
