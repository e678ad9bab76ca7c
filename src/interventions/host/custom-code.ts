// The person's own mentor (the page's custom method): their code, imported as an ES module in the
// mentor worker and checked there, never run on the page. A module that does not load, has the
// wrong shape or throws at start-up is a fault with a message (a syntax error's with its place);
// the worker then gives no help.
import type { Intervention, Reprompt } from '../../rl/intervention.ts';
import {
  errorText,
  findIntervention,
  type LoadFault,
  type MethodContext,
} from './find-intervention.ts';
import type { ImportCode } from '../../platform/import-from-blob.ts';
import { placedSyntaxError } from '../../platform/syntax-error-place.ts';

export type CustomLoaded =
  | { ok: true; intervention: Intervention; name: string }
  | { ok: false; fault: LoadFault; message: string };

/** The intervention `code` exports, made for `context`; or the fault, in words. */
export async function loadCustomCode(
  code: string,
  context: MethodContext,
  importCode: ImportCode,
): Promise<CustomLoaded> {
  let namespace: Record<string, unknown>;
  try {
    namespace = await importCode(code);
  } catch (e) {
    // A syntax error stops the import before any of the module runs.
    if (e instanceof SyntaxError)
      return {
        ok: false,
        fault: 'does not load',
        message: await placedSyntaxError(e.message, code),
      };
    return { ok: false, fault: 'threw at start-up', message: errorText(e) };
  }
  const found = await findIntervention(namespace, context);
  if (!found.ok) return found;
  const own = (found.intervention as { name?: unknown }).name;
  const name = typeof own === 'string' && own ? own : found.exportName;
  return { ok: true, intervention: guarded(found.intervention, name), name };
}

/**
 * The intervention with its plans checked for size here, before they cross to the trainer: a
 * list longer than the batch cannot be one reprompt per group, and a huge one would flood the
 * step's log with a refusal per entry. The trainer checks every reprompt that remains.
 */
function guarded(inner: Intervention, name: string): Intervention {
  return {
    name,
    async plan(batch, ctx) {
      const planned: unknown = await inner.plan(batch, ctx);
      if (Array.isArray(planned) && planned.length > batch.groups.length)
        throw new Error(
          `plan returned ${planned.length} reprompts for a batch of ${batch.groups.length} groups (at most one per group)`,
        );
      return planned as Reprompt[];
    },
    observe: async (retry, ctx) => inner.observe?.(retry, ctx),
    stats: async () => (await inner.stats?.()) ?? {},
    saveState: async () => inner.saveState?.(),
    restoreState: async (state) => inner.restoreState?.(state),
  };
}
