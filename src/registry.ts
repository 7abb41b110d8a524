import { ToolsmithError, truncateText } from './errors.js';
import { editDistance } from './text/nearest-name.js';
import type { ITool } from './tool.js';

/** Longest name `nearestNames` compares (tool names are at most 64 characters). */
const MAX_COMPARED_LENGTH = 64;

/**
 * Name → entry, with exact-match lookup only: a name differing in case or with extra spaces is
 * not a match. Entries are tools by default; the executor keeps its prepared entries here.
 */
export class ToolRegistry<TEntry extends { readonly name: string } = ITool> {
  readonly #entries = new Map<string, TEntry>();
  #revision = 0;

  /** A number that changes with every add, delete and clear: what is derived from the entries may be kept while it stays. */
  get revision(): number {
    return this.#revision;
  }

  /** How many entries are registered. */
  get size(): number {
    return this.#entries.size;
  }

  /** The entry registered under exactly `name`. */
  get(name: string): TEntry | undefined {
    return this.#entries.get(name);
  }

  /** Whether an entry is registered under exactly `name`. */
  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** Adds `entry`; a taken name throws `ALREADY_REGISTERED` unless `replace` is set. Returns the replaced entry. */
  add(entry: TEntry, options: { replace?: boolean } = {}): TEntry | undefined {
    if (!options.replace) this.assertAvailable(entry.name);
    const previous = this.#entries.get(entry.name);
    this.#entries.set(entry.name, entry);
    this.#revision++;
    return previous;
  }

  /** Throws `ALREADY_REGISTERED` when `name` is taken. */
  assertAvailable(name: string): void {
    if (this.#entries.has(name)) {
      throw new ToolsmithError(
        'ALREADY_REGISTERED',
        `A tool named '${truncateText(name)}' is already registered. Unregister it first or register with { replace: true }.`,
        { details: { name } },
      );
    }
  }

  /** Removes and returns the entry under exactly `name`. */
  delete(name: string): TEntry | undefined {
    const entry = this.#entries.get(name);
    if (this.#entries.delete(name)) this.#revision++;
    return entry;
  }

  /** Removes every entry. */
  clear(): void {
    this.#entries.clear();
    this.#revision++;
  }

  /** Registered names, in registration order. */
  names(): string[] {
    return [...this.#entries.keys()];
  }

  /** Registered entries, in registration order. */
  values(): TEntry[] {
    return [...this.#entries.values()];
  }

  /** Up to `limit` registered names closest to `name` by edit distance (ties by plain string order). */
  nearestNames(name: string, limit = 3): string[] {
    const probe = name.slice(0, MAX_COMPARED_LENGTH);
    const scored = this.names().map((candidate) => ({
      name: candidate,
      distance: editDistance(probe, candidate.slice(0, MAX_COMPARED_LENGTH)),
    }));
    scored.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return scored.slice(0, limit).map((entry) => entry.name);
  }

  /** The `TOOL_NOT_FOUND` message for `name`: what was asked and the nearest registered names. */
  notFoundMessage(name: string): string {
    const shown = truncateText(JSON.stringify(name).slice(1, -1), 100);
    if (this.#entries.size === 0) return `Tool '${shown}' not found. No tools are registered.`;
    return `Tool '${shown}' not found. Nearest registered: ${this.nearestNames(name).join(', ')}. Names match exactly (case and spaces count).`;
  }
}
