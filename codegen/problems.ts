import { editDistance } from '../src/registry.js';
import type { Problem } from './model.js';

/** `schemas/x.tool.json:3:5 /inputSchema/properties/q: message\n  hint: …` (a warning's message starts with `warning: `). */
export function formatProblem(problem: Problem): string {
  const where = `${oneLine(problem.file)}:${problem.line}:${problem.column}`;
  const pointer = problem.pointer === '' ? '' : ` ${oneLine(problem.pointer)}`;
  const hint = problem.hint ? `\n    hint: ${oneLine(problem.hint)}` : '';
  return `${where}${pointer}: ${isWarning(problem) ? 'warning: ' : ''}${oneLine(problem.message)}${hint}`;
}

/** Text from a definition (a file name, a key in a pointer or a message) on one line: line breaks and other control characters written as escapes (`\n`). */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (char) =>
    char === '\n'
      ? '\\n'
      : char === '\r'
        ? '\\r'
        : char === '\t'
          ? '\\t'
          : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The same problem as a warning: reported, but the run succeeds (unless `strict`). */
export function asWarning(problem: Problem): Problem {
  return { ...problem, severity: 'warning' };
}

/** True for a warning, false for an error. */
export function isWarning(problem: Problem): boolean {
  return problem.severity === 'warning';
}

/** Sorts problems by file, line, column, message (byte-stable). */
export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

/** The closest candidate within a small distance, for a "did you mean `x`?" hint. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

// The pointer helpers live in pointer.ts; re-exported for the modules that import them from here.
export { escapePointerSegment, parsePointer } from './pointer.js';
