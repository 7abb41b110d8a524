import { Diagnostics } from '../../../codegen/problems.js';
import { parseSource, type SourceFile } from '../../../codegen/load.js';
import { ruleEnvironment } from '../../../codegen/normalize.js';
import type { DefinitionSubject, Rule } from '../../../codegen/rules/rule.js';

/** One environment for every rule test (its Ajv instances are what normalize makes per run). */
export const ENV = ruleEnvironment();

/** A source file from a JSON value, laid out with two-space indentation (so positions are predictable). */
export function sourceOf(relPath: string, value: unknown): SourceFile {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  return parseSource(relPath, `schemas/${relPath}`, text).source;
}

/** A definition subject for `definition` (in `a.tool.json`), with the dialects already decided if given. */
export function definitionSubject(
  definition: Record<string, unknown>,
  dialects: DefinitionSubject['dialects'] = new Map(),
): DefinitionSubject {
  const source = sourceOf('a.tool.json', definition);
  return { source, definition: source.value as Record<string, unknown>, env: ENV, dialects };
}

/** What a rule reported, compactly: `severity pointer line:column message`, in report order. */
function reported(diagnostics: Diagnostics): string[] {
  return diagnostics
    .problems()
    .map(
      (problem) =>
        `${problem.severity ?? 'error'} ${problem.file}:${problem.line}:${problem.column} ${problem.pointer} ${problem.message}`,
    );
}

/** Runs `rule` on `subject` and answers what it reported. */
export function runRule<S>(rule: Rule<S>, subject: S): { lines: string[]; diagnostics: Diagnostics } {
  const diagnostics = new Diagnostics();
  rule.run(subject, diagnostics);
  return { lines: reported(diagnostics), diagnostics };
}
