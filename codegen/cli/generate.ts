/**
 * The `generate` and `check` commands: the config and flags read, the run (generate.ts), and what it
 * did printed (as text, JSON or nothing: reporter.ts) with the exit code. Imported by the CLI only
 * when one of them runs: the generator's packages are not needed by `call` or `serve`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateResolved } from '../generate.js';
import type { Printer } from '../emit/pool/printer.js';
import type { Problem } from '../model.js';
import { sortProblems } from '../problems.js';
import { defaultIo, EXIT, options, plural, problemSummary, type CommonFlags, type Io } from './io.js';
import { createReporter } from './reporter.js';

/** `generate`: regenerate the SDK, or with `check` report drift without writing. `--json`/`--silent` choose the output (see reporter.ts). */
export async function runGenerate(
  flags: CommonFlags & { check?: boolean; json?: boolean; silent?: boolean; updateStubs?: boolean },
  io: Io = defaultIo,
  printer?: Printer,
): Promise<number> {
  const report = createReporter(
    flags.check ? 'check' : 'generate',
    flags.json ? 'json' : flags.silent ? 'silent' : 'text',
    io,
  );
  const out: Io = { ...io, ...report.io };
  // What blocked a run (and the warnings beside it), every one sorted by file and position.
  const failed = (problems: readonly Problem[], warnings: readonly Problem[] = []) => {
    out.stderr(`${report.paint.red(problemSummary(problems, warnings))}\n`);
    report.diagnostics(sortProblems([...problems, ...warnings]));
    return report.finish(EXIT.invalid);
  };
  const started = performance.now();
  const { resolved, problems: configProblems } = await options(flags, io);
  if (configProblems.length > 0) {
    void printer?.stop();
    return failed(configProblems);
  }
  // A progress line only for a terminal and a long run; never in pipes, CI logs, tests, --json or --silent.
  let lastProgress = 0;
  const progress =
    io.isTTY && report.mode === 'text'
      ? (done: number, total: number) => {
          if (total < 50 || performance.now() - lastProgress < 100) return;
          lastProgress = performance.now();
          io.stdout(`\rtoolsmith: ${done}/${total} tools emitted`);
        }
      : undefined;
  const result = await generateResolved(resolved, {
    check: flags.check === true,
    modelAlways: flags.updateStubs === true,
    ...(progress ? { onProgress: progress } : {}),
    ...(printer ? { printer } : {}),
  });
  if (progress && lastProgress > 0) io.stdout('\r\x1b[2K');
  if (result.problems.length > 0) return failed(result.problems, result.warnings);
  if (result.warnings.length > 0 && report.mode === 'text') {
    out.stderr(
      `${report.paint.yellow(
        `toolsmith: ${plural(result.warnings.length, 'warning')} ` +
          '(the schemas are valid and generate; --strict makes warnings errors):',
      )}\n`,
    );
  }
  report.diagnostics(result.warnings);
  const durationMs = Math.round(performance.now() - started);
  const shownOut = path.relative(resolved.root, resolved.outDir) || '.';
  const { diff, tools } = result;
  if (flags.check) {
    const files = diff.same.length + diff.stale.length + diff.missing.length;
    const relative = (file: string) => `${shownOut}/${file}`;
    const drift = {
      stale: diff.stale.map(relative),
      missing: diff.missing.map(relative),
      extra: diff.extra.map(relative),
      missingStubs: result.stubs.map((file) => path.relative(resolved.root, path.join(resolved.stubsDir, file))),
    };
    report.summarize({ tools, files, drift });
    if (Object.values(drift).some((list) => list.length > 0)) {
      out.stderr(
        `${report.paint.red(
          `toolsmith check: ${shownOut}/ does not match the definitions; ` +
            `run \`${regenerateCommand(flags, io.cwd)}\` and commit the result.`,
        )}\n`,
      );
      for (const [kind, list] of Object.entries(drift))
        for (const file of list) out.stderr(`  ${DRIFT_LABELS[kind as keyof typeof drift]} ${file}\n`);
      return report.finish(EXIT.invalid);
    }
    report.summarize({ durationMs });
    out.stdout(`toolsmith check: ${tools} tools, ${files} files up to date (${durationMs} ms)\n`);
    return report.finish(EXIT.ok);
  }
  const count = result.replaced ? diff.stale.length + diff.missing.length : 0;
  report.summarize({
    tools,
    unchanged: result.reused,
    written: count,
    upToDate: diff.same.length,
    removed: diff.extra.length,
    stubsCreated: result.stubs.length,
    durationMs,
  });
  out.stdout(
    `toolsmith: ${tools} tools (${result.reused} unchanged, skipped), ${count} files written, ${diff.same.length} ` +
      `up to date, ${diff.extra.length} removed, ${result.stubs.length} stubs created (${durationMs} ms)\n`,
  );
  // The stubs whose generated imports a rename took away, named in a note or (`--update-stubs`) rewritten.
  if (result.project !== undefined) {
    const { updateStubs, stubsReportText } = await import('./update-stubs.js');
    const stubs = await updateStubs(resolved, {
      project: result.project,
      created: result.stubs,
      apply: flags.updateStubs === true,
    });
    const text = stubsReportText(stubs, path.relative(resolved.root, resolved.stubsDir) || '.');
    if (report.mode === 'text' && text !== '') out.stderr(text);
  }
  return report.finish(EXIT.ok);
}

/** How a failed check lists each kind of drift. */
const DRIFT_LABELS = { stale: 'stale:  ', missing: 'missing:', extra: 'extra:  ', missingStubs: 'missing stub:' };

/** Words a shell passes through unquoted. */
const SHELL_SAFE = /^[\w@%+=:,./-]+$/;

/**
 * The command that regenerates what a failed `check` compared: `npm run generate` when the project's
 * package.json has that script (as `toolsmith init` writes it) and the check was given no folder
 * flags, else `npx --no toolsmith generate` with the same `--config`/`--schemas`/`--out`/`--stubs`/`--templates`.
 */
function regenerateCommand(flags: CommonFlags, cwd: string): string {
  const given = (['config', 'schemas', 'out', 'stubs', 'templates'] as const).filter(
    (key) => typeof flags[key] === 'string',
  );
  if (given.length === 0 && hasGenerateScript(cwd)) return 'npm run generate';
  const quote = (value: string) => (SHELL_SAFE.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);
  return ['npx --no toolsmith generate', ...given.map((key) => `--${key} ${quote(flags[key] as string)}`)].join(' ');
}

/** Whether the package.json in `cwd` has a `generate` script. */
function hasGenerateScript(cwd: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(path.join(cwd, 'package.json'), 'utf8')) as {
      scripts?: { generate?: unknown };
    } | null;
    return typeof manifest?.scripts?.generate === 'string';
  } catch {
    return false;
  }
}
