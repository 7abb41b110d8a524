import path from 'node:path';
import { EXIT, options, type CommonFlags, type Io } from './io.js';
import { lastRunModels } from '../incremental/index.js';
import { toPosix, type LoadedFiles } from '../load.js';
import type { Problem } from '../model.js';
import { formatProblem } from '../problems.js';
import type { CompareOptions } from '../diff/compare-kit.js';
import { formatJson, formatText } from '../diff/report.js';
import { loadSide, type LoadedSide } from '../diff/sources.js';
import { diffSides, fails } from '../diff/verdict.js';

/**
 * Flags of `toolsmith diff`: `--config` and `--schemas` (over the config's `schemas`) as every command reads them,
 * and `--strict-open-objects` and `--max-comparisons` as the comparison takes them.
 */
export interface DiffFlags
  extends Pick<CommonFlags, 'config' | 'schemas'>, Pick<CompareOptions, 'strictOpenObjects' | 'maxComparisons'> {
  json?: boolean;
  /** What fails the check (`--fail-on`, its choices checked by the CLI). */
  failOn?: 'breaking' | 'compatible' | 'none';
  /** The most bytes one side's files may add up to (`--max-bytes`). */
  maxBytes?: number;
}

/** The key two side arguments share when they name the same thing (then it is loaded once). */
function sideKey(spec: string, cwd: string): string {
  return spec.startsWith('git:') ? spec : path.resolve(cwd, spec);
}

/**
 * Runs `toolsmith diff <before> [after]`: the exit code (0 nothing at `--fail-on`, 1 something, 2 usage,
 * config or load error). The config and flags come through the CLI's one path (`options`): its schemas
 * folder is the default side and the folder of a `git:<ref>` side, and its last generate's models serve
 * a side that is that folder.
 */
export async function runDiff(before: string, after: string | undefined, flags: DiffFlags, io: Io): Promise<number> {
  const { resolved, problems: configProblems } = await options(flags, io);
  if (configProblems.length > 0) return refuse('the config does not load', configProblems, flags, io);
  const schemasFolder = toPosix(path.relative(io.cwd, resolved.schemasDir)) || '.';
  const generated = {
    schemasDir: resolved.schemasDir,
    models: (loaded: LoadedFiles) => lastRunModels(resolved, loaded),
  };
  const load = { schemasFolder, generated, maxBytes: flags.maxBytes };
  const first = loadSide(before, io.cwd, load);
  const second = after ?? schemasFolder;
  const sides: [LoadedSide, LoadedSide] = [
    first,
    sideKey(second, io.cwd) === sideKey(before, io.cwd)
      ? first
      : loadSide(second, io.cwd, { ...load, reuse: first.problems.length === 0 ? first : undefined }),
  ];
  const problems = sides[1] === first ? first.problems : sides.flatMap((side) => side.problems);
  if (problems.length > 0) return refuse('definitions do not load', problems, flags, io);
  const report = diffSides(sides[0], sides[1], flags);
  io.stdout(flags.json ? formatJson(report) : formatText(report));
  return fails(report, flags.failOn ?? 'breaking') ? EXIT.invalid : EXIT.ok;
}

/** A diff that cannot run: the problems on stderr (and as `{ error, problems }` with `--json`), exit 2. */
function refuse(error: string, problems: readonly Problem[], flags: DiffFlags, io: Io): number {
  for (const problem of problems) io.stderr(`${formatProblem(problem)}\n`);
  if (flags.json) {
    // The replacer's names are the only fields written: each problem's place and message.
    const fields = ['error', 'problems', 'file', 'line', 'column', 'pointer', 'message'];
    io.stdout(`${JSON.stringify({ error, problems }, fields, 2)}\n`);
  }
  return EXIT.usage;
}
