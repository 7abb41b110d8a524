/*
 * The pieces manifest assembly is made of: the buffer that puts the tools' parts in name order, one
 * file being written as a head, entries and a tail, with each entry's byte range, and the generated
 * files the manifests are given as.
 */
import { compareStrings } from '../../../src/manifest-targets/build.js';
import type { FileSegments, FileWriter, GeneratedFile } from '../../model.js';

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

/** How an assembled file gets its writer, at its first bytes: the run's output (`EmitOutput.open`), or memory. */
export type OpenFile = (path: string) => FileWriter;

/**
 * One file being assembled: a head, the tools' entries joined by a separator, a tail, each piece
 * handed as bytes to the writer `open` gives at the first of them (the run's output, or memory); each
 * entry's byte range is recorded (`segments`) for a later run's splice.
 */
export class AssembledFile {
  readonly segments: FileSegments = { tools: [], ranges: [] };
  private writer: FileWriter | undefined;
  private offset = 0;

  constructor(
    readonly path: string,
    /** `empty`: the whole file when no entry was written (without it, such a file is its tail alone). */
    readonly layout: { head: string; separator: string; tail: string; empty?: string },
    private readonly open: OpenFile,
  ) {}

  /** Whether an entry was written. */
  get opened(): boolean {
    return this.writer !== undefined;
  }

  append(tool: string, text: string): void {
    this.write(this.opened ? this.layout.separator : this.layout.head);
    const start = this.offset;
    this.write(text);
    this.segments.tools.push(tool);
    this.segments.ranges.push(start, this.offset);
  }

  /** Ends the file with its tail (`tail`, else its layout's); with no entry written, it is its layout's `empty` where it has one. */
  close(tail = this.layout.tail): void {
    this.write(!this.opened && this.layout.empty !== undefined ? this.layout.empty : tail);
    this.writer!.close();
  }

  private write(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    (this.writer ??= this.open(this.path)).write(bytes);
    this.offset += bytes.length;
  }
}

/** A writer that keeps the file `path` in memory: once closed, `keep` gets it as pieces of bytes. */
export function memoryWriter(path: string, keep: (file: GeneratedFile) => void): FileWriter {
  const chunks: Buffer[] = [];
  return { write: (bytes) => void chunks.push(bytes), close: () => keep(chunksFile(path, chunks)) };
}

/** A generated file given as pieces of bytes (assembled or spliced); its text is decoded only if asked for. */
export function chunksFile(path: string, chunks: readonly Buffer[], onDisk?: GeneratedFile['onDisk']): GeneratedFile {
  let content: string | undefined;
  return {
    path,
    kind: 'generated',
    preformatted: true,
    chunks,
    ...(onDisk !== undefined ? { onDisk } : {}),
    get content(): string {
      return (content ??= Buffer.concat(chunks).toString('utf8'));
    },
  };
}

/** A generated file of the manifests given whole, laid out as it is. */
export function textFile(path: string, content: string): GeneratedFile {
  return { path, content, kind: 'generated', preformatted: true };
}
