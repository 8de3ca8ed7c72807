/**
 * How the bench servers answer with a recorded stream: SSE headers (with the request ids providers
 * send), the body in 16 KB writes, as a provider's network delivers it.
 */

/**
 * Writes `body` to `response` as an event stream in 16 KB pieces, then ends it.
 * @param {import("node:http").ServerResponse} response
 * @param {Uint8Array} body
 */
export function writeStream(response, body) {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "x-request-id": "req_bench",
    "request-id": "req_bench",
  });
  for (let offset = 0; offset < body.length; offset += 16_384)
    response.write(body.subarray(offset, offset + 16_384));
  response.end();
}
