import { constants, type Stats } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
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
  if (path.isAbsolute(requested) || /^[A-Za-z]:/.test(requested) || requested.startsWith('\\'))
    return `absolute paths are refused ("${requested.slice(0, 200)}"): give a path relative to the root folder`;
  if (requested.split(/[\\/]/).includes('..'))
    return `".." segments are refused ("${requested.slice(0, 200)}"): give a path inside the root folder`;
  return undefined;
}

/**
 * The real absolute path of `requested` under `root`, following symlinks; fails when the real
 * path lands outside the root (a symlink pointing out).
 */
export async function resolveInside(
  root: string,
  requested: string,
): Promise<
  { ok: true; absolute: string; relative: string; realRoot: string } | { ok: false; reason: string; code?: string }
> {
  const refusal = pathRefusal(requested);
  if (refusal) return { ok: false, reason: refusal };
  const realRoot = await realpath(root);
  let absolute: string;
  try {
    absolute = await realpath(path.resolve(realRoot, requested));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      code,
      reason:
        code === 'ENOENT'
          ? `"${requested.slice(0, 200)}" does not exist under the root folder`
          : `"${requested.slice(0, 200)}" cannot be opened (${code})`,
    };
  }
  if (!isInside(realRoot, absolute))
    return {
      ok: false,
      reason: `"${requested.slice(0, 200)}" resolves outside the root folder (through a symbolic link)`,
    };
  return { ok: true, absolute, relative: path.relative(realRoot, absolute).split(path.sep).join('/') || '.', realRoot };
}

function isInside(realRoot: string, absolute: string): boolean {
  const relative = path.relative(realRoot, absolute);
  return !(relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative));
}

/** `O_NONBLOCK`: opening a FIFO returns at once instead of holding a libuv thread until a writer comes; `O_NOFOLLOW`: the last component is not a link. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

const KINDS: ReadonlyArray<[(stats: Stats) => boolean, string]> = [
  [(stats) => stats.isDirectory(), 'a folder'],
  [(stats) => stats.isFIFO(), 'a named pipe (FIFO)'],
  [(stats) => stats.isSocket(), 'a socket'],
  [(stats) => stats.isCharacterDevice(), 'a character device'],
  [(stats) => stats.isBlockDevice(), 'a block device'],
];

/**
 * Opens `absolute` (a real path {@link resolveInside} accepted) for reading, only if it is a
 * regular file under `realRoot` — both checked on the opened descriptor, so a swap of a path
 * component for a symbolic link between the check and the open cannot redirect the read. A FIFO,
 * socket or device is refused without blocking.
 */
export async function openRegularFileInside(
  realRoot: string,
  absolute: string,
  requested: string,
): Promise<{ ok: true; handle: FileHandle; stats: Stats } | { ok: false; reason: string; code?: string }> {
  const shown = `"${requested.slice(0, 200)}"`;
  let handle: FileHandle;
  try {
    handle = await open(absolute, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      return { ok: false, code, reason: `${shown} became a symbolic link while it was being opened: refused` };
    if (code === 'ENXIO')
      return {
        ok: false,
        code,
        reason: `${shown} is not a regular file (a socket or device): only regular files are read`,
      };
    if (code === 'ENOENT') return { ok: false, code, reason: `${shown} does not exist under the root folder` };
    return { ok: false, code, reason: `${shown} cannot be opened (${code})` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      const kind = KINDS.find(([is]) => is(stats))?.[1] ?? 'not a regular file';
      await handle.close();
      return { ok: false, reason: `${shown} is ${kind}, not a regular file: only regular files are read` };
    }
    if (!(await openedInside(handle, stats, realRoot, absolute))) {
      await handle.close();
      return {
        ok: false,
        reason: `${shown} resolves outside the root folder (a path component was swapped for a symbolic link): refused`,
      };
    }
    return { ok: true, handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Whether the file behind `handle` lies under `realRoot`: on Linux from the descriptor itself
 * (`/proc/self/fd/<n>`); elsewhere by resolving `absolute` again and comparing device and inode.
 */
async function openedInside(handle: FileHandle, stats: Stats, realRoot: string, absolute: string): Promise<boolean> {
  let opened: string | undefined;
  try {
    opened = await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    opened = undefined;
  }
  if (opened !== undefined && path.isAbsolute(opened)) return isInside(realRoot, opened.replace(/ \(deleted\)$/, ''));
  try {
    const again = await realpath(absolute);
    const current = await stat(again);
    return isInside(realRoot, again) && current.dev === stats.dev && current.ino === stats.ino;
  } catch {
    return false;
  }
}
