import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { loadConfig, type ToolsmithConfig } from './config.js';
import { generate, resolveOptions, type GenerateOptions } from './generate.js';
import type { Problem } from './model.js';
import { GENERATOR_VERSION } from './normalize.js';
import { formatProblem } from './problems.js';
import { diffOutput, hasDrift, missingStubs, writeOutput } from './write.js';

/** Exit codes: documented in the README. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

interface CommonFlags {
  config?: string;
  schemas?: string;
  out?: string;
  stubs?: string;
  templates?: string;
}

interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

const defaultIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
};

/** Merges config file and flags (flags win). */
async function options(flags: CommonFlags, io: Io): Promise<{ options: GenerateOptions; config: ToolsmithConfig; problems: Problem[] }> {
  const { config, problems } = await loadConfig(io.cwd, flags.config);
  const merged: GenerateOptions = { root: io.cwd };
  const schemas = flags.schemas ?? config.schemas;
  const out = flags.out ?? config.out;
  const stubs = flags.stubs ?? config.stubs;
  if (schemas !== undefined) merged.schemas = schemas;
  if (out !== undefined) merged.out = out;
  if (stubs !== undefined) merged.stubs = stubs;
  if (config.runtimeImport !== undefined) merged.runtimeImport = config.runtimeImport;
  if (config.regenerateCommand !== undefined) merged.regenerateCommand = config.regenerateCommand;
  const templates = flags.templates ?? config.templates;
  if (templates !== undefined) merged.templates = templates;
  if (config.manifests?.targets !== undefined) merged.manifestTargets = config.manifests.targets;
  return { options: merged, config, problems };
}

function reportProblems(problems: readonly Problem[], io: Io): void {
  io.stderr(`toolsmith: ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was written.\n`);
  for (const problem of problems) io.stderr(`${formatProblem(problem)}\n`);
}

/** `generate`: regenerate the SDK, or with `check` report drift without writing. */
export async function runGenerate(flags: CommonFlags & { check?: boolean }, io: Io = defaultIo): Promise<number> {
  const started = performance.now();
  const { options: generateOptions, problems: configProblems } = await options(flags, io);
  if (configProblems.length > 0) {
    reportProblems(configProblems, io);
    return EXIT.invalid;
  }
  const result = await generate(generateOptions);
  if (result.problems.length > 0) {
    reportProblems(result.problems, io);
    return EXIT.invalid;
  }
  const resolved = resolveOptions(generateOptions);
  const shownOut = path.relative(resolved.root, resolved.outDir) || '.';
  if (flags.check) {
    const diff = diffOutput(resolved.outDir, result.files);
    const stubs = missingStubs(resolved.stubsDir, result.stubs);
    if (hasDrift(diff) || stubs.length > 0) {
      io.stderr(`toolsmith check: ${shownOut}/ does not match the definitions; run the generator.\n`);
      for (const file of diff.stale) io.stderr(`  stale:   ${shownOut}/${file}\n`);
      for (const file of diff.missing) io.stderr(`  missing: ${shownOut}/${file}\n`);
      for (const file of diff.extra) io.stderr(`  extra:   ${shownOut}/${file}\n`);
      for (const file of stubs) io.stderr(`  missing stub: ${path.relative(resolved.root, path.join(resolved.stubsDir, file))}\n`);
      return EXIT.invalid;
    }
    io.stdout(`toolsmith check: ${result.project.tools.length} tools, ${result.files.length} files up to date (${Math.round(performance.now() - started)} ms)\n`);
    return EXIT.ok;
  }
  const report = writeOutput(resolved.outDir, result.files, resolved.stubsDir, result.stubs);
  const written = report.replaced ? report.diff.stale.length + report.diff.missing.length : 0;
  io.stdout(
    `toolsmith: ${result.project.tools.length} tools, ${written} files written, ${report.diff.same.length} unchanged, ${report.diff.extra.length} removed, ${report.stubsCreated.length} stubs created (${Math.round(performance.now() - started)} ms)\n`,
  );
  return EXIT.ok;
}

/** `call`: one tool call through the orchestrator, printed as JSON. */
export async function runCall(tool: string, json: string | undefined, flags: CommonFlags & { capability?: string[]; persona?: string }, io: Io = defaultIo): Promise<number> {
  const { options: generateOptions, config, problems } = await options(flags, io);
  if (problems.length > 0) {
    reportProblems(problems, io);
    return EXIT.invalid;
  }
  const resolved = resolveOptions(generateOptions);
  const registryUrl = pathToFileURL(path.join(resolved.outDir, 'registry.ts')).href;
  const runtime = await import('../src/index.js');
  const registry = (await import(registryUrl)) as { createTools: () => import('../src/index.js').ITool[] };
  const orchestrator = new runtime.ToolOrchestrator({ tools: registry.createTools() });
  const result = await orchestrator.processToolCall({
    toolCallRequest: { id: 'cli-call', name: tool, arguments: json ?? '{}' },
    gmiId: 'cli',
    personaId: flags.persona ?? 'cli',
    personaCapabilities: flags.capability ?? config.capabilities ?? [],
    userContext: { userId: 'cli' },
  });
  await orchestrator.shutdown();
  io.stdout(`${JSON.stringify(result, null, 2)}\n`);
  return result.isError ? EXIT.invalid : EXIT.ok;
}

/** The command-line program. */
export function createProgram(io: Io = defaultIo, setExit: (code: number) => void = (code) => (process.exitCode = code)): Command {
  const program = new Command('toolsmith')
    .description('Schema-first tools for LLM agents: definition files → typed SDK, validators, manifests, docs; a runtime to call them.')
    .version(GENERATOR_VERSION, '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  const common = (command: Command) =>
    command
      .option('--config <file>', 'config file (default: toolsmith.config.json or toolsmith.config.mjs in the current folder)')
      .option('--schemas <dir>', 'definitions folder (default: schemas)')
      .option('--out <dir>', 'generated output folder (default: generated)')
      .option('--stubs <dir>', 'implementation stubs folder (default: src/tools)');
  common(program.command('generate').description('generate types, validators, tool bases, stubs, registry, manifests and docs'))
    .option('--check', 'write nothing; exit 1 listing every stale or missing file when the output does not match')
    .option('--templates <dir>', 'folder of handlebars templates overriding the default docs templates')
    .action(async (flags) => setExit(await runGenerate(flags, io)));
  common(program.command('check').description('exit 1 and list every stale or missing file when the output does not match the definitions'))
    .action(async (flags) => setExit(await runGenerate({ ...flags, check: true }, io)));
  common(program.command('call').description("call one tool through the orchestrator and print the result as JSON, e.g. call calculator '{\"expression\":\"2*(3+4)\"}'"))
    .argument('<tool>', 'the tool name')
    .argument('[arguments]', 'the arguments as a JSON object (default {})')
    .addOption(new Option('--capability <cap>', 'a capability of the calling persona (repeatable)').argParser((value: string, previous: string[] = []) => [...previous, value]))
    .option('--persona <id>', 'the calling persona id', 'cli')
    .action(async (tool, json, flags) => setExit(await runCall(tool, json, flags, io)));
  return program;
}

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  let code: number = EXIT.ok;
  const program = createProgram(io, (value) => (code = value));
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    io.stderr(`toolsmith: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.invalid;
  }
  return code;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
