/**
 * `npm run bench`: toolsmith against its peers, P1..P10 (issues 6, 17, 27, 28), each a ratio measured in the
 * same run. Prints a table and merges the figures into `bench/results.json`.
 *
 *   npm run bench                        # 1,000 tools; growth 100 → 1,000; P4 at 1,000 tools
 *   npm run bench -- --quick             # smoke run: 20 tools, one round (not a result)
 *   npm run bench -- --only P1,P5        # only some measures
 *   npm run bench -- --only P8           # only the MCP-over-HTTP figure (no project is generated)
 *   npm run bench -- --only P3e          # a 10 MB one-word description's generate, token report on / off
 *   npm run bench -- --only P3f          # full generate of 1,000 tools, manifests.hosts: every host / none
 *   npm run bench -- --only P9           # toolsmith diff of two 1,000-tool trees vs a no-op generate
 *   npm run bench -- --only P10          # a task round trip across two replicas sharing redis-server
 *   npm run bench -- --full              # growth to 5,000 tools, no generate deadline
 *   npm run bench -- --generate-timeout 600   # deadline of one generate child, seconds (default 240)
 *   npm run bench -- --keep              # keep the scratch projects
 *
 * P1 and P5 run in this process (tinybench, interleaved rounds). Generation (P3, P4) runs in a
 * child per run, json-schema-to-typescript likewise. Start-up and memory (P2, P6) run in children on
 * plain `node` over the project compiled to JavaScript by `tsc` (see project.ts). A generate that
 * misses its deadline or runs out of memory is reported as not finished (MISS), never extrapolated.
 */
import { AJV_OPTIONS } from '../src/schema/ajv-options.js';
import { HOSTS } from '../src/hosts/host-table.js';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv, type Options as AjvOptions } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ADD_NUMBERS_TOOL, CREATE_ORDER_TOOL, createOrderZod, invalidOrder, validOrder } from './fixtures.js';
import {
  ChildFailedError,
  compareMicro,
  median,
  roundRatio,
  runChild,
  withSilentConsole,
  type MicroOptions,
} from './measure.js';
import { measureHttp, measureListStartup } from './http.js';
import { measureTaskRoundTrip } from './tasks.js';
import { cacheFile } from '../codegen/incremental/store.js';
import {
  buildProject,
  compileProject,
  prepareProject,
  projectPaths,
  REPO_ROOT,
  type BenchProject,
  type PreparedProject,
} from './project.js';

// ajv-formats is CommonJS: under NodeNext its default import may be `module.exports` or the plugin.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;
const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const CHILDREN = path.join(BENCH_DIR, 'children');
const RESULTS_FILE = path.join(BENCH_DIR, 'results.json');
const IDS = [
  'P1',
  'P2',
  'P3',
  'P3b',
  'P3c',
  'P3d',
  'P3e',
  'P3f',
  'P4',
  'P5',
  'P6',
  'P7',
  'P8',
  'P8b',
  'P8c',
  'P9',
  'P10',
] as const;
type Id = (typeof IDS)[number];

/** One row of results.json. */
interface Row {
  ratio?: number;
  value?: number;
  target: string;
  /** Absent for a figure that is reported, not judged (target `report`). */
  pass?: boolean;
  detail: Record<string, unknown>;
}

interface Plan {
  quick: boolean;
  only: Set<Id>;
  /** The size of the headline figures (P2, P3, P6). */
  mainTools: number;
  /** Sizes of the growth table (includes mainTools). */
  growth: number[];
  /** The size P4 is measured at (a full generate per run until generation is incremental). */
  p4Tools: number;
  micro: MicroOptions;
  /** Child-process runs per side (median). */
  childRuns: number;
  /** P4: generate runs with nothing changed, and with one tool changed (median of each). */
  p4Runs: number;
  /** Deadline of one generate child, ms (0: none); a generate past it is reported as not finished. */
  generateTimeoutMs: number;
  keep: boolean;
}

function parseArgs(argv: string[]): Plan {
  const quick = argv.includes('--quick');
  const full = argv.includes('--full');
  const onlyIndex = argv.indexOf('--only');
  const onlyArg =
    argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ??
    (onlyIndex >= 0 ? argv[onlyIndex + 1] : undefined);
  const timeoutIndex = argv.indexOf('--generate-timeout');
  const timeoutArg = timeoutIndex >= 0 ? Number(argv[timeoutIndex + 1]) * 1000 : undefined;
  const only = new Set<Id>();
  for (const part of (onlyArg ?? IDS.join(',')).split(',')) {
    const id = IDS.find((candidate) => candidate.toUpperCase() === part.trim().toUpperCase());
    if (id === undefined)
      throw new Error(`--only: unknown measure "${part.trim()}"; the measures are ${IDS.join(', ')}`);
    only.add(id);
  }
  if (quick) {
    return {
      quick,
      only,
      mainTools: 20,
      growth: [10, 20],
      p4Tools: 20,
      micro: { rounds: 1, time: 150, warmupTime: 50, batch: 20 },
      childRuns: 1,
      p4Runs: 1,
      generateTimeoutMs: 180_000,
      keep: argv.includes('--keep'),
    };
  }
  return {
    quick,
    only,
    mainTools: 1000,
    growth: full ? [100, 1000, 5000] : [100, 1000],
    // The issue measures P4 at 1,000 tools; the 1,000-tool project of P2/P3 is reused.
    p4Tools: 1000,
    micro: { rounds: 5, time: 600, warmupTime: 200, batch: 50 },
    childRuns: 5,
    p4Runs: 3,
    generateTimeoutMs: full ? 0 : (timeoutArg ?? 240_000),
    keep: argv.includes('--keep'),
  };
}

const CALL_CONTEXT = {
  gmiId: 'bench',
  personaId: 'bench',
  personaCapabilities: [] as string[],
  userContext: { userId: 'bench' },
};

/** P1: processToolCall of a trivial tool, toolsmith vs AgentOS's ToolOrchestrator, same tool class. */
async function measureP1(small: BenchProject, plan: Plan): Promise<Row> {
  const runtime = await import(pathToFileURL(small.distRuntime).href);
  const { AddNumbersTool } = await import(
    pathToFileURL(path.join(small.root, 'dist', 'src', 'tools', 'add-numbers.js')).href
  );
  const agentosTools = await import('@framers/agentos/core/tools');
  const toolsmith = new runtime.ToolOrchestrator({ tools: [new AddNumbersTool()] });
  const call = (orchestrator: {
    processToolCall: (details: never) => Promise<{ isError: boolean; output: unknown }>;
  }) =>
    orchestrator.processToolCall({
      toolCallRequest: { id: 'call-1', name: 'add_numbers', arguments: { a: 1, b: 2 } },
      ...CALL_CONTEXT,
    } as never);
  return withSilentConsole(async () => {
    const permissions = new agentosTools.ToolPermissionManager();
    await permissions.initialize({ strictCapabilityChecking: false, logToolCalls: false });
    const agentos = new agentosTools.ToolOrchestrator();
    await agentos.initialize({ logToolCalls: false } as never, permissions, new agentosTools.ToolExecutor(), [
      new AddNumbersTool(),
    ]);
    // AgentOS as shipped logs every call (logToolCalls defaults to true); console is silenced for both.
    const agentosDefault = new agentosTools.ToolOrchestrator();
    await agentosDefault.initialize(undefined, permissions, new agentosTools.ToolExecutor(), [new AddNumbersTool()]);
    const check = {
      toolsmith: await call(toolsmith),
      agentos: await call(agentos as never),
      agentosDefault: await call(agentosDefault as never),
    };
    for (const [side, result] of Object.entries(check)) {
      if (result.isError || (result.output as { sum?: number }).sum !== 3)
        throw new Error(`P1: the ${side} call failed: ${JSON.stringify(result)}`);
    }
    // The floor any validating orchestrator pays here: copy the arguments, validate them, await the
    // tool, validate a copy of its output, build the result — no lookup, checks or bookkeeping.
    const bare = new AddNumbersTool();
    const validators = bare.validators as { input: (data: unknown) => boolean; output: (data: unknown) => boolean };
    const floor = async (details: {
      toolCallRequest: { id: string; name: string; arguments: Record<string, unknown> };
    }) => {
      const args = { ...details.toolCallRequest.arguments };
      if (!validators.input(args)) throw new Error('P1 floor: invalid input');
      const result = await bare.execute(args, CALL_CONTEXT as never);
      const output = { ...(result.output as object) };
      if (!validators.output(output)) throw new Error('P1 floor: invalid output');
      return { toolCallId: details.toolCallRequest.id, toolName: details.toolCallRequest.name, output, isError: false };
    };
    const micro = await compareMicro(
      {
        toolsmith: () => call(toolsmith),
        agentos: () => call(agentos as never),
        agentosDefault: () => call(agentosDefault as never),
        floor: () =>
          floor({ toolCallRequest: { id: 'call-1', name: 'add_numbers', arguments: { a: 1, b: 2 } }, ...CALL_CONTEXT }),
      },
      plan.micro,
    );
    const ratio = roundRatio(micro, 'toolsmith', 'agentos');
    return {
      ratio,
      target: '<= 0.45 (goal 0.15)',
      pass: ratio <= 0.45,
      detail: {
        toolsmithMicrosecondsPerCall: median(micro.toolsmith!),
        agentosMicrosecondsPerCall: median(micro.agentos!),
        speedup: 1 / ratio,
        agentosDefaultConfigMicrosecondsPerCall: median(micro.agentosDefault!),
        ratioVsAgentosDefaultConfig: roundRatio(micro, 'toolsmith', 'agentosDefault'),
        floorMicrosecondsPerCall: median(micro.floor!),
        floorRatio: roundRatio(micro, 'floor', 'agentos'),
        rounds: micro,
        note: 'same generated AddNumbersTool class on both sides; the ratio is against AgentOS at its fastest (logToolCalls: false); ratioVsAgentosDefaultConfig is against AgentOS as shipped (logToolCalls: true); console silenced for every side; floor = copy + validate input, await execute, copy + validate output, result object, with nothing else (what any validating orchestrator pays), floorRatio = floor / AgentOS',
      },
    };
  });
}

/** P5: validation throughput of the generated standalone validator vs zod 4 and runtime-compiled Ajv. */
async function measureP5(small: BenchProject, plan: Plan): Promise<Row> {
  const module = await import(
    pathToFileURL(path.join(small.root, 'dist', 'generated', 'validators', 'create-order.js')).href
  );
  const generated = module.validateCreateOrderInput as (data: unknown) => boolean;
  const { AJV_OPTIONS } = (await import(pathToFileURL(small.distRuntime).href)) as { AJV_OPTIONS: AjvOptions };
  const ajv = new Ajv({ ...AJV_OPTIONS });
  addFormats(ajv);
  const bundled = small.result.project.tools.find((tool) => tool.name === 'create_order')!.inputSchema;
  const runtimeAjv = ajv.compile(bundled as object);
  const agreement = {
    generated: [generated(validOrder()), generated(invalidOrder())],
    ajv: [runtimeAjv(validOrder()), runtimeAjv(invalidOrder())],
    zod: [createOrderZod.safeParse(validOrder()).success, createOrderZod.safeParse(invalidOrder()).success],
  };
  for (const [side, [valid, invalid]] of Object.entries(agreement)) {
    if (valid !== true || invalid !== false)
      throw new Error(`P5: ${side} does not accept the valid order and reject the invalid one`);
  }
  const data = { generated: validOrder(), zod: validOrder(), ajv: validOrder() };
  const bad = { generated: invalidOrder(), zod: invalidOrder(), ajv: invalidOrder() };
  // Nine rounds at least: both validators are the same code, so the ratio sits near 1 and the target
  // (>= 0.95) is within one noisy round of it.
  const micro = {
    ...plan.micro,
    rounds: plan.quick ? plan.micro.rounds : Math.max(plan.micro.rounds, 9),
    batch: plan.micro.batch * 20,
  };
  const valid = await compareMicro(
    {
      generated: () => generated(data.generated),
      zod: () => createOrderZod.safeParse(data.zod),
      ajv: () => runtimeAjv(data.ajv),
    },
    micro,
  );
  const invalid = await compareMicro(
    {
      generated: () => generated(bad.generated),
      zod: () => createOrderZod.safeParse(bad.zod),
      ajv: () => runtimeAjv(bad.ajv),
    },
    { ...micro, rounds: Math.max(1, Math.ceil(micro.rounds / 2)) },
  );
  // Throughput ratio = time of the peer / time of the generated validator.
  const vsZod = roundRatio(valid, 'zod', 'generated');
  const vsAjv = roundRatio(valid, 'ajv', 'generated');
  return {
    ratio: vsZod,
    target: '>= 2.5 vs zod; >= 0.95 vs Ajv',
    pass: vsZod >= 2.5 && vsAjv >= 0.95,
    detail: {
      vsZod,
      vsAjv,
      passVsZod: vsZod >= 2.5,
      passVsAjv: vsAjv >= 0.95,
      microsecondsPerValidation: {
        generated: median(valid.generated!),
        zod: median(valid.zod!),
        ajv: median(valid.ajv!),
      },
      invalidInput: {
        microsecondsPerValidation: {
          generated: median(invalid.generated!),
          zod: median(invalid.zod!),
          ajv: median(invalid.ajv!),
        },
        vsZod: roundRatio(invalid, 'zod', 'generated'),
        vsAjv: roundRatio(invalid, 'ajv', 'generated'),
      },
      schema:
        'create_order input (bench/fixtures.ts): 3 nested objects, array of 3 objects, uuid/email/date formats, 3 patterns, enums, defaults, uniqueItems',
      note: 'generated and Ajv validate in place (coerceTypes, useDefaults, allErrors); zod safeParse builds a new object',
    },
  };
}

/** What one corpus size measured. */
interface ScaleResult {
  tools: number;
  /** `toolsmith generate` into an empty folder with no cache, ms. */
  fullMs?: number;
  /** What the CLI printed. */
  generateSummary?: string;
  files?: number;
  generatePeakMb?: number;
  /** Sizes of the generated validator modules, KB per tool. */
  validatorKb?: { median: number; max: number; mean: number; totalMb: number; count: number; sharedKb?: number };
  /** Set when the generate child did not finish (deadline, out of memory). */
  generateFailed?: { reason: string; afterMs: number; timedOut: boolean; stderrTail: string };
  compileMs?: number;
  typeErrors?: number;
  jsonSchemaToTypescriptMs?: number;
  /** The hand-written pipeline (json-schema-to-typescript + Ajv standalone + write, per tool), ms and peak RSS. */
  pipelineMs?: number;
  pipelinePeakMb?: number;
  /** `toolsmith check` of the freshly generated project (no cache), ms and peak RSS. */
  checkMs?: number;
  checkPeakMb?: number;
  checkFailed?: string;
  /** P3d: full generates with the token report (the first one is the full generate above) and without, ms. */
  tokenReport?: { withMs: number[]; withoutMs: number[] };
  /** Why P3d has no figure (a generate child of its own that failed). */
  tokenReportFailed?: string;
  startup?: {
    toolsmithFirstCallMs: number;
    ajvFirstCallMs: number;
    emptyNodeMs: number;
    toolsmithPeakMb: number;
    ajvPeakMb: number;
    emptyNodePeakMb: number;
    toolsmithBreakdownMs: { boot: number; import: number; register: number; firstCall: number };
    ajvCompileMs: number;
    wallMs: { toolsmith: number; ajv: number; emptyNode: number };
    runs: { toolsmith: unknown[]; ajv: unknown[]; emptyNode: unknown[] };
  };
  incremental?: {
    unchangedMs: number;
    oneChangedMs: number;
    fullMs: number;
    runs: { unchangedMs: number[]; oneChangedMs: number[] };
    summaries: Record<string, unknown>;
  };
  notes: string[];
}

const GENERATE_CHILD = path.join(CHILDREN, 'generate.ts');
/** A large heap cap, so the largest corpus (`--full`) measures the generator's peak instead of ending at Node's default heap limit. */
const GENERATE_NODE_ARGS = ['--max-old-space-size=8192', '--import', 'tsx'];

async function measureScale(
  tools: number,
  root: string,
  warmupRoot: string,
  plan: Plan,
  needs: { startup: boolean; p3: boolean; p3d: boolean; p4: boolean; pipeline: boolean; check: boolean },
): Promise<ScaleResult> {
  log(
    `  ${tools} tools: corpus + full generate (child process, deadline ${plan.generateTimeoutMs ? `${plan.generateTimeoutMs / 1000} s` : 'none'})…`,
  );
  const project = prepareProject({ root, count: tools });
  const out: ScaleResult = { tools, notes: project.notes };
  try {
    const { report } = await runChild(
      [...GENERATE_NODE_ARGS, GENERATE_CHILD, 'toolsmith', root, warmupRoot, 'finish'],
      REPO_ROOT,
      plan.generateTimeoutMs,
    );
    out.fullMs = report.ms as number;
    out.files = report.files as number;
    out.generatePeakMb = report.peakMb as number;
    out.generateSummary = report.summary as string;
    out.validatorKb = report.validatorKb as ScaleResult['validatorKb'];
    log(
      `  ${tools} tools: full generate ${fmt(out.fullMs / 1000)} s (${out.files} files, peak RSS ${fmt(out.generatePeakMb)} MB)`,
    );
  } catch (error) {
    if (!(error instanceof ChildFailedError)) throw error;
    out.generateFailed = {
      reason: error.message.split('\n')[0]!,
      afterMs: error.wallMs,
      timedOut: error.timedOut,
      stderrTail: error.message.split('\n').slice(1).join('\n').slice(-600),
    };
    log(`  ${tools} tools: generate ${out.generateFailed.reason} (after ${fmt(error.wallMs / 1000)} s)`);
  }
  if (needs.p3d && out.generateFailed === undefined) await measureTokenReport(root, warmupRoot, plan, out);
  if (needs.check && out.generateFailed === undefined) {
    try {
      const { report } = await runChild(
        [...GENERATE_NODE_ARGS, GENERATE_CHILD, 'check', root, warmupRoot],
        REPO_ROOT,
        plan.generateTimeoutMs,
      );
      out.checkMs = report.ms as number;
      out.checkPeakMb = report.peakMb as number;
      log(`  ${tools} tools: toolsmith check ${fmt(out.checkMs / 1000)} s (peak RSS ${fmt(out.checkPeakMb)} MB)`);
    } catch (error) {
      if (!(error instanceof ChildFailedError)) throw error;
      out.checkFailed = error.message.split('\n')[0]!;
      log(`  ${tools} tools: check ${out.checkFailed}`);
    }
  }
  if (needs.pipeline) {
    const { report } = await runChild([...GENERATE_NODE_ARGS, GENERATE_CHILD, 'pipeline', root, warmupRoot], REPO_ROOT);
    out.pipelineMs = report.ms as number;
    out.pipelinePeakMb = report.peakMb as number;
    log(
      `  ${tools} tools: hand-written pipeline (json-schema-to-typescript + Ajv standalone + write) ${fmt(out.pipelineMs / 1000)} s (peak RSS ${fmt(out.pipelinePeakMb)} MB)`,
    );
  }
  if (needs.p3) {
    const { report } = await runChild([...GENERATE_NODE_ARGS, GENERATE_CHILD, 'j2t', root, warmupRoot], REPO_ROOT);
    out.jsonSchemaToTypescriptMs = report.ms as number;
    log(
      `  ${tools} tools: json-schema-to-typescript ${fmt(out.jsonSchemaToTypescriptMs / 1000)} s (${report.schemas} schemas)`,
    );
  }
  if (out.generateFailed === undefined) {
    if (needs.startup) {
      const compiled = compileProject(root);
      out.compileMs = compiled.compileMs;
      out.typeErrors = compiled.typeErrors;
      out.startup = await measureStartup(project, plan);
    }
    if (needs.p4) {
      log(
        `  ${tools} tools: P4 generate with nothing changed, then with one tool changed (${plan.p4Runs} runs each, median)…`,
      );
      // Each run a cold child (warmed up on the small project), like the full generate.
      const generateOnce = () =>
        runChild(
          [...GENERATE_NODE_ARGS, GENERATE_CHILD, 'toolsmith', root, warmupRoot],
          REPO_ROOT,
          plan.generateTimeoutMs,
        );
      const unchanged: Awaited<ReturnType<typeof runChild>>[] = [];
      for (let run = 0; run < plan.p4Runs; run++) unchanged.push(await generateOnce());
      const changed = project.corpus.tools[Math.floor(tools / 2)]!;
      const file = path.join(project.corpus.dir, changed.file);
      const original = JSON.parse(readFileSync(file, 'utf8')) as { description: string };
      const oneChanged: Awaited<ReturnType<typeof runChild>>[] = [];
      for (let run = 0; run < plan.p4Runs; run++) {
        // The same tool changes again before each run: every run regenerates exactly one tool.
        writeFileSync(
          file,
          `${JSON.stringify({ ...original, description: `${original.description} Changed for the incremental benchmark (${run + 1}).` }, null, 2)}\n`,
        );
        oneChanged.push(await generateOnce());
      }
      const ms = (list: typeof unchanged) => list.map((run) => run.report.ms as number);
      out.incremental = {
        unchangedMs: median(ms(unchanged)),
        oneChangedMs: median(ms(oneChanged)),
        fullMs: out.fullMs!,
        runs: { unchangedMs: ms(unchanged), oneChangedMs: ms(oneChanged) },
        summaries: {
          full: out.generateSummary,
          unchanged: unchanged.at(-1)!.report.summary,
          oneChanged: oneChanged.at(-1)!.report.summary,
        },
      };
      log(
        `  ${tools} tools: unchanged ${fmt(out.incremental.unchangedMs / 1000)} s, one changed ${fmt(out.incremental.oneChangedMs / 1000)} s, full ${fmt(out.fullMs! / 1000)} s`,
      );
    }
  }
  if (!plan.keep) rmSync(root, { recursive: true, force: true });
  return out;
}

/**
 * P3d: the full generate above (token report on) against the same with `manifests.tokenReport: false`,
 * alternating: without, then with again, each a cold child under a config of its own
 * (`p3d-<side>.config.json`, the project's with its own output and stubs folders under `p3d/<side>/`),
 * its output, stubs and cache removed first so that every run is a full generate. Two generates more.
 */
async function measureTokenReport(root: string, warmupRoot: string, plan: Plan, out: ScaleResult): Promise<void> {
  const base = JSON.parse(readFileSync(path.join(root, 'toolsmith.config.json'), 'utf8')) as Record<string, unknown>;
  const runs = { withMs: [out.fullMs!], withoutMs: [] as number[] };
  log(`  ${out.tools} tools: P3d full generate without the token report, then with it again…`);
  try {
    for (const side of ['without', 'with'] as const) {
      const folder = path.join(root, 'p3d', side);
      const outDir = path.join(folder, 'generated');
      for (const stale of [folder, cacheFile(root, outDir)])
        if (stale !== undefined) rmSync(stale, { recursive: true, force: true });
      const config = `p3d-${side}.config.json`;
      writeFileSync(
        path.join(root, config),
        `${JSON.stringify({ ...base, out: `p3d/${side}/generated`, stubs: `p3d/${side}/src/tools`, ...(side === 'without' ? { manifests: { tokenReport: false } } : {}) }, null, 2)}\n`,
      );
      const { report } = await runChild(
        [...GENERATE_NODE_ARGS, GENERATE_CHILD, 'toolsmith', root, warmupRoot, '--config', config],
        REPO_ROOT,
        plan.generateTimeoutMs,
      );
      // Each side did what it is named for.
      if (existsSync(path.join(outDir, 'manifests', 'token-report.json')) !== (side === 'with'))
        throw new Error(`P3d: the generate ${side} the token report wrote ${side === 'with' ? 'none' : 'one'}`);
      (side === 'with' ? runs.withMs : runs.withoutMs).push(report.ms as number);
      log(`  ${out.tools} tools: full generate ${side} the token report ${fmt((report.ms as number) / 1000)} s`);
    }
    out.tokenReport = runs;
  } catch (error) {
    if (!(error instanceof ChildFailedError)) throw error;
    out.tokenReportFailed = error.message.split('\n')[0]!;
    log(`  ${out.tools} tools: P3d generate ${out.tokenReportFailed}`);
  }
}

/** P2/P6 children: toolsmith's generated registry vs Ajv compiling the same schemas, and bare node. */
async function measureStartup(project: PreparedProject, plan: Plan): Promise<NonNullable<ScaleResult['startup']>> {
  const target = project.corpus.tools.find((tool) => tool.sampleOutput !== undefined) ?? project.corpus.tools[0]!;
  const args = JSON.stringify(target.sampleInput);
  const paths = projectPaths(project.root);
  const runs = {
    toolsmith: [] as Awaited<ReturnType<typeof runChild>>[],
    ajv: [] as Awaited<ReturnType<typeof runChild>>[],
    emptyNode: [] as Awaited<ReturnType<typeof runChild>>[],
  };
  for (let run = 0; run < plan.childRuns; run++) {
    runs.emptyNode.push(await runChild([path.join(CHILDREN, 'empty.mjs')], project.root));
    runs.toolsmith.push(
      await runChild(
        [
          path.join(CHILDREN, 'startup-toolsmith.mjs'),
          paths.distRegistry,
          paths.distRuntime,
          target.name,
          args,
          JSON.stringify(target.requiredCapabilities),
        ],
        project.root,
      ),
    );
    runs.ajv.push(
      await runChild(
        [path.join(CHILDREN, 'startup-ajv.mjs'), paths.bundledSchemas, target.name, args, JSON.stringify(AJV_OPTIONS)],
        project.root,
      ),
    );
  }
  for (const [side, list] of Object.entries(runs)) {
    for (const { report } of list)
      if (report.isError === true)
        throw new Error(
          `P2: the ${side} child's first call failed: ${JSON.stringify(report.errorDetails).slice(0, 1000)}`,
        );
  }
  const med = (list: typeof runs.toolsmith, pick: (report: Record<string, unknown>) => number) =>
    median(list.map(({ report }) => pick(report)));
  const result = {
    toolsmithFirstCallMs: med(runs.toolsmith, (r) => r.firstCallMs as number),
    ajvFirstCallMs: med(runs.ajv, (r) => r.firstCallMs as number),
    emptyNodeMs: med(runs.emptyNode, (r) => r.firstCallMs as number),
    toolsmithPeakMb: med(runs.toolsmith, (r) => r.peakMb as number),
    ajvPeakMb: med(runs.ajv, (r) => r.peakMb as number),
    emptyNodePeakMb: med(runs.emptyNode, (r) => r.peakMb as number),
    toolsmithBreakdownMs: {
      boot: med(runs.toolsmith, (r) => r.bootMs as number),
      import: med(runs.toolsmith, (r) => r.importMs as number),
      register: med(runs.toolsmith, (r) => r.registerMs as number),
      firstCall: med(runs.toolsmith, (r) => r.callMs as number),
    },
    ajvCompileMs: med(runs.ajv, (r) => r.compileMs as number),
    wallMs: {
      toolsmith: median(runs.toolsmith.map((run) => run.wallMs)),
      ajv: median(runs.ajv.map((run) => run.wallMs)),
      emptyNode: median(runs.emptyNode.map((run) => run.wallMs)),
    },
    runs: {
      toolsmith: runs.toolsmith.map((run) => run.report),
      ajv: runs.ajv.map((run) => run.report),
      emptyNode: runs.emptyNode.map((run) => run.report),
    },
  };
  log(
    `  ${project.corpus.tools.length} tools: first validated call ${fmt(result.toolsmithFirstCallMs)} ms (toolsmith) vs ${fmt(result.ajvFirstCallMs)} ms (Ajv); peak RSS ${fmt(result.toolsmithPeakMb)} MB`,
  );
  return result;
}

/** Why a measure that needs the full generate was not taken. */
const generateNotFinished = (scale: ScaleResult) =>
  `generate ${scale.generateFailed!.reason} (after ${Math.round(scale.generateFailed!.afterMs / 1000)} s)`;

/** A row for a measure the run could not take because generation did not finish at that size. */
function notMeasured(target: string, scale: ScaleResult, extra: Record<string, unknown> = {}): Row {
  return {
    ratio: null as unknown as number,
    target,
    pass: false,
    detail: {
      tools: scale.tools,
      notMeasured: generateNotFinished(scale),
      generateFailed: scale.generateFailed,
      ...extra,
    },
  };
}

/** Per-size figures of the growth table, keyed by size; `null` where a size did not measure them. */
type Growth = (pick: (scale: ScaleResult) => unknown) => Record<string, unknown>;

/** The rows that come from the corpus sizes (every measure but P1, P5 and P8). */
function rowsFromScales(scales: ScaleResult[], plan: Plan): Partial<Record<Id, Row>> {
  const rows: Partial<Record<Id, Row>> = {};
  const main = scales.find((scale) => scale.tools === plan.mainTools);
  const p4 = scales.find((scale) => scale.tools === plan.p4Tools);
  const growth: Growth = (pick) =>
    Object.fromEntries(
      scales
        .filter((scale) => plan.growth.includes(scale.tools))
        .map((scale) => [String(scale.tools), pick(scale) ?? null]),
    );
  if (plan.only.has('P2') && main) rows.P2 = rowP2(main, growth);
  for (const id of VERSUS_IDS) {
    const spec = VERSUS[id];
    if (plan.only.has(id) && main && spec.baselineMs(main) !== undefined) rows[id] = versusRow(spec, main, growth);
  }
  if (plan.only.has('P3d') && main) rows.P3d = rowP3d(main);
  if (plan.only.has('P7') && main) rows.P7 = rowP7(main, scales);
  if (plan.only.has('P4') && p4) rows.P4 = rowP4(p4);
  if (plan.only.has('P6') && main) rows.P6 = rowP6(main, growth);
  return rows;
}

function rowP2(main: ScaleResult, growth: Growth): Row {
  const s = main.startup;
  if (!s) return notMeasured('<= 0.02', main);
  const ratio = s.toolsmithFirstCallMs / s.ajvFirstCallMs;
  return {
    ratio,
    target: '<= 0.02',
    pass: ratio <= 0.02,
    detail: {
      tools: main.tools,
      toolsmithFirstCallMs: s.toolsmithFirstCallMs,
      ajvFirstCallMs: s.ajvFirstCallMs,
      emptyNodeMs: s.emptyNodeMs,
      ratioWithoutNodeBoot: (s.toolsmithFirstCallMs - s.emptyNodeMs) / (s.ajvFirstCallMs - s.emptyNodeMs),
      toolsmithBreakdownMs: s.toolsmithBreakdownMs,
      ajvCompileMs: s.ajvCompileMs,
      toolsmithMsPerTool: s.toolsmithFirstCallMs / main.tools,
      ajvMsPerTool: s.ajvFirstCallMs / main.tools,
      wallMs: s.wallMs,
      typeErrorsInCompiledProject: main.typeErrors,
      growth: growth(
        (scale) =>
          scale.startup && {
            toolsmithFirstCallMs: scale.startup.toolsmithFirstCallMs,
            ajvFirstCallMs: scale.startup.ajvFirstCallMs,
            ratio: scale.startup.toolsmithFirstCallMs / scale.startup.ajvFirstCallMs,
          },
      ),
      method:
        'child processes on plain node (project compiled by tsc); time from process start (performance.timeOrigin) to the resolved processToolCall of one tool through a ToolOrchestrator holding every generated tool vs loading the same bundled schemas from one JSON file and compiling all of them (input and output) with Ajv, then validating one input',
      runs: s.runs,
    },
  };
}

const PIPELINE_METHOD =
  "one run per size in a cold child process (after a warm-up on the 2-tool project), --max-old-space-size=8192; toolsmith = the CLI command (every artifact); the hand-written pipeline = per tool json-schema-to-typescript compile() with default options (prettier on) on both schemas, one Ajv (the generated validators' options, x- keywords allowed, shared schemas added once under their file URLs) standalone ESM module of both validators, both files written (bench/children/generate.ts handWrittenPipeline)";

/** P3, P3b, P3c: the time of a toolsmith command over a baseline's, on the same corpus in the same run. */
interface VersusSpec {
  /** The table's measure, for a corpus of `tools`. */
  measure: (tools: number) => string;
  /** Upper bound of the ratio; undefined: the figure is reported, not judged. */
  limit?: number;
  /** Where the ratio should go in time; the row passes on `limit`. */
  goal?: number;
  /** The detail keys' prefix for toolsmith's side (`toolsmithMs`, `checkMs`, `…MsPerTool`). */
  side: 'toolsmith' | 'check';
  /** The detail keys' prefix for the baseline (`pipelineMs`, `jsonSchemaToTypescriptMs`, `…MsPerTool`). */
  baseline: 'pipeline' | 'jsonSchemaToTypescript';
  /** toolsmith's time, ms; undefined when it did not finish. */
  ms: (scale: ScaleResult) => number | undefined;
  baselineMs: (scale: ScaleResult) => number | undefined;
  /** Why toolsmith's side has no time. */
  whyNotMeasured: (scale: ScaleResult) => string;
  /** Detail only this row carries. */
  extra: (scale: ScaleResult) => Record<string, unknown>;
  /** Whether the row carries the per-size figures of the growth table. */
  growth: boolean;
  method: string;
}

const VERSUS_IDS = ['P3', 'P3b', 'P3c'] as const;

const VERSUS: Record<(typeof VERSUS_IDS)[number], VersusSpec> = {
  P3: {
    measure: (tools) => `full generate, ${tools} tools: toolsmith / hand-written pipeline`,
    limit: 1.1,
    goal: 0.5,
    side: 'toolsmith',
    baseline: 'pipeline',
    ms: (scale) => scale.fullMs,
    baselineMs: (scale) => scale.pipelineMs,
    whyNotMeasured: generateNotFinished,
    extra: (scale) => ({ toolsmithSummary: scale.generateSummary, pipelinePeakMb: scale.pipelinePeakMb }),
    growth: true,
    method: `toolsmith generate into an empty folder with no cache; ${PIPELINE_METHOD}`,
  },
  P3b: {
    measure: (tools) => `full generate, ${tools} tools: toolsmith / json-schema-to-typescript alone`,
    side: 'toolsmith',
    baseline: 'jsonSchemaToTypescript',
    ms: (scale) => scale.fullMs,
    baselineMs: (scale) => scale.jsonSchemaToTypescriptMs,
    whyNotMeasured: generateNotFinished,
    extra: (scale) => ({
      toolsmithSummary: scale.generateSummary,
      toolsmithGeneratePeakMb: scale.generatePeakMb,
      filesWritten: scale.files,
    }),
    growth: true,
    method:
      'one run per size in a cold child process (after a warm-up generate of the 2-tool project), --max-old-space-size=8192; toolsmith = the CLI command toolsmith generate (every artifact, written, cache written) into an empty folder with no cache; json-schema-to-typescript = compile() with default options (prettier on) on every input and output schema, in the same kind of child',
  },
  P3c: {
    measure: (tools) => `toolsmith check, ${tools} tools, no cache / hand-written pipeline`,
    limit: 0.5,
    side: 'check',
    baseline: 'pipeline',
    ms: (scale) => scale.checkMs,
    baselineMs: (scale) => scale.pipelineMs,
    whyNotMeasured: (scale) =>
      scale.checkFailed ?? (scale.generateFailed ? `generate ${scale.generateFailed.reason}` : 'check did not run'),
    extra: (scale) => ({ checkPeakMb: scale.checkPeakMb }),
    growth: false,
    method: `toolsmith check (never reads the cache: every file emitted and compared) in the project just generated; ${PIPELINE_METHOD}`,
  },
};

/** A `VersusSpec` row; a ratio past the limit misses, a spec without a limit only reports. */
function versusRow(spec: VersusSpec, main: ScaleResult, growth: Growth): Row {
  const goal = spec.goal === undefined ? '' : ` (goal ${spec.goal})`;
  const target = spec.limit === undefined ? 'report' : `<= ${spec.limit.toFixed(2)}${goal}`;
  const judged = (ratio: number) => (spec.limit === undefined ? {} : { pass: ratio <= spec.limit });
  const baselineMs = spec.baselineMs(main)!;
  const ms = spec.ms(main);
  const baselineKey = `${spec.baseline}Ms`;
  if (ms === undefined) {
    // A generate that did not finish ran at least this long: a lower bound on the ratio.
    const lowerBound =
      spec.side === 'toolsmith' && main.generateFailed
        ? { ratioAtLeast: main.generateFailed.afterMs / baselineMs }
        : {};
    return {
      ratio: null as unknown as number,
      target,
      ...(spec.limit === undefined ? {} : { pass: false }),
      detail: {
        tools: main.tools,
        notMeasured: spec.whyNotMeasured(main),
        ...(spec.side === 'toolsmith' ? { generateFailed: main.generateFailed } : {}),
        ...lowerBound,
        [baselineKey]: baselineMs,
        method: spec.method,
      },
    };
  }
  const ratio = ms / baselineMs;
  const versus = (scale: ScaleResult) => {
    const [mine, theirs] = [spec.ms(scale), spec.baselineMs(scale)];
    return (
      mine !== undefined &&
      theirs !== undefined && {
        [`${spec.side}MsPerTool`]: mine / scale.tools,
        [`${spec.baseline}MsPerTool`]: theirs / scale.tools,
        ratio: mine / theirs,
      }
    );
  };
  return {
    ratio,
    target,
    ...judged(ratio),
    detail: {
      tools: main.tools,
      [`${spec.side}Ms`]: ms,
      [baselineKey]: baselineMs,
      ...spec.extra(main),
      [`${spec.side}MsPerTool`]: ms / main.tools,
      [`${spec.baseline}MsPerTool`]: baselineMs / main.tools,
      ...(spec.growth ? { growth: growth(versus) } : {}),
      method: spec.method,
    },
  };
}

function rowP7(main: ScaleResult, scales: ScaleResult[]): Row {
  const targets: Record<number, number> = { 1000: 500, 5000: 600 };
  const sizes = scales.filter((scale) => targets[scale.tools] !== undefined);
  const at = (scale: ScaleResult) => scale.generatePeakMb;
  const value = at(main);
  return {
    ...(value === undefined ? {} : { value }),
    target: '<= 500 MB at 1,000 tools; <= 600 MB at 5,000',
    pass: sizes.length > 0 && sizes.every((scale) => at(scale) !== undefined && at(scale)! <= targets[scale.tools]!),
    detail: {
      tools: main.tools,
      peakMb: Object.fromEntries(scales.map((scale) => [String(scale.tools), at(scale) ?? null])),
      checkPeakMb: main.checkPeakMb,
      validatorKbPerTool: main.validatorKb,
      method:
        'VmHWM of the full-generate child (toolsmith generate into an empty folder, no cache, --max-old-space-size=8192; after a warm-up check of the 2-tool project); 5,000 tools only with --full',
    },
  };
}

/** P3d: what the token report adds to a full generate (its counting, its file, the totals in two more). */
function rowP3d(main: ScaleResult): Row {
  const target = '<= 1.10';
  if (main.generateFailed) return notMeasured(target, main);
  if (!main.tokenReport)
    return {
      ratio: null as unknown as number,
      target,
      pass: false,
      detail: { tools: main.tools, notMeasured: `generate ${main.tokenReportFailed}` },
    };
  const withMs = median(main.tokenReport.withMs);
  const withoutMs = median(main.tokenReport.withoutMs);
  const ratio = withMs / withoutMs;
  return {
    ratio,
    target,
    pass: ratio <= 1.1,
    detail: {
      tools: main.tools,
      withMs,
      withoutMs,
      tokenReportMs: withMs - withoutMs,
      runs: main.tokenReport,
      method:
        "cold children (after a warm-up check of the 2-tool project), alternating: P3's full generate (token report on), one with `manifests.tokenReport: false`, one with it on again, each of the last two into an empty output folder of its own with no cache; the medians of each side",
    },
  };
}

function rowP4(p4: ScaleResult): Row {
  if (!p4.incremental) return notMeasured('<= 0.03 unchanged; <= 0.05 one changed', p4);
  const unchanged = p4.incremental.unchangedMs / p4.incremental.fullMs;
  const oneChanged = p4.incremental.oneChangedMs / p4.incremental.fullMs;
  return {
    ratio: unchanged,
    target: '<= 0.03 unchanged; <= 0.05 one changed',
    pass: unchanged <= 0.03 && oneChanged <= 0.05,
    detail: {
      tools: p4.tools,
      unchangedRatio: unchanged,
      oneChangedRatio: oneChanged,
      ...p4.incremental,
      note:
        p4.tools === 1000
          ? undefined
          : `measured at ${p4.tools} tools (a --quick run); the issue's measure is at 1,000`,
    },
  };
}

function rowP6(main: ScaleResult, growth: Growth): Row {
  if (!main.startup) return notMeasured('<= 60 MB', main);
  const value = main.startup.toolsmithPeakMb;
  return {
    value,
    target: '<= 60 MB',
    pass: value <= 60,
    detail: {
      tools: main.tools,
      toolsmithPeakMb: value,
      ajvBaselinePeakMb: main.startup.ajvPeakMb,
      emptyNodePeakMb: main.startup.emptyNodePeakMb,
      toolsmithAboveEmptyNodeMb: value - main.startup.emptyNodePeakMb,
      growth: growth(
        (scale) =>
          scale.startup && { toolsmithPeakMb: scale.startup.toolsmithPeakMb, ajvPeakMb: scale.startup.ajvPeakMb },
      ),
      method:
        'VmHWM of the P2 toolsmith child after its first call (registry of every tool loaded, orchestrator built)',
    },
  };
}

const fmt = (value: number, digits = value >= 100 ? 0 : value >= 10 ? 1 : 2) => value.toFixed(digits);
const log = (text: string) => process.stderr.write(`${text}\n`);

/** `pass` or `MISS`; `-` for a row that is reported, not judged. */
const mark = (pass: boolean | undefined) => (pass === undefined ? '-' : pass ? 'pass' : 'MISS');
const d = (row: Row) => row.detail as Record<string, never>;

/** A table line for a measure that was not taken: its lower bound when one is known, else DNF. */
function notMeasuredLine(id: Id, measure: string, row: Row): string[] {
  const detail = d(row) as Record<string, unknown>;
  const bound = typeof detail.ratioAtLeast === 'number' ? `>= ${fmt(detail.ratioAtLeast)}` : 'DNF';
  return [id, measure, bound, row.target, mark(row.pass), String(detail.notMeasured)];
}

function versusLines(id: (typeof VERSUS_IDS)[number], row: Row): string[][] {
  const spec = VERSUS[id];
  const measure = spec.measure(d(row).tools);
  if (d(row).notMeasured) return [notMeasuredLine(id, measure, row)];
  const [mine, theirs] = [d(row)[`${spec.side}MsPerTool`], d(row)[`${spec.baseline}MsPerTool`]];
  return [[id, measure, fmt(row.ratio!, 3), row.target, mark(row.pass), `${fmt(mine)} vs ${fmt(theirs)} ms per tool`]];
}

/** The result table's lines of each measure, in the table's order. */
const TABLE_LINES: [Id, (row: Row) => string[][]][] = [
  [
    'P1',
    (row) => [
      [
        'P1',
        'processToolCall, trivial tool: toolsmith / AgentOS',
        fmt(row.ratio!, 3),
        row.target,
        mark(row.pass),
        `${fmt(d(row).toolsmithMicrosecondsPerCall)} µs vs ${fmt(d(row).agentosMicrosecondsPerCall)} µs per call (floor ${fmt(d(row).floorMicrosecondsPerCall)} µs)`,
      ],
    ],
  ],
  [
    'P2',
    (row) => {
      const measure = `start → first validated call, ${d(row).tools} tools: generated / Ajv compile`;
      if (d(row).notMeasured) return [notMeasuredLine('P2', measure, row)];
      return [
        [
          'P2',
          measure,
          fmt(row.ratio!, 3),
          row.target,
          mark(row.pass),
          `${fmt(d(row).toolsmithFirstCallMs)} ms vs ${fmt(d(row).ajvFirstCallMs)} ms (bare node ${fmt(d(row).emptyNodeMs)} ms)`,
        ],
      ];
    },
  ],
  ['P3', (row) => versusLines('P3', row)],
  ['P3b', (row) => versusLines('P3b', row)],
  ['P3c', (row) => versusLines('P3c', row)],
  [
    'P3d',
    pairedSecondsLines('P3d', (x) => `full generate, token report on / off (${x.tools} tools)`, [
      'withMs',
      'withoutMs',
    ]),
  ],
  [
    'P3e',
    pairedSecondsLines(
      'P3e',
      (x) => `full generate of a ${x.megabytes} MB one-word description, token report on / off`,
      ['withMs', 'withoutMs'],
    ),
  ],
  [
    'P3f',
    pairedSecondsLines('P3f', (x) => `full generate, manifests.hosts every host / none (${x.tools} tools)`, [
      'allMs',
      'noneMs',
    ]),
  ],
  ['P7', p7Lines],
  ['P4', p4Lines],
  ['P5', p5Lines],
  [
    'P6',
    (row) => {
      const measure = `peak RSS, ${d(row).tools}-tool registry ready to call`;
      if (d(row).notMeasured) return [notMeasuredLine('P6', measure, row)];
      return [
        [
          'P6',
          measure,
          `${fmt(row.value!)} MB`,
          row.target,
          mark(row.pass),
          `Ajv baseline ${fmt(d(row).ajvBaselinePeakMb)} MB, bare node ${fmt(d(row).emptyNodePeakMb)} MB`,
        ],
      ];
    },
  ],
  [
    'P9',
    (row) => {
      const detail = d(row) as unknown as { tools: number; changed: number; diffMs: number; noopGenerateMs: number };
      return [
        [
          'P9',
          `toolsmith diff, two ${detail.tools}-tool trees, ${detail.changed} changed (ms; ratio to a no-op generate ${fmt(row.ratio!, 2)})`,
          fmt(row.value!),
          row.target,
          mark(row.pass),
          `${fmt(detail.diffMs)} ms vs no-op generate ${fmt(detail.noopGenerateMs)} ms`,
        ],
      ];
    },
  ],
  ['P8', p8Lines],
  ['P8b', (row) => p8Lines(row, 'P8b', '2026-07-28 calls/s', "v2 SDK's createMcpHandler")],
  [
    'P8c',
    (row) => {
      const detail = d(row) as unknown as { tools: number; toolsmithMs: number; sdkMs: number };
      return [
        [
          'P8c',
          `process start → first tools/list answer, ${detail.tools} tools: toolsmith / v2 SDK McpServer`,
          fmt(row.ratio!, 3),
          row.target,
          mark(row.pass),
          `${fmt(detail.toolsmithMs)} vs ${fmt(detail.sdkMs)} ms`,
        ],
      ];
    },
  ],
  ['P10', p10Lines],
];

function p10Lines(row: Row): string[][] {
  const measure = 'task round trip, tools/call on replica A → tasks/get on replica B (ms; ratio to a plain tools/call)';
  const detail = d(row) as unknown as {
    notMeasured?: string;
    task: { medianMs: number; p99Ms: number; pollsPerRoundTrip: number };
    plain: { medianMs: number; p99Ms: number };
    roundTrips: number;
  };
  if (detail.notMeasured)
    return [['P10', measure, '-', row.target, mark(row.pass), `not measured: ${detail.notMeasured}`]];
  return [
    [
      'P10',
      measure,
      `${fmt(row.value!)} (${fmt(row.ratio!, 2)}×)`,
      row.target,
      mark(row.pass),
      `median ${fmt(detail.task.medianMs)} ms, p99 ${fmt(detail.task.p99Ms)} ms over ${detail.roundTrips}, ${fmt(detail.task.pollsPerRoundTrip)} polls each; plain call median ${fmt(detail.plain.medianMs)} ms, p99 ${fmt(detail.plain.p99Ms)} ms`,
    ],
  ];
}

function p7Lines(row: Row): string[][] {
  const peaks = d(row).peakMb as unknown as Record<string, number | null>;
  const shown = Object.entries(peaks)
    .map(([tools, mb]) => `${tools} tools: ${mb === null ? 'DNF' : `${fmt(mb)} MB`}`)
    .join(', ');
  const validators = d(row).validatorKbPerTool as unknown as
    { median: number; max: number; sharedKb?: number } | undefined;
  return [
    [
      'P7',
      `peak RSS, full generate, ${d(row).tools} tools`,
      row.value === undefined ? 'DNF' : `${fmt(row.value)} MB`,
      row.target,
      mark(row.pass),
      `${shown}${validators ? `; validator module per tool: median ${fmt(validators.median)} KB, max ${fmt(validators.max)} KB${validators.sharedKb ? `, shared module ${fmt(validators.sharedKb)} KB` : ''}` : ''}`,
    ],
  ];
}

/**
 * The line of a row that times one generate against another (P3d, P3e, P3f): the ratio and the two
 * medians in seconds, read from the detail keys `first` and `second`.
 */
function pairedSecondsLines(
  id: Id,
  measure: (detail: Record<string, number>) => string,
  [first, second]: readonly [string, string],
): (row: Row) => string[][] {
  return (row) => {
    const detail = d(row) as Record<string, number>;
    if (detail.notMeasured) return [notMeasuredLine(id, measure(detail), row)];
    const seconds = (key: string) => `${fmt(detail[key]! / 1000)} s`;
    return [
      [id, measure(detail), fmt(row.ratio!, 3), row.target, mark(row.pass), `${seconds(first)} vs ${seconds(second)}`],
    ];
  };
}

function p4Lines(row: Row): string[][] {
  const detail = d(row) as Record<string, number>;
  if (detail.notMeasured)
    return [notMeasuredLine('P4', `generate, nothing changed / one changed / full (${detail.tools} tools)`, row)];
  return [
    [
      'P4',
      `generate, nothing changed / full (${detail.tools} tools)`,
      fmt(detail.unchangedRatio!, 3),
      '<= 0.03',
      mark(detail.unchangedRatio! <= 0.03),
      `${fmt(detail.unchangedMs! / 1000)} s vs ${fmt(detail.fullMs! / 1000)} s`,
    ],
    [
      'P4',
      `generate, one tool changed / full (${detail.tools} tools)`,
      fmt(detail.oneChangedRatio!, 3),
      '<= 0.05',
      mark(detail.oneChangedRatio! <= 0.05),
      `${fmt(detail.oneChangedMs! / 1000)} s vs ${fmt(detail.fullMs! / 1000)} s`,
    ],
  ];
}

function p5Lines(row: Row): string[][] {
  const detail = d(row) as Record<string, never>;
  const us = detail.microsecondsPerValidation as Record<string, number>;
  return [
    [
      'P5',
      'validation throughput: generated / zod 4',
      fmt(detail.vsZod, 2),
      '>= 2.5',
      mark(detail.passVsZod),
      `${fmt(us.generated!)} µs vs ${fmt(us.zod!)} µs per validation`,
    ],
    [
      'P5',
      'validation throughput: generated / runtime Ajv',
      fmt(detail.vsAjv, 2),
      '>= 0.95',
      mark(detail.passVsAjv),
      `${fmt(us.generated!)} µs vs ${fmt(us.ajv!)} µs per validation`,
    ],
  ];
}

function p8Lines(row: Row, id = 'P8', what = 'MCP Streamable HTTP calls/s', baseline = 'SDK McpServer'): string[][] {
  const detail = d(row) as unknown as {
    toolsmith: { callsPerSecond: number; p99Ms: number };
    sdk: { callsPerSecond: number; p99Ms: number };
    connections: number;
  };
  return [
    [
      id,
      `${what}, ${detail.connections} connections: toolsmith / ${baseline}`,
      fmt(row.ratio!, 3),
      row.target,
      mark(row.pass),
      `${fmt(detail.toolsmith.callsPerSecond)} vs ${fmt(detail.sdk.callsPerSecond)} calls/s; p99 ${fmt(detail.toolsmith.p99Ms)} vs ${fmt(detail.sdk.p99Ms)} ms`,
    ],
  ];
}

function printTable(rows: Partial<Record<Id, Row>>, scales: ScaleResult[]): void {
  const lines: string[][] = [['id', 'measure', 'value', 'target', 'result', 'absolute']];
  for (const [id, toLines] of TABLE_LINES) {
    const row = rows[id];
    if (row) lines.push(...toLines(row));
  }
  process.stdout.write(`\n${renderTable(lines)}\n`);
  if (scales.length > 0) process.stdout.write(`\nGrowth\n${renderTable(growthLines(scales))}\n`);
}

/** The growth table: generation and start-up per corpus size. */
function growthLines(scales: ScaleResult[]): string[][] {
  const growth: string[][] = [
    [
      'tools',
      'generate ms/tool',
      'j2t ms/tool',
      'P3b',
      'first call ms (toolsmith)',
      'first call ms (Ajv)',
      'P2',
      'peak MB (toolsmith)',
      'peak MB (Ajv)',
    ],
  ];
  for (const scale of scales) {
    const s = scale.startup;
    const j2t = scale.jsonSchemaToTypescriptMs;
    growth.push([
      String(scale.tools),
      scale.fullMs === undefined
        ? `DNF (${scale.generateFailed?.reason.split(' ').slice(0, 6).join(' ')})`
        : fmt(scale.fullMs / scale.tools),
      j2t === undefined ? '-' : fmt(j2t / scale.tools),
      j2t === undefined || scale.fullMs === undefined ? '-' : fmt(scale.fullMs / j2t, 3),
      s ? fmt(s.toolsmithFirstCallMs) : '-',
      s ? fmt(s.ajvFirstCallMs) : '-',
      s ? fmt(s.toolsmithFirstCallMs / s.ajvFirstCallMs, 3) : '-',
      s ? fmt(s.toolsmithPeakMb) : '-',
      s ? fmt(s.ajvPeakMb) : '-',
    ]);
  }
  return growth;
}

function renderTable(lines: string[][]): string {
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => (line[column] ?? '').length)));
  const render = (line: string[]) => `| ${line.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [
    render(lines[0]!),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...lines.slice(1).map(render),
  ].join('\n');
}

function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    loadAverageAtStart: os.loadavg(),
  };
}

async function main(): Promise<void> {
  const plan = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const meta = machine();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolsmith-bench-'));
  log(`toolsmith bench (${plan.quick ? 'quick' : 'default'}): ${[...plan.only].join(', ')}; scratch folder ${tmp}`);
  const rows: Partial<Record<Id, Row>> = {};
  const scales: ScaleResult[] = [];
  try {
    if (plan.only.has('P8')) rows.P8 = await measureP8(plan);
    if (plan.only.has('P8b')) rows.P8b = await measureP8b(plan);
    if (plan.only.has('P8c')) rows.P8c = await measureP8c(plan);
    if (plan.only.has('P10')) rows.P10 = await measureP10(plan);
    // The small project (P1, P5) also warms the generator up before the timed runs; P8* and P10 need none.
    const onlyHttp = [...plan.only].every((id) => id.startsWith('P8') || id === 'P10');
    if (!onlyHttp) log('small project (add_numbers, create_order): generate + tsc…');
    const small = onlyHttp
      ? undefined
      : await buildProject({
          root: path.join(tmp, 'small'),
          count: 0,
          extraDefinitions: {
            'bench/add_numbers.tool.json': ADD_NUMBERS_TOOL,
            'bench/create_order.tool.json': CREATE_ORDER_TOOL,
          },
        });
    if (plan.only.has('P1')) {
      log('P1: processToolCall, toolsmith vs AgentOS…');
      rows.P1 = await measureP1(small!, plan);
    }
    if (plan.only.has('P5')) {
      log('P5: generated validator vs zod 4 vs runtime Ajv…');
      rows.P5 = await measureP5(small!, plan);
    }
    if (plan.only.has('P3e')) {
      log(`P3e: generate of one tool with a ${plan.quick ? 1 : 10} MB one-word description, token report on / off…`);
      rows.P3e = await measureP3e(plan, tmp, small!);
    }
    if (plan.only.has('P3f')) {
      log(`P3f: full generate of ${plan.mainTools} tools, manifests.hosts every host / none…`);
      rows.P3f = await measureP3f(plan, tmp, small!);
    }
    if (plan.only.has('P9')) {
      log(`P9: toolsmith diff of two ${plan.mainTools}-tool trees, 10 tools changed, vs a no-op generate…`);
      rows.P9 = await measureP9(plan, tmp, small!);
    }
    if (small) scales.push(...(await measureScales(plan, tmp, small)));
    Object.assign(rows, rowsFromScales(scales, plan));
    for (const row of Object.values(rows)) row.detail.mode = plan.quick ? 'quick' : 'default';
  } finally {
    if (!plan.keep) rmSync(tmp, { recursive: true, force: true });
  }
  const elapsedS = (performance.now() - started) / 1000;
  printTable(
    rows,
    scales.filter((scale) => plan.growth.includes(scale.tools)),
  );
  const loadAtStart = (meta.loadAverageAtStart as number[]).map((load) => load.toFixed(1)).join(' ');
  const quickNote = plan.quick ? ' (quick mode: small sizes, one round — a smoke test, not a result)' : '';
  process.stdout.write(
    `\n${meta.cpu} × ${meta.cores}, ${meta.node}; load average at start ${loadAtStart}; ran ${fmt(elapsedS)} s${quickNote}\n`,
  );
  writeResults(rows, {
    ...meta,
    mode: plan.quick ? 'quick' : 'default',
    measured: [...plan.only],
    elapsedSeconds: elapsedS,
    growth: scales,
  });
}

/** P8: MCP over Streamable HTTP, toolsmith's server against the SDK's. */
async function measureP8(plan: Plan): Promise<Row> {
  log("P8: MCP over Streamable HTTP, toolsmith serve --http vs the SDK's McpServer (autocannon)…");
  const http = await measureHttp(
    plan.quick ? { rounds: 1, seconds: 1, connections: 10 } : { rounds: 3, seconds: 4, connections: 10 },
    log,
  );
  return {
    ratio: http.throughputRatio,
    target: '>= 1.0 calls/s, p99 <= SDK',
    pass: http.throughputRatio >= 1 && http.toolsmith.p99Ms <= http.sdk.p99Ms,
    detail: http as unknown as Record<string, unknown>,
  };
}

/** P8b: 2026-07-28 requests, toolsmith's server against the v2 SDK's `createMcpHandler`. */
async function measureP8b(plan: Plan): Promise<Row> {
  log(
    "P8b: MCP 2026-07-28 over Streamable HTTP, toolsmith serve --http vs the v2 SDK's createMcpHandler (autocannon)…",
  );
  const http = await measureHttp(
    plan.quick ? { rounds: 1, seconds: 1, connections: 10 } : { rounds: 3, seconds: 4, connections: 10 },
    log,
    'modern',
  );
  return {
    ratio: http.throughputRatio,
    target: '>= 1.0 calls/s, p99 <= SDK',
    pass: http.throughputRatio >= 1 && http.toolsmith.p99Ms <= http.sdk.p99Ms,
    detail: http as unknown as Record<string, unknown>,
  };
}

/** P8c: process start → first tools/list answer with 1,000 tools, toolsmith against the v2 SDK's McpServer. */
async function measureP8c(plan: Plan): Promise<Row> {
  log('P8c: start → first tools/list, 1,000 tools, toolsmith serve --http vs the v2 SDK McpServer…');
  const result = await measureListStartup(1000, plan.quick ? 1 : 5, log);
  return {
    ratio: result.ratio,
    target: '<= 1.0 (time to first tools/list)',
    pass: result.ratio <= 1,
    detail: result as unknown as Record<string, unknown>,
  };
}

/** P10: a task created on replica A, its result read from replica B (one Redis task store). */
async function measureP10(plan: Plan): Promise<Row> {
  log('P10: task round trip, tools/call on replica A → tasks/get on replica B (redis-server), vs a plain tools/call…');
  const result = await measureTaskRoundTrip(
    plan.quick ? { warmup: 10, roundTrips: 20 } : { warmup: 50, roundTrips: 200 },
    log,
  );
  if ('notMeasured' in result) {
    log(`  not measured: ${result.notMeasured}`);
    return { target: 'report', detail: { notMeasured: result.notMeasured } };
  }
  log(
    `  task round trip median ${fmt(result.task.medianMs)} ms, p99 ${fmt(result.task.p99Ms)} ms; plain call median ${fmt(result.plain.medianMs)} ms`,
  );
  return {
    value: result.task.medianMs,
    ratio: result.ratio,
    target: 'report',
    detail: result as unknown as Record<string, unknown>,
  };
}

/**
 * Full generates of the project at `root`, cold children alternating between `sides` (`childRuns`
 * rounds), each side under a config of its own (the project's, with `manifests(side)`) into an output
 * folder of its own, emptied with its cache before each run; `check` throws when a side did not do
 * what it is named for, `done` takes each run's time.
 */
async function alternateGenerates<Side extends string>(
  plan: Plan,
  root: string,
  small: BenchProject,
  sides: {
    sides: readonly Side[];
    manifests: (side: Side) => object;
    check: (side: Side, outDir: string) => void;
    done: (side: Side, ms: number) => void;
  },
): Promise<void> {
  const base = JSON.parse(readFileSync(path.join(root, 'toolsmith.config.json'), 'utf8')) as Record<string, unknown>;
  for (let run = 0; run < plan.childRuns; run++)
    for (const side of sides.sides) {
      const outDir = path.join(root, side, 'generated');
      for (const stale of [path.join(root, side), cacheFile(root, outDir)])
        if (stale !== undefined) rmSync(stale, { recursive: true, force: true });
      const config = `${side}.config.json`;
      const manifests = sides.manifests(side);
      writeFileSync(
        path.join(root, config),
        `${JSON.stringify({ ...base, out: `${side}/generated`, stubs: `${side}/src/tools`, manifests }, null, 2)}\n`,
      );
      const { report } = await runChild(
        [...GENERATE_NODE_ARGS, GENERATE_CHILD, 'toolsmith', root, small.root, '--config', config],
        REPO_ROOT,
        plan.generateTimeoutMs,
      );
      sides.check(side, outDir);
      sides.done(side, report.ms as number);
    }
}

/**
 * P3e: one definition whose property description is one word of 10 MB (1 MB with `--quick`): a full
 * generate with the token report against the same with `manifests.tokenReport: false`, cold children
 * alternating (without, then with), each under a config of its own into an output folder of its own,
 * emptied with its cache before each run; `childRuns` per side, medians.
 */
async function measureP3e(plan: Plan, tmp: string, small: BenchProject): Promise<Row> {
  const megabytes = plan.quick ? 1 : 10;
  const definition = {
    name: 'long_text',
    description: 'Takes a query whose description is one long word.',
    inputSchema: {
      type: 'object',
      properties: { q: { type: 'string', description: 'x'.repeat(megabytes * 2 ** 20) } },
    },
  };
  const { root } = prepareProject({
    root: path.join(tmp, 'p3e'),
    count: 0,
    extraDefinitions: { 'long/long_text.tool.json': definition },
  });
  const runs = { withMs: [] as number[], withoutMs: [] as number[] };
  const target = '<= 2';
  try {
    await alternateGenerates(plan, root, small, {
      sides: ['without', 'with'],
      manifests: (side) => ({ tokenReport: side === 'with' }),
      check: (side, outDir) => {
        if (existsSync(path.join(outDir, 'manifests', 'token-report.json')) !== (side === 'with'))
          throw new Error(`P3e: the generate ${side} the token report wrote ${side === 'with' ? 'none' : 'one'}`);
      },
      done: (side, ms) => {
        (side === 'with' ? runs.withMs : runs.withoutMs).push(ms);
        log(`  ${megabytes} MB description: generate ${side} the token report ${fmt(ms / 1000)} s`);
      },
    });
  } catch (error) {
    if (!(error instanceof ChildFailedError)) throw error;
    const notMeasured = `generate ${error.message.split('\n')[0]!}`;
    return { ratio: null as unknown as number, target, pass: false, detail: { megabytes, notMeasured, runs } };
  }
  const withMs = median(runs.withMs);
  const withoutMs = median(runs.withoutMs);
  const ratio = withMs / withoutMs;
  return {
    ratio,
    target,
    pass: ratio <= 2,
    detail: {
      megabytes,
      withMs,
      withoutMs,
      runs,
      method:
        'cold children (after a warm-up check of the 2-tool project), alternating: a full generate with `manifests.tokenReport: false`, then one with it on, each into an empty output folder of its own with no cache; the medians of each side',
    },
  };
}

/**
 * P3f: a full generate of the corpus (`mainTools` tools) with `manifests.hosts` naming every host of
 * the table (a rejection under the served profile is a warning) against the same with none, cold
 * children alternating (none, then every host), each under a config of its own into an output folder
 * of its own, emptied with its cache before each run; `childRuns` per side, medians. Both sides write
 * the host report (it lists every host either way).
 */
async function measureP3f(plan: Plan, tmp: string, small: BenchProject): Promise<Row> {
  const { root } = prepareProject({ root: path.join(tmp, 'p3f'), count: plan.mainTools });
  const runs = { allMs: [] as number[], noneMs: [] as number[] };
  const target = '<= 1.10';
  try {
    await alternateGenerates(plan, root, small, {
      sides: ['none', 'all'],
      manifests: (side) => ({ hosts: side === 'all' ? HOSTS.map((host) => host.id) : [] }),
      check: (side, outDir) => {
        const losses = JSON.parse(readFileSync(path.join(outDir, 'manifests', 'loss-report.json'), 'utf8'));
        if ((Object.values(losses)[0] as { hosts?: object } | undefined)?.hosts === undefined)
          throw new Error(`P3f: the generate with ${side} hosts wrote no host report`);
      },
      done: (side, ms) => {
        (side === 'all' ? runs.allMs : runs.noneMs).push(ms);
        log(`  ${plan.mainTools} tools: generate with ${side} hosts ${fmt(ms / 1000)} s`);
      },
    });
  } catch (error) {
    if (!(error instanceof ChildFailedError)) throw error;
    const notMeasured = `generate ${error.message.split('\n')[0]!}`;
    return {
      ratio: null as unknown as number,
      target,
      pass: false,
      detail: { tools: plan.mainTools, notMeasured, runs },
    };
  }
  const allMs = median(runs.allMs);
  const noneMs = median(runs.noneMs);
  const ratio = allMs / noneMs;
  return {
    ratio,
    target,
    pass: ratio <= 1.1,
    detail: {
      tools: plan.mainTools,
      allMs,
      noneMs,
      runs,
      method:
        'cold children (after a warm-up check of the 2-tool project), alternating: a full generate with `manifests.hosts: []`, then one naming every host, each into an empty output folder of its own with no cache; the medians of each side',
    },
  };
}

/** How many tools P9 changes between its two trees. */
const P9_CHANGED = 10;

/**
 * P9: `toolsmith diff <before> <after>` of two trees of `mainTools` definitions with `P9_CHANGED` of them
 * changed (a new required argument: breaking, so each gets its witness compiled), in a cold child
 * warmed up on the small project, against `toolsmith generate` with nothing to do on the same tree
 * (after a full generate, untimed). Median of `childRuns` runs each.
 */
async function measureP9(plan: Plan, tmp: string, small: BenchProject): Promise<Row> {
  const { root, corpus } = prepareProject({ root: path.join(tmp, 'p9'), count: plan.mainTools });
  const after = path.join(root, 'schemas-after');
  cpSync(corpus.dir, after, { recursive: true });
  const step = Math.max(1, Math.floor(corpus.tools.length / P9_CHANGED));
  const changed = corpus.tools.filter((_, index) => index % step === 0).slice(0, P9_CHANGED);
  for (const tool of changed) {
    const file = path.join(after, tool.file);
    const definition = JSON.parse(readFileSync(file, 'utf8')) as {
      inputSchema: { properties?: Record<string, unknown>; required?: string[] };
    };
    definition.inputSchema.properties = { ...definition.inputSchema.properties, p9Extra: { type: 'string' } };
    definition.inputSchema.required = [...(definition.inputSchema.required ?? []), 'p9Extra'];
    writeFileSync(
      file,
      `${JSON.stringify(definition, null, 2)}
`,
    );
  }
  const child = (mode: string) =>
    runChild([...GENERATE_NODE_ARGS, GENERATE_CHILD, mode, root, small.root], REPO_ROOT, plan.generateTimeoutMs);
  log(`  ${plan.mainTools} tools: full generate (untimed), then ${plan.childRuns} no-op generates and diffs…`);
  await child('toolsmith');
  const generates: number[] = [];
  const diffs: number[] = [];
  let breaking = 0;
  for (let run = 0; run < plan.childRuns; run++) {
    generates.push((await child('toolsmith')).report.ms as number);
    const diff = await child('diff');
    diffs.push(diff.report.ms as number);
    breaking = diff.report.breakingTools as number;
  }
  if (breaking !== changed.length)
    throw new Error(`P9: the diff found ${breaking} breaking tools, ${changed.length} were changed`);
  const diffMs = median(diffs);
  const noopGenerateMs = median(generates);
  log(`  diff ${fmt(diffMs)} ms, no-op generate ${fmt(noopGenerateMs)} ms`);
  return {
    value: diffMs,
    ratio: diffMs / noopGenerateMs,
    target: '<= 1000 ms',
    pass: diffMs <= 1000,
    detail: { tools: plan.mainTools, changed: changed.length, diffMs, noopGenerateMs, runs: { diffs, generates } },
  };
}

/** Every corpus size the chosen measures need (P2, P3*, P6, P7 over the growth sizes; P4 at its own). */
async function measureScales(plan: Plan, tmp: string, small: BenchProject): Promise<ScaleResult[]> {
  const startup = plan.only.has('P2') || plan.only.has('P6');
  const p3 = plan.only.has('P3') || plan.only.has('P3b') || plan.only.has('P3c') || plan.only.has('P7');
  const p4 = plan.only.has('P4');
  const p3d = plan.only.has('P3d');
  const sizes = [
    ...new Set([
      ...(startup || p3 ? plan.growth : []),
      ...(p3d ? [plan.mainTools] : []),
      ...(p4 ? [plan.p4Tools] : []),
    ]),
  ].sort((a, b) => a - b);
  const scales: ScaleResult[] = [];
  for (const tools of sizes) {
    const inGrowth = plan.growth.includes(tools) && (startup || p3);
    scales.push(
      await measureScale(tools, path.join(tmp, `p${tools}`), small.root, plan, {
        startup: startup && inGrowth,
        p3: plan.only.has('P3b') && inGrowth,
        pipeline: (plan.only.has('P3') || plan.only.has('P3c')) && inGrowth,
        check: plan.only.has('P3c') && tools === plan.mainTools,
        p3d: p3d && tools === plan.mainTools,
        p4: p4 && tools === plan.p4Tools,
      }),
    );
  }
  return scales;
}

/** Merges this run's rows into results.json: a measure not run keeps its previous row. */
function writeResults(rows: Partial<Record<Id, Row>>, meta: Record<string, unknown>): void {
  let previous: Record<string, unknown> = {};
  try {
    previous = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Record<string, unknown>;
  } catch {
    // First run.
  }
  const merged: Record<string, unknown> = {};
  for (const id of IDS) if (rows[id] ?? previous[id]) merged[id] = rows[id] ?? previous[id];
  merged.meta = { ...meta, loadAverageAtEnd: os.loadavg() };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(merged, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), RESULTS_FILE)}`);
}

await main();
