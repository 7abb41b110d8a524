import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FileSegments } from '../../codegen/model.js';
import { splice } from '../../codegen/emit/manifests/splice.js';

/** The reference: a file laid out as head, parts joined by `separator`, tail, with the byte range of every part. */
function assemble(
  head: string,
  parts: ReadonlyArray<readonly [tool: string, text: string]>,
  separator: string,
  tail: string,
): { content: string; segments: FileSegments } {
  const segments: FileSegments = { tools: [], ranges: [] };
  let offset = Buffer.byteLength(head);
  const separatorBytes = Buffer.byteLength(separator);
  parts.forEach(([tool, text], index) => {
    if (index > 0) offset += separatorBytes;
    const end = offset + Buffer.byteLength(text);
    segments.tools.push(tool);
    segments.ranges.push(offset, end);
    offset = end;
  });
  return { content: `${head}${parts.map(([, text]) => text).join(separator)}${tail}`, segments };
}

describe('splicing the parts of a listing file', () => {
  it('gives the bytes and ranges of assembling the replaced parts anew', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { minLength: 8, maxLength: 8 }),
        fc.array(fc.option(fc.string({ unit: 'binary', maxLength: 12 }), { nil: undefined }), {
          minLength: 8,
          maxLength: 8,
        }),
        (tools, texts, changes) => {
          const parts = tools.map((tool, index) => [tool, texts[index]!] as [string, string]);
          const before = assemble('[\n', parts, ',\n', '\n]\n');
          const replacements = new Map<string, string>();
          tools.forEach((tool, index) => changes[index] !== undefined && replacements.set(tool, changes[index]!));
          const after = assemble(
            '[\n',
            parts.map(([tool, text]) => [tool, replacements.get(tool) ?? text] as [string, string]),
            ',\n',
            '\n]\n',
          );
          const spliced = splice(Buffer.from(before.content), before.segments, replacements)!;
          const bytes = Buffer.concat(spliced.chunks);
          expect(bytes.toString('utf8')).toBe(after.content);
          expect(spliced.segments).toEqual(after.segments);
          // Whether the bytes changed, known without comparing the files (staging trusts it).
          expect(spliced.changed).toBe(after.content !== before.content);
          // Every range holds its part's bytes.
          tools.forEach((tool, index) => {
            const [start, end] = [spliced.segments.ranges[index * 2]!, spliced.segments.ranges[index * 2 + 1]!];
            expect(bytes.subarray(start, end).toString('utf8')).toBe(replacements.get(tool) ?? texts[index]);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses ranges that do not fit the bytes', () => {
    const { content, segments } = assemble(
      '{',
      [
        ['a', 'x'],
        ['b', 'yy'],
      ],
      ',',
      '}',
    );
    expect(splice(Buffer.from(content), { ...segments, ranges: [1, 2, 3, 99] }, new Map([['b', 'z']]))).toBeUndefined();
    expect(splice(Buffer.from(content), { ...segments, ranges: [3, 5, 1, 2] }, new Map([['b', 'z']]))).toBeUndefined();
    expect(splice(Buffer.from(content), { ...segments, ranges: [1, 2] }, new Map())).toBeUndefined();
  });
});
