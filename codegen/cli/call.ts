/**
 * `call`: one call of a project's tool through its orchestrator, printed as JSON; and how `call` and
 * `serve` get that orchestrator (the user's entry module, else the generated registry: ./entry.ts).
 */
import type { CallReporter } from '../../src/caller/call-reporting.js';
import { coercionText, feedbackText } from '../../src/feedback/render.js';
import type { ToolOrchestrator } from '../../src/orchestrator.js';
import type { ToolsmithConfig } from '../config/generated/config-type.js';
import { defaultIo, EXIT, options, reportProblems, type CommonFlags, type Io } from './io.js';

/** The flags `call` and `serve` both read: the project's orchestrator to load, and the persona calls are made as. */
export type ProjectFlags = Pick<CommonFlags, 'config' | 'out' | 'schemas' | 'stubs'> & {
  capability?: string[];
  /** The persona id calls are made as (the option's default is each command's: `cli`, `mcp`). */
  persona: string;
  entry?: string;
  allowSideEffects?: boolean;
};

/**
 * The config (read once, the flags over it) and the project's orchestrator for `call` and `serve`
 * (see `entry.ts`: the user's entry module, else the generated registry; TypeScript through tsx, else
 * the built JavaScript). `undefined` after printing the config's problems, or what to do when neither
 * can be loaded. Without an entry module (whose orchestrator is the user's decision) a call to a tool
 * with side effects is answered APPROVAL_REJECTED, naming the flag, unless `--allow-side-effects`:
 * nothing that acts runs unasked.
 */
export async function openProject(
  flags: ProjectFlags,
  command: 'call' | 'serve',
  io: Io,
): Promise<{ orchestrator: ToolOrchestrator; config: ToolsmithConfig; outDir: string } | undefined> {
  const { resolved, config, problems } = await options(flags, io);
  if (problems.length > 0) {
    reportProblems(problems, io);
    return undefined;
  }
  const { EntryError, loadProjectOrchestrator } = await import('./entry.js');
  const started = command === 'serve' ? 'this server was started' : 'this call was made';
  const again = command === 'serve' ? 'restart it' : 'call again';
  const defaults = flags.allowSideEffects
    ? { allowSideEffects: true }
    : {
        requireApproval: 'side-effects' as const,
        approvalGate: async ({ tool }: { tool: { name: string } }) => ({
          approved: false,
          reason:
            `'${tool.name}' has side effects, and ${started} without a decision about them; ${again} with ` +
            `--allow-side-effects (or an --entry module with an approval gate) to let such tools run.`,
        }),
      };
  try {
    const orchestrator = await loadProjectOrchestrator({
      root: resolved.root,
      outDir: resolved.outDir,
      entry: flags.entry ?? config.entry,
      defaults,
      allowSideEffects: flags.allowSideEffects === true,
      warn: (message) => io.stderr(`toolsmith ${command}: ${message}\n`),
    });
    return { orchestrator, config, outDir: resolved.outDir };
  } catch (error) {
    if (!(error instanceof EntryError)) throw error;
    io.stderr(`toolsmith ${command}: ${error.message}\n`);
    return undefined;
  }
}

/** `call`: one tool call through the orchestrator, printed as JSON. */
export async function runCall(
  tool: string,
  json: string | undefined,
  flags: ProjectFlags,
  io: Io = defaultIo,
): Promise<number> {
  const project = await openProject(flags, 'call', io);
  if (project === undefined) return EXIT.invalid;
  const { orchestrator, config } = project;
  // The tool's log messages go to stderr (stdout carries the result); its progress too, on a terminal.
  let progressShown = false;
  const reporter: CallReporter = {
    log: (level, data) => {
      if (progressShown) io.stderr('\n');
      progressShown = false;
      io.stderr(`${tool} ${level}: ${typeof data === 'string' ? data : JSON.stringify(data)}\n`);
    },
  };
  if (io.stderrIsTTY === true)
    reporter.progress = ({ progress, total, message }) => {
      progressShown = true;
      const amount = total === undefined ? String(progress) : `${progress}/${total}`;
      io.stderr(`\r\x1b[2K${tool}: ${amount}${message === undefined ? '' : ` ${message}`}`);
    };
  const result = await orchestrator.processToolCall({
    toolCallRequest: { id: 'cli-call', name: tool, arguments: json ?? '{}' },
    gmiId: 'cli',
    personaId: flags.persona,
    personaCapabilities: flags.capability ?? config.capabilities ?? [],
    userContext: { userId: 'cli' },
    reporter,
  });
  if (progressShown) io.stderr('\n');
  await orchestrator.shutdown();
  const coerced = coercionText(result);
  if (coerced !== '') io.stderr(`toolsmith call: arguments converted to fit the schema:\n${coerced}\n`);
  if (result.isError) io.stderr(`${feedbackText(result, { maxLength: orchestrator.maxFeedbackLength })}\n`);
  io.stdout(`${JSON.stringify(result, null, 2)}\n`);
  return result.isError ? EXIT.invalid : EXIT.ok;
}
