import { formatProblem } from '../problems.js';
import { formatJson, formatText } from './report.js';
import { loadSide } from './sources.js';
import { diffSides, fails } from './verdict.js';

/** Flags of `toolsmith diff`. */
export interface DiffFlags {
  json?: boolean;
  failOn?: string;
  strictOpenObjects?: boolean;
  schemas?: string;
}

/** Runs `toolsmith diff <before> [after]`: the exit code (0 nothing at `--fail-on`, 1 something, 2 usage or load error). */
export function runDiff(
  before: string,
  after: string | undefined,
  flags: DiffFlags,
  io: { stdout: (t: string) => void; stderr: (t: string) => void; cwd: string },
): number {
  const failOn = flags.failOn ?? 'breaking';
  if (failOn !== 'breaking' && failOn !== 'compatible' && failOn !== 'none') {
    io.stderr(`toolsmith diff: --fail-on must be breaking, compatible or none (got ${failOn})\n`);
    return 2;
  }
  const schemas = flags.schemas ?? 'schemas';
  const first = loadSide(before, io.cwd, schemas);
  const sides = [first, loadSide(after ?? schemas, io.cwd, schemas, first.problems.length === 0 ? first : undefined)];
  const problems = sides.flatMap((side) => side.problems);
  const problemFields = ({ file, line, column, pointer, message }: (typeof problems)[number]) => ({
    file,
    line,
    column,
    pointer,
    message,
  });
  if (problems.length > 0) {
    for (const problem of problems) io.stderr(`${formatProblem(problem)}\n`);
    if (flags.json) {
      io.stdout(
        `${JSON.stringify({ error: 'definitions do not load', problems: problems.map(problemFields) }, null, 2)}\n`,
      );
    }
    return 2;
  }
  const report = diffSides(sides[0]!, sides[1]!, { strictOpenObjects: flags.strictOpenObjects });
  io.stdout(flags.json ? formatJson(report) : formatText(report));
  return fails(report, failOn) ? 1 : 0;
}
