// Everything `wisp-agent/formats` exports (the Claude Code and pi readers and writers); never part of a program that does not import it.
export * from "wisp-agent/formats";
