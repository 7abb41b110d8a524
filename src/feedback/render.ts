/**
 * The text (or JSON) a model gets for a failed call: the one formatter the MCP server, `toolsmith
 * call` and the framework adapters use. Arguments that do not fit are answered with each problem
 * once, at its path, in plain words (`problems.ts`); when the arguments are small, echoed back with
 * each problem marked on its line. Bounded (`maxLength`, 1,500 characters by default) and
 * deterministic: the same failure always gives the same text.
 */
import type { ToolCallErrorDetails, ToolCallResult } from '../pipeline/types.js';
import { escapePointerSegment, unescapePointerSegment } from '../schema/json-pointer.js';
import type { ArgumentProblem } from './problems.js';
import { count, jsonText, safeJson } from './schema-words.js';

/** Default of `maxLength`: the longest feedback text. */
export const DEFAULT_MAX_FEEDBACK_LENGTH = 1500;

/** How feedback is rendered. */
export interface FeedbackOptions {
  /** The longest text (default `DEFAULT_MAX_FEEDBACK_LENGTH`); what does not fit is counted, not shown. */
  maxLength?: number;
}

/** The shortest `maxLength` honoured (a smaller one still gets the code and the start of the message). */
const MIN_LENGTH = 80;

/**
 * The text of a failed call for a model: `CODE: message`, then for arguments that do not fit, the
 * arguments echoed with each problem marked (`"unit": "kelvinn", // error: expected one of …`) or,
 * when they are not small, one line per problem (`- /unit: expected one of …; received "kelvinn"`);
 * for other failures, their validation issues or details. At most `maxLength` characters.
 */
export function feedbackText(result: ToolCallResult, options: FeedbackOptions = {}): string {
  const max = maxLengthOf(options);
  const error = errorOf(result);
  let text: string;
  try {
    const problems = error.code === 'INVALID_ARGUMENTS' ? problemsIn(error.details) : undefined;
    text =
      problems === undefined
        ? failureText(error, max)
        : argumentsText(argumentsHeader(result.toolName), problems, error.details!.arguments, max);
  } catch {
    text = `${error.code}: ${error.message}\nDetails: (not readable)`; // details from a tool that cannot even be read
  }
  return clip(text, max);
}

/**
 * The same feedback as one JSON object's text, for a target whose tool results must be JSON:
 * `{ code, message, problems: [{ path, message, received }], omitted }` for arguments that do not
 * fit (problems that do not fit in `maxLength` are counted in `omitted`), else `{ code, message,
 * details }` (details too long for `maxLength` given as truncated text).
 */
export function feedbackJson(result: ToolCallResult, options: FeedbackOptions = {}): string {
  const max = maxLengthOf(options);
  const error = errorOf(result);
  let problems: ArgumentProblem[] | undefined;
  try {
    problems = error.code === 'INVALID_ARGUMENTS' ? problemsIn(error.details) : undefined;
  } catch {
    problems = undefined;
  }
  if (problems !== undefined) {
    const shown = [...problems];
    const message = argumentsHeader(result.toolName);
    let text = JSON.stringify({ code: error.code, message, problems: shown });
    while (text.length > max && shown.length > 0) {
      shown.pop();
      text = JSON.stringify({ code: error.code, message, problems: shown, omitted: problems.length - shown.length });
    }
    if (text.length <= max) return text;
  }
  const payload: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.failure !== undefined) payload.failure = error.failure;
  const details = safeJson(detailsOf(error));
  if (details !== undefined) payload.details = JSON.parse(details);
  let text = JSON.stringify(payload);
  if (text.length > max && details !== undefined) {
    const room = max - JSON.stringify({ ...payload, details: '' }).length;
    payload.details = clip(details, Math.max(room - 8, 0));
    text = JSON.stringify(payload);
  }
  if (text.length > max) {
    const room = max - JSON.stringify({ code: error.code, message: '' }).length;
    text = JSON.stringify({ code: error.code, message: clip(error.message, Math.max(room - 8, 0)) });
  }
  return text;
}

/**
 * The argument values a call converted to fit the input schema, one line each
 * (`/value: "212" was read as 212`); empty when none were.
 */
export function coercionText(result: ToolCallResult): string {
  return (result.coercions ?? [])
    .map(
      ({ path, from, to }) => `${path === '' ? '(root)' : path}: ${jsonText(from, 60)} was read as ${jsonText(to, 60)}`,
    )
    .join('\n');
}

function maxLengthOf(options: FeedbackOptions): number {
  const max = options.maxLength ?? DEFAULT_MAX_FEEDBACK_LENGTH;
  return Number.isFinite(max) ? Math.max(Math.floor(max), MIN_LENGTH) : DEFAULT_MAX_FEEDBACK_LENGTH;
}

function errorOf(result: ToolCallResult): ToolCallErrorDetails {
  return result.errorDetails ?? { code: 'TOOL_ERROR', message: `Tool '${result.toolName}' failed without details.` };
}

function argumentsHeader(toolName: string): string {
  return `The arguments for tool '${toolName}' do not fit its input schema. Fix them and call again.`;
}

/** The `problems` of an `INVALID_ARGUMENTS` failure's details, when it has them. */
function problemsIn(details: Record<string, any> | undefined): ArgumentProblem[] | undefined {
  const problems: unknown = details?.problems;
  if (!Array.isArray(problems)) return undefined;
  return problems.filter(
    (problem): problem is ArgumentProblem =>
      problem !== null &&
      typeof problem === 'object' &&
      typeof problem.path === 'string' &&
      typeof problem.message === 'string' &&
      (problem.received === undefined || typeof problem.received === 'string'),
  );
}

/**
 * The lines of a declared failure (`errorDetails.failure`): its code, whether trying again may pass,
 * what the tool's definition says to do, and its data.
 */
function declaredLines(error: ToolCallErrorDetails): string[] {
  const failure = error.failure;
  if (failure === undefined) return [];
  const retry = failure.retryable ? 'trying the same call again later may succeed' : 'the same call will fail again';
  const lines = [`${failure.code} (${retry}): ${failure.description}`];
  if (failure.data !== undefined) lines.push(`Data: ${safeJson(failure.data) ?? '(not serializable)'}`);
  return lines;
}

/**
 * The details to show: without the tool's mirror of a declared failure's code and data
 * (`toolFailure`), which is told once from `errorDetails.failure`; undefined when nothing is left.
 */
function detailsOf(error: ToolCallErrorDetails): Record<string, unknown> | undefined {
  const details = error.details ?? undefined;
  if (details === undefined || error.failure === undefined || !('failure' in details)) return details;
  const { failure: _mirror, ...rest } = details;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** Cuts `text` to `max` characters, the cut marked with `…`. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(max - 1, 0))}…`;
}

/** The arguments echoed with each problem marked when that fits in `max`, else one line per problem. */
function argumentsText(header: string, problems: ArgumentProblem[], args: unknown, max: number): string {
  const first = `INVALID_ARGUMENTS: ${header}`;
  if (args !== null && typeof args === 'object') {
    const echo = echoArguments(args, problems);
    const unplaced = problems.filter((problem) => !echo.placed.has(problem));
    const text = [first, ...echo.lines, ...unplaced.map(problemLine)].join('\n');
    if (text.length <= max) return text;
  }
  return [first, ...fittingLines(problems.map(problemLine), max - first.length - 1, 'problem')].join('\n');
}

function problemLine(problem: ArgumentProblem): string {
  const received = problem.received === undefined ? '' : ` (received ${problem.received})`;
  return `- ${problem.path === '' ? '(root)' : problem.path}: ${problem.message}${received}`;
}

/** The lines that fit in `room` characters (joined by line breaks), the rest counted in a last line. */
function fittingLines(lines: readonly string[], room: number, what: string): string[] {
  const shown: string[] = [];
  let used = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const left = lines.length - index - 1;
    const reserve = left > 0 ? 40 : 0; // room for the "… and N more" line
    if (used + line.length + 1 + reserve > room) {
      shown.push(`- … and ${count(lines.length - index, `more ${what}`)}`);
      return shown;
    }
    shown.push(line);
    used += line.length + 1;
  }
  return shown;
}

/** The arguments as indented JSON with `// error: …` after the line of each problem's value. */
function echoArguments(
  args: object,
  problems: readonly ArgumentProblem[],
): { lines: string[]; placed: Set<ArgumentProblem> } {
  const byPath = new Map<string, ArgumentProblem[]>();
  for (const problem of problems) byPath.set(problem.path, [...(byPath.get(problem.path) ?? []), problem]);
  const placed = new Set<ArgumentProblem>();
  const lines: string[] = [];
  const marker = (path: string): string => {
    const here = byPath.get(path);
    if (here === undefined) return '';
    for (const problem of here) placed.add(problem);
    return ` // error: ${here.map((problem) => problem.message).join('; ')}`;
  };
  const write = (value: unknown, path: string, indent: string, key: string, comma: string): void => {
    if (value === null || typeof value !== 'object') {
      lines.push(`${indent}${key}${jsonText(value, Number.POSITIVE_INFINITY)}${comma}${marker(path)}`);
      return;
    }
    const isArray = Array.isArray(value);
    const entries: Array<[string, unknown]> = isArray
      ? value.map((item, index) => [String(index), item])
      : Object.entries(value);
    const missing = isArray ? [] : missingHere(byPath, path, value);
    const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0 && missing.length === 0) {
      lines.push(`${indent}${key}${open}${close}${comma}${marker(path)}`);
      return;
    }
    lines.push(`${indent}${key}${open}${marker(path)}`);
    entries.forEach(([name, item], index) => {
      const childKey = isArray ? '' : `${JSON.stringify(name)}: `;
      write(
        item,
        `${path}/${escapePointerSegment(name)}`,
        `${indent}  `,
        childKey,
        index < entries.length - 1 ? ',' : '',
      );
    });
    for (const [name, problem] of missing) {
      placed.add(problem);
      lines.push(`${indent}  // error at ${JSON.stringify(name)}: ${problem.message}`);
    }
    lines.push(`${indent}${close}${comma}`);
  };
  write(args, '', '', '', '');
  return { lines, placed };
}

/** The problems at a property of the object at `path` that the object does not have (a missing required one). */
function missingHere(
  byPath: ReadonlyMap<string, ArgumentProblem[]>,
  path: string,
  object: object,
): Array<[string, ArgumentProblem]> {
  const missing: Array<[string, ArgumentProblem]> = [];
  for (const [at, problems] of byPath) {
    if (!at.startsWith(`${path}/`)) continue;
    const rest = at.slice(path.length + 1);
    if (rest.includes('/')) continue;
    const name = unescapePointerSegment(rest);
    if (Object.prototype.hasOwnProperty.call(object, name)) continue;
    for (const problem of problems) missing.push([name, problem]);
  }
  return missing;
}

/** `CODE: message`, then each validation issue on its own line (its path once), or the other details as JSON. */
function failureText(error: ToolCallErrorDetails, max: number): string {
  const first = `${error.code}: ${error.message}`;
  const declared = declaredLines(error);
  const details = detailsOf(error);
  if (details === undefined) return [first, ...declared].join('\n');
  const { errors, ...rest } = details as { errors?: unknown; [key: string]: unknown };
  const lines = [first, ...declared];
  if (Array.isArray(errors)) {
    const issueLines = errors.map((issue) => {
      const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown };
      const at = typeof path === 'string' && path !== '' ? path : '(root)';
      const text = typeof message === 'string' ? message : 'invalid';
      return `- ${at}: ${text.startsWith(`${at} `) ? text.slice(at.length + 1) : text}`;
    });
    lines.push(...fittingLines(issueLines, max - first.length - 1, 'issue'));
  } else if (errors !== undefined) {
    rest.errors = errors;
  }
  for (const key of Object.keys(rest)) {
    const value = rest[key];
    // A reason the message already ends with (`…was not approved: <reason>`) is not said twice.
    if (typeof value === 'string' && value !== '' && first.endsWith(value)) delete rest[key];
  }
  if (Object.keys(rest).length > 0) lines.push(`Details: ${safeJson(rest) ?? '(details not serializable)'}`);
  return lines.join('\n');
}
