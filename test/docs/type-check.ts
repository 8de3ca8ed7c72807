/**
 * Type-checks every code block as its own module, all in one TypeScript program, under the project's
 * own compiler options (tsconfig.json: strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess,
 * …). `wisp-agent` and its subpaths resolve to the sources (`src/`, `runtime/`) through `paths`,
 * so the check needs no build and always sees the API as it is in the working tree.
 */
import { join } from "node:path";
import ts from "typescript";
import { blockName, type CodeBlock } from "./code-blocks.ts";

/** Where each public entry point's source is, relative to the project root. */
export const ENTRY_SOURCES: Record<string, string> = {
  "wisp-agent": "src/index.ts",
  "wisp-agent/testing": "src/testing/index.ts",
  "wisp-agent/testing/node": "runtime/node/index.ts",
  "wisp-agent/formats": "src/formats/index.ts",
  "wisp-agent/bridge": "src/bridge/index.ts",
  "wisp-agent/mcp": "src/mcp/index.ts",
  "wisp-agent/effect": "src/effect/index.ts",
  "wisp-agent/mcp/stdio": "runtime/mcp-stdio/index.ts",
};

/** The (virtual) file a block is checked as: beside the tests, so `zod` resolves from node_modules. */
export function virtualPath(root: string, block: CodeBlock): string {
  const name = `${block.file.replaceAll("/", "_")}-L${block.line}.${block.language}`;
  return join(root, "test/docs/__blocks__", name);
}

function compilerOptions(root: string): ts.CompilerOptions {
  const configPath = join(root, "tsconfig.json");
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, "\n"));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
  const paths: Record<string, string[]> = {};
  for (const [name, source] of Object.entries(ENTRY_SOURCES)) paths[name] = [join(root, source)];
  return {
    ...parsed.options,
    noEmit: true,
    // A block is a module even when it has no import (top-level await, its own names).
    moduleDetection: ts.ModuleDetectionKind.Force,
    allowJs: true,
    checkJs: true,
    paths,
  };
}

/**
 * The type errors in `blocks`, each as `README.md:57: TS2304 Cannot find name 'print'.` (the line in
 * the Markdown file). Errors inside the sources themselves are not reported here: `npm run typecheck`
 * owns those.
 */
export function typeCheckBlocks(root: string, blocks: readonly CodeBlock[]): string[] {
  const options = compilerOptions(root);
  const files = new Map(blocks.map((block) => [virtualPath(root, block), block]));
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name)?.code ?? readFile.call(host, name);
  host.getSourceFile = (name, language, onError, create) => {
    const block = files.get(name);
    if (block === undefined) return getSourceFile.call(host, name, language, onError, create);
    return ts.createSourceFile(name, block.code, language, true);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...[...files.keys()].flatMap((name) => {
      const source = program.getSourceFile(name);
      return source === undefined
        ? []
        : [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    }),
  ];
  return diagnostics.map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const block = diagnostic.file && files.get(diagnostic.file.fileName);
    if (diagnostic.file === undefined || block === undefined) return `TS${diagnostic.code} ${message}`;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    return `${blockName({ file: block.file, line: block.line + 1 + line })}: TS${diagnostic.code} ${message}`;
  });
}
