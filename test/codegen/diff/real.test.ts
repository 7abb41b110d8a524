import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGeneratorAjv } from '../../../codegen/ajv.js';
import { main } from '../../../codegen/cli/main.js';

/*
 * Real version pairs: the tools/list answers of published MCP servers (test/fixtures/diff-real/, with
 * where they came from). The expected verdicts were decided by reading the two answers, change by change.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const FIXTURES = 'test/fixtures/diff-real';

interface Change {
  side: string;
  pointer: string;
  verdict: string;
  message: string;
  witness?: unknown;
}
interface Report {
  verdict: string;
  tools: { name: string; change: string; verdict: string; changes: Change[] }[];
}

async function diff(before: string, after: string): Promise<{ code: number; report: Report }> {
  let stdout = '';
  const code = await main(['diff', `${FIXTURES}/${before}.json`, `${FIXTURES}/${after}.json`, '--json'], {
    stdout: (t) => (stdout += t),
    stderr: () => {},
    cwd: ROOT,
  });
  return { code, report: JSON.parse(stdout) };
}

function summary(report: Report): string[] {
  return report.tools.map((t) => `${t.name} ${t.change} ${t.verdict}`);
}

function inputSchemaOf(file: string, tool: string): object {
  const answer = JSON.parse(readFileSync(path.join(ROOT, FIXTURES, `${file}.json`), 'utf8'));
  const { $schema: _, ...schema } = answer.tools.find((t: { name: string }) => t.name === tool).inputSchema;
  return schema;
}

describe('toolsmith diff: real version pairs', () => {
  it('server-filesystem 2025.3.28 → 2025.8.21: three tools added, two descriptions reworded: compatible', async () => {
    // Both list every input schema as `{ $schema }` alone (a schema-export bug of those releases), so no
    // schema changed; list_directory_with_sizes, read_media_file and read_text_file are new; read_file's
    // description now says it is deprecated, list_allowed_directories' is reworded: what the model reads
    // changed, so those two tools are compatible (the worst of their changes).
    const { code, report } = await diff('server-filesystem/2025.3.28', 'server-filesystem/2025.8.21');
    expect(code).toBe(0);
    expect(report.verdict).toBe('compatible');
    expect(summary(report)).toEqual([
      'create_directory unchanged unchanged',
      'directory_tree unchanged unchanged',
      'edit_file unchanged unchanged',
      'get_file_info unchanged unchanged',
      'list_allowed_directories changed compatible',
      'list_directory unchanged unchanged',
      'list_directory_with_sizes added compatible',
      'move_file unchanged unchanged',
      'read_file changed compatible',
      'read_media_file added compatible',
      'read_multiple_files unchanged unchanged',
      'read_text_file added compatible',
      'search_files unchanged unchanged',
      'write_file unchanged unchanged',
    ]);
    const readFile = report.tools.find((t) => t.name === 'read_file')!;
    expect(readFile.changes).toEqual([expect.objectContaining({ pointer: '/description', verdict: 'compatible' })]);
  });

  it('server-filesystem 2025.8.21 → 2025.11.25: the empty input schemas became real ones: every tool with a required argument breaks', async () => {
    // Before: `{}` took any arguments. After: each tool requires its arguments (path, source/destination,
    // edits, paths, pattern, content), so `{}` is refused: breaking, with `{}` as the witness.
    // list_allowed_directories takes no arguments: only an output schema and readOnlyHint were added.
    // Optional properties added to the (still open) objects — head, tail, dryRun, excludePatterns, sortBy
    // — are compatible notes; every output schema is new (compatible); hints that became safer are compatible;
    // every tool gained a title (compatible: what the model reads).
    const { code, report } = await diff('server-filesystem/2025.8.21', 'server-filesystem/2025.11.25');
    expect(code).toBe(1);
    expect(report.verdict).toBe('breaking');
    const required: Record<string, string[]> = {
      create_directory: ['path'],
      directory_tree: ['path'],
      edit_file: ['path', 'edits'],
      get_file_info: ['path'],
      list_directory: ['path'],
      list_directory_with_sizes: ['path'],
      move_file: ['source', 'destination'],
      read_file: ['path'],
      read_media_file: ['path'],
      read_multiple_files: ['paths'],
      read_text_file: ['path'],
      search_files: ['path', 'pattern'],
      write_file: ['path', 'content'],
    };
    for (const tool of report.tools) {
      const breaking = tool.changes.filter((c) => c.verdict === 'breaking');
      if (tool.name === 'list_allowed_directories') {
        expect(tool.verdict).toBe('compatible');
        expect(tool.changes.map((c) => c.pointer)).toEqual(['/outputSchema', '/annotations/readOnlyHint', '/title']);
        continue;
      }
      expect(tool.verdict, tool.name).toBe('breaking');
      expect(breaking.map((c) => c.message.split(' ')[0])).toEqual(required[tool.name]);
      for (const change of breaking) {
        expect(change).toMatchObject({ side: 'input', pointer: '/inputSchema/required', witness: {} });
        // The witness, checked with validators compiled as the generated ones are.
        const ajv = createGeneratorAjv();
        expect(ajv.validate(inputSchemaOf('server-filesystem/2025.8.21', tool.name), {})).toBe(true);
        expect(ajv.validate(inputSchemaOf('server-filesystem/2025.11.25', tool.name), {})).toBe(false);
      }
      for (const change of tool.changes.filter((c) => c.verdict === 'compatible'))
        expect(change.pointer).toMatch(
          /^\/(inputSchema\/properties\/\w+|outputSchema|annotations\/\w+|title|description)$/,
        );
    }
  });

  it('server-memory 2025.4.25 → 2026.1.26: every tool gained an output schema, inputs unchanged: compatible', async () => {
    // The input schemas now declare `$schema` draft-07 (the same schemas); each tool now publishes an
    // outputSchema (new output guarantees break no caller) and a title (what the model reads: compatible).
    const { code, report } = await diff('server-memory/2025.4.25', 'server-memory/2026.1.26');
    expect(code).toBe(0);
    expect(report.verdict).toBe('compatible');
    expect(report.tools).toHaveLength(9);
    for (const tool of report.tools) {
      expect(tool).toMatchObject({ change: 'changed', verdict: 'compatible' });
      expect(tool.changes).toEqual([
        expect.objectContaining({ side: 'output', pointer: '/outputSchema' }),
        expect.objectContaining({
          side: 'tool',
          pointer: '/title',
          verdict: 'compatible',
          message: expect.stringMatching(/^title added/),
        }),
      ]);
    }
  });

  it('the reverse of a compatible pair breaks: server-memory 2026.1.26 → 2025.4.25 drops the output schemas', async () => {
    const { code, report } = await diff('server-memory/2026.1.26', 'server-memory/2025.4.25');
    expect(code).toBe(1);
    expect(report.tools.every((t) => t.verdict === 'breaking')).toBe(true);
  });
});
