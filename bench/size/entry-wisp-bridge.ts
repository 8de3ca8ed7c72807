// Everything `wisp-agent/bridge` exports (serveSession and connectSession); never part of a program that does not import it.
export * from "wisp-agent/bridge";
