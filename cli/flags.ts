/** A command-line flag: `--name value`, or `--name` alone for booleans. */
export interface Flag {
  name: string;
  help: string;
  kind: 'string' | 'int' | 'number' | 'bool' | 'choice';
  choices?: readonly string[];
  default?: string | number | boolean;
  /** Inclusive bounds for numbers. */
  min?: number;
  max?: number;
  /**
   * Work a value needs before the command line is parsed (loading the module it names), run by
   * runCli; it throws where the value cannot be used.
   */
  preload?: (value: string, argv: readonly string[]) => Promise<void>;
}

export type FlagValues = Record<string, string | number | boolean | undefined>;

/** Bad command-line input: printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Parse `argv` against `flags`; unknown flags, missing values and bad values throw UsageError. */
export function parseFlags(argv: readonly string[], flags: readonly Flag[]): FlagValues {
  const byName = new Map(flags.map((f) => [f.name, f]));
  const out: FlagValues = {};
  for (const f of flags) if (f.default !== undefined) out[f.name] = f.default;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const f = byName.get(name);
    if (!f) throw new UsageError(`unknown flag --${name}`);
    if (f.kind === 'bool') {
      if (inline !== undefined && inline !== 'true' && inline !== 'false') {
        throw new UsageError(`--${name} takes no value (or =true/=false)`);
      }
      out[name] = inline !== 'false';
      continue;
    }
    const raw = inline ?? argv[++i];
    if (raw === undefined || (inline === undefined && raw.startsWith('--'))) {
      throw new UsageError(`--${name} needs a value`);
    }
    out[name] = convert(f, raw);
  }
  return out;
}

function convert(f: Flag, raw: string): string | number {
  if (f.kind === 'choice') {
    if (!f.choices?.includes(raw))
      throw new UsageError(`--${f.name} must be one of ${f.choices?.join(', ')}; got "${raw}"`);
    return raw;
  }
  if (f.kind === 'string') return raw;
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v) || (f.kind === 'int' && !Number.isInteger(v))) {
    throw new UsageError(
      `--${f.name} must be ${f.kind === 'int' ? 'an integer' : 'a number'}; got "${raw}"`,
    );
  }
  if ((f.min !== undefined && v < f.min) || (f.max !== undefined && v > f.max)) {
    throw new UsageError(`--${f.name} must be in [${f.min ?? '-∞'}, ${f.max ?? '∞'}]; got ${v}`);
  }
  return v;
}

/** Runs the preload of every flag given that has one, in the order given. */
export async function preloadFlags(argv: readonly string[], flags: readonly Flag[]): Promise<void> {
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].startsWith('--') ? argv[i].slice(2).split(/=(.*)/s, 2) : [];
    const f = flags.find((x) => x.name === name && x.preload);
    const value = inline ?? argv[i + 1];
    if (f?.preload && value !== undefined && !value.startsWith('--')) await f.preload(value, argv);
  }
}

/** The --help text. */
export function usage(command: string, summary: string, flags: readonly Flag[]): string {
  const lines = [`usage: ${command} [flags]`, '', summary, '', 'flags:'];
  const names = flags.map((f) => {
    const value =
      f.kind === 'bool' ? '' : f.kind === 'choice' ? ` <${f.choices?.join('|')}>` : ` <${f.kind}>`;
    return `  --${f.name}${value}`;
  });
  const width = Math.max(...names.map((n) => n.length)) + 2;
  flags.forEach((f, i) => {
    const def = f.default !== undefined ? ` (default: ${String(f.default)})` : '';
    lines.push(names[i].padEnd(width) + f.help + def);
  });
  return lines.join('\n');
}

/**
 * Run a CLI's main with the conventions of every tool here: --help prints usage, a UsageError
 * prints its message and exits 2, any other error prints its message and exits 1.
 *
 * `parse` turns the command line into main's input: by default `parseFlags(argv, flags)`; a tool
 * with a subcommand or checks across flags passes its own, built on parseFlags, and throws
 * UsageError for bad input.
 */
export async function runCli<T = FlagValues>(
  command: string,
  summary: string,
  flags: readonly Flag[],
  main: (args: T) => Promise<void>,
  parse: (argv: readonly string[]) => T = (argv) => parseFlags(argv, flags) as T,
): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage(command, summary, flags));
    return;
  }
  try {
    await preloadFlags(argv, flags);
    await main(parse(argv));
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`${command}: ${e.message}\nrun with --help for the flags`);
      process.exit(2);
    }
    console.error(`${command}: ${(e as Error).message}`);
    process.exit(1);
  }
}
