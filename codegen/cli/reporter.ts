import type { Problem } from '../model.js';
import { formatProblem, isWarning, type ProblemStyle } from '../problems.js';
import type { Io } from './io.js';

/*
 * How `generate` and `check` talk: text (a summary line on stdout, diagnostics on stderr, coloured
 * on a terminal), `--silent` (errors only), or `--json` (one JSON object on stdout at the end, with
 * the summary and every diagnostic, for CI annotations and editors; nothing else on stdout).
 */

/** How a command prints. */
type OutputMode = 'text' | 'json' | 'silent';

/** The printing side of the CLI. */
type ReporterIo = Pick<Io, 'stdout' | 'stderr' | 'color'>;

/** One diagnostic of the JSON report: a problem with its severity. */
interface Diagnostic extends Problem {
  severity: 'error' | 'warning';
}

/** The JSON report of one `generate` or `check`. */
export interface CommandReport {
  command: 'generate' | 'check';
  ok: boolean;
  exitCode: number;
  /** Counts and file lists of the run (tools, written, upToDate, removed, stubsCreated, drift…). */
  summary: Record<string, unknown>;
  diagnostics: Diagnostic[];
  /** Other messages the command printed on stderr (e.g. the generator's packages are missing). */
  messages: string[];
}

const paint = (code: string, enabled: boolean) => (text: string) => (enabled ? `\x1b[${code}m${text}\x1b[0m` : text);

/** The diagnostic's parts as coloured on a terminal. */
const COLOURED: ProblemStyle = {
  where: paint('1', true),
  pointer: paint('2', true),
  warning: paint('33', true),
  error: paint('31', true),
  hint: paint('36', true),
};

/** A problem as text (`formatProblem`), its location bold, `warning:`/`hint:` and an error's message coloured when `color`. */
export function formatDiagnostic(problem: Problem, color: boolean): string {
  return formatProblem(problem, color ? COLOURED : undefined);
}

/** `HH:MM:SS` of `date` in local time, for `watch` lines. */
export function clockTime(date: Date = new Date()): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

/** A reporter for `command` in `mode`, printing through `io`: it collects what the command says and prints it as the mode wants. */
export function createReporter(command: CommandReport['command'], mode: OutputMode, io: ReporterIo) {
  const color = mode !== 'json' && io.color === true;
  const diagnostics: Diagnostic[] = [];
  const messages: string[] = [];
  const summary: Record<string, unknown> = {};
  return {
    mode,
    /** The io the command prints through: stdout dropped unless text mode, stderr captured in JSON mode. */
    io: {
      stdout: mode === 'text' ? io.stdout : () => {},
      stderr: mode === 'json' ? (text) => void messages.push(text.replace(/\n$/, '')) : io.stderr,
      color,
    } satisfies ReporterIo,
    /** Red and yellow on stderr when colour is on. */
    paint: { red: paint('31', color), yellow: paint('33', color) },
    /** Records (and in text mode prints on stderr; in silent mode only the errors) problems, each with its severity. */
    diagnostics(problems: readonly Problem[]): void {
      for (const problem of problems) {
        const severity = isWarning(problem) ? 'warning' : 'error';
        diagnostics.push({ ...problem, severity });
        if (mode === 'json' || (mode === 'silent' && severity === 'warning')) continue;
        io.stderr(`${formatDiagnostic(problem, color)}\n`);
      }
    },
    /** Adds fields to the summary of the JSON report. */
    summarize(fields: Record<string, unknown>): void {
      Object.assign(summary, fields);
    },
    /** Ends the command: in JSON mode prints the report; returns `exitCode`. */
    finish(exitCode: number): number {
      if (mode === 'json') {
        const report: CommandReport = { command, ok: exitCode === 0, exitCode, summary, diagnostics, messages };
        io.stdout(`${JSON.stringify(report, null, 2)}\n`);
      }
      return exitCode;
    },
  };
}
