import { afterEach } from 'vitest';
import { ToolOrchestrator, type ITool, type ToolCallDetails, type ToolCallResult } from '../../src/index.js';

/**
 * A factory of orchestrators (50 ms shutdown deadline) that are all shut down after each test of
 * the file that calls it.
 */
export function useOrchestrators(): (options?: ConstructorParameters<typeof ToolOrchestrator>[0]) => ToolOrchestrator {
  const created: ToolOrchestrator[] = [];
  afterEach(async () => {
    await Promise.all(created.splice(0).map((orchestrator) => orchestrator.shutdown()));
  });
  return (options = {}) => {
    const orchestrator = new ToolOrchestrator({ shutdownTimeoutMs: 50, ...options });
    created.push(orchestrator);
    return orchestrator;
  };
}

/**
 * A hand-written tool (its input schema is compiled at registration); override any field. `execute`
 * and `refusal` may answer anything (`{ success: boolean }` from a mock, hostile values): the
 * runtime must cope with whatever a tool that is not type-checked returns.
 */
export function makeTool(
  name: string,
  overrides: Partial<Omit<ITool, 'execute' | 'refusal'>> & {
    execute?: (...args: any[]) => unknown;
    refusal?: (...args: any[]) => unknown;
  } = {},
): ITool {
  return {
    id: `test:${name}`,
    name,
    displayName: name,
    description: `Test tool ${name}.`,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: true },
    async execute(args) {
      return { success: true, output: { echoed: args } };
    },
    ...(overrides as Partial<ITool>),
  };
}

export const caller = {
  gmiId: 'gmi-1',
  personaId: 'persona-1',
  userContext: { userId: 'user-1' },
  personaCapabilities: [] as string[],
};

let nextId = 0;

/** Calls `name` through `orchestrator` as `caller`, with `extra` merged into the details. */
export function callTool(
  orchestrator: ToolOrchestrator,
  name: string,
  args: unknown = {},
  extra: Partial<ToolCallDetails> = {},
): Promise<ToolCallResult> {
  return orchestrator.processToolCall({
    ...caller,
    toolCallRequest: { id: `call-${++nextId}`, name, arguments: args as Record<string, unknown> },
    ...extra,
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A promise plus its resolver. */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A tool whose execute never settles and ignores its signal. */
export function hangingTool(name: string, overrides: Partial<ITool> = {}): ITool {
  return makeTool(name, { execute: () => new Promise(() => {}), ...overrides });
}

/** One content block of each kind, as a tool answers them (MCP's shapes). */
export const CONTENT_BLOCKS = [
  { type: 'text', text: 'A chart of the week.' },
  { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
  { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
  { type: 'resource', resource: { uri: 'file:///reports/week.csv', mimeType: 'text/csv', text: 'day,n\nmon,3' } },
  { type: 'resource', resource: { uri: 'file:///reports/week.bin', blob: 'AAECAw==' } },
  {
    type: 'resource_link',
    uri: 'https://example.com/reports/week.pdf',
    name: 'week.pdf',
    mimeType: 'application/pdf',
  },
] as const;

/** A tool answering `CONTENT_BLOCKS` beside `output` (no output at all when `output` is undefined). */
export function contentTool(name: string, output?: unknown): ITool {
  return makeTool(name, {
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    execute: async () => ({
      success: true,
      ...(output === undefined ? {} : { output }),
      content: structuredClone(CONTENT_BLOCKS) as never,
    }),
  });
}
