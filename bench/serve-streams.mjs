// A separate process that serves one 20,000-event stream per wire format on 127.0.0.1, written in
// 16 KB chunks as a real server would flush them. Prints its URL, then serves until stdin closes.
import { createServer } from "node:http";
import {
  frameEvent,
  speakAnthropic,
  speakGemini,
  speakOpenAIChat,
  speakOpenAIResponses,
} from "wisp-agent/testing";

const EVENTS = Number(process.argv[2] ?? 20_000);
const pieces = Array.from({ length: EVENTS }, (_, i) => `tok${i % 97} `);
const turn = { content: [{ type: "text", text: pieces }] };
const bodies = {
  "/v1/messages": Buffer.from(speakAnthropic(turn, "claude-sonnet-4-5").map(frameEvent).join("")),
  "/v1/chat/completions": Buffer.from(speakOpenAIChat(turn, "gpt-4o", true).map(frameEvent).join("")),
  "/v1/responses": Buffer.from(speakOpenAIResponses(turn, "gpt-5").map(frameEvent).join("")),
  // Gemini frames with \r\n.
  "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse": Buffer.from(
    speakGemini(turn, "gemini-2.5-flash")
      .map((event) => frameEvent(event).replaceAll("\n", "\r\n"))
      .join(""),
  ),
};
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    const body = bodies[request.url];
    if (!body) return response.writeHead(404).end();
    response.writeHead(200, {
      "content-type": "text/event-stream",
      "x-request-id": "req_bench",
      "request-id": "req_bench",
    });
    for (let offset = 0; offset < body.length; offset += 16_384)
      response.write(body.subarray(offset, offset + 16_384));
    response.end();
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
process.stdin.on("end", () => server.close(() => process.exit(0)));
process.stdin.resume();
