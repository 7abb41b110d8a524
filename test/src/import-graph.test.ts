import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/temp-project.js';

/** One static import or re-export (`import type` too: a cycle of types is a cycle a reader walks). */
interface ImportEdge {
  from: string;
  to: string;
}

// `import … from './x.js'`, `import type …`, `import './x.js'`, `export … from './x.js'` at the start of a line (so not in JSDoc).
const STATIC_IMPORT = /^[ \t]*(?:import|export)[ \t]+(?:[^'";]*?[ \t\n]from[ \t]*)?['"](\.\.?\/[^'"]+)['"]/gm;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

/** The relative static imports between the modules under `folder`, read with a regular expression (no compiler). */
function importEdges(folder: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(folder)) {
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const target = path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, '.ts'));
      edges.push({ from: path.relative(REPO, file), to: path.relative(REPO, target) });
    }
  }
  return edges;
}

/** Tarjan's strongly connected components: each module → the id of its component. */
function components(edges: ImportEdge[]): Map<string, number> {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
    if (!next.has(edge.to)) next.set(edge.to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const component = new Map<string, number>();
  const stack: string[] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    for (const target of next.get(node)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (!component.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      let member: string;
      do {
        member = stack.pop()!;
        component.set(member, index.get(node)!);
      } while (member !== node);
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return component;
}

/**
 * The imports that lie on a cycle: an edge whose two ends are in one component. Type imports count:
 * declarations that need each other belong in one module, or their shared part in a module of its
 * own (as tool-description.ts is for tool.ts and context.ts).
 */
function cyclicImports(edges: ImportEdge[]): string[] {
  const component = components(edges);
  return edges
    .filter((edge) => component.get(edge.from) === component.get(edge.to))
    .map((edge) => `${edge.from} → ${edge.to}`);
}

describe('the import graph of src/', () => {
  it('has no cycle, type imports included', () => {
    expect(cyclicImports(importEdges(path.join(REPO, 'src')))).toEqual([]);
  });

  it('composed.ts and orchestrator.ts do not import each other, not even for types', () => {
    const edges = importEdges(path.join(REPO, 'src'));
    const between = edges.filter(
      (edge) =>
        (edge.from === 'src/composed.ts' && edge.to === 'src/orchestrator.ts') ||
        (edge.from === 'src/orchestrator.ts' && edge.to === 'src/composed.ts'),
    );
    expect(between).toEqual([]);
  });

  it('the check finds a cycle when there is one, of types too (and reads multi-line and type imports)', () => {
    const edges: ImportEdge[] = [
      { from: 'a.ts', to: 'b.ts' },
      { from: 'b.ts', to: 'c.ts' },
      { from: 'c.ts', to: 'a.ts' },
      { from: 'c.ts', to: 'd.ts' },
      { from: 'x.ts', to: 'y.ts' },
      { from: 'y.ts', to: 'x.ts' },
    ];
    expect(cyclicImports(edges)).toEqual(['a.ts → b.ts', 'b.ts → c.ts', 'c.ts → a.ts', 'x.ts → y.ts', 'y.ts → x.ts']);
    const text =
      "import {\n  a,\n  type B,\n} from './a.js';\nimport type { C } from '../c.js';\n * import { x } from './doc.js';\nexport * from './d.js';\n";
    expect([...text.matchAll(STATIC_IMPORT)].map((match) => match[1])).toEqual(['./a.js', '../c.js', './d.js']);
  });
});
