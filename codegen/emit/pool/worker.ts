/**
 * The worker-thread side of the emit pool (pool.ts): emits and formats one tool at a time, exactly
 * as the emit stage does in process (emit/project.ts), and sends back each file's UTF-8 bytes
 * (transferred, not copied). Why a worker: the per-tool emission (types, base class, docs page,
 * prettier) is most of a full generate, and one thread per core runs it side by side.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { GeneratedFile } from '../../model.js';
import { createToolEmitter, type ToolEmitterOptions } from '../tool-files.js';
import { describeError, type EmitReply, type EmitTask, type WireFile } from './messages.js';

const encoder = new TextEncoder();

/** A file for the wire, plus the buffer to transfer with it. */
function toWire(file: GeneratedFile, transfer: ArrayBuffer[]): WireFile {
  const wire: WireFile = {
    path: file.path,
    kind: file.kind,
    ...(file.preformatted ? { preformatted: true as const } : {}),
  };
  if (!(file.content as string & { isWellFormed(): boolean }).isWellFormed()) return { ...wire, content: file.content };
  const bytes = encoder.encode(file.content);
  transfer.push(bytes.buffer as ArrayBuffer);
  return { ...wire, bytes };
}

if (parentPort !== null) {
  const port = parentPort;
  const emitter = createToolEmitter(workerData as ToolEmitterOptions);
  // One task at a time, in the order they arrive: the CPU work does not overlap anyway.
  let chain = Promise.resolve();
  port.on('message', (task: EmitTask) => {
    chain = chain.then(async () => {
      let reply: EmitReply;
      const transfer: ArrayBuffer[] = [];
      try {
        const output = await emitter.toolFiles(task.tool);
        reply = {
          index: task.index,
          files: output.files.map((file) => toWire(file, transfer)),
          manifests: output.manifests,
        };
      } catch (error) {
        transfer.length = 0;
        reply = { index: task.index, error: describeError(error) };
      }
      port.postMessage(reply, transfer);
    });
  });
}
