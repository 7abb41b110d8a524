/**
 * A faster way for Ajv's code generator to count the names its generated code uses, giving the same
 * counts, so the same code. Why: Ajv's optimization pass (`CodeGen.optimize`) starts by asking the
 * root of the code tree for its `names` (how often each variable is used), and every block node
 * answers with a new object into which it copies the counts of each of its children: a count is
 * copied once per block around it, and validators nest deeply. That copying was 1.0 of Ajv's 4.6 s
 * compiling the 1,000-tool bench corpus (its CPU profile), the largest single cost of a full generate.
 *
 * What changes: a block node adds its children's counts into the object its first block child
 * answered, instead of into a new one. That object was made for this call only (every block node's
 * `names` is a new object, the subclasses' getters add into the one they get from `super.names`), so
 * nothing else sees it changed; a leaf's counts may be its expression's cached object, so a leaf is
 * added, never adopted. Addition of counts does not depend on order, and Ajv only looks the counts
 * up, so every count, hence the generated code, is the same (test/codegen/ajv-names.test.ts compares
 * the code with and without it over the field corpus, the examples and a bench corpus).
 *
 * Only for the Ajv this project pins (`AJV_VERSION`): another version keeps its own getter until
 * the test is run against it and the version is updated here.
 */
import { createRequire } from 'node:module';
import { CodeGen, ValueScope } from 'ajv/dist/compile/codegen/index.js';

/** The Ajv release whose code tree this was checked against (package.json pins it). */
export const AJV_VERSION = '8.20.0';

type Counts = Record<string, number>;
interface CodeNode {
  readonly names: Counts;
}
interface BlockNode extends CodeNode {
  readonly nodes: CodeNode[];
}

/** Ajv's block-node prototype (the class of the code tree's root and of every block) and its own `names` getter. */
function blockPrototype(): { prototype: object; shipped: PropertyDescriptor } | undefined {
  const installed = (createRequire(import.meta.url)('ajv/package.json') as { version: string }).version;
  if (installed !== AJV_VERSION) return undefined;
  const root = (new CodeGen(new ValueScope({ scope: {} })) as unknown as { _root: object })._root;
  const prototype = Object.getPrototypeOf(Object.getPrototypeOf(root)) as object;
  const shipped = Object.getOwnPropertyDescriptor(prototype, 'names');
  if (shipped?.get === undefined || !Array.isArray((root as Partial<BlockNode>).nodes)) return undefined;
  return { prototype, shipped };
}

const block = blockPrototype();

/** The block node's counts: its children's, added into its first block child's object. */
function blockNames(this: BlockNode): Counts {
  const Block = (block!.prototype as { constructor: abstract new (...args: never[]) => unknown }).constructor;
  let counts: Counts | undefined;
  const rest: Counts[] = [];
  for (const node of this.nodes) {
    const names = node.names;
    if (counts === undefined && node instanceof Block) counts = names;
    else rest.push(names);
  }
  counts ??= {};
  for (const from of rest) for (const name in from) counts[name] = (counts[name] || 0) + (from[name] || 0);
  return counts;
}

const faster: PropertyDescriptor = { get: blockNames, configurable: true, enumerable: false };

/** Puts the faster getter in place (idempotent); false when the installed Ajv is not the one checked. */
export function useFasterAjvNames(): boolean {
  if (block === undefined) return false;
  Object.defineProperty(block.prototype, 'names', faster);
  return true;
}

/** Runs `work` with Ajv's own getter (for the test that compares both), then puts back what was there. */
export function withShippedAjvNames<T>(work: () => T): T {
  if (block === undefined) return work();
  const current = Object.getOwnPropertyDescriptor(block.prototype, 'names')!;
  Object.defineProperty(block.prototype, 'names', block.shipped);
  try {
    return work();
  } finally {
    Object.defineProperty(block.prototype, 'names', current);
  }
}
