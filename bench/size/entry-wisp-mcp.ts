// Everything `wisp-agent/mcp` exports (the Streamable HTTP client and its schema checker); never part of a program that does not import it.
export * from "wisp-agent/mcp";
