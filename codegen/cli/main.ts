import { once } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { defaultIo, EXIT, options, type Io } from './io.js';
import { wholeNumberOption } from './numbers.js';
import { runCall } from './call.js';
import { runServe } from './serve.js';
import { runInit } from './init.js';
import { followLauncher } from './launcher.js';
import { CONFIG_FILES } from '../config/config.js';
import { GENERATOR_PACKAGES, generatorVersionMismatches, installedVersion } from './generator-packages.js';
import { clockTime } from './reporter.js';
import { runDiff } from './diff.js';
import { runCopyAssets } from './copy-assets.js';
import { GENERATOR_VERSION } from '../model.js';
import { startPrinter } from '../emit/pool/printer.js';

/**
 * Whether the packages a command needs beyond toolsmith's own dependencies are installed (the
 * generator's: json-schema-to-typescript, prettier, …, or chokidar for `--watch`): a runtime-only
 * install does not have them. When one is missing the user is told the one command that adds them;
 * an installed version other than the tested one is a warning.
 */
function packagesInstalled(io: Io, needed: readonly string[]): boolean {
  const missing = needed.filter((name) => installedVersion(name, import.meta.dirname) === undefined);
  if (missing.length > 0) {
    const install = Object.entries(GENERATOR_PACKAGES)
      .map(([name, version]) => `${name}@${version}`)
      .join(' ');
    io.stderr(
      `toolsmith: the generator's packages are not installed (missing: ${missing.join(', ')}).\n    hint: npm install --save-dev --save-exact ${install}\n`,
    );
    return false;
  }
  for (const { name, installed, tested } of generatorVersionMismatches(import.meta.dirname, needed)) {
    io.stderr(
      `toolsmith: warning: ${name} ${installed} is installed; toolsmith is tested with ${tested}.\n` +
        `    hint: npm install --save-dev --save-exact ${name}@${tested}\n`,
    );
  }
  return true;
}

/**
 * `generate` (with `--watch`, again after every change until SIGINT/SIGTERM) and `check`: the
 * generator loaded here, the one place the CLI imports it. The packages the run imports are checked
 * first, so a run never fails half-way: the generator's (ts-morph prints the bases and stubs, and
 * `--update-stubs` rewrites stubs with it) and chokidar for `--watch`.
 */
async function generateCommand(
  flags: Parameters<typeof import('./generate.js').runGenerate>[0] & { watch?: boolean },
  io: Io,
): Promise<number> {
  const needed = ['json-schema-to-typescript', 'prettier', 'handlebars', 'gpt-tokenizer', 'ts-morph'];
  if (flags.watch) needed.push('chokidar');
  if (!packagesInstalled(io, needed)) return EXIT.invalid;
  // A single run's printing thread starts before the generator loads: ts-morph loads meanwhile (a small project's run).
  const printer = flags.watch ? undefined : startPrinter();
  const { runGenerate } = await import('./generate.js');
  if (!flags.watch) return runGenerate(flags, io, printer);
  const { resolved } = await options(flags, io);
  const watched = [resolved.schemasDir, ...(resolved.templatesDir ? [resolved.templatesDir] : [])];
  const quiet = flags.json === true || flags.silent === true;
  const shown = (file: string) => path.relative(io.cwd, file) || '.';
  if (!quiet) io.stdout(`toolsmith: watching ${watched.map(shown).join(', ')} (Ctrl-C to stop)\n`);
  const { watchAndRun } = await import('./watch.js');
  const onRun = (changed: readonly string[]) => {
    if (!quiet)
      io.stdout(
        `[${clockTime()}] ${changed.length === 0 ? 'first run' : `changed: ${changed.map(shown).join(', ')}`}\n`,
      );
    return runGenerate(flags, io);
  };
  const watcher = watchAndRun(watched, onRun, {
    onError: (error) => io.stderr(`toolsmith: ${(error as Error).message}\n`),
  });
  const unfollow = followLauncher();
  await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
  unfollow();
  await watcher.close();
  return EXIT.ok;
}

// ── Config and flags: the config file is read and checked once, and the flags that are config keys win over it.

/** The help of `--config`. */
const CONFIG_FLAG_HELP = `config file (default: ${CONFIG_FILES.join(', ')} in the current folder; only one may exist)`;

/** The `--workers` option of `generate` and `check`. */
const workersOption = () =>
  new Option(
    '--workers <n>',
    'threads emitting tools in a full generate or check, the main thread one of them (default: ' +
      '"workers" of the config, else TOOLSMITH_WORKERS, else one per core; 1 emits in process only)',
  ).argParser(wholeNumberOption(1, '--workers 2 (1 emits in process)'));

/** A repeatable option (`--capability a --capability b`): its values in order. */
const repeatable = (flags: string, help: string) =>
  new Option(flags, help).argParser((value: string, previous: string[] = []) => [...previous, value]);

/**
 * The options of `call` and `serve`, which load the project's orchestrator: the persona calls are made
 * as (its id defaulting to `persona`), the entry module, and the decision about tools with side effects.
 */
const projectOptions = (command: Command, persona: string) =>
  command
    .addOption(
      repeatable(
        '--capability <cap>',
        'a capability of the persona calls are made as (repeatable; default: "capabilities" of the config file, else none)',
      ),
    )
    .option('--persona <id>', 'the persona id calls are made as', persona)
    .option(
      '--entry <module>',
      'a module whose default export is the ToolOrchestrator, its options, or a function returning either (default: "entry" of the config, else the generated registry)',
    )
    .option(
      '--allow-side-effects',
      "let tools with side effects (hasSideEffects) run; without it their calls are answered APPROVAL_REJECTED (with --entry: applied to the entry's options when they give no approval gate)",
    );

// ── End of config and flags.

/** The command-line program. */
export function createProgram(
  io: Io = defaultIo,
  setExit: (code: number) => void = (code) => (process.exitCode = code),
): Command {
  const program = new Command('toolsmith')
    .description(
      'Schema-first tools for LLM agents: definition files → typed SDK, validators, manifests, docs; a runtime to call them.',
    )
    .version(GENERATOR_VERSION, '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  const common = (command: Command) =>
    command
      .option('--config <file>', CONFIG_FLAG_HELP)
      .option('--schemas <dir>', 'definitions folder (default: schemas)')
      .option('--out <dir>', 'generated output folder (default: generated)')
      .option('--stubs <dir>', 'implementation stubs folder (default: src/tools)');
  program
    .command('init')
    .description(
      'scaffold schemas/ with an example definition, toolsmith.config.json and npm scripts; never overwrites',
    )
    .action(() => setExit(runInit(io)));
  common(
    program
      .command('generate')
      .description('generate types, validators, tool bases, stubs, registry, manifests and docs'),
  )
    .option('--check', 'write nothing; exit 1 listing every stale or missing file when the output does not match')
    .option(
      '--strict',
      'warnings (unknown keywords and formats, defaults never filled in) are errors: exit 1, nothing written',
    )
    .option('--templates <dir>', 'folder of handlebars templates overriding the default docs templates')
    .option(
      '--update-stubs',
      'rewrite the imports, extends clause and execute signature of stubs whose generated names were renamed',
    )
    .option(
      '--watch',
      'regenerate whenever a definition or template changes (debounced); errors are printed and the last good output kept',
    )
    .option(
      '--json',
      'print one JSON object on stdout: the summary and every diagnostic (for CI annotations and editors)',
    )
    .option('--silent', 'print errors only')
    .addOption(workersOption())
    .action(async (flags) => setExit(await generateCommand(flags, io)));
  common(
    program
      .command('check')
      .description('exit 1 and list every stale or missing file when the output does not match the definitions'),
  )
    .option('--strict', 'warnings are errors: exit 1')
    .option('--json', 'print one JSON object on stdout: the summary, the drift and every diagnostic')
    .option('--silent', 'print errors only')
    .addOption(workersOption())
    .action(async (flags) => setExit(await generateCommand({ ...flags, check: true }, io)));
  program
    .command('copy-assets')
    .description(
      "after tsc: copy the generated files tsc does not emit (validators' .js and .d.ts, catalog.json, " +
        "schemas/, manifests' JSON) into the build, so dist/ runs with plain node",
    )
    .option('--config <file>', CONFIG_FLAG_HELP)
    .option('--out <dir>', 'generated output folder (default: generated)')
    .action(async (flags) => setExit(await runCopyAssets(flags, io)));
  projectOptions(
    common(
      program
        .command('call')
        .description(
          'call one tool through the orchestrator and print the result as JSON, e.g. call calculator \'{"expression":"2*(3+4)"}\'',
        ),
    ),
    'cli',
  )
    .argument('<tool>', 'the tool name')
    .argument('[arguments]', 'the arguments as a JSON object (default {})')
    .action(async (tool, json, flags) => setExit(await runCall(tool, json, flags, io)));
  program
    .command('diff')
    .description(
      'breaking-change check between two versions of the definitions (a folder, git:<ref> or a manifest snapshot; one argument: against the working tree)',
    )
    .argument(
      '<before>',
      'a definitions folder, git:<ref>, a manifest snapshot (mcp.json, a saved tools/list answer) or git:<ref>:<file>.json',
    )
    .argument('[after]', 'as <before> (default: the schemas folder)')
    .option('--json', 'one JSON object on stdout')
    .addOption(
      new Option('--fail-on <level>', 'the least change that fails the check')
        .choices(['breaking', 'compatible', 'none'])
        .default('breaking'),
    )
    .option(
      '--strict-open-objects',
      'an optional property added to an object that accepts extra properties is breaking',
    )
    .option('--config <file>', CONFIG_FLAG_HELP)
    .option('--schemas <dir>', 'definitions folder (default: "schemas" of the config, else schemas)')
    .option(
      '--max-bytes <n>',
      "most bytes one side's files may add up to; a larger side is refused unread (default 67108864, 64 MiB)",
      wholeNumberOption(1, '--max-bytes 67108864'),
    )
    .option(
      '--max-comparisons <n>',
      'schema pairs compared per tool and side before the rest is reported undecidable, so breaking (default 100000)',
      wholeNumberOption(1, '--max-comparisons 100000'),
    )
    .action(async (before, after, flags) => setExit(await runDiff(before, after, flags, io)));
  projectOptions(
    program
      .command('serve')
      .description(
        'serve the tools as an MCP server over stdio until the client disconnects, or over Streamable HTTP with --http (tools/list as in mcp.json, or mcp-portable.json with --profile portable; tools/call through the orchestrator)',
      )
      .option('--config <file>', CONFIG_FLAG_HELP)
      .option('--out <dir>', 'generated output folder holding registry.ts (default: generated)'),
    'mcp',
  )
    .addOption(
      new Option(
        '--profile <profile>',
        'what tools/list shows: each tool\'s exact schema (mcp.json) or the portable one every MCP host takes as it is (mcp-portable.json); calls are validated against the full definition either way (default: "manifests.servedProfile" of the config, else exact)',
      ).choices(['exact', 'portable']),
    )
    .option(
      '--tool-failure-meta',
      'a failed call\'s structured failure also in the draft SEP-3313 shape (_meta["io.modelcontextprotocol/toolFailure"]), beside toolsmith\'s own (default: "toolFailureMeta" of the config, else off)',
    )
    .option(
      '--max-message-bytes <n>',
      'longest JSON-RPC message read; a longer one is answered with an error (-32600) and skipped (default 10485760, 10 MiB)',
      wholeNumberOption(1, '--max-message-bytes 1048576'),
    )
    .option(
      '--shutdown-timeout <ms>',
      'when the client disconnects, how long calls in flight and tool shutdowns may take before the server exits anyway (default 5000)',
      wholeNumberOption(0, '--shutdown-timeout 5000'),
    )
    .option(
      '--http',
      "serve MCP over Streamable HTTP at /mcp (stateless; GET /healthz) instead of stdio; replicas share env TOOLSMITH_REQUEST_STATE_KEY (>= 32 bytes) to take each other's 2026-07-28 answers; see the README's deployment section",
    )
    .option('--host <host>', 'with --http: the interface to bind (default 127.0.0.1; env TOOLSMITH_HOST)')
    .option(
      '--port <port>',
      'with --http: the port (default 3000, 0 = any free one; env TOOLSMITH_PORT or PORT)',
      wholeNumberOption(0, '--port 3000'),
    )
    .option('--no-auth', 'with --http: no bearer tokens; only a loopback --host is accepted')
    .option(
      '--auth-issuer <url>',
      "with --http: the authorization server's issuer, the tokens' iss (env TOOLSMITH_AUTH_ISSUER)",
    )
    .option(
      '--auth-resource <url>',
      "with --http: this server's public MCP URL, the tokens' aud (env TOOLSMITH_AUTH_RESOURCE)",
    )
    .option(
      '--auth-jwks <url|file>',
      "with --http: the authorization server's JWKS, a URL or a JSON file (env TOOLSMITH_AUTH_JWKS)",
    )
    .option(
      '--scope-map <file>',
      'with --http: JSON { "scope": ["capability", ...] }, the capabilities each token scope grants (env TOOLSMITH_AUTH_SCOPE_MAP)',
    )
    .addOption(
      repeatable(
        '--required-scope <scope>',
        'with --http: a scope every request needs (repeatable; env TOOLSMITH_AUTH_REQUIRED_SCOPES)',
      ),
    )
    .addOption(
      repeatable(
        '--allowed-origin <origin>',
        "with --http: a browser Origin allowed to call /mcp besides this machine's pages, which a loopback server without auth accepts (repeatable)",
      ),
    )
    .option(
      '--task-store <memory|redis://…>',
      'where tasks of task-capable tools live: memory (one process, the default) or a Redis URL every replica shares (env TOOLSMITH_TASK_STORE); opened only when a tool has taskSupport or a store is named (a named store no tool needs is opened, with a warning)',
    )
    .option(
      '--task-store-accept-eviction',
      "start even when the Redis task store's maxmemory-policy may evict task keys (anything but noeviction), with a warning; without it such a store is refused at start",
    )
    .option(
      '--task-input-wait <ms>',
      "how long a task's question to its client waits for the answer before the task fails saying so (default 600000)",
      wholeNumberOption(1, '--task-input-wait 600000'),
    )
    .option(
      '--task-max-input-waiting <n>',
      'how many tasks of one caller (all unauthenticated callers counting as one) may wait for input at once; a further question is refused (default 20)',
      wholeNumberOption(1, '--task-max-input-waiting 20'),
    )
    .option(
      '--page-size <n>',
      'tools per tools/list page, with a cursor to the next (default: all in one page)',
      wholeNumberOption(1, '--page-size 100'),
    )
    .option(
      '--max-body-bytes <n>',
      'with --http: the largest request body (default 1048576)',
      wholeNumberOption(0, '--max-body-bytes 1048576'),
    )
    .option(
      '--request-timeout <ms>',
      'with --http: the longest a request may take before a 504 (default 60000)',
      wholeNumberOption(0, '--request-timeout 60000'),
    )
    .option(
      '--drain-timeout <ms>',
      'with --http: on SIGTERM, how long calls in flight may finish (default 10000)',
      wholeNumberOption(0, '--drain-timeout 10000'),
    )
    .addHelpText(
      'after',
      '\nExample (an MCP client config): { "command": "npx", "args": ["--no", "toolsmith", "serve", "--capability", "capability:filesystem:read"] }\n',
    )
    .action(async (flags) => {
      const unfollow = followLauncher();
      try {
        setExit(await runServe(flags, io));
      } finally {
        unfollow();
      }
    });
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
