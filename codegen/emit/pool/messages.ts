/**
 * What crosses the thread boundary between the emit pool (pool.ts) and its workers (worker.ts), past
 * the set-up every task shares (the in-process emitter's options, the worker's `workerData`): one
 * task per tool, and each tool's answer (a thrown value as its name and message, described alike on
 * either side).
 */
import type { GeneratedFile, ToolModel } from '../../model.js';
import type { ToolManifests } from '../manifests/index.js';

/** One tool to emit. */
export interface EmitTask {
  index: number;
  tool: ToolModel;
}

/** A file as it crosses the thread boundary: bytes when the text is well-formed UTF-16, else the text. */
export interface WireFile {
  path: string;
  kind: GeneratedFile['kind'];
  preformatted?: true;
  bytes?: Uint8Array;
  content?: string;
}

/** The answer to one task. */
export type EmitReply =
  | { index: number; files: WireFile[]; manifests: ToolManifests }
  | { index: number; error: ReturnType<typeof describeError> };

/** A thrown value as the name and message an error reply carries (describing it cannot throw). */
export function describeError(error: unknown): { name: string; message: string } {
  try {
    return error instanceof Error
      ? { name: error.name, message: error.message }
      : { name: 'Error', message: String(error) };
  } catch {
    return { name: 'Error', message: 'an exception that cannot be described' };
  }
}
