// The intervention API's report: every type src/interventions/api.ts exports, printed from its
// declaration without comments, in name order. api.test.ts holds it equal to the committed report
// of the released version, so that a change to the public types is a decision (a new report, and
// a new version where it breaks a module written for the old one): `npm run api:report` writes it.
import ts from 'typescript';
import { INTERVENTION_API_VERSION } from './api.ts';

const ENTRY = 'src/interventions/api.ts';
export const REPORT_PATH = `src/interventions/api-v${INTERVENTION_API_VERSION}.report.txt`;

export function apiReport(): string {
  const program = ts.createProgram([ENTRY], {
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(ENTRY);
  const module = entry && checker.getSymbolAtLocation(entry);
  if (!module) throw new Error(`${ENTRY} is not a module`);
  const printer = ts.createPrinter({ removeComments: true });
  const printed = checker.getExportsOfModule(module).map((exported) => {
    const symbol =
      exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const text = (symbol.declarations ?? [])
      .map((d) => printer.printNode(ts.EmitHint.Unspecified, d, d.getSourceFile()))
      .join('\n');
    return { name: exported.name, text };
  });
  printed.sort((a, b) => a.name.localeCompare(b.name));
  return `${printed.map((p) => `// ${p.name}\n${p.text}`).join('\n\n')}\n`;
}
