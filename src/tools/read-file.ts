/**
 * Implementation of the tool `read_file` (schemas/files/read_file.tool.json).
 * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.
 */
import path from 'node:path';
import { toolFailure, type ToolExecutionContext, type ToolExecutionResult } from '../index.js';
import { ReadFileToolBase } from '../../generated/tools/read-file.base.js';
import type { ReadFileFailure, ReadFileInput, ReadFileOutput } from '../../generated/types/read-file.js';
import { defaultFilesRoot, openRegularFileInside, pathRefusal, resolveInside } from './confine.js';

/** Options of the file tools. */
export interface FileToolOptions {
  /** The folder every path is relative to and confined to (default `$TOOLSMITH_FILES_ROOT` or the working folder). */
  root?: string;
}

/**
 * `read_file`: reads a regular file confined to a root folder. The file is opened without blocking
 * and without following a final symbolic link, then checked on its descriptor (a regular file,
 * under the root), so a FIFO never holds a thread and a swapped path cannot redirect the read.
 */
export class ReadFileTool extends ReadFileToolBase {
  readonly root: string;

  constructor(options: FileToolOptions = {}) {
    super();
    this.root = path.resolve(options.root ?? defaultFilesRoot());
  }

  /** `..` and absolute paths are refused before anything is asked or read. */
  refusal(args: ReadFileInput): ToolExecutionResult<ReadFileOutput> | undefined {
    const reason = typeof args.path === 'string' ? pathRefusal(args.path) : undefined;
    return reason ? { success: false, error: reason, details: { path: String(args.path).slice(0, 200) } } : undefined;
  }

  async execute(
    args: ReadFileInput,
    _context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<ReadFileOutput, ReadFileFailure>> {
    const resolved = await resolveInside(this.root, args.path);
    if (!resolved.ok) return cannotRead(resolved, args.path);
    const opened = await openRegularFileInside(resolved.realRoot, resolved.absolute, args.path);
    if (!opened.ok) return cannotRead(opened, args.path);
    const { handle, stats: stat } = opened;
    try {
      const maxBytes = args.maxBytes ?? 65536;
      const buffer = Buffer.alloc(Math.min(maxBytes, stat.size));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const encoding = args.encoding ?? 'utf8';
      return {
        success: true,
        output: {
          path: resolved.relative,
          size: stat.size,
          encoding,
          content: buffer.subarray(0, bytesRead).toString(encoding),
          truncated: stat.size > bytesRead,
        },
      };
    } finally {
      await handle.close();
    }
  }
}

/** The failure for a path that cannot be read: `NOT_FOUND` (declared) when nothing is there. */
function cannotRead(problem: { reason: string; code?: string }, requested: string): ReadFileFailure {
  const shown = requested.slice(0, 200);
  if (problem.code === 'ENOENT') return toolFailure('NOT_FOUND', problem.reason, { path: shown });
  return { success: false, error: problem.reason, details: { path: shown } };
}
