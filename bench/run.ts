/**
 * `npm run bench`: toolsmith against its peers, P1..P6 of issue 6, each a ratio measured in the
 * same run. Prints a table and merges the figures into `bench/results.json`.
 *
 *   npm run bench                  # default: 1,000 tools, growth 100 → 1,000 (P4 at 100 tools)
 *   npm run bench -- --quick       # smoke run: 20 tools, one round
 *   npm run bench -- --only P1,P5  # only some measures
 *   npm run bench -- --full        # adds 5,000 tools to the growth and measures P4 at 1,000 tools
 *
 * Generation is measured in this process (warm: the small project is generated first). Start-up
 * and memory are measured in child processes running plain `node` on the project compiled to
 * JavaScript by `tsc` (see project.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv, type Options as AjvOptions } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { compile } from 'json-schema-to-typescript';
import { toPascalCase } from '../codegen/naming.js';
import { ADD_NUMBERS_TOOL, CREATE_ORDER_TOOL, createOrderZod, invalidOrder, validOrder } from './fixtures.js';
import { compareMicro, median, roundRatio, runChild, withSilentConsole, type MicroOptions } from './measure.js';
import { buildProject, generateAndWrite, type BenchProject } from './project.js';

// ajv-formats is CommonJS: under NodeNext its default import may be `module.exports` or the plugin.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;
const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const CHILDREN = path.join(BENCH_DIR, 'children');
const RESULTS_FILE = path.join(BENCH_DIR, 'results.json');
const IDS = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'] as const;
type Id = (typeof IDS)[number];

/** One row of results.json. */
interface Row {
  ratio?: number;
  value?: number;
  target: string;
  pass: boolean;
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
  keep: boolean;
}

function parseArgs(argv: string[]): Plan {
  const quick = argv.includes('--quick');
  const full = argv.includes('--full');
  const onlyIndex = argv.indexOf('--only');
  const onlyArg = argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ?? (onlyIndex >= 0 ? argv[onlyIndex + 1] : undefined);
  const only = new Set<Id>();
  for (const id of (onlyArg ?? IDS.join(',')).split(',').map((part) => part.trim().toUpperCase())) {
    if (!(IDS as readonly string[]).includes(id)) throw new Error(`--only: unknown measure "${id}"; the measures are ${IDS.join(', ')}`);
    only.add(id as Id);
  }
  if (quick) {
    return { quick, only, mainTools: 20, growth: [10, 20], p4Tools: 20, micro: { rounds: 1, time: 150, warmupTime: 50, batch: 20 }, childRuns: 1, keep: argv.includes('--keep') };
  }
  return {
    quick,
    only,
    mainTools: 1000,
    growth: full ? [100, 1000, 5000] : [100, 1000],
    p4Tools: full ? 1000 : 100,
    micro: { rounds: 5, time: 600, warmupTime: 200, batch: 50 },
    childRuns: 3,
    keep: argv.includes('--keep'),
  };
}

const CALL_CONTEXT = { gmiId: 'bench', personaId: 'bench', personaCapabilities: [] as string[], userContext: { userId: 'bench' } };

/** P1: processToolCall of a trivial tool, toolsmith vs AgentOS's ToolOrchestrator, same tool class. */
async function measureP1(small: BenchProject, plan: Plan): Promise<Row> {
  const runtime = await import(pathToFileURL(small.distRuntime).href);
  const { AddNumbersTool } = await import(pathToFileURL(path.join(small.root, 'dist', 'src', 'tools', 'add-numbers.js')).href);
  const agentosTools = await import('@framers/agentos/core/tools');
  const toolsmith = new runtime.ToolOrchestrator({ tools: [new AddNumbersTool()] });
  const call = (orchestrator: { processToolCall: (details: never) => Promise<{ isError: boolean; output: unknown }> }) =>
    orchestrator.processToolCall({ toolCallRequest: { id: 'call-1', name: 'add_numbers', arguments: { a: 1, b: 2 } }, ...CALL_CONTEXT } as never);
  return withSilentConsole(async () => {
    const permissions = new agentosTools.ToolPermissionManager();
    await permissions.initialize({ strictCapabilityChecking: false, logToolCalls: false });
    const agentos = new agentosTools.ToolOrchestrator();
    await agentos.initialize({ logToolCalls: false } as never, permissions, new agentosTools.ToolExecutor(), [new AddNumbersTool()]);
    // AgentOS as shipped logs every call (logToolCalls defaults to true); console is silenced for both.
    const agentosDefault = new agentosTools.ToolOrchestrator();
    await agentosDefault.initialize(undefined, permissions, new agentosTools.ToolExecutor(), [new AddNumbersTool()]);
    const check = { toolsmith: await call(toolsmith), agentos: await call(agentos as never), agentosDefault: await call(agentosDefault as never) };
    for (const [side, result] of Object.entries(check)) {
      if (result.isError || (result.output as { sum?: number }).sum !== 3) throw new Error(`P1: the ${side} call failed: ${JSON.stringify(result)}`);
    }
    const micro = await compareMicro(
      { toolsmith: () => call(toolsmith), agentos: () => call(agentos as never), agentosDefault: () => call(agentosDefault as never) },
      plan.micro,
    );
    const ratio = roundRatio(micro, 'toolsmith', 'agentos');
    return {
      ratio,
      target: '<= 0.15',
      pass: ratio <= 0.15,
      detail: {
        toolsmithMicrosecondsPerCall: median(micro.toolsmith!),
        agentosMicrosecondsPerCall: median(micro.agentos!),
        speedup: 1 / ratio,
        agentosDefaultConfigMicrosecondsPerCall: median(micro.agentosDefault!),
        ratioVsAgentosDefaultConfig: roundRatio(micro, 'toolsmith', 'agentosDefault'),
        rounds: micro,
        note: 'same generated AddNumbersTool class on both sides; the ratio is against AgentOS at its fastest (logToolCalls: false); ratioVsAgentosDefaultConfig is against AgentOS as shipped (logToolCalls: true); console silenced for every side',
      },
    };
  });
}

/** P5: validation throughput of the generated standalone validator vs zod 4 and runtime-compiled Ajv. */
async function measureP5(small: BenchProject, plan: Plan): Promise<Row> {
  const module = await import(pathToFileURL(path.join(small.root, 'dist', 'generated', 'validators', 'create-order.js')).href);
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
    if (valid !== true || invalid !== false) throw new Error(`P5: ${side} does not accept the valid order and reject the invalid one`);
  }
  const data = { generated: validOrder(), zod: validOrder(), ajv: validOrder() };
  const bad = { generated: invalidOrder(), zod: invalidOrder(), ajv: invalidOrder() };
  const micro = { ...plan.micro, batch: plan.micro.batch * 20 };
  const valid = await compareMicro(
    { generated: () => generated(data.generated), zod: () => createOrderZod.safeParse(data.zod), ajv: () => runtimeAjv(data.ajv) },
    micro,
  );
  const invalid = await compareMicro(
    { generated: () => generated(bad.generated), zod: () => createOrderZod.safeParse(bad.zod), ajv: () => runtimeAjv(bad.ajv) },
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
      microsecondsPerValidation: { generated: median(valid.generated!), zod: median(valid.zod!), ajv: median(valid.ajv!) },
      invalidInput: {
        microsecondsPerValidation: { generated: median(invalid.generated!), zod: median(invalid.zod!), ajv: median(invalid.ajv!) },
        vsZod: roundRatio(invalid, 'zod', 'generated'),
        vsAjv: roundRatio(invalid, 'ajv', 'generated'),
      },
      schema: 'create_order input (bench/fixtures.ts): 3 nested objects, array of 3 objects, uuid/email/date formats, 3 patterns, enums, defaults, uniqueItems',
      note: 'generated and Ajv validate in place (coerceTypes, useDefaults, allErrors); zod safeParse builds a new object',
    },
  };
}

/** json-schema-to-typescript alone, default options (prettier on), on every tool's input and output schema. */
async function runJsonSchemaToTypescript(project: BenchProject): Promise<number> {
  const definitions = project.corpus.tools.map((tool) => {
    const file = path.join(project.corpus.dir, tool.file);
    return { file, pascal: toPascalCase(tool.name), text: readFileSync(file, 'utf8') };
  });
  const started = performance.now();
  for (const definition of definitions) {
    const parsed = JSON.parse(definition.text) as { inputSchema: object; outputSchema?: object };
    const cwd = path.dirname(definition.file);
    await compile(parsed.inputSchema as never, `${definition.pascal}Input`, { cwd });
    if (parsed.outputSchema) await compile(parsed.outputSchema as never, `${definition.pascal}Output`, { cwd });
  }
  return performance.now() - started;
}

/** What one corpus size measured. */
interface ScaleResult {
  tools: number;
  generateMs: number;
  writeMs: number;
  fullMs: number;
  files: number;
  compileMs?: number;
  typeErrors?: number;
  jsonSchemaToTypescriptMs?: number;
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
  incremental?: { unchangedMs: number; oneChangedMs: number; fullMs: number };
  notes: string[];
}

async function measureScale(tools: number, root: string, plan: Plan, needs: { startup: boolean; p3: boolean; p4: boolean }): Promise<ScaleResult> {
  log(`  ${tools} tools: corpus + full generate…`);
  const project = await buildProject({ root, count: tools, compile: needs.startup });
  const out: ScaleResult = {
    tools,
    generateMs: project.generateMs,
    writeMs: project.writeMs,
    fullMs: project.generateMs + project.writeMs,
    files: project.result.files.length + project.result.stubs.length,
    notes: project.notes,
  };
  log(`  ${tools} tools: generate ${fmt(project.generateMs / 1000)} s + write ${fmt(project.writeMs / 1000)} s (${out.files} files)`);
  if (needs.startup) {
    out.compileMs = project.compileMs;
    out.typeErrors = project.typeErrors;
  }
  if (needs.p3) {
    out.jsonSchemaToTypescriptMs = await runJsonSchemaToTypescript(project);
    log(`  ${tools} tools: json-schema-to-typescript ${fmt(out.jsonSchemaToTypescriptMs / 1000)} s`);
  }
  if (needs.startup) out.startup = await measureStartup(project, plan);
  if (needs.p4) {
    log(`  ${tools} tools: P4 generate with nothing changed, then with one tool changed…`);
    const unchanged = await generateAndWrite(root);
    const changed = project.corpus.tools[Math.floor(tools / 2)]!;
    const file = path.join(project.corpus.dir, changed.file);
    const definition = JSON.parse(readFileSync(file, 'utf8')) as { description: string };
    definition.description += ' Changed for the incremental benchmark.';
    writeFileSync(file, `${JSON.stringify(definition, null, 2)}\n`);
    const oneChanged = await generateAndWrite(root);
    out.incremental = { unchangedMs: unchanged.generateMs + unchanged.writeMs, oneChangedMs: oneChanged.generateMs + oneChanged.writeMs, fullMs: out.fullMs };
  }
  if (!plan.keep) rmSync(root, { recursive: true, force: true });
  return out;
}

/** P2/P6 children: toolsmith's generated registry vs Ajv compiling the same schemas, and bare node. */
async function measureStartup(project: BenchProject, plan: Plan): Promise<NonNullable<ScaleResult['startup']>> {
  const target = project.corpus.tools.find((tool) => tool.sampleOutput !== undefined) ?? project.corpus.tools[0]!;
  const args = JSON.stringify(target.sampleInput);
  const runs = { toolsmith: [] as Awaited<ReturnType<typeof runChild>>[], ajv: [] as Awaited<ReturnType<typeof runChild>>[], emptyNode: [] as Awaited<ReturnType<typeof runChild>>[] };
  for (let run = 0; run < plan.childRuns; run++) {
    runs.emptyNode.push(await runChild([path.join(CHILDREN, 'empty.mjs')], project.root));
    runs.toolsmith.push(await runChild([path.join(CHILDREN, 'startup-toolsmith.mjs'), project.distRegistry, project.distRuntime, target.name, args], project.root));
    runs.ajv.push(await runChild([path.join(CHILDREN, 'startup-ajv.mjs'), project.bundledSchemas, target.name, args], project.root));
  }
  for (const [side, list] of Object.entries(runs)) {
    for (const { report } of list) if (report.isError === true) throw new Error(`P2: the ${side} child's first call failed: ${JSON.stringify(report.errorDetails).slice(0, 1000)}`);
  }
  const med = (list: typeof runs.toolsmith, pick: (report: Record<string, unknown>) => number) => median(list.map(({ report }) => pick(report)));
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
    runs: { toolsmith: runs.toolsmith.map((run) => run.report), ajv: runs.ajv.map((run) => run.report), emptyNode: runs.emptyNode.map((run) => run.report) },
  };
  log(`  ${project.corpus.tools.length} tools: first validated call ${fmt(result.toolsmithFirstCallMs)} ms (toolsmith) vs ${fmt(result.ajvFirstCallMs)} ms (Ajv); peak RSS ${fmt(result.toolsmithPeakMb)} MB`);
  return result;
}

function rowsFromScales(scales: ScaleResult[], plan: Plan): Partial<Record<Id, Row>> {
  const rows: Partial<Record<Id, Row>> = {};
  const main = scales.find((scale) => scale.tools === plan.mainTools);
  const growth = (pick: (scale: ScaleResult) => unknown) => Object.fromEntries(scales.map((scale) => [String(scale.tools), pick(scale)]));
  if (plan.only.has('P2') && main?.startup) {
    const s = main.startup;
    const ratio = s.toolsmithFirstCallMs / s.ajvFirstCallMs;
    rows.P2 = {
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
        growth: growth((scale) => scale.startup && { toolsmithFirstCallMs: scale.startup.toolsmithFirstCallMs, ajvFirstCallMs: scale.startup.ajvFirstCallMs, ratio: scale.startup.toolsmithFirstCallMs / scale.startup.ajvFirstCallMs }),
        method:
          'child processes on plain node (project compiled by tsc); time from process start (performance.timeOrigin) to the resolved processToolCall of one tool through a ToolOrchestrator holding every generated tool vs loading the same bundled schemas from one JSON file and compiling all of them (input and output) with Ajv, then validating one input',
        runs: s.runs,
      },
    };
  }
  if (plan.only.has('P3') && main?.jsonSchemaToTypescriptMs !== undefined) {
    const ratio = main.fullMs / main.jsonSchemaToTypescriptMs;
    rows.P3 = {
      ratio,
      target: '<= 0.5',
      pass: ratio <= 0.5,
      detail: {
        tools: main.tools,
        toolsmithMs: main.fullMs,
        toolsmithGenerateMs: main.generateMs,
        toolsmithWriteMs: main.writeMs,
        filesWritten: main.files,
        jsonSchemaToTypescriptMs: main.jsonSchemaToTypescriptMs,
        toolsmithMsPerTool: main.fullMs / main.tools,
        jsonSchemaToTypescriptMsPerTool: main.jsonSchemaToTypescriptMs / main.tools,
        growth: growth((scale) => scale.jsonSchemaToTypescriptMs !== undefined && { toolsmithMsPerTool: scale.fullMs / scale.tools, jsonSchemaToTypescriptMsPerTool: scale.jsonSchemaToTypescriptMs / scale.tools, ratio: scale.fullMs / scale.jsonSchemaToTypescriptMs }),
        method: 'one run per size (a run takes minutes at 1,000 tools), in-process after a warm-up generate; toolsmith = generate() + writeOutput() of every artifact into an empty folder; json-schema-to-typescript = compile() with default options (prettier on) on every input and output schema',
      },
    };
  }
  const p4 = scales.find((scale) => scale.incremental !== undefined);
  if (plan.only.has('P4') && p4?.incremental) {
    const unchanged = p4.incremental.unchangedMs / p4.incremental.fullMs;
    const oneChanged = p4.incremental.oneChangedMs / p4.incremental.fullMs;
    rows.P4 = {
      ratio: unchanged,
      target: '<= 0.03 unchanged; <= 0.05 one changed',
      pass: unchanged <= 0.03 && oneChanged <= 0.05,
      detail: {
        tools: p4.tools,
        unchangedRatio: unchanged,
        oneChangedRatio: oneChanged,
        ...p4.incremental,
        note: p4.tools === 1000 ? undefined : `measured at ${p4.tools} tools; --full measures it at 1,000 (each run is a full generate until generation is incremental)`,
      },
    };
  }
  if (plan.only.has('P6') && main?.startup) {
    const value = main.startup.toolsmithPeakMb;
    rows.P6 = {
      value,
      target: '<= 60 MB',
      pass: value <= 60,
      detail: {
        tools: main.tools,
        toolsmithPeakMb: value,
        ajvBaselinePeakMb: main.startup.ajvPeakMb,
        emptyNodePeakMb: main.startup.emptyNodePeakMb,
        toolsmithAboveEmptyNodeMb: value - main.startup.emptyNodePeakMb,
        growth: growth((scale) => scale.startup && { toolsmithPeakMb: scale.startup.toolsmithPeakMb, ajvPeakMb: scale.startup.ajvPeakMb }),
        method: 'VmHWM of the P2 toolsmith child after its first call (registry of every tool loaded, orchestrator built)',
      },
    };
  }
  return rows;
}

const fmt = (value: number, digits = value >= 100 ? 0 : value >= 10 ? 1 : 2) => value.toFixed(digits);
const log = (text: string) => process.stderr.write(`${text}\n`);

function printTable(rows: Partial<Record<Id, Row>>, scales: ScaleResult[]): void {
  const lines: string[][] = [['id', 'measure', 'value', 'target', 'result', 'absolute']];
  const mark = (pass: boolean) => (pass ? 'pass' : 'MISS');
  const d = (row: Row) => row.detail as Record<string, never>;
  if (rows.P1) lines.push(['P1', 'processToolCall, trivial tool: toolsmith / AgentOS', fmt(rows.P1.ratio!, 3), rows.P1.target, mark(rows.P1.pass), `${fmt(d(rows.P1).toolsmithMicrosecondsPerCall)} µs vs ${fmt(d(rows.P1).agentosMicrosecondsPerCall)} µs per call`]);
  if (rows.P2) lines.push(['P2', `start → first validated call, ${d(rows.P2).tools} tools: generated / Ajv compile`, fmt(rows.P2.ratio!, 3), rows.P2.target, mark(rows.P2.pass), `${fmt(d(rows.P2).toolsmithFirstCallMs)} ms vs ${fmt(d(rows.P2).ajvFirstCallMs)} ms (bare node ${fmt(d(rows.P2).emptyNodeMs)} ms)`]);
  if (rows.P3) lines.push(['P3', `full generate, ${d(rows.P3).tools} tools: toolsmith / json-schema-to-typescript`, fmt(rows.P3.ratio!, 3), rows.P3.target, mark(rows.P3.pass), `${fmt(d(rows.P3).toolsmithMsPerTool)} vs ${fmt(d(rows.P3).jsonSchemaToTypescriptMsPerTool)} ms per tool`]);
  if (rows.P4) {
    const detail = d(rows.P4) as Record<string, number>;
    lines.push(['P4', `generate, nothing changed / full (${detail.tools} tools)`, fmt(detail.unchangedRatio!, 3), '<= 0.03', mark(detail.unchangedRatio! <= 0.03), `${fmt(detail.unchangedMs! / 1000)} s vs ${fmt(detail.fullMs! / 1000)} s`]);
    lines.push(['P4', `generate, one tool changed / full (${detail.tools} tools)`, fmt(detail.oneChangedRatio!, 3), '<= 0.05', mark(detail.oneChangedRatio! <= 0.05), `${fmt(detail.oneChangedMs! / 1000)} s vs ${fmt(detail.fullMs! / 1000)} s`]);
  }
  if (rows.P5) {
    const detail = d(rows.P5) as Record<string, never>;
    const us = detail.microsecondsPerValidation as Record<string, number>;
    lines.push(['P5', 'validation throughput: generated / zod 4', fmt(detail.vsZod, 2), '>= 2.5', mark(detail.passVsZod), `${fmt(us.generated!)} µs vs ${fmt(us.zod!)} µs per validation`]);
    lines.push(['P5', 'validation throughput: generated / runtime Ajv', fmt(detail.vsAjv, 2), '>= 0.95', mark(detail.passVsAjv), `${fmt(us.generated!)} µs vs ${fmt(us.ajv!)} µs per validation`]);
  }
  if (rows.P6) lines.push(['P6', `peak RSS, ${d(rows.P6).tools}-tool registry ready to call`, `${fmt(rows.P6.value!)} MB`, rows.P6.target, mark(rows.P6.pass), `Ajv baseline ${fmt(d(rows.P6).ajvBaselinePeakMb)} MB, bare node ${fmt(d(rows.P6).emptyNodePeakMb)} MB`]);
  process.stdout.write(`\n${renderTable(lines)}\n`);
  if (scales.length > 0) {
    const growth: string[][] = [['tools', 'generate ms/tool', 'j2t ms/tool', 'P3', 'first call ms (toolsmith)', 'first call ms (Ajv)', 'P2', 'peak MB (toolsmith)', 'peak MB (Ajv)']];
    for (const scale of scales) {
      const s = scale.startup;
      growth.push([
        String(scale.tools),
        fmt(scale.fullMs / scale.tools),
        scale.jsonSchemaToTypescriptMs === undefined ? '-' : fmt(scale.jsonSchemaToTypescriptMs / scale.tools),
        scale.jsonSchemaToTypescriptMs === undefined ? '-' : fmt(scale.fullMs / scale.jsonSchemaToTypescriptMs, 3),
        s ? fmt(s.toolsmithFirstCallMs) : '-',
        s ? fmt(s.ajvFirstCallMs) : '-',
        s ? fmt(s.toolsmithFirstCallMs / s.ajvFirstCallMs, 3) : '-',
        s ? fmt(s.toolsmithPeakMb) : '-',
        s ? fmt(s.ajvPeakMb) : '-',
      ]);
    }
    process.stdout.write(`\nGrowth\n${renderTable(growth)}\n`);
  }
}

function renderTable(lines: string[][]): string {
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => (line[column] ?? '').length)));
  const render = (line: string[]) => `| ${line.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [render(lines[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...lines.slice(1).map(render)].join('\n');
}

function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return { node: process.version, platform: `${os.platform()} ${os.release()}`, cpu: cpus[0]?.model ?? 'unknown', cores: cpus.length, memoryGb: Math.round(os.totalmem() / 2 ** 30), loadAverageAtStart: os.loadavg() };
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
    // The small project (P1, P5) also warms the generator up before the timed runs.
    log('small project (add_numbers, create_order): generate + tsc…');
    const small = await buildProject({ root: path.join(tmp, 'small'), count: 0, extraDefinitions: { 'bench/add_numbers.tool.json': ADD_NUMBERS_TOOL, 'bench/create_order.tool.json': CREATE_ORDER_TOOL } });
    if (plan.only.has('P1')) {
      log('P1: processToolCall, toolsmith vs AgentOS…');
      rows.P1 = await measureP1(small, plan);
    }
    if (plan.only.has('P5')) {
      log('P5: generated validator vs zod 4 vs runtime Ajv…');
      rows.P5 = await measureP5(small, plan);
    }
    const startup = plan.only.has('P2') || plan.only.has('P6');
    const p3 = plan.only.has('P3');
    const p4 = plan.only.has('P4');
    if (startup || p3 || p4) {
      const sizes = [...new Set([...(startup || p3 ? plan.growth : []), ...(p4 ? [plan.p4Tools] : [])])].sort((a, b) => a - b);
      for (const tools of sizes) {
        const inGrowth = plan.growth.includes(tools) && (startup || p3);
        scales.push(await measureScale(tools, path.join(tmp, `p${tools}`), plan, { startup: startup && inGrowth, p3: p3 && inGrowth, p4: p4 && tools === plan.p4Tools }));
      }
    }
    Object.assign(rows, rowsFromScales(scales, plan));
    for (const row of Object.values(rows)) row.detail.mode = plan.quick ? 'quick' : 'default';
  } finally {
    if (!plan.keep) rmSync(tmp, { recursive: true, force: true });
  }
  const elapsedS = (performance.now() - started) / 1000;
  printTable(rows, scales.filter((scale) => plan.growth.includes(scale.tools)));
  process.stdout.write(`\n${meta.cpu} × ${meta.cores}, ${meta.node}; load average at start ${(meta.loadAverageAtStart as number[]).map((v) => v.toFixed(1)).join(' ')}; ran ${fmt(elapsedS)} s${plan.quick ? ' (quick mode: small sizes, one round — a smoke test, not a result)' : ''}\n`);
  let previous: Record<string, unknown> = {};
  try {
    previous = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Record<string, unknown>;
  } catch {
    // First run.
  }
  const merged: Record<string, unknown> = {};
  for (const id of IDS) if (rows[id] ?? previous[id]) merged[id] = rows[id] ?? previous[id];
  merged.meta = { ...meta, loadAverageAtEnd: os.loadavg(), mode: plan.quick ? 'quick' : 'default', measured: [...plan.only], elapsedSeconds: elapsedS, growth: scales };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(merged, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), RESULTS_FILE)}`);
}

await main();
