/**
 * Implementation of the tool `list_directory` (schemas/files/list_directory.tool.json).
 * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ToolExecutionContext, ToolExecutionResult } from '../index.js';
import { ListDirectoryToolBase } from '../../generated/tools/list-directory.base.js';
import type { ListDirectoryEntry, ListDirectoryInput, ListDirectoryOutput } from '../../generated/types/list-directory.js';
import { defaultFilesRoot, pathRefusal, resolveInside } from './confine.js';
import type { FileToolOptions } from './read-file.js';

/** `list_directory`: a folder under the root as a tree, sorted by name, symbolic links skipped. */
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

  async execute(args: ListDirectoryInput, context: ToolExecutionContext): Promise<ToolExecutionResult<ListDirectoryOutput>> {
    const resolved = await resolveInside(this.root, args.path ?? '.');
    if (!resolved.ok) return { success: false, error: resolved.reason };
    if (!(await stat(resolved.absolute)).isDirectory()) return { success: false, error: `"${args.path}" is not a folder` };
    const include = args.include ?? 'all';
    const walk = async (absolute: string, relative: string, depth: number): Promise<ListDirectoryEntry[]> => {
      context.signal?.throwIfAborted();
      const entries = (await readdir(absolute, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const out: ListDirectoryEntry[] = [];
      for (const entry of entries) {
        const childAbsolute = path.join(absolute, entry.name);
        const childRelative = relative === '.' ? entry.name : `${relative}/${entry.name}`;
        if (entry.isDirectory()) {
          const node: ListDirectoryEntry = { name: entry.name, path: childRelative, type: 'directory' };
          if (depth > 1) node.children = await walk(childAbsolute, childRelative, depth - 1);
          if (include !== 'files') out.push(node);
          else if (node.children) out.push(...flattenFiles(node.children));
        } else if (entry.isFile() && include !== 'directories') {
          out.push({ name: entry.name, path: childRelative, type: 'file', size: (await stat(childAbsolute)).size });
        }
      }
      return out;
    };
    const children = await walk(resolved.absolute, resolved.relative, args.depth ?? 2);
    return { success: true, output: { root: { name: path.basename(resolved.absolute), path: resolved.relative, type: 'directory', children } } };
  }
}

function flattenFiles(entries: ListDirectoryEntry[]): ListDirectoryEntry[] {
  return entries.flatMap((entry) => (entry.type === 'file' ? [entry] : flattenFiles(entry.children ?? [])));
}
