/**
 * Files that list every tool — the manifests and the loss reports — are a head, one part per tool
 * (in tool-name order) joined by a separator, and a tail (laid out by `createManifestAssembler`).
 * Their byte ranges are recorded, so a run in which a few tools changed rewrites those parts inside
 * the previous file's bytes instead of converting and printing every tool again (files that grow with
 * the tool count).
 */
import type { FileSegments, GeneratedFile } from '../../model.js';
import { MANIFEST_TARGET_TABLE } from '../../../src/manifest-targets/table.js';
import type { EntryLookup } from './token-report.js';

/**
 * The previous file's bytes (as pieces: views of `previous` and the new parts) with the parts of the
 * tools in `replacements` replaced (and the bytes after the last part by `tail`, when given: the loss
 * report's token totals), the new ranges, and whether any bytes changed; undefined
 * when the recorded ranges do not fit the bytes (the caller rebuilds the file).
 */
export function splice(
  previous: Buffer,
  segments: FileSegments,
  replacements: ReadonlyMap<string, string>,
  tail?: string,
): { chunks: Buffer[]; segments: FileSegments; changed: boolean } | undefined {
  const { tools, ranges } = segments;
  if (ranges.length !== tools.length * 2) return undefined;
  const chunks: Buffer[] = [];
  const next: FileSegments = { tools: [...tools], ranges: [] };
  let copied = 0;
  let shift = 0;
  let lastEnd = 0;
  let changed = false;
  for (let index = 0; index < tools.length; index++) {
    const start = ranges[index * 2]!;
    const end = ranges[index * 2 + 1]!;
    // In order, not overlapping, inside the file.
    if (!(start >= lastEnd && end >= start && end <= previous.length)) return undefined;
    lastEnd = end;
    const text = replacements.get(tools[index]!);
    if (text === undefined) {
      next.ranges.push(start + shift, end + shift);
      continue;
    }
    const bytes = Buffer.from(text, 'utf8');
    changed ||= !bytes.equals(previous.subarray(start, end));
    chunks.push(previous.subarray(copied, start), bytes);
    next.ranges.push(start + shift, start + shift + bytes.length);
    shift += bytes.length - (end - start);
    copied = end;
  }
  if (tail === undefined || tools.length === 0) chunks.push(previous.subarray(copied));
  else {
    const bytes = Buffer.from(tail, 'utf8');
    changed ||= !bytes.equals(previous.subarray(lastEnd));
    chunks.push(previous.subarray(copied, lastEnd), bytes);
  }
  // The pieces, not joined: the staging tree writes them one after the other.
  return { chunks, segments: next, changed };
}

/** A tool's entry in a spliced file: a changed tool's new part, another's part of the last run's bytes. */
export function splicedEntryLookup(
  segments: Readonly<Record<string, FileSegments>>,
  replacements: ReadonlyMap<string, ReadonlyMap<string, string>>,
  read: ReadonlyMap<string, Buffer>,
): EntryLookup {
  return (tool, target) => {
    const file = MANIFEST_TARGET_TABLE[target].file;
    const text = replacements.get(file)?.get(tool);
    if (text !== undefined) return JSON.parse(text);
    const recorded = segments[file];
    const bytes = read.get(file);
    const index = recorded?.tools.indexOf(tool) ?? -1;
    if (recorded === undefined || bytes === undefined || index < 0) return undefined;
    return JSON.parse(bytes.subarray(recorded.ranges[index * 2]!, recorded.ranges[index * 2 + 1]!).toString('utf8'));
  };
}

/** A generated file given as pieces of bytes (a spliced manifest); its text is decoded only if asked for. */
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
