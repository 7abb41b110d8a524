/**
 * A `Problem`'s whole life: reported through one collector (`Diagnostics`) at its place in a file,
 * placed later when found away from the file's text (`unplacedProblem`, `placeProblem`), sorted, and
 * printed (`formatProblem`).
 */
import { positionOf, problemAt, type SourceFile } from './load.js';
import { compareStrings } from '../src/manifest-targets/build.js';
import type { Problem } from './model.js';

/** How `formatProblem` marks a problem's parts: left as they are by default; the CLI colours them on a terminal. */
export type ProblemStyle = Record<'where' | 'pointer' | 'warning' | 'error' | 'hint', (text: string) => string>;

const same = (text: string) => text;
const PLAIN: ProblemStyle = { where: same, pointer: same, warning: same, error: same, hint: same };

/**
 * `schemas/x.tool.json:3:5 /inputSchema/properties/q: message\n  hint: …` (a warning's message starts with
 * `warning: `). Text from a definition is put on one line before `style` marks it.
 */
export function formatProblem(problem: Problem, style: ProblemStyle = PLAIN): string {
  const where = style.where(`${oneLine(problem.file)}:${problem.line}:${problem.column}`);
  const pointer = problem.pointer === '' ? '' : ` ${style.pointer(oneLine(problem.pointer))}`;
  const hint = problem.hint ? `\n    ${style.hint('hint:')} ${oneLine(problem.hint)}` : '';
  const message = oneLine(problem.message);
  return `${where}${pointer}: ${isWarning(problem) ? `${style.warning('warning:')} ${message}` : style.error(message)}${hint}`;
}

/** The control characters written as their short escape. */
const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Text from a definition (a file name, a key in a pointer or a message) on one line: line breaks and other control characters written as escapes (`\n`). */
function oneLine(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f\u2028\u2029]/g,
    (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** True for a warning, false for an error. */
export function isWarning(problem: Problem): boolean {
  return problem.severity === 'warning';
}

/** Sorts problems by file, line, column, message (byte-stable). */
export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort(
    (a, b) =>
      compareStrings(a.file, b.file) || a.line - b.line || a.column - b.column || compareStrings(a.message, b.message),
  );
}

/** Where a problem's line and column point: the value at the pointer (default) or, with `atKey`, its property name. */
export interface PlaceOptions {
  atKey?: boolean;
}

/**
 * The one collector every normalize rule reports through: `error` blocks the run, `warning` does
 * not (unless `strict`, decided by generate). Each report is placed at its file's line:column from
 * its JSON pointer. Why one collector: rules never thread a `problems` array or count it to learn
 * whether a file failed; a child collector (`child()`) answers that for one definition's rules.
 */
export class Diagnostics {
  readonly #problems: Problem[] = [];
  readonly #parent: Diagnostics | undefined;
  #errors = 0;

  constructor(parent?: Diagnostics) {
    this.#parent = parent;
  }

  /** Reports an error at `pointer` of `source`. */
  error(source: SourceFile, pointer: string, message: string, hint?: string, options: PlaceOptions = {}): void {
    this.add(problemAt(source, pointer, message, hint, options.atKey));
  }

  /** Reports a warning at `pointer` of `source`: printed, but the run still writes its files. */
  warning(source: SourceFile, pointer: string, message: string, hint?: string, options: PlaceOptions = {}): void {
    this.add({ ...problemAt(source, pointer, message, hint, options.atKey), severity: 'warning' });
  }

  /** Adds problems already placed (load's, the warnings a cached model keeps, a relocated one). */
  add(...problems: Problem[]): void {
    for (const problem of problems) {
      this.#problems.push(problem);
      if (!isWarning(problem)) this.#errors++;
    }
    this.#parent?.add(...problems);
  }

  /** A collector that forwards every report here and keeps its own count: one definition's rules. */
  child(): Diagnostics {
    return new Diagnostics(this);
  }

  /** Errors reported through this collector so far. */
  get errorCount(): number {
    return this.#errors;
  }

  /** Every problem reported through this collector, in report order. */
  problems(): readonly Problem[] {
    return this.#problems;
  }

  /** The warnings reported through this collector, in report order. */
  warnings(): Problem[] {
    return this.#problems.filter(isWarning);
  }

  /** Every problem, the same one (file, pointer, message) once, split by severity and sorted. */
  result(): { problems: Problem[]; warnings: Problem[] } {
    const unique = [
      ...new Map(
        this.#problems.map((problem) => [`${problem.file}\0${problem.pointer}\0${problem.message}`, problem]),
      ).values(),
    ];
    return {
      problems: sortProblems(unique.filter((problem) => !isWarning(problem))),
      warnings: sortProblems(unique.filter(isWarning)),
    };
  }
}

/** Problems made away from their file (by an emitter) that point at the value, not the key, once placed. */
const AT_VALUE = new WeakSet<Problem>();

/**
 * A problem found without its file's text (in an emitter, maybe on a worker thread), to be placed by
 * `placeProblem` once back where the sources are. Placed at the value of `pointer` unless `atKey`.
 */
export function unplacedProblem(
  file: string,
  pointer: string,
  message: string,
  hint?: string,
  options: PlaceOptions = {},
): Problem {
  const problem: Problem = { file, line: 1, column: 1, pointer, message, ...(hint === undefined ? {} : { hint }) };
  if (!(options.atKey ?? true)) AT_VALUE.add(problem);
  return problem;
}

/** `problem` at the line and column its pointer names in `source` (its property name unless made with `atKey: false`). */
export function placeProblem(source: SourceFile, problem: Problem): Problem {
  return { ...problem, ...positionOf(source, problem.pointer, !AT_VALUE.has(problem)) };
}
