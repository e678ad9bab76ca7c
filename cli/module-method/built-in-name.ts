import { isMethod, METHODS } from '../../src/interventions/methods.ts';
import { UsageError } from '../flags.ts';

/**
 * Refuses a module method whose name is a built-in method's: its runs would be labelled, and
 * taken, as that method's. `flag` is the flag that named the module (`--method`, `--methods`).
 */
export function refuseBuiltInName(flag: string, path: string, name: string): void {
  if (isMethod(name))
    throw new UsageError(
      `${flag}: ${path} is named "${name}", a built-in method (${METHODS.join(', ')}); give it a name of its own`,
    );
}
