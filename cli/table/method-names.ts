import type { TaskId } from '../../src/tasks/index.ts';
import { UsageError } from '../flags.ts';
import { refuseBuiltInName } from '../module-method/built-in-name.ts';
import { isModulePath, ModuleIntervention } from '../module-method/module-intervention.ts';

/**
 * The name each module method of the table goes by, by its file: each is loaded once here, so a
 * module that does not load is refused before any run starts. Two methods of one name, or a module
 * named as a built-in method, are refused too: their runs would be taken for each other's.
 */
export async function moduleMethodNames(
  methods: readonly string[],
  task: TaskId,
): Promise<Record<string, string>> {
  const names: Record<string, string> = {};
  for (const m of methods.filter(isModulePath)) {
    const module = await ModuleIntervention.open(m, { seed: 1, task });
    module.close();
    refuseBuiltInName('--methods', m, module.name);
    names[m] = module.name;
  }
  const all = methods.map((m) => names[m] ?? m);
  const twice = all.find((n, i) => all.indexOf(n) !== i);
  if (twice !== undefined) throw new UsageError(`--methods: two methods are named "${twice}"`);
  return names;
}
