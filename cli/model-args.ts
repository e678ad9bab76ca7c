import type { BackendKind } from '../src/engine/backend.ts';
import { BACKEND_FLAG } from './common-flags.ts';
import { UsageError, parseFlags, type Flag } from './flags.ts';

export interface ForwardArgs {
  checkpoint: string;
  text: string;
  backend: BackendKind;
  json: boolean;
}

/** The one subcommand; it comes first, before the flags. */
export const MODEL_COMMAND = 'forward';

export const MODEL_SUMMARY = `forward   Runs a safetensors checkpoint on one text and prints the logits at the last position,
          the loss of the text (mean next-token negative log-likelihood) and the L2 norm of every
          parameter's gradient of that loss: a probe other tools can cross-check.

The begin token "^" is prepended to the text unless it starts with it (training sequences start
with it); write --text=TEXT for a text starting with "--".`;

export const MODEL_FLAGS: Flag[] = [
  {
    name: 'checkpoint',
    kind: 'string',
    help: 'a mentor-playground safetensors checkpoint (required)',
  },
  {
    name: 'text',
    kind: 'string',
    help: 'characters of the task vocabulary, e.g. "||274+983=168." (required)',
  },
  BACKEND_FLAG,
  {
    name: 'json',
    kind: 'bool',
    default: false,
    help: 'one JSON object instead of the human-readable report',
  },
];

/** The forward probe the command line asks for; a bad command line throws UsageError. */
export function parseModelArgs(argv: readonly string[]): ForwardArgs {
  const [command, ...rest] = argv;
  if (command !== MODEL_COMMAND) {
    const got = command === undefined ? 'none' : `"${command}"`;
    throw new UsageError(`expected the command "${MODEL_COMMAND}" first, got ${got}`);
  }
  const f = parseFlags(rest, MODEL_FLAGS);
  if (f.checkpoint === undefined) throw new UsageError('--checkpoint is required');
  if (f.text === undefined) throw new UsageError('--text is required');
  return {
    checkpoint: String(f.checkpoint),
    text: String(f.text),
    backend: f.backend as BackendKind,
    json: f.json === true,
  };
}
