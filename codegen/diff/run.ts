import { loadConfig } from '../config/config.js';
import { optionsFromConfig, resolveOptions } from '../config/options.js';
import { lastRunModels } from '../incremental/index.js';
import { formatProblem } from '../problems.js';
import { formatJson, formatText } from './report.js';
import { isFolderSide, loadSide, type LastGenerate } from './sources.js';
import { diffSides, fails } from './verdict.js';

/** Flags of `toolsmith diff`. */
export interface DiffFlags {
  json?: boolean;
  failOn?: string;
  strictOpenObjects?: boolean;
  schemas?: string;
}

/**
 * The project's last generate, as its config in `cwd` places it (schemas and output folders), when a
 * side is a definitions folder; undefined when none is, or the config does not load (then every
 * side is normalized in full: the diff never depends on the config).
 */
async function lastGenerate(cwd: string, specs: readonly string[]): Promise<LastGenerate | undefined> {
  if (!specs.some((spec) => isFolderSide(spec, cwd))) return undefined;
  try {
    const { config, problems } = await loadConfig(cwd);
    if (problems.length > 0) return undefined;
    const resolved = resolveOptions(optionsFromConfig(cwd, config));
    return { schemasDir: resolved.schemasDir, models: (loaded) => lastRunModels(resolved, loaded) };
  } catch {
    return undefined;
  }
}

/** Runs `toolsmith diff <before> [after]`: the exit code (0 nothing at `--fail-on`, 1 something, 2 usage or load error). */
export async function runDiff(
  before: string,
  after: string | undefined,
  flags: DiffFlags,
  io: { stdout: (t: string) => void; stderr: (t: string) => void; cwd: string },
): Promise<number> {
  const failOn = flags.failOn ?? 'breaking';
  if (failOn !== 'breaking' && failOn !== 'compatible' && failOn !== 'none') {
    io.stderr(`toolsmith diff: --fail-on must be breaking, compatible or none (got ${failOn})\n`);
    return 2;
  }
  const schemas = flags.schemas ?? 'schemas';
  const generated = await lastGenerate(io.cwd, [before, after ?? schemas]);
  const first = loadSide(before, io.cwd, { schemasFolder: schemas, generated });
  const sides = [
    first,
    loadSide(after ?? schemas, io.cwd, {
      schemasFolder: schemas,
      generated,
      reuse: first.problems.length === 0 ? first : undefined,
    }),
  ];
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
