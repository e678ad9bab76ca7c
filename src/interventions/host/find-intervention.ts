// What a person's module exports (a CLI `--method` file, the page's custom mentor): an
// intervention (an object with a plan function), or a factory of one (a function or class that
// makes it from the run's context). Read from the module's namespace: its default export first,
// else its only export that is either. Pure: the CLI's thread and the page's mentor worker share it.
import type { Intervention } from '../../rl/intervention.ts';

/** What a factory is given to make the intervention. */
export interface MethodContext {
  /** The run's seed, for an intervention that draws at random. */
  seed: number;
  /** The task family's id. */
  task: string;
}

/** Why a module cannot be used, as the person should read it: "The code <fault>: <message>." */
export type LoadFault = 'does not load' | 'threw at start-up' | 'has the wrong shape';

export type Found =
  | { ok: true; intervention: Intervention; exportName: string }
  | { ok: false; fault: 'has the wrong shape' | 'threw at start-up'; message: string };

const isIntervention = (x: unknown): x is Intervention =>
  typeof x === 'object' && x !== null && typeof (x as { plan?: unknown }).plan === 'function';

const isClass = (f: (...args: never[]) => unknown) =>
  /^class[\s{]/.test(Function.prototype.toString.call(f));

/** The intervention a module's namespace offers, made from `ctx` if it offers a factory. */
export async function findIntervention(
  namespace: Record<string, unknown>,
  ctx: MethodContext,
): Promise<Found> {
  const names = Object.keys(namespace);
  const offered = (n: string) => isIntervention(namespace[n]) || typeof namespace[n] === 'function';
  const candidates =
    names.includes('default') && offered('default') ? ['default'] : names.filter(offered);
  if (candidates.length !== 1) {
    const exported = names.length ? names.join(', ') : 'nothing';
    return {
      ok: false,
      fault: 'has the wrong shape',
      message:
        candidates.length === 0
          ? `it exports ${exported}, and none of it is an intervention (an object with a plan() function) or a factory of one`
          : `it exports ${candidates.length} candidates (${candidates.join(', ')}); export the intervention as default`,
    };
  }
  const [exportName] = candidates;
  const value = namespace[exportName];
  if (isIntervention(value)) return { ok: true, intervention: value, exportName };
  let made: unknown;
  try {
    const factory = value as (ctx: MethodContext) => unknown;
    made = isClass(factory)
      ? new (factory as unknown as new (ctx: MethodContext) => unknown)(ctx)
      : await factory(ctx);
  } catch (e) {
    return {
      ok: false,
      fault: 'threw at start-up',
      message: `${exportName}(…) threw: ${errorText(e)}`,
    };
  }
  if (!isIntervention(made))
    return {
      ok: false,
      fault: 'has the wrong shape',
      message: `${exportName}(…) made ${describe(made)}, not an intervention (an object with a plan() function)`,
    };
  return { ok: true, intervention: made, exportName };
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function describe(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'object') return 'an object without a plan() function';
  return `a ${typeof x}`;
}
