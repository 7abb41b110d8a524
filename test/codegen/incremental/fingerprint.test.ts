import { describe, expect, it } from 'vitest';
import type { EmitSettings } from '../../../codegen/emit/settings.js';
import type { ResolvedOptions } from '../../../codegen/config/options.js';
import { optionsCacheKey } from '../../../codegen/incremental/fingerprint.js';
import { makeSettings } from '../model-factory.js';

const settings = makeSettings({ format: true });
const resolved = { root: '/project', schemasDir: '/project/schemas' } as ResolvedOptions;
/** The key of a run of `resolved` with these settings and generator code. */
const key = (emit: EmitSettings, code: string, options = resolved) => optionsCacheKey(options, code, emit);

describe('the cache key', () => {
  it('is the same for the same generator and settings', () => {
    expect(key({ ...settings }, 'code')).toBe(key(settings, 'code'));
  });

  it('changes with the generator code', () => {
    expect(key(settings, 'other code')).not.toBe(key(settings, 'code'));
  });

  // The key is made of the whole settings object: a setting added to `EmitSettings` is part of it with
  // no list of fields to keep up to date.
  const changed: [string, EmitSettings][] = [
    ['ctx', { ...settings, ctx: { ...settings.ctx, regenerateCommand: 'another command' } }],
    ['templates', { ...settings, templates: { ...settings.templates, tool: 'another page' } }],
    ['format', { ...settings, format: false }],
    ['manifests.targets', { ...settings, manifests: { targets: ['openai'] } }],
    ['manifests.unrepresentable', { ...settings, manifests: { unrepresentable: 'error' } }],
    ['manifests.describeLosses', { ...settings, manifests: { describeLosses: false } }],
    ['manifests.tokenReport', { ...settings, manifests: { tokenReport: false } }],
  ];
  it('changes with the schemas folder (generated files name their definition paths)', () => {
    const moved = { ...resolved, schemasDir: '/project/definitions' };
    expect(key(settings, 'code', moved)).not.toBe(key(settings, 'code'));
  });

  for (const [field, other] of changed)
    it(`changes with ${field}`, () => {
      expect(key(other, 'code')).not.toBe(key(settings, 'code'));
    });

  // Every setting, by its value's kind: one declared in the config schema is covered with no edit here.
  const another = (value: unknown): unknown => {
    if (typeof value === 'boolean') return !value;
    if (typeof value === 'number') return value + 1;
    if (typeof value === 'string') return `${value}-other`;
    if (Array.isArray(value)) return [...value, 'other'];
    return { ...(value as object), other: true };
  };
  for (const field of Object.keys(settings) as (keyof EmitSettings)[])
    it(`changes with any setting: ${field}`, () => {
      const other = { ...settings, [field]: another(settings[field]) } as EmitSettings;
      expect(key(other, 'code')).not.toBe(key(settings, 'code'));
    });
});
