import { parseArgs } from 'node:util';

/** The flags a long-running memsvc program takes besides --help and --version: each takes a value. */
export interface ProgramFlagsSpec {
  /** The executable's name, as a person types it (`memsvc-server`). */
  readonly name: string;
  /** The package version `--version` prints. */
  readonly version: string;
  /** The whole `--help` text. */
  readonly help: string;
  /** Flags that take a value (`--port <n>`), by name without the dashes. */
  readonly valueFlags?: readonly string[];
}

/**
 * What the command line asks for: run with these flag values, or print and exit. --help and
 * --version win over everything else on the line, so neither ever starts anything.
 */
export type ProgramFlags =
  | { readonly kind: 'run'; readonly values: Readonly<Record<string, string>> }
  | { readonly kind: 'exit'; readonly code: 0 | 2; readonly stdout?: string; readonly stderr?: string };

/** Exit code of a wrong flag or argument, as the operator CLI's (run-command.ts). */
const EXIT_USAGE = 2;

/**
 * Reads a program's command line before anything else happens: no environment, no database,
 * no network. An unknown flag, a stray argument or a flag without its value is a usage error
 * (exit 2) that names what was wrong.
 */
export function readProgramFlags(argv: readonly string[], spec: ProgramFlagsSpec): ProgramFlags {
  const valueFlags = spec.valueFlags ?? [];
  const options = Object.fromEntries([
    ['help', { type: 'boolean' as const, short: 'h' }],
    ['version', { type: 'boolean' as const, short: 'v' }],
    ...valueFlags.map((flag) => [flag, { type: 'string' as const }]),
  ]);
  // Not strict: node's own message for an unknown flag is about positionals and `--`; ours names the flag.
  const { values, tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  if (values.help === true) return { kind: 'exit', code: 0, stdout: spec.help };
  if (values.version === true) return { kind: 'exit', code: 0, stdout: `${spec.version}\n` };

  const usage = (problem: string): ProgramFlags => ({
    kind: 'exit',
    code: EXIT_USAGE,
    stderr: `${spec.name}: ${problem} (${spec.name} --help lists the flags)\n`,
  });
  for (const token of tokens) {
    if (token.kind === 'positional') return usage(`unexpected argument ${JSON.stringify(token.value)}`);
    if (token.kind !== 'option') continue;
    if (!(token.name in options)) return usage(`unknown flag ${token.rawName}`);
    const takesValue = valueFlags.includes(token.name);
    if (takesValue && token.value === undefined) return usage(`${token.rawName} needs a value`);
    if (!takesValue && token.value !== undefined) return usage(`${token.rawName} takes no value`);
  }
  const given: Record<string, string> = {};
  for (const flag of valueFlags) {
    const value = values[flag];
    if (typeof value === 'string') given[flag] = value;
  }
  return { kind: 'run', values: given };
}

/**
 * The executables' side of readProgramFlags: prints what it asks for and ends the process,
 * or hands back the values to run with.
 */
export function programFlagsOrExit(argv: readonly string[], spec: ProgramFlagsSpec): Readonly<Record<string, string>> {
  const flags = readProgramFlags(argv, spec);
  if (flags.kind === 'run') return flags.values;
  if (flags.stdout) process.stdout.write(flags.stdout);
  if (flags.stderr) process.stderr.write(flags.stderr);
  process.exit(flags.code);
}
