// The reports of the public APIs a person writes modules against — the intervention API and the
// task API: every type the API's entry file exports, printed from its declaration without
// comments, in name order. Each API's test holds its report equal to the committed one of the
// released version, so that a change to the public types is a decision (a new report, and a new
// version where it breaks a module written for the old one): `npm run api:report` writes them.
import ts from 'typescript';
import { INTERVENTION_API_VERSION } from '../src/interventions/api.ts';
import { TASK_API_VERSION } from '../src/tasks/custom/task-api.ts';

export interface ApiReport {
  /** The file whose exports are the API. */
  entry: string;
  /** The committed report of the released version. */
  path: string;
}

export const INTERVENTION_API_REPORT: ApiReport = {
  entry: 'src/interventions/api.ts',
  path: `src/interventions/api-v${INTERVENTION_API_VERSION}.report.txt`,
};
export const TASK_API_REPORT: ApiReport = {
  entry: 'src/tasks/custom/task-api.ts',
  path: `src/tasks/custom/task-api-v${TASK_API_VERSION}.report.txt`,
};

export function apiReport({ entry: ENTRY }: ApiReport): string {
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
