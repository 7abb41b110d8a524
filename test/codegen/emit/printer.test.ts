/**
 * The printing thread (codegen/emit/pool/printer.ts): ts-morph prints each structure where it stands
 * and leaves text as it is; one thread answers print after print in order, and a stopped or failing
 * thread rejects rather than answering nothing.
 */
import { describe, expect, it } from 'vitest';
import { startPrinter, type PrintableFile } from '../../../codegen/emit/pool/printer.js';
import { printFiles } from '../model-factory.js';

const file = (name: string): PrintableFile => ({
  path: `${name}.ts`,
  kind: 'generated',
  preformatted: true,
  parts: [
    '// head\n',
    { import: { namedImports: ['B', 'type A'], moduleSpecifier: './a.js' } },
    '\n',
    {
      class: {
        name,
        isExported: true,
        docs: ['One line.\n\nAnother.'],
        properties: [{ name: 'id', isReadonly: true, type: 'string', initializer: "'x'" }],
        methods: [{ name: 'run', isAbstract: true, parameters: [{ name: 'args', type: 'A' }], returnType: 'B' }],
      },
    },
  ],
});

describe('the printing thread', () => {
  it('prints each structure in place with two-space indentation and single quotes, text as given', async () => {
    expect(await printFiles([file('Printed')])).toEqual([
      {
        path: 'Printed.ts',
        kind: 'generated',
        preformatted: true,
        content: [
          '// head',
          "import { B, type A } from './a.js';",
          '',
          '/**',
          ' * One line.',
          ' *',
          ' * Another.',
          ' */',
          'export class Printed {',
          "  readonly id: string = 'x';",
          '',
          '  abstract run(args: A): B;',
          '}',
          '',
        ].join('\n'),
      },
    ]);
  });

  it('answers print after print on one thread, in order, and rejects once stopped', async () => {
    const printer = startPrinter();
    const [first, second] = await Promise.all([printer.print([file('First')]), printer.print([file('Second')])]);
    expect(first!.map((printed) => printed.path)).toEqual(['First.ts']);
    expect(second![0]!.content).toContain('export class Second {');
    printer.stop();
    await expect(printer.print([file('Third')])).rejects.toThrow('the printing thread was stopped');
  });

  it('rejects a structure ts-morph cannot print, naming ts-morph', async () => {
    const broken = {
      ...file('Broken'),
      parts: [{ class: { name: 'Broken', properties: [null] } }],
    } as unknown as PrintableFile;
    await expect(printFiles([broken])).rejects.toThrow(/^ts-morph could not print a file: TypeError/);
  });
});
