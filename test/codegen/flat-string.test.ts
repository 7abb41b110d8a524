import { describe, expect, it } from 'vitest';
import { createGeneratorAjv, flatString, standaloneCode } from '../../codegen/ajv.js';

describe('flatString', () => {
  it('keeps every code unit, lone surrogates and non-ASCII included', () => {
    const text = `a\ud800b\udfffc é 😀 \u0000 "quoted" \\ end`;
    const flat = flatString(text);
    expect(flat).toBe(text);
    expect([...flat].map((char) => char.codePointAt(0))).toEqual([...text].map((char) => char.codePointAt(0)));
  });

  it('gives the same standalone code as Ajv builds it', async () => {
    const ajv = createGeneratorAjv({ code: true });
    ajv.addSchema(
      { type: 'object', properties: { name: { type: 'string', pattern: '^\ud83d\ude00+$' } }, required: ['name'] },
      'input',
    );
    const code = standaloneCode(ajv, { validateInput: 'input' });
    const module = (await import('ajv/dist/standalone/index.js')) as unknown as {
      default: ((ajv: unknown, refs: unknown) => string) | { default: (ajv: unknown, refs: unknown) => string };
    };
    const direct = typeof module.default === 'function' ? module.default : module.default.default;
    const again = createGeneratorAjv({ code: true });
    again.addSchema(
      { type: 'object', properties: { name: { type: 'string', pattern: '^\ud83d\ude00+$' } }, required: ['name'] },
      'input',
    );
    expect(code).toBe(direct(again, { validateInput: 'input' }));
    expect(code).toContain('export const validateInput');
  });
});
