// Everything the main entry point exports: the upper bound of what a program can pull in.
export * from "wisp-agent";
