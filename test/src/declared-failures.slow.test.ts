import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadFileToolBase } from '../../generated/tools/read-file.base.js';
import { type ITool, ToolExecutor } from '../../src/index.js';
import { ReadFileTool } from '../../src/tools/read-file.js';
import { createFailuresProject, importFrom } from '../helpers/failures-project.js';
import type { TempProject } from '../helpers/temp-project.js';
import { typeCheck } from '../helpers/temp-project.js';
import { callTool, useOrchestrators } from './helpers.js';

/*
 * Failures declared in the definition (`errors`): typed by tsc, checked at run time like an output,
 * answered `TOOL_FAILED` with `errorDetails.failure`, or `OUTPUT_INVALID` when they break the declaration.
 */

const makeOrchestrator = useOrchestrators();
const readFileErrorDescription = new ReadFileTool().errors.NOT_FOUND!.description;
const REQUEST = {
  gmiId: 'g',
  personaId: 'p',
  personaCapabilities: ['capability:filesystem:read'],
  userContext: { userId: 'u' },
};

/** `read_file` (the example) answering `answer` whatever it is asked. */
class Answering extends ReadFileToolBase {
  constructor(readonly answer: unknown) {
    super();
  }
  // Answers anything, also what its declared failures forbid.
  async execute(): Promise<any> {
    return this.answer;
  }
}

async function call(tool: ReadFileToolBase, args: Record<string, unknown> = { path: 'missing.txt' }) {
  const orchestrator = makeOrchestrator({ tools: [tool] });
  return callTool(orchestrator, 'read_file', args, { personaCapabilities: ['capability:filesystem:read'] });
}

describe('a declared failure at run time', () => {
  it('is TOOL_FAILED with the declared code and checked data in errorDetails.failure (the example read_file)', async () => {
    const result = await call(new ReadFileTool({ root: import.meta.dirname }));
    expect(result.errorDetails).toEqual({
      code: 'TOOL_FAILED',
      message: `Tool 'read_file' failed: "missing.txt" does not exist under the root folder`,
      details: { failure: { code: 'NOT_FOUND', data: { path: 'missing.txt' } } },
      failure: {
        code: 'NOT_FOUND',
        description: readFileErrorDescription,
        data: { path: 'missing.txt' },
        retryable: false,
      },
    });
  });

  it('answers an undeclared code OUTPUT_INVALID, keeping everything the tool returned', async () => {
    const returned = { success: false, error: 'Gone', code: 'GONE', data: { path: 'a' }, details: { at: 1 } };
    const result = await call(new Answering(returned));
    expect(result.errorDetails).toEqual({
      code: 'OUTPUT_INVALID',
      message:
        'Tool \'read_file\' answered a failure that breaks its declared errors: it failed with the code "GONE", which it does not declare (declared: NOT_FOUND).',
      details: { returned: { error: 'Gone', code: 'GONE', data: { path: 'a' }, details: { at: 1 } } },
    });
  });

  it('answers data that fails its schema OUTPUT_INVALID, with the validator errors and what was returned', async () => {
    const returned = { success: false, error: 'Missing', code: 'NOT_FOUND', data: { path: ['a'] } };
    const result = await call(new Answering(returned));
    expect(result.errorDetails?.code).toBe('OUTPUT_INVALID');
    expect(result.errorDetails?.message).toBe(
      "Tool 'read_file' answered a failure that breaks its declared errors: the data of its error NOT_FOUND fails its schema: /path must be string.",
    );
    expect(result.errorDetails?.details).toMatchObject({
      returned: { error: 'Missing', code: 'NOT_FOUND', data: { path: ['a'] } },
      errors: [{ path: '/path', keyword: 'type' }],
    });
  });

  it('answers data for an error that declares none OUTPUT_INVALID; a failure without a code stays plain TOOL_FAILED', async () => {
    const project = await createFailuresProject();
    try {
      const { QuoteTool } = await importFrom<{ QuoteTool: new (answers: unknown[]) => ITool }>(
        project,
        'tools/quote.ts',
      );
      const orchestrator = makeOrchestrator({
        tools: [new QuoteTool([{ success: false, error: 'x', code: 'UNKNOWN_SYMBOL', data: 1 }])],
      });
      const withData = await callTool(orchestrator, 'quote', { symbol: 'A' });
      expect(withData.errorDetails?.message).toBe(
        "Tool 'quote' answered a failure that breaks its declared errors: its error UNKNOWN_SYMBOL declares no data, but data was given.",
      );
      const plain = await callTool(
        makeOrchestrator({ tools: [new QuoteTool([{ success: false, error: 'Down' }])] }),
        'quote',
        { symbol: 'A' },
      );
      expect(plain.errorDetails).toEqual({ code: 'TOOL_FAILED', message: "Tool 'quote' failed: Down" });
    } finally {
      project.dispose();
    }
  });

  it('mirrors the checked failure into details.failure on the AgentOS-shaped executor', async () => {
    const executor = new ToolExecutor();
    executor.registerTool(new ReadFileTool({ root: import.meta.dirname }));
    const result = await executor.executeTool({
      ...REQUEST,
      toolCallRequest: { id: '1', name: 'read_file', arguments: { path: 'missing.txt' } },
    });
    expect(result).toMatchObject({
      success: false,
      code: 'NOT_FOUND',
      details: {
        code: 'TOOL_FAILED',
        failure: { code: 'NOT_FOUND', data: { path: 'missing.txt' }, retryable: false },
      },
    });
  });
});

describe('declared failures in the types', () => {
  let project: TempProject;
  beforeAll(async () => {
    project = await createFailuresProject();
  }, 120_000);
  afterAll(() => project?.dispose());

  it('type-checks the implementations that return declared failures', async () => {
    expect(await typeCheck(project, ['generated', 'tools'])).toEqual({ code: 0, output: '' });
  }, 120_000);

  it('rejects an undeclared code, data of the wrong type and missing data', async () => {
    const { code, output } = await typeCheck(project, ['generated', 'rejected']);
    expect(code).not.toBe(0);
    const lines = output.split('\n').filter((line) => line.includes('error TS'));
    const places = new Set(lines.map((line) => line.replace(/,\d+\).*/, ')')));
    expect([...places]).toEqual(['rejected/rejected.ts(5)', 'rejected/rejected.ts(6)', 'rejected/rejected.ts(7)']);
  }, 120_000);
});
