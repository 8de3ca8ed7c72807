/**
 * Every export of every entry point has TSDoc, and the functions a user starts from carry an
 * `@example`. Read with the TypeScript compiler from the sources behind each entry point.
 */
import ts from "typescript";
import { expect, it } from "vitest";

const ENTRIES = [
  "src/index.ts",
  "src/testing/index.ts",
  "src/bridge/index.ts",
  "src/formats/index.ts",
  "src/mcp/index.ts",
  "src/effect/index.ts",
  "runtime/node/index.ts",
  "runtime/mcp-stdio/index.ts",
];
/** The functions a user starts from. */
const WITH_EXAMPLE = [
  "streamTurn",
  "toSdkError",
  "runAgent",
  "runAgentStream",
  "defineTool",
  "createAgentSession",
  "createSession",
  "prompt",
  "parseSessionState",
  "createScriptedModel",
  "serveScriptedModel",
  "runAgentEffect",
  "runAgentStreamEffect",
  "createAgentSessionEffect",
  "connectMcp",
  "connectMcpStdio",
  "fromClaudeCode",
  "fromPi",
  "serveSession",
  "connectSession",
];

const program = ts.createProgram(ENTRIES, { allowImportingTsExtensions: true, noEmit: true, strict: true });
const checker = program.getTypeChecker();

function exportsOf(entry: string): ts.Symbol[] {
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`cannot read ${entry}`);
  return checker.getExportsOfModule(module);
}

const resolve = (symbol: ts.Symbol) =>
  symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;

it("every export of every entry point has TSDoc", () => {
  const undocumented: string[] = [];
  for (const entry of ENTRIES) {
    for (const symbol of exportsOf(entry)) {
      const target = resolve(symbol);
      const documented = (target.declarations ?? []).some((declaration) => {
        const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
        return ts.getJSDocCommentsAndTags(node).length > 0;
      });
      if (!documented) undocumented.push(`${entry}: ${symbol.name}`);
    }
  }
  expect(undocumented).toEqual([]);
});

it("the functions a user starts from have an @example", () => {
  const all = new Map(
    ENTRIES.flatMap((entry) => exportsOf(entry).map((symbol) => [symbol.name, resolve(symbol)])),
  );
  const missing = WITH_EXAMPLE.filter((name) => {
    const symbol = all.get(name);
    return !symbol?.getJsDocTags(checker).some((tag) => tag.name === "example");
  });
  expect(missing).toEqual([]);
  expect(all.size).toBeGreaterThan(100);
});
