import { realpath } from 'node:fs/promises';
import path from 'node:path';

/** The folder the file tools are confined to when none is given: `$TOOLSMITH_FILES_ROOT`, else the working folder. */
export function defaultFilesRoot(): string {
  return path.resolve(process.env.TOOLSMITH_FILES_ROOT ?? '.');
}

/**
 * Why a path given by a model may not be used under `root`, or `undefined` when it may: absolute
 * paths, `..` segments, NUL bytes and drive letters are refused before anything touches the disk.
 */
export function pathRefusal(requested: string): string | undefined {
  if (requested.includes('\0')) return 'the path contains a NUL byte';
  if (path.isAbsolute(requested) || /^[A-Za-z]:/.test(requested) || requested.startsWith('\\')) return `absolute paths are refused ("${requested.slice(0, 200)}"): give a path relative to the root folder`;
  if (requested.split(/[\\/]/).includes('..')) return `".." segments are refused ("${requested.slice(0, 200)}"): give a path inside the root folder`;
  return undefined;
}

/**
 * The real absolute path of `requested` under `root`, following symlinks; fails when the real
 * path lands outside the root (a symlink pointing out).
 */
export async function resolveInside(root: string, requested: string): Promise<{ ok: true; absolute: string; relative: string } | { ok: false; reason: string; code?: string }> {
  const refusal = pathRefusal(requested);
  if (refusal) return { ok: false, reason: refusal };
  const realRoot = await realpath(root);
  let absolute: string;
  try {
    absolute = await realpath(path.resolve(realRoot, requested));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, code, reason: code === 'ENOENT' ? `"${requested.slice(0, 200)}" does not exist under the root folder` : `"${requested.slice(0, 200)}" cannot be opened (${code})` };
  }
  const relative = path.relative(realRoot, absolute);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return { ok: false, reason: `"${requested.slice(0, 200)}" resolves outside the root folder (through a symbolic link)` };
  return { ok: true, absolute, relative: relative.split(path.sep).join('/') || '.' };
}
