/**
 * Which of a failed call's validation issues an `anyOf`/`oneOf` accounts for. Ajv reports the
 * issues of every branch it tried right before the keyword's own issue; they are folded into it, so
 * a model reads "expected any of: …" once instead of each branch's complaints. When exactly one
 * branch fits the value's kind (no wrong type, `const` or `enum` at the value itself, no wrong
 * discriminator: a property held to a `const`), that branch's issues say more: they are kept and
 * the summary dropped (`{ "kind": "circle", "radius": -1 }` is told `radius: expected a number >= 0`).
 *
 * A branch's issues are found by where they sit in the schema: under the branch (`…/oneOf/1/…`) or
 * under a definition the branch refers to (`#/definitions/Circle/…`, which Ajv reports for a `$ref`
 * it inlines). Issues from a validator Ajv does not inline (a shared type's own module) sit under
 * their own schema and stay separate problems.
 */
import { parsePointer, valueAt } from '../schema/json-pointer.js';
import { isObject, walkSchema } from '../schema/walk.js';
import type { ValidationIssue } from '../schema/validation.js';

/** Most definitions followed from one keyword's branches (each a place its issues may sit). */
const MAX_REFERENCED = 64;
/** How deep into a branch its `$ref`s are looked for. */
const MAX_BRANCH_DEPTH = 8;

/** What the union keywords account for: issues folded into a summary, and summaries dropped for a branch's own issues. */
export interface Folding {
  readonly folded: ReadonlySet<number>;
  readonly dropped: ReadonlySet<number>;
}

/** The folding of every failed `anyOf`/`oneOf` among `issues` (positions in `issues`). */
export function foldBranches(issues: readonly ValidationIssue[], schema: unknown): Folding {
  const folded = new Set<number>();
  const dropped = new Set<number>();
  issues.forEach((summary, at) => {
    if ((summary.keyword !== 'anyOf' && summary.keyword !== 'oneOf') || summary.schemaPath === undefined) return;
    const places = branchPlaces(summary.schemaPath, schema);
    const byBranch = branchIssues(issues, at, summary.path, places);
    // A oneOf that failed because several branches passed has no branch issues to prefer.
    const fitting = Array.isArray(summary.params.passingSchemas)
      ? []
      : [...byBranch.values()].filter((list) => list.every((index) => !isKindMismatch(issues[index]!, summary.path)));
    const kept = fitting.length === 1 ? new Set(fitting[0]) : undefined;
    if (kept !== undefined) dropped.add(at);
    for (const list of byBranch.values()) for (const index of list) if (!kept?.has(index)) folded.add(index);
  });
  return { folded, dropped };
}

/** Where each branch's issues sit in the schema (its own place, the definitions it refers to), and the definitions below them. */
interface BranchPlaces {
  readonly own: ReadonlyArray<readonly string[]>;
  readonly below: readonly string[];
}

function branchPlaces(schemaPath: string, schema: unknown): BranchPlaces {
  const branches = valueAt(schema, parsePointer(schemaPath));
  if (!Array.isArray(branches)) return { own: [], below: [] };
  const below = new Set<string>();
  const own = branches.map((branch, index) => {
    const places = [`${schemaPath}/${index}`];
    for (let node = branch; isObject(node) && typeof node.$ref === 'string' && places.length < 8;) {
      places.push(node.$ref);
      node = valueAt(schema, parsePointer(node.$ref));
    }
    collectReferences(branch, schema, below);
    return places;
  });
  return { own, below: [...below] };
}

/** Adds every local `$ref` reachable from `branch` (through the definitions it names) to `into`. */
function collectReferences(branch: unknown, schema: unknown, into: Set<string>): void {
  const pending = [branch];
  while (pending.length > 0 && into.size < MAX_REFERENCED) {
    walkSchema(
      pending.pop(),
      '',
      (node) => {
        const ref = node.$ref;
        if (typeof ref !== 'string' || !ref.startsWith('#') || into.has(ref) || into.size >= MAX_REFERENCED) return;
        into.add(ref);
        pending.push(valueAt(schema, parsePointer(ref)));
      },
      MAX_BRANCH_DEPTH,
    );
  }
}

/**
 * The issues right before the summary at `at` that its branches reported, by branch: the run of
 * issues at or below the summary's path sitting under a branch's place, each given to the branch
 * whose own place it last entered (issues under a shared definition stay with the branch before).
 */
function branchIssues(
  issues: readonly ValidationIssue[],
  at: number,
  path: string,
  places: BranchPlaces,
): Map<number, number[]> {
  const isUnder = (schemaPath: string | undefined, prefixes: readonly string[]) =>
    schemaPath !== undefined && prefixes.some((prefix) => schemaPath === prefix || schemaPath.startsWith(`${prefix}/`));
  const everyPlace = [...places.own.flat(), ...places.below];
  let start = at;
  while (start > 0) {
    const issue = issues[start - 1]!;
    if (!(issue.path === path || issue.path.startsWith(`${path}/`)) || !isUnder(issue.schemaPath, everyPlace)) break;
    start--;
  }
  const byBranch = new Map<number, number[]>();
  let branch = -1;
  for (let index = start; index < at; index++) {
    const entered = places.own.findIndex((prefixes) => isUnder(issues[index]!.schemaPath, prefixes));
    if (entered !== -1) branch = entered;
    if (branch === -1) continue;
    const list = byBranch.get(branch);
    if (list === undefined) byBranch.set(branch, [index]);
    else list.push(index);
  }
  return byBranch;
}

/** True for an issue saying the value is of another kind than the branch: its type, const or enum, or a discriminator's const. */
function isKindMismatch(issue: ValidationIssue, path: string): boolean {
  const kind = issue.keyword === 'type' || issue.keyword === 'const' || issue.keyword === 'enum';
  if (issue.path === path) return kind;
  const parent = issue.path.slice(0, issue.path.lastIndexOf('/'));
  return issue.keyword === 'const' && parent === path;
}
