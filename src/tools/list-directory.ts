/**
 * Implementation of the tool `list_directory` (schemas/files/list_directory.tool.json).
 * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ToolExecutionContext, ToolExecutionResult } from '../index.js';
import { ListDirectoryToolBase } from '../../generated/tools/list-directory.base.js';
import type {
  ListDirectoryEntry,
  ListDirectoryInput,
  ListDirectoryOutput,
} from '../../generated/types/list-directory.js';
import { defaultFilesRoot, pathRefusal, resolveInside } from './confine.js';
import type { FileToolOptions } from './read-file.js';

/** Defaults of the caps (the schema's `default`s; its `maximum`s bound what a caller may ask). */
const LIST_DIRECTORY_DEFAULTS = { depth: 2, maxEntries: 1000, maxBytes: 65536 } as const;

/** `,"children":[]`: what a folder's entry grows by once it has a children array. */
const CHILDREN_ARRAY_BYTES = Buffer.byteLength(',"children":[]');

interface Folder {
  /** The folder's entry in the output; undefined when it was left out (its entries are only counted). */
  node: ListDirectoryEntry | undefined;
  absolute: string;
  relative: string;
  /** Levels still to list below this folder, itself included. */
  depth: number;
}

/** What a listing has used of its caps so far. */
interface Listing {
  include: NonNullable<ListDirectoryInput['include']>;
  maxEntries: number;
  /** `maxBytes`: the most bytes of JSON the output may take. */
  budget: number;
  bytes: number;
  kept: number;
  omitted: number;
  /** A cap was reached: later entries are only counted. */
  full: boolean;
}

/**
 * `list_directory`: a folder under the root as a tree, sorted by name, symbolic links skipped.
 * The output is capped (`maxEntries` entries, `maxBytes` bytes of JSON): entries are kept in
 * breadth-first order — the folder's own entries before their children's — until a cap is
 * reached; `truncated` and `omitted` say how many were left out (the walk goes on counting them,
 * without reading file sizes).
 */
export class ListDirectoryTool extends ListDirectoryToolBase {
  readonly root: string;

  constructor(options: FileToolOptions = {}) {
    super();
    this.root = path.resolve(options.root ?? defaultFilesRoot());
  }

  /** `..` and absolute paths are refused before anything is asked or read (arguments are not validated yet). */
  refusal(args: ListDirectoryInput): ToolExecutionResult<ListDirectoryOutput> | undefined {
    const reason = typeof args.path === 'string' ? pathRefusal(args.path) : undefined;
    return reason ? { success: false, error: reason } : undefined;
  }

  async execute(
    args: ListDirectoryInput,
    context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<ListDirectoryOutput>> {
    const resolved = await resolveInside(this.root, args.path ?? '.');
    if (!resolved.ok) return { success: false, error: resolved.reason };
    if (!(await stat(resolved.absolute)).isDirectory())
      return { success: false, error: `"${args.path}" is not a folder` };
    const root: ListDirectoryEntry = {
      name: path.basename(resolved.absolute),
      path: resolved.relative,
      type: 'directory',
    };
    const listing: Listing = {
      include: args.include ?? 'all',
      maxEntries: args.maxEntries ?? LIST_DIRECTORY_DEFAULTS.maxEntries,
      budget: args.maxBytes ?? LIST_DIRECTORY_DEFAULTS.maxBytes,
      // The root's entry with its children array and the largest `truncated`/`omitted` it can carry.
      bytes: byteLength({ root, truncated: false, omitted: Number.MAX_SAFE_INTEGER }) + CHILDREN_ARRAY_BYTES,
      kept: 0,
      omitted: 0,
      full: false,
    };
    root.children = [];

    const queue: Folder[] = [
      {
        node: root,
        absolute: resolved.absolute,
        relative: resolved.relative,
        depth: args.depth ?? LIST_DIRECTORY_DEFAULTS.depth,
      },
    ];
    for (let next = 0; next < queue.length; next++) {
      context.signal?.throwIfAborted();
      const folder = queue[next]!;
      for (const entry of await listFolder(folder.absolute, resolved.realRoot, next === 0)) {
        const subfolder = await visitEntry(listing, folder, entry);
        if (subfolder) queue.push(subfolder);
      }
      // Listed to the end: an empty folder shows `children: []` (a folder without `children` was not listed).
      if (folder.node && !listing.full) folder.node.children ??= [];
    }
    const { include, omitted } = listing;
    if (include === 'files') root.children = flattenFiles(root.children ?? []);
    return { success: true, output: { root, truncated: omitted > 0, omitted } };
  }
}

/**
 * Adds one entry of `folder` to the output while the caps allow (counts it as omitted otherwise) and
 * returns the subfolder to list next, if the entry is one and the depth goes on.
 */
async function visitEntry(listing: Listing, folder: Folder, entry: Dirent): Promise<Folder | undefined> {
  const isFolder = entry.isDirectory();
  if (!isFolder && !(entry.isFile() && listing.include !== 'directories')) return undefined;
  const shown = !isFolder || listing.include !== 'files';
  const expand = isFolder && folder.depth > 1;
  const absolute = path.join(folder.absolute, entry.name);
  const relative = folder.relative === '.' ? entry.name : `${folder.relative}/${entry.name}`;
  let node: ListDirectoryEntry | undefined;
  if (folder.node && !listing.full) {
    node = isFolder
      ? { name: entry.name, path: relative, type: 'directory' }
      : { name: entry.name, path: relative, type: 'file', size: (await lstat(absolute)).size };
    const cost = shown ? byteLength(node) + 1 + (expand && listing.include !== 'files' ? CHILDREN_ARRAY_BYTES : 0) : 0;
    if (shown && (listing.kept >= listing.maxEntries || listing.bytes + cost > listing.budget)) {
      listing.full = true;
      node = undefined;
    } else {
      if (shown) listing.kept++;
      listing.bytes += cost;
      (folder.node.children ??= []).push(node);
    }
  }
  if (shown && !node) listing.omitted++;
  return expand ? { node, absolute, relative, depth: folder.depth - 1 } : undefined;
}

/**
 * The entries of a folder, sorted by name. A subfolder that now resolves outside the root (it was
 * swapped for a symbolic link after its parent was read) or cannot be read (removed meanwhile,
 * no permission) lists as empty; only the listed folder's own failure fails the call.
 */
async function listFolder(absolute: string, realRoot: string, isListedFolder: boolean): Promise<Dirent[]> {
  try {
    const real = await realpath(absolute);
    const relative = path.relative(realRoot, real);
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return [];
    return (await readdir(real, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch (error) {
    if (isListedFolder) throw error;
    return [];
  }
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** For `include: 'files'`: the files under `entries`, depth-first (a folder's files where the folder was). */
function flattenFiles(entries: ListDirectoryEntry[]): ListDirectoryEntry[] {
  return entries.flatMap((entry) => (entry.type === 'file' ? [entry] : flattenFiles(entry.children ?? [])));
}
