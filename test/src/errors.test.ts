import { describe, expect, it } from 'vitest';
import { TOOL_ERROR_CODES, ToolsmithError, isToolsmithError } from '../../src/index.js';
import { asError, describeThrown, truncateText } from '../../src/errors.js';

describe('ToolsmithError', () => {
  it('carries a stable code, a message and details', () => {
    const error = new ToolsmithError('ALREADY_REGISTERED', 'taken', { details: { name: 'x' } });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ToolsmithError');
    expect(error.code).toBe('ALREADY_REGISTERED');
    expect(error.message).toBe('taken');
    expect(error.details).toEqual({ name: 'x' });
    expect(isToolsmithError(error)).toBe(true);
    expect(isToolsmithError(new Error('plain'))).toBe(false);
  });

  it('lists every code of the call pipeline once', () => {
    expect(new Set(TOOL_ERROR_CODES).size).toBe(TOOL_ERROR_CODES.length);
    for (const code of [
      'INVALID_REQUEST',
      'TOOL_NOT_FOUND',
      'ABORTED',
      'REFUSED',
      'PERMISSION_DENIED',
      'TOOL_DISABLED',
      'BUDGET_EXCEEDED',
      'INVALID_ARGUMENTS',
      'SCHEMA_INVALID',
      'APPROVAL_REJECTED',
      'APPROVAL_UNAVAILABLE',
      'APPROVAL_FAILED',
      'TIMEOUT',
      'QUEUE_FULL',
      'TOOL_FAILED',
      'TOOL_ERROR',
      'OUTPUT_INVALID',
      'STEP_FAILED',
      'COMPOSITION_TOO_DEEP',
      'ALREADY_REGISTERED',
      'SHUTTING_DOWN',
    ]) {
      expect(TOOL_ERROR_CODES).toContain(code);
    }
  });
});

describe('truncateText / describeThrown / asError', () => {
  it('keeps short text and shortens long text, saying how much was cut', () => {
    expect(truncateText('abc', 5)).toBe('abc');
    expect(truncateText('a'.repeat(10), 4)).toBe('aaaa… (6 more characters)');
  });

  it('describes any thrown value', () => {
    expect(describeThrown(new Error('boom'))).toBe('boom');
    expect(describeThrown('text')).toBe('text');
    expect(describeThrown(42)).toBe('42');
    expect(describeThrown(Object.create(null))).toBe('unprintable value');
    expect(describeThrown('x'.repeat(5000)).length).toBeLessThan(1100);
  });

  it('makes any thrown value an Error, keeping one that is', () => {
    const error = new TypeError('bad');
    expect(asError(error)).toBe(error);
    expect(asError('text')).toEqual(new Error('text'));
    expect(asError(Object.create(null)).message).toBe('unprintable value');
  });
});
