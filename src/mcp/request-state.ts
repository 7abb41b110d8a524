import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { MemoryTaskStore, type TaskStore } from '../tasks/index.js';

/*
 * The answers a 2026-07-28 call is retried with, held to the questions this server asked for this
 * very call and used once. A call that asks (the approval of a side-effect tool, a tool's
 * `context.elicit` or `context.sample`) is answered `input_required` with a `requestState` that the
 * SDK's codec (`createRequestStateCodec`: HMAC-SHA256, ten minutes) signs: a fresh nonce, the call's
 * fingerprint (tool, arguments, caller), the keys it asked and the answers it already read. The
 * retry's answers are taken only with a state that verifies (the SDK refuses any other -32602), is
 * this call's, and whose nonce the task store has not seen (`claimOnce`: Redis across replicas, this
 * process with the memory store); otherwise every question is asked again. So a first call that
 * carries answers is asked, not run, and a retry sent twice runs once.
 */

/** What a `requestState` carries: signed, not encrypted (the client can read it, not change it). */
interface AnswerState {
  /** A nonce: the state is good for one retry. */
  n: string;
  /** The call's fingerprint (`callFingerprint`). */
  c: string;
  /** The keys of the questions asked. */
  q: string[];
  /** The answers the call read before it asked, by key: carried, since a retry sends only the new ones. */
  a: Record<string, unknown>;
}

/** How long a question's state stays good, in seconds (the SDK codec's default). */
const STATE_TTL_SECONDS = 600;

/** This process's signing key when none is configured: an answer then completes only on the replica that asked. */
const PROCESS_KEY = randomBytes(32);

/** Where a process without a task store records the nonces it took. */
let processLedger: TaskStore | undefined;

/** How a server signs the states of its questions and records the nonces it took. */
export interface RequestStates {
  readonly codec: RequestStateCodec<AnswerState>;
  readonly ledger: TaskStore;
}

/**
 * The states of a server signed with `key` (at least 32 bytes, the same on every replica; default
 * this process's own) whose nonces `store` records (default a memory store of this process).
 */
export function requestStates(key: string | Uint8Array | undefined, store: TaskStore | undefined): RequestStates {
  const bytes = key === undefined ? PROCESS_KEY.length : typeof key === 'string' ? Buffer.byteLength(key) : key.length;
  if (bytes < 32)
    throw new RangeError(
      `The request-state key (requestStateKey, TOOLSMITH_REQUEST_STATE_KEY) must be at least 32 bytes, the same ` +
        `on every replica; got ${bytes}. Make one with: openssl rand -base64 32`,
    );
  return {
    codec: codecOf(key ?? PROCESS_KEY),
    get ledger() {
      return store ?? (processLedger ??= new MemoryTaskStore());
    },
  };
}

/** The last codec made, with its key: an HTTP server builds a server per request, all with one key. */
let lastCodec: { key: string | Uint8Array; codec: RequestStateCodec<AnswerState> } | undefined;

/**
 * The codec of `key` (its bytes read once, when its codec is made), shared by a run of servers with
 * the same key. Why: a codec per request's server was ~1 % of the server's CPU under P8b's load
 * (bench/README.md).
 */
function codecOf(key: string | Uint8Array): RequestStateCodec<AnswerState> {
  if (lastCodec?.key !== key)
    lastCodec = { key, codec: createRequestStateCodec<AnswerState>({ key, ttlSeconds: STATE_TTL_SECONDS }) };
  return lastCodec.codec;
}

/** A call's fingerprint: the same tool, arguments (as sent) and caller give the same one. */
function callFingerprint(tool: string, args: unknown, caller: string): string {
  return createHash('sha256')
    .update(JSON.stringify([tool, args ?? {}, caller]))
    .digest('base64url');
}

/** What a 2026-07-28 call answers its questions from, and signs the next ones with. */
export interface Answering {
  readonly states: RequestStates;
  /** The call's fingerprint, made when first needed (a call that neither asks nor is a retry needs none). */
  fingerprint(): string;
  /** The answers this request may use, by question key (a null-prototype record: the keys are the client's). */
  readonly answers: Record<string, unknown>;
}

const NO_ANSWERS: Record<string, unknown> = Object.freeze(Object.create(null) as Record<string, unknown>);

/**
 * How the call `tool(args)` of `caller` answers its questions: from the answers its state carried
 * and the request's own to the questions that state asked, when the state is this call's and its
 * nonce is taken now for the first time; from none otherwise (a plain call, a replay, a state made
 * for another call).
 */
export async function answersFor(
  ctx: ServerContext,
  states: RequestStates,
  call: { tool: string; args: unknown; caller: string },
): Promise<Answering> {
  let print: string | undefined;
  const fingerprint = () => (print ??= callFingerprint(call.tool, call.args, call.caller));
  const state = ctx.mcpReq.requestState<AnswerState>();
  if (state === undefined || state.c !== fingerprint()) return { states, fingerprint, answers: NO_ANSWERS };
  if (!(await states.ledger.claimOnce(`answers:${state.n}`, (STATE_TTL_SECONDS + 60) * 1000)))
    return { states, fingerprint, answers: NO_ANSWERS };
  const answers: Record<string, unknown> = Object.assign(Object.create(null), state.a);
  const responses = (ctx.mcpReq.inputResponses ?? {}) as Record<string, unknown>;
  for (const key of state.q) if (Object.hasOwn(responses, key)) answers[key] = responses[key];
  return { states, fingerprint, answers };
}

/** The `requestState` of a call that asked `asked` after reading `read`, good for one retry. */
export function mintAnswerState(answering: Answering, asked: string[], read: Record<string, unknown>): Promise<string> {
  return answering.states.codec.mint({ n: randomUUID(), c: answering.fingerprint(), q: asked, a: read });
}
