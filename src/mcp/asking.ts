import { once } from 'node:events';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type InputRequest,
  type InputRequiredResult,
  type InputResponseView,
  inputRequired,
  inputResponse,
  isSpecType,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ApprovalGate, CallerTurn } from '../context.js';
import {
  checkedElicit,
  ElicitationError,
  type Elicit,
  type ElicitAnswer,
  type ElicitRequest,
  type Sample,
  type SampleRequest,
  type SampleResult,
} from '../caller/elicitation.js';
import { truncateText } from '../errors.js';
import type { ToolOrchestrator } from '../orchestrator.js';
import type { ITool } from '../tool.js';
import { type Answering, mintAnswerState } from './request-state.js';

/*
 * How a direct `tools/call` asks its client's user (elicitation: a tool's `context.elicit`, the
 * approval of a side-effect tool) or model (sampling: `context.sample`), by era: on 2025 a request
 * to the client whose answer the call awaits; on 2026-07-28 the call is answered `input_required`
 * and run again with the answers (./request-state.ts holds them to the questions asked). A task's
 * call asks through its task instead (./tasks.ts).
 */

/** What `Asking.inputNeeded` resolves with: the call waits for an answer it does not have yet. */
export const INPUT_NEEDED = Symbol('input needed');

/** How one call asks its client's user or model, by era; nothing when the client can do neither. */
export interface Asking {
  elicit?: Elicit;
  /** The approval gate's question (keyed apart from the tool's own on 2026-07-28). */
  approve?: Elicit;
  /** Asks the client for a model call (MCP sampling), when it can; only a model's answer reaches the tool. */
  sample?: Sample;
  /** Aborts the call when a 2026-07-28 answer must first come from the client. */
  signal?: AbortSignal;
  /** Resolves when the call needs an answer it does not have yet (2026-07-28). */
  inputNeeded?: Promise<typeof INPUT_NEEDED>;
  /** The `input_required` result naming the question(s) asked, with the state a retry echoes. */
  inputRequiredResult(): Promise<InputRequiredResult>;
  /** True once the call asked a question it has no answer to yet. */
  asked(): boolean;
}

/**
 * What the request's client can do: on 2026-07-28 the capabilities in its `_meta`, on 2025 those of
 * its `initialize` (undefined on a stateless HTTP instance that never saw it).
 */
export function clientCapabilities(ctx: ServerContext, server: Server): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope !== undefined) return envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return server.getClientCapabilities();
}

/** Whether `capabilities` declare the client takes `name`'s questions (present and not null). */
export function declares(capabilities: ClientCapabilities | undefined, name: 'elicitation' | 'sampling'): boolean {
  const declared = capabilities?.[name];
  return declared !== undefined && declared !== null;
}

/** One kind of question a call asks its client (elicitation, sampling), in the words of every era. */
export interface QuestionKind<Request, Answer> {
  /** The question's key prefix in `inputRequests` (2026-07-28): `elicit-0`, `sample-1`, … */
  readonly prefix: string;
  /**
   * The `ElicitationError` code prefix: `<code>_UNAVAILABLE` when the client does not take the
   * request (`unavailable` says so), `<code>_ANSWER_INVALID` when its answer is not one (`invalid`).
   */
  readonly code: 'ELICITATION' | 'SAMPLING';
  readonly unavailable: string;
  readonly invalid: string;
  /** What a task says while it waits for the answer (its `statusMessage`). */
  waiting(request: Request): string;
  /** The request to the client: sent as it is (2025), or one of a result's `inputRequests`. */
  request(request: Request): InputRequest;
  /** The answer a retry carries in `view`, or `undefined` when it carries none of this kind. */
  answer(view: InputResponseView): Answer | undefined;
}

const NOT_A_MODEL_ANSWER =
  'The client\'s answer to a model call is not a CreateMessageResult ({ role: "user" | "assistant", content, model }).';

/** Asking the user (elicitation). */
export const ELICIT: QuestionKind<ElicitRequest, ElicitAnswer> = {
  prefix: 'elicit',
  code: 'ELICITATION',
  unavailable: 'This client cannot ask its user (it does not take elicitation/create).',
  invalid: "elicit: the client's answer is not an ElicitResult.",
  waiting: (request) => `Waiting for the user: ${truncateText(request.message, 200)}`,
  request: ({ message, requestedSchema }) =>
    inputRequired.elicit({ message, requestedSchema: requestedSchema as never }),
  answer: ({ kind, ...answer }) => (kind === 'elicit' ? (answer as ElicitAnswer) : undefined),
};

/** Asking the client's model (sampling). */
export const SAMPLE: QuestionKind<SampleRequest, SampleResult> = {
  prefix: 'sample',
  code: 'SAMPLING',
  unavailable: 'This client cannot run a model call for the server (it does not take sampling/createMessage).',
  invalid: NOT_A_MODEL_ANSWER,
  waiting: () => 'Waiting for a model call of the client',
  request: (request) => inputRequired.createMessage(request as never),
  answer: (view) => (view.kind === 'sampling' ? (view.result as SampleResult) : undefined),
};

/** A call whose client cannot ask its user: no question, nothing to wait for. */
const NOT_ASKING: Asking = {
  inputRequiredResult: () => Promise.reject(new Error('No question was asked.')),
  asked: () => false,
};

/**
 * How one `tools/call` asks its client. On the 2025 era, `elicitation/create` is sent to the client and
 * its answer awaited (over stateless HTTP the answer's POST is routed back, see client-requests.ts).
 * On 2026-07-28 the call is answered `input_required` with the question and a signed state, and the
 * client retries the call with the answer in `inputResponses` and the state echoed: the call runs
 * again from the start and this time the question is answered at once (from `answers`, held to the
 * state: see request-state.ts), so a tool that asks before its side effects does them once.
 */
export function askingFor(ctx: ServerContext, server: Server, answering: Answering): Asking {
  const modern = ctx.mcpReq.envelope !== undefined;
  const capabilities = clientCapabilities(ctx, server);
  // A stateless 2025 HTTP request reaches an instance that never saw the client's initialize: what it
  // can do is unknown, so the question is sent and a client that cannot answer it says so.
  const unknown = !modern && capabilities === undefined;
  const canElicit = unknown || declares(capabilities, 'elicitation');
  const canSample = unknown || declares(capabilities, 'sampling');
  if (!canElicit && !canSample) return NOT_ASKING;
  if (!modern) {
    /** Sends `kind`'s request and awaits the answer; a refusal is an `ElicitationError`, not the SDK's dump. */
    const sender =
      <Request, Answer>(kind: QuestionKind<Request, Answer>) =>
      async (request: Request) => {
        try {
          return (await ctx.mcpReq.send(kind.request(request))) as Answer;
        } catch (error) {
          if (error instanceof ProtocolError && error.code === ProtocolErrorCode.MethodNotFound)
            throw new ElicitationError(`${kind.code}_UNAVAILABLE`, kind.unavailable);
          if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult)
            throw new ElicitationError(`${kind.code}_ANSWER_INVALID`, kind.invalid);
          throw error;
        }
      };
    return {
      ...NOT_ASKING,
      ...(canElicit ? { elicit: sender(ELICIT) } : {}),
      ...(canSample ? { sample: checkedSample(sender(SAMPLE)) } : {}),
    };
  }
  // Aborted when the call asks what it has no answer to: the round ends there.
  const controller = new AbortController();
  const inputNeeded = once(controller.signal, 'abort').then((): typeof INPUT_NEEDED => INPUT_NEEDED);
  const needed: Record<string, InputRequest> = {};
  /** The answers this run read, carried in the next state (a retry sends only the new ones). */
  const read: Record<string, unknown> = Object.create(null);
  /** Ends the round: the call is answered input_required with what it asked. */
  const ask = (key: string, request: InputRequest): Promise<never> => {
    needed[key] = request;
    controller.abort(new DOMException('The call waits for the client to answer a question.', 'AbortError'));
    // Rejected for whoever still awaits it; nobody may, once the call is answered input_required.
    const stopped = Promise.reject(controller.signal.reason as Error);
    stopped.catch(() => {});
    return stopped;
  };
  /** Asks `kind` of question: answered from the retry's answers (noted as read), else asked. */
  const asker = <Request, Answer>(kind: QuestionKind<Request, Answer>, prefix = kind.prefix) => {
    let asked = 0;
    return (request: Request): Promise<Answer> => {
      const key = `${prefix}-${asked++}`;
      const answer = kind.answer(inputResponse(answering.answers, key));
      if (answer === undefined) return ask(key, kind.request(request));
      read[key] = answering.answers[key];
      return Promise.resolve(answer);
    };
  };
  return {
    signal: controller.signal,
    inputNeeded,
    inputRequiredResult: async () =>
      inputRequired({
        inputRequests: needed,
        requestState: await mintAnswerState(answering, Object.keys(needed), read),
      }),
    asked: () => Object.keys(needed).length > 0,
    ...(canElicit ? { elicit: asker(ELICIT), approve: asker(ELICIT, 'approval') } : {}),
    ...(canSample ? { sample: checkedSample(asker(SAMPLE)) } : {}),
  };
}

/**
 * The caller's turn of a call to `tool`, when the tool has side effects the orchestrator does not
 * decide on (`decidesSideEffects`) and the client can ask (`ask`): an approval gate asking the user
 * (approve / deny) with the tool and its arguments, whose answer is checked against the question as
 * any form's. On 2026-07-28 the approval is an answer the call carries in its state from round to
 * round, so a call is approved once. Nothing otherwise.
 */
export function approvalTurn(
  orchestrator: ToolOrchestrator,
  tool: ITool | undefined,
  ask: Elicit | undefined,
): { callerTurn?: CallerTurn } {
  if (ask === undefined || tool?.hasSideEffects !== true || orchestrator.decidesSideEffects) return {};
  const checked = checkedElicit(ask);
  const approvalGate: ApprovalGate = async ({ tool: { name, description }, args }) => {
    const shown = truncateText(JSON.stringify(args), 2000);
    const answer = await checked({
      message: `Allow the tool '${name}' to run? It has side effects (${truncateText(description, 300)}). Arguments: ${shown}`,
      requestedSchema: {
        type: 'object',
        properties: {
          approve: { type: 'boolean', title: `Run ${name}`, description: 'Approve this call', default: false },
        },
        required: ['approve'],
      },
    }).catch((error: unknown) => {
      // A client that turned out not to be able to ask.
      if (error instanceof ElicitationError && error.code === 'ELICITATION_UNAVAILABLE') return undefined;
      throw error;
    });
    if (answer === undefined) return { approved: false, reason: 'The client cannot ask its user.' };
    if (answer.action === 'accept' && answer.content?.approve === true) return true;
    return {
      approved: false,
      reason: answer.action === 'accept' ? 'The user did not approve the call.' : `The user answered ${answer.action}.`,
    };
  };
  return { callerTurn: { approvalGate } };
}

/**
 * `sample` whose answer reaches the tool only when it is a `CreateMessageResult` (the SDK's schema),
 * on every era and path; anything else is `SAMPLING_ANSWER_INVALID`.
 */
export function checkedSample(sample: Sample): Sample {
  return async (request) => {
    const answer = await sample(request);
    if (!isSpecType.CreateMessageResult(answer))
      throw new ElicitationError('SAMPLING_ANSWER_INVALID', NOT_A_MODEL_ANSWER);
    return answer;
  };
}
