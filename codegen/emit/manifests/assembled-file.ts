/*
 * The pieces manifest assembly is made of: the buffer that puts the tools' parts in name order, and
 * one file being written as a head, entries and a tail, with each entry's byte range.
 */
import { compareStrings } from '../../../src/manifest-targets/build.js';
import type { FileSegments } from '../../model.js';

/** Where the assembler writes one file: its pieces in order, then `close`. */
export interface ManifestWriter {
  write(bytes: Buffer): void;
  close(): void;
}

/** Opens a manifest file for writing (the staging tree, or memory). */
export type OpenManifestFile = (path: string) => ManifestWriter;

/**
 * Takes items named `names` in any order and hands each to `deliver` in name order, as soon as
 * every name before it is in: what it holds is the items that came early.
 */
export class InNameOrder<T> {
  private readonly sorted: readonly string[];
  private readonly position: ReadonlyMap<string, number>;
  private readonly early = new Map<number, T>();
  private next = 0;

  constructor(
    names: readonly string[],
    private readonly deliver: (item: T) => void,
  ) {
    this.sorted = [...names].sort(compareStrings);
    this.position = new Map(this.sorted.map((name, index) => [name, index]));
  }

  /** How many names there are. */
  get size(): number {
    return this.sorted.length;
  }

  /** The first name whose item is not in yet (undefined once every item is in). */
  get missing(): string | undefined {
    return this.sorted[this.next];
  }

  add(name: string, item: T): void {
    const index = this.position.get(name);
    if (index === undefined || index < this.next || this.early.has(index))
      throw new Error(`the manifests got a part for "${name}" twice or for a tool they do not list`);
    this.early.set(index, item);
    for (let ready = this.early.get(this.next); ready !== undefined; ready = this.early.get(this.next)) {
      this.early.delete(this.next++);
      this.deliver(ready);
    }
  }
}

/**
 * One file being assembled: a head, the tools' entries joined by a separator, a tail. The writer is
 * opened with the first entry; each entry's byte range is recorded (`segments`) for later splicing.
 */
export class AssembledFile {
  readonly segments: FileSegments = { tools: [], ranges: [] };
  /** A tool listed in it is deferred (its tail then lists the search tool). */
  deferred = false;
  private writer: ManifestWriter | undefined;
  private offset = 0;

  constructor(
    readonly path: string,
    readonly layout: { head: string; separator: string; tail: string },
  ) {}

  /** Whether an entry was written (the writer is open). */
  get opened(): boolean {
    return this.writer !== undefined;
  }

  append(open: OpenManifestFile, tool: string, text: string): void {
    const lead = this.writer === undefined ? this.layout.head : this.layout.separator;
    this.writer ??= open(this.path);
    this.write(Buffer.from(lead, 'utf8'));
    const bytes = Buffer.from(text, 'utf8');
    this.segments.tools.push(tool);
    this.segments.ranges.push(this.offset, this.offset + bytes.length);
    this.write(bytes);
  }

  /** Writes the tail and closes the file. */
  close(): void {
    this.writer!.write(Buffer.from(this.layout.tail, 'utf8'));
    this.writer!.close();
  }

  /** Closes the file as it is (a run that stops). */
  abandon(): void {
    this.writer?.close();
  }

  private write(bytes: Buffer): void {
    this.writer!.write(bytes);
    this.offset += bytes.length;
  }
}
