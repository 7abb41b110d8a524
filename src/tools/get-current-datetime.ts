/**
 * Implementation of the tool `get_current_datetime` (schemas/utility/get_current_datetime.tool.json).
 * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../index.js';
import { GetCurrentDatetimeToolBase } from '../../generated/tools/get-current-datetime.base.js';
import type { GetCurrentDatetimeInput, GetCurrentDatetimeOutput } from '../../generated/types/get-current-datetime.js';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** Options of the tool; `now` lets tests fix the clock. */
export interface GetCurrentDatetimeOptions {
  now?: () => Date;
}

/** `get_current_datetime`: the current time in an IANA time zone, via `Intl` (no time zone database of ours). */
export class GetCurrentDatetimeTool extends GetCurrentDatetimeToolBase {
  readonly #now: () => Date;

  constructor(options: GetCurrentDatetimeOptions = {}) {
    super();
    this.#now = options.now ?? (() => new Date());
  }

  /** Rejects a time zone `Intl` does not know, as an argument error naming the field. */
  validateArgs(args: Record<string, any>): { isValid: boolean; errors?: any[] } {
    const timeZone = args.timeZone ?? 'UTC';
    if (typeof timeZone === 'string' && isTimeZone(timeZone)) return { isValid: true };
    return {
      isValid: false,
      errors: [
        {
          path: '/timeZone',
          keyword: 'timeZone',
          params: { timeZone },
          message: `"${String(timeZone).slice(0, 64)}" is not an IANA time zone (e.g. "Europe/Paris", "UTC")`,
        },
      ],
    };
  }

  async execute(
    args: GetCurrentDatetimeInput,
    _context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<GetCurrentDatetimeOutput>> {
    const timeZone = args.timeZone ?? 'UTC';
    const locale = args.locale ?? 'en-US';
    if (!isTimeZone(timeZone)) return { success: false, error: `"${timeZone}" is not an IANA time zone` };
    const now = this.#now();
    const parts = zonedParts(now, timeZone);
    const pad = (value: number, width = 2) => String(value).padStart(width, '0');
    const iso = `${pad(parts.year, 4)}-${pad(parts.month)}-${pad(parts.day)}T${pad(parts.hour)}:${pad(parts.minute)}:${pad(parts.second)}${parts.offset}`;
    const text = new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'full', timeStyle: 'long' }).format(now);
    const { offset: _offset, ...calendar } = parts;
    return { success: true, output: { timeZone, iso, utc: now.toISOString(), text, parts: calendar } };
  }
}

/** True when `Intl` accepts the time zone. */
function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function zonedParts(date: Date, timeZone: string) {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    weekday: 'long',
    timeZoneName: 'longOffset',
  });
  const get = (type: string) => format.formatToParts(date).find((part) => part.type === type)?.value ?? '';
  const zoneName = get('timeZoneName');
  const offset = zoneName === 'GMT' ? '+00:00' : zoneName.replace(/^GMT/, '');
  const weekday = get('weekday') as (typeof WEEKDAYS)[number];
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
    weekday: WEEKDAYS.includes(weekday) ? weekday : WEEKDAYS[0],
    offset,
  };
}
