/**
 * Files that list every tool — the manifests and the loss reports — are a head, one part per tool
 * (in tool-name order) joined by a separator, and a tail (laid out by `createManifestAssembler`).
 * Their byte ranges are recorded, so a run in which a few tools changed rewrites those parts inside
 * the previous file's bytes instead of converting and printing every tool again (files that grow with
 * the tool count). The splice decides only which parts are fresh (`spliceParts`) and writes them
 * (`spliceFiles`); the assembler closes the manifests the same way whichever made them.
 */
import type { FileSegments, GeneratedFile } from '../../model.js';
import { compareStrings } from '../../../src/manifest-targets/build.js';
import { chunksFile } from './assembled-file.js';
import { LOSS_REPORT_LAYOUT } from './loss-report.js';
import type { ManifestPlan } from './part.js';
import { TOKEN_REPORT_PATH, type EntryLookup } from './token-report.js';
import type { ToolManifests } from './types.js';

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
  if (!rangesFit(previous, segments)) return undefined;
  const { tools, ranges } = segments;
  const chunks: Buffer[] = [];
  const next: FileSegments = { tools: [...tools], ranges: [] };
  let copied = 0;
  let shift = 0;
  let lastEnd = 0;
  let changed = false;
  for (let index = 0; index < tools.length; index++) {
    const start = ranges[index * 2]!;
    const end = ranges[index * 2 + 1]!;
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

/** The previous run's manifest files, as far as `spliceParts` needs them. */
export interface PreviousManifests {
  segments: Readonly<Record<string, FileSegments>>;
  /** The bytes of a previous file, untouched since that run wrote it; undefined when they cannot be trusted. */
  read(path: string): Buffer | undefined;
}

/** Whether `segments` fit `bytes`: a range per tool, in order, not overlapping, inside the file. */
function rangesFit(bytes: Buffer, { tools, ranges }: FileSegments): boolean {
  if (ranges.length !== tools.length * 2) return false;
  let lastEnd = 0;
  for (let index = 0; index < tools.length; index++) {
    const start = ranges[index * 2]!;
    const end = ranges[index * 2 + 1]!;
    if (!(start >= lastEnd && end >= start && end <= bytes.length)) return false;
    lastEnd = end;
  }
  return true;
}

/** The last run's listing files with the fresh parts to write into them (`spliceParts`). */
export interface SpliceInput {
  /** By path, in the assembler's order (the targets' files, then the loss reports): the last run's bytes and ranges, and each fresh tool's new part. */
  files: Map<string, { bytes: Buffer; segments: FileSegments; parts: Map<string, string> }>;
  /** The last run's token report as its bytes, when it can be read. */
  tokenReport: Buffer | undefined;
  /** A tool's entry in a target: a fresh tool's new part, another's part of the last run's bytes. */
  entry: EntryLookup;
}

/**
 * What a splice writes: the last run's listing files of `plan` with the `fresh` parts (made by the
 * emission, with the options the run has) in place of the old ones. Only when the last run had exactly
 * the tools `names` (sorted) in the same files, every file readable with its ranges fitting its bytes,
 * and no fresh tool joins or leaves a target's list; otherwise undefined (every part is assembled).
 */
export function spliceParts(
  previous: PreviousManifests,
  names: readonly string[],
  plan: ManifestPlan,
  fresh: readonly ToolManifests[],
): SpliceInput | undefined {
  if (names.length === 0) return undefined;
  const targetPaths = plan.files.map((file) => file.path);
  const reports: string[] =
    targetPaths.length > 0 ? [LOSS_REPORT_LAYOUT.json.path, LOSS_REPORT_LAYOUT.markdown.path] : [];
  const present = new Set(names);
  const files: SpliceInput['files'] = new Map();
  for (const path of [...targetPaths, ...reports]) {
    const segments = previous.segments[path];
    const bytes = previous.read(path);
    if (segments === undefined || bytes === undefined || !rangesFit(bytes, segments)) return undefined;
    // The loss reports list every tool; a target's file, those it took (a subset, in name order).
    const fits = reports.includes(path)
      ? segments.tools.length === names.length && segments.tools.every((name, index) => name === names[index])
      : segments.tools.every(
          (name, index) => present.has(name) && (index === 0 || compareStrings(segments.tools[index - 1]!, name) < 0),
        );
    if (!fits) return undefined;
    files.set(path, { bytes, segments, parts: new Map() });
  }
  for (const part of fresh) {
    for (const [index, path] of targetPaths.entries()) {
      const entry = part.entries[index]!;
      const file = files.get(path)!;
      // A tool that joins or leaves a target's file changes its list: assembled instead.
      if ((entry !== null) !== file.segments.tools.includes(part.name)) return undefined;
      if (entry !== null) file.parts.set(part.name, entry);
    }
    if (part.lossText !== undefined) {
      files.get(LOSS_REPORT_LAYOUT.json.path)!.parts.set(part.name, part.lossText.json);
      files.get(LOSS_REPORT_LAYOUT.markdown.path)!.parts.set(part.name, part.lossText.markdown);
    }
  }
  const entry: EntryLookup = (tool, target) => {
    const { bytes, segments, parts } = files.get(plan.files.find((file) => file.target === target)!.path)!;
    const text = parts.get(tool);
    if (text !== undefined) return JSON.parse(text);
    const index = segments.tools.indexOf(tool);
    if (index < 0) return undefined;
    return JSON.parse(bytes.subarray(segments.ranges[index * 2]!, segments.ranges[index * 2 + 1]!).toString('utf8'));
  };
  return { files, tokenReport: previous.read(TOKEN_REPORT_PATH), entry };
}

/**
 * The spliced files (as pieces: views of the last run's bytes and the new parts), each with the bytes
 * after its last part replaced by `tails` where given, and their new ranges. Made from the bytes on
 * disk, a file says whether it differs from them (staging need not compare).
 */
export function spliceFiles(
  input: SpliceInput,
  tails: ReadonlyMap<string, string>,
): { files: Map<string, GeneratedFile>; segments: Record<string, FileSegments> } {
  const files = new Map<string, GeneratedFile>();
  const segments: Record<string, FileSegments> = {};
  for (const [path, { bytes, segments: recorded, parts }] of input.files) {
    const spliced = splice(bytes, recorded, parts, tails.get(path));
    // `spliceParts` checked every file's ranges.
    if (spliced === undefined) throw new Error(`the ranges of ${path} do not fit its bytes`);
    files.set(path, chunksFile(path, spliced.chunks, spliced.changed ? 'differs' : 'same'));
    segments[path] = spliced.segments;
  }
  return { files, segments };
}
