import type { Problem } from '../model.js';
import { loadConfig } from '../config/config.js';
import type { ToolsmithConfig } from '../config/generated/config-type.js';
import { optionsFromConfig, resolveOptions, type ResolvedOptions } from '../config/options.js';
import { formatProblem, isWarning, sortProblems } from '../problems.js';

/*
 * What every command of the CLI (main.ts and each command's module) shares: the exit codes, the streams it
 * writes to, the config file read once with the flags that are config keys laid over it, and how a
 * blocked run's problems are printed.
 */

/** Exit codes: documented in the README. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

/** The folder flags every generating command reads (config keys, over the config file), and `--strict`, `--workers`. */
export interface CommonFlags {
  config?: string;
  schemas?: string;
  out?: string;
  stubs?: string;
  templates?: string;
  /** Warnings are errors (`--strict`). */
  strict?: boolean;
  /** Threads emitting tools, the main thread one of them (`--workers`, parsed by `wholeNumberOption`). */
  workers?: number;
}

/** Where a command prints, and what it prints to. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** True when stdout is a terminal (progress lines); false for pipes and tests. */
  isTTY?: boolean;
  /** Colour diagnostics on stderr (a terminal without NO_COLOR; see `shouldColor`); off for pipes and tests. */
  color?: boolean;
  /** True when stderr is a terminal (`call` shows the tool's progress there). */
  stderrIsTTY?: boolean;
}

/**
 * True when output to `stream` may be coloured: `NO_COLOR` (any non-empty value) turns it off,
 * `FORCE_COLOR` (not `0`) on; otherwise only on a terminal.
 */
export function shouldColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true;
}

/** The process's own streams and folder. */
export const defaultIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  isTTY: process.stdout.isTTY === true,
  color: shouldColor(process.stderr),
  stderrIsTTY: process.stderr.isTTY === true,
};

/** Merges config file and flags (the flags that are config keys win), and resolves them once for the command. */
export async function options(
  flags: CommonFlags,
  io: Io,
): Promise<{ resolved: ResolvedOptions; config: ToolsmithConfig; problems: Problem[] }> {
  const { config, problems } = await loadConfig(io.cwd, flags.config);
  return { resolved: resolveOptions(optionsFromConfig(io.cwd, config, flags)), config, problems };
}

/** `1 tool`, `2 tools`. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The line that heads a blocked run's report: how many problems (and warnings beside them). */
export function problemSummary(problems: readonly Problem[], warnings: readonly Problem[]): string {
  const strictWarnings = problems.filter(isWarning).length;
  const counted =
    strictWarnings > 0
      ? ` (${strictWarnings} of them ${strictWarnings === 1 ? 'a warning' : 'warnings'}, errors under --strict)`
      : warnings.length > 0
        ? ` and ${plural(warnings.length, 'warning')}`
        : '';
  return `toolsmith: ${plural(problems.length, 'problem')}${counted}; nothing was written.`;
}

/** Prints what blocked a run, every problem sorted by file and position; returns the run's exit code. */
export function reportProblems(problems: readonly Problem[], io: Io): typeof EXIT.invalid {
  io.stderr(`${problemSummary(problems, [])}\n`);
  for (const problem of sortProblems([...problems])) io.stderr(`${formatProblem(problem)}\n`);
  return EXIT.invalid;
}
