/**
 * The project-wide rules (across definition files), each alone: definitions in, the exact
 * diagnostics out.
 */
import { describe, expect, it } from 'vitest';
import type { SourceFile } from '../../../codegen/load.js';
import { composedCycles } from '../../../codegen/rules/composed-cycles.js';
import { composedSteps } from '../../../codegen/rules/composed-steps.js';
import { identifiers } from '../../../codegen/rules/identifiers.js';
import type { Candidate } from '../../../codegen/rules/tool-names.js';
import { makeTool } from '../model-factory.js';
import { runRule, sourceOf } from './rule-fixtures.js';

function candidate(name: string, fields: Record<string, unknown> = {}): Candidate {
  const definition = { name, description: `The ${name} tool.`, inputSchema: { type: 'object' }, ...fields };
  return { source: sourceOf(`${name}.tool.json`, definition), definition };
}

describe('composed-cycles', () => {
  it.each([
    [[['a', ['a']]], ['error schemas/a.tool.json:9:15 /steps/0/tool step 0 calls the composed tool itself: a → a']],
    [
      [
        ['a', ['b']],
        ['b', ['a']],
      ],
      [
        'error schemas/a.tool.json:9:15 /steps/0/tool step 0 calls "b", which leads back to "a": a → b → a',
        'error schemas/b.tool.json:9:15 /steps/0/tool step 0 calls "a", which leads back to "b": b → a → b',
      ],
    ],
    [
      [
        ['a', ['b', 'b']],
        ['b', []],
      ],
      [],
    ],
  ] as [[string, string[]][], string[]][])('%j', (graph, expected) => {
    const candidates = graph.map(([name, calls]) =>
      candidate(name, { steps: calls.map((tool) => ({ tool, arguments: {} })) }),
    );
    expect(runRule(composedCycles, candidates).lines).toEqual(expected);
  });
});

describe('composed-steps', () => {
  const search = makeTool({
    name: 'search',
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    outputSchema: { type: 'object', properties: { hits: { type: 'array', items: { type: 'string' } } } },
  });
  const run = (steps: unknown[]) => {
    const composed = candidate('both', {
      inputSchema: { type: 'object', properties: { topic: { type: 'string' } } },
      steps,
    });
    const sources = new Map<string, SourceFile>([
      ['both', composed.source],
      ['search', candidate('search').source],
    ]);
    const both = makeTool({ name: 'both', inputSchema: composed.definition.inputSchema as never });
    return runRule(composedSteps, {
      candidates: [composed],
      sources,
      tools: new Map([
        ['both', both],
        ['search', search],
      ]),
    }).lines;
  };

  it.each([
    [
      [
        { tool: 'search', arguments: { q: '$input.topic' } },
        { tool: 'search', arguments: { q: '$steps.0.output.hits.0' } },
      ],
      [],
    ],
    [
      [{ tool: 'serch', arguments: {} }],
      ['error schemas/both.tool.json:14:15 /steps/0/tool step 0 calls the tool "serch", which does not exist'],
    ],
    [
      [{ tool: 'search', arguments: { q: '$input.subject' } }],
      [
        'error schemas/both.tool.json:16:14 /steps/0/arguments/q "$input.subject" names a field the input schema does not have',
      ],
    ],
    [
      [{ tool: 'search', arguments: { q: '$steps.0.output.hits' } }],
      [
        'error schemas/both.tool.json:16:14 /steps/0/arguments/q "$steps.0.output.hits" must reference an earlier step\'s output as `$steps.<n>.output.<field>` (n < 0)',
      ],
    ],
    [
      [
        { tool: 'search', arguments: {} },
        { tool: 'search', arguments: { q: '$steps.0.output.count' } },
      ],
      [
        'error schemas/both.tool.json:20:14 /steps/1/arguments/q "$steps.0.output.count" names a field the output of "search" does not have',
      ],
    ],
    [
      [{ tool: 'search', arguments: { q: '$inputs' } }],
      ['error schemas/both.tool.json:16:14 /steps/0/arguments/q "$inputs" is not a reference'],
    ],
    [
      // The runtime reads `$steps.01.output` as a literal string, not a reference (parseReference): so does the check.
      [
        { tool: 'search', arguments: {} },
        { tool: 'search', arguments: {} },
        { tool: 'search', arguments: { q: '$steps.01.output.hits' } },
      ],
      [
        'error schemas/both.tool.json:24:14 /steps/2/arguments/q "$steps.01.output.hits" must reference an earlier step\'s output as `$steps.<n>.output.<field>` (n < 2)',
      ],
    ],
  ])('%j', (steps, expected) => {
    expect(run(steps)).toEqual(expected);
  });
});

describe('identifiers', () => {
  it('reports a definition that differs between input and output but maps to one type', () => {
    const tool = makeTool({
      name: 'a',
      inputSchema: { type: 'object', definitions: { Item: { type: 'string' } } },
      outputSchema: { type: 'object', definitions: { Item: { type: 'number' } } },
      definitionOrigins: { Item: { kind: 'local', typeName: 'AItem' } },
    });
    const source = sourceOf('a.tool.json', {
      name: 'a',
      description: 'A tool.',
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
    });
    expect(runRule(identifiers, { tools: [tool], shared: new Map(), sources: [source] }).lines).toEqual([
      'error schemas/a.tool.json:15:7 /outputSchema/definitions/Item the definition "Item" differs between inputSchema and outputSchema, but both would be the type `AItem`',
    ]);
  });

  it('reports a tool whose generated types would take the registry’s names', () => {
    const tool = makeTool({ name: 'tool' });
    const source = sourceOf('tool.tool.json', { name: 'tool', description: 'x', inputSchema: { type: 'object' } });
    expect(runRule(identifiers, { tools: [tool], shared: new Map(), sources: [source] }).lines).toEqual([
      'error schemas/tool.tool.json:4:18 /inputSchema the input type of "tool" would be named `ToolInput`, which is already the registry\'s `ToolInput`',
      'error schemas/tool.tool.json:2:11 /name the output type of "tool" would be named `ToolOutput`, which is already the registry\'s `ToolOutput`',
    ]);
  });
});
