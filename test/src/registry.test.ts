import { describe, expect, it } from 'vitest';
import { ToolRegistry, ToolsmithError } from '../../src/index.js';
import { editDistance } from '../../src/text/nearest-name.js';
import { makeTool } from './helpers.js';

describe('ToolRegistry', () => {
  it('changes its revision with every add, replace, delete and clear, and only then', () => {
    const registry = new ToolRegistry();
    const seen = [registry.revision];
    registry.add(makeTool('a'));
    seen.push(registry.revision);
    registry.add(makeTool('a'), { replace: true });
    seen.push(registry.revision);
    registry.get('a');
    registry.delete('missing');
    expect(registry.revision).toBe(seen.at(-1));
    registry.delete('a');
    seen.push(registry.revision);
    registry.clear();
    seen.push(registry.revision);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('looks names up exactly: case and spaces count', () => {
    const registry = new ToolRegistry();
    const tool = makeTool('web_search');
    registry.add(tool);
    expect(registry.get('web_search')).toBe(tool);
    expect(registry.get('Web_Search')).toBeUndefined();
    expect(registry.get(' web_search')).toBeUndefined();
    expect(registry.get('web_search ')).toBeUndefined();
    expect(registry.get('__proto__')).toBeUndefined();
    expect(registry.get('constructor')).toBeUndefined();
  });

  it('refuses a taken name with ALREADY_REGISTERED unless replace is asked for', () => {
    const registry = new ToolRegistry();
    const first = makeTool('calc');
    const second = makeTool('calc');
    registry.add(first);
    let thrown: unknown;
    try {
      registry.add(second);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolsmithError);
    expect((thrown as ToolsmithError).code).toBe('ALREADY_REGISTERED');
    expect(registry.get('calc')).toBe(first);
    expect(registry.add(second, { replace: true })).toBe(first);
    expect(registry.get('calc')).toBe(second);
  });

  it('suggests the nearest names by edit distance', () => {
    const registry = new ToolRegistry();
    for (const name of ['calculator', 'memory_read', 'memory_write', 'read_file']) registry.add(makeTool(name));
    expect(registry.nearestNames('memory_raed', 2)).toEqual(['memory_read', 'memory_write']);
    expect(registry.nearestNames('Calculator', 1)).toEqual(['calculator']);
    expect(registry.notFoundMessage('calculater')).toBe(
      "Tool 'calculater' not found. Nearest registered: calculator, read_file, memory_read. Names match exactly (case and spaces count).",
    );
    expect(new ToolRegistry().notFoundMessage('x')).toBe("Tool 'x' not found. No tools are registered.");
  });

  it('computes edit distances', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'SAME')).toBe(0);
  });

  it('deletes, lists and clears', () => {
    const registry = new ToolRegistry();
    registry.add(makeTool('a'));
    registry.add(makeTool('b'));
    expect(registry.names()).toEqual(['a', 'b']);
    expect(registry.delete('a')?.name).toBe('a');
    expect(registry.delete('a')).toBeUndefined();
    expect(registry.size).toBe(1);
    registry.clear();
    expect(registry.values()).toEqual([]);
  });
});
