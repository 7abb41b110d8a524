/** The one collector of normalize's rules: placement, severities, child counts, one problem once, sorted. */
import { describe, expect, it } from 'vitest';
import { Diagnostics, placeProblem, unplacedProblem } from '../../codegen/problems.js';
import { parseSource } from '../../codegen/load.js';

const text = '{\n  "name": "a",\n  "inputSchema": {\n    "type": "object"\n  }\n}\n';
const source = parseSource('a.tool.json', 'schemas/a.tool.json', text).source;

describe('Diagnostics', () => {
  it('places a report at the value of its pointer, or at the property name with atKey', () => {
    const diagnostics = new Diagnostics();
    diagnostics.error(source, '/inputSchema', 'at the value', 'a hint');
    diagnostics.warning(source, '/inputSchema', 'at the key', undefined, { atKey: true });
    expect(diagnostics.problems()).toEqual([
      {
        file: 'schemas/a.tool.json',
        line: 3,
        column: 18,
        pointer: '/inputSchema',
        message: 'at the value',
        hint: 'a hint',
      },
      {
        file: 'schemas/a.tool.json',
        line: 3,
        column: 3,
        pointer: '/inputSchema',
        message: 'at the key',
        severity: 'warning',
      },
    ]);
  });

  it('counts a child’s errors apart, forwards everything to its parent, and keeps the child’s warnings', () => {
    const parent = new Diagnostics();
    parent.error(source, '/name', 'before');
    const child = parent.child();
    child.warning(source, '/name', 'a warning');
    expect(child.errorCount).toBe(0);
    child.error(source, '/name', 'an error');
    expect([child.errorCount, parent.errorCount]).toEqual([1, 2]);
    expect(child.warnings().map((problem) => problem.message)).toEqual(['a warning']);
    expect(parent.problems().map((problem) => problem.message)).toEqual(['before', 'a warning', 'an error']);
  });

  it('answers each problem once (file, pointer, message), errors and warnings apart, sorted by file, line, column, message', () => {
    const diagnostics = new Diagnostics();
    diagnostics.error(source, '/inputSchema/type', 'b');
    diagnostics.error(source, '/name', 'z');
    diagnostics.error(source, '/name', 'a');
    diagnostics.error(source, '/name', 'a');
    diagnostics.warning(source, '/inputSchema', 'w');
    const { problems, warnings } = diagnostics.result();
    expect(problems.map((problem) => `${problem.line}:${problem.column} ${problem.message}`)).toEqual([
      '2:11 a',
      '2:11 z',
      '4:13 b',
    ]);
    expect(warnings.map((problem) => problem.message)).toEqual(['w']);
  });
});

describe('a problem made without its file (by an emitter)', () => {
  it('is placed at the property name by default, and at the value when made with atKey: false', () => {
    const atKey = unplacedProblem('schemas/a.tool.json', '/inputSchema', 'm');
    const atValue = unplacedProblem('schemas/a.tool.json', '/inputSchema', 'm', 'h', { atKey: false });
    expect([placeProblem(source, atKey), placeProblem(source, atValue)]).toEqual([
      { file: 'schemas/a.tool.json', line: 3, column: 3, pointer: '/inputSchema', message: 'm' },
      { file: 'schemas/a.tool.json', line: 3, column: 18, pointer: '/inputSchema', message: 'm', hint: 'h' },
    ]);
  });
});
