import { parseArgs } from 'node:util';
import type { BackendKind } from '../src/engine/backend.ts';

export interface ForwardArgs {
  checkpoint: string;
  text: string;
  backend: BackendKind;
  json: boolean;
}

/** What the command line asks for: a forward probe, the help text, or a usage error. */
export type ModelCommand =
  { kind: 'forward'; args: ForwardArgs } | { kind: 'help' } | { kind: 'error'; message: string };

export const MODEL_USAGE = `usage: npm run model -- forward --checkpoint FILE --text TEXT [--backend cpu|webgpu] [--json]

forward   Runs a safetensors checkpoint on one text and prints the logits at the last position,
          the loss of the text (mean next-token negative log-likelihood) and the L2 norm of every
          parameter's gradient of that loss: a probe other tools can cross-check.

  --checkpoint FILE       a mentor-playground safetensors checkpoint
  --text TEXT             characters of the task vocabulary, e.g. "||274+983=168."; the begin
                          token "^" is prepended unless TEXT starts with it (training sequences
                          start with it); write --text=-TEXT for a text starting with "-"
  --backend cpu|webgpu    default cpu
  --json                  one JSON object instead of the human-readable report
  --help                  this text`;

export function parseModelArgs(argv: readonly string[]): ModelCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        checkpoint: { type: 'string' },
        text: { type: 'string' },
        backend: { type: 'string', default: 'cpu' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (e) {
    return { kind: 'error', message: (e as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (positionals.length !== 1 || positionals[0] !== 'forward') {
    const got = positionals.length ? `"${positionals.join(' ')}"` : 'none';
    return { kind: 'error', message: `expected the command "forward", got ${got}` };
  }
  if (values.checkpoint === undefined)
    return { kind: 'error', message: '--checkpoint is required' };
  if (values.text === undefined) return { kind: 'error', message: '--text is required' };
  if (values.backend !== 'cpu' && values.backend !== 'webgpu') {
    return { kind: 'error', message: `--backend must be cpu or webgpu, got "${values.backend}"` };
  }
  return {
    kind: 'forward',
    args: {
      checkpoint: values.checkpoint,
      text: values.text,
      backend: values.backend,
      json: values.json,
    },
  };
}
