import { truncateText } from '../errors.js';
import type { ToolCallErrorDetails } from '../orchestrator.js';

/** Validation issues listed one per line; the rest are counted. */
const MAX_LISTED_ISSUES = 20;
/** The longest JSON of other details shown. */
const MAX_DETAILS_LENGTH = 4000;

/**
 * The text of a failed call, for a model or an MCP client: `CODE: message`, then one line per
 * validation issue (`- /pointer: message`; with `pointerOnce`, as the framework adapters send it,
 * the pointer is not repeated when the message starts with it), or the other details as JSON. Total:
 * details that cannot be read give a line saying so. A string detail the message already ends with
 * (`…was not approved: <reason>` with `details.reason`) is not repeated. The MCP server and the
 * adapters share it.
 */
export function formatCallError(error: ToolCallErrorDetails, options: { pointerOnce?: boolean } = {}): string {
  const first = `${error.code}: ${error.message}`;
  try {
    return formatDetails(first, error.details, options.pointerOnce === true);
  } catch {
    return `${first}\nDetails: (not readable)`; // details from a tool that cannot even be read
  }
}

function formatDetails(first: string, details: Record<string, any> | undefined, pointerOnce: boolean): string {
  const lines = [first];
  if (details !== undefined && details !== null) {
    const { errors, ...rest } = details as { errors?: unknown; [key: string]: unknown };
    if (Array.isArray(errors)) {
      for (const issue of errors.slice(0, MAX_LISTED_ISSUES)) {
        const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown };
        const at = typeof path === 'string' && path !== '' ? path : '(root)';
        const text = typeof message === 'string' ? message : 'invalid';
        lines.push(`- ${pointerOnce && text.startsWith(`${at} `) ? text : `${at}: ${text}`}`);
      }
      if (errors.length > MAX_LISTED_ISSUES) lines.push(`- (and ${errors.length - MAX_LISTED_ISSUES} more)`);
    } else if (errors !== undefined) {
      rest.errors = errors;
    }
    for (const key of Object.keys(rest)) {
      const value = rest[key];
      if (typeof value === 'string' && value !== '' && first.endsWith(value)) delete rest[key];
    }
    if (Object.keys(rest).length > 0) lines.push(`Details: ${truncateText(safeJson(rest), MAX_DETAILS_LENGTH)}`);
  }
  return lines.join('\n');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '(details not serializable)';
  }
}
