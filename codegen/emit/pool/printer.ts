/**
 * The printing thread: ts-morph lays out the `ITool` bases and the stubs (tool-bases.ts, stubs.ts)
 * from its structures. Why a thread of its own: ts-morph brings its own TypeScript, ~0.4 s to load and
 * +70 MB of RSS in the thread that loads it. Started with the run, it loads beside load and normalize
 * (P4's one changed), and what it holds goes when it stops, long before a generate's peak at its end
 * (P7; bench/README.md). Its program is plain JavaScript: it needs ts-morph alone, so no TypeScript
 * loader runs in it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ClassDeclarationStructure, ImportDeclarationStructure, OptionalKind } from 'ts-morph';
import type { GeneratedFile } from '../../model.js';

/**
 * A part of a printed file: text as it is, or a ts-morph structure printed where it stands (its lines,
 * the last one ended). A structure goes without its `kind`, which the thread adds: the enum is a
 * value, and importing it would load ts-morph in the thread that builds the structures.
 */
type PrintedPart =
  string | { import: OptionalKind<ImportDeclarationStructure> } | { class: OptionalKind<ClassDeclarationStructure> };

/** `import { ...names } from 'specifier';` (`import type` with `isTypeOnly`), as a part. */
export function importPart(namedImports: string[], moduleSpecifier: string, isTypeOnly = false): PrintedPart {
  return { import: { namedImports, moduleSpecifier, isTypeOnly } };
}

/** A file to print: a generated file whose content is its parts, joined once each structure is printed. */
export interface PrintableFile extends Omit<GeneratedFile, 'content'> {
  parts: PrintedPart[];
}

/** The printing thread, as the run sees it. */
export interface Printer {
  /** Prints `files` (in order); rejects when the thread cannot print (ts-morph missing, the thread stopped). */
  print(files: readonly PrintableFile[]): Promise<GeneratedFile[]>;
  /** Stops the thread (settles once it has exited); a print still waiting rejects. */
  stop(): Promise<void>;
}

/** The thread's program: loads ts-morph (a failure is the thread's 'error'), then answers each message's structures with their texts. */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const { printStructure, StructureKind } = require(workerData.tsMorph);
const options = { indentNumberOfSpaces: 2, useSingleQuote: true };
const structure = (part) =>
  'import' in part
    ? { kind: StructureKind.ImportDeclaration, ...part.import }
    : { kind: StructureKind.Class, ...part.class };
parentPort.on('message', ({ id, structures }) => {
  try {
    parentPort.postMessage({ id, texts: structures.map((part) => printStructure(structure(part), options) + '\\n') });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.stack || error) });
  }
});`;

/** A print's answer from the thread: the structures' texts in order, or what the printing threw. */
type PrintReply = { id: number; texts: string[] } | { id: number; error: string };

/**
 * Starts the printing thread. It keeps the process alive only while a print waits, so a run that
 * stops early and forgets it does not hang; `stop` it when done all the same (what it holds goes then).
 */
export function startPrinter(): Printer {
  // Required, not imported: importing CommonJS from ESM scans its source for exports first, ~0.2 s of
  // ts-morph's bundle (P4's one changed, where the print waits for the load).
  const tsMorph = createRequire(import.meta.url).resolve('ts-morph');
  const worker = new Worker(PROGRAM, { eval: true, workerData: { tsMorph } });
  worker.unref();
  const waiting = new Map<number, { resolve: (texts: string[]) => void; reject: (error: Error) => void }>();
  let stopped: Error | undefined;
  const stop = (error: Error) => {
    stopped ??= error;
    for (const { reject } of waiting.values()) reject(stopped);
    waiting.clear();
    worker.unref();
  };
  worker.on('error', stop);
  worker.on('exit', (code) => stop(new Error(`the printing thread stopped (exit code ${code})`)));
  worker.on('message', (reply: PrintReply) => {
    const answer = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (waiting.size === 0) worker.unref();
    if ('error' in reply) answer?.reject(new Error(`ts-morph could not print a file: ${reply.error}`));
    else answer?.resolve(reply.texts);
  });
  let next = 0;
  return {
    print(files) {
      if (stopped !== undefined) return Promise.reject(stopped);
      const id = next++;
      worker.ref();
      // Only the structures cross to the thread: the text between them (a base's schemas) stays here.
      const structures = files.flatMap((file) => file.parts.filter((part) => typeof part !== 'string'));
      worker.postMessage({ id, structures });
      return new Promise<string[]>((resolve, reject) => waiting.set(id, { resolve, reject })).then((texts) => {
        let next = 0;
        return files.map(({ parts, ...file }) => ({
          ...file,
          content: parts.map((part) => (typeof part === 'string' ? part : texts[next++])).join(''),
        }));
      });
    },
    async stop() {
      stop(new Error('the printing thread was stopped'));
      await worker.terminate();
    },
  };
}
