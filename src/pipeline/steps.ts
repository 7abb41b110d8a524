import { CALL_STEP_ORDER, type CallStepName } from '../call-order.js';
import type { CallStep, CallStepImplementation } from './step.js';
import { approvalStep } from './steps/approval.js';
import { argumentsStep } from './steps/arguments.js';
import { deadlineStep } from './steps/deadline.js';
import { executeStep, slotStep } from './steps/execute.js';
import { outputStep } from './steps/output.js';
import { lookupStep, requestStep, shutdownStep } from './steps/request.js';
import { budgetStep, permissionsStep, refusalStep, signalStep } from './steps/screen.js';

/** Every step's implementation by name; the type asks for one per name of `CALL_STEP_ORDER`. */
const IMPLEMENTATIONS: { readonly [N in CallStepName]: CallStepImplementation } = {
  shutdown: shutdownStep,
  request: requestStep,
  lookup: lookupStep,
  deadline: deadlineStep,
  signal: signalStep,
  refusal: refusalStep,
  permissions: permissionsStep,
  budget: budgetStep,
  arguments: argumentsStep,
  approval: approvalStep,
  slot: slotStep,
  execute: executeStep,
  output: outputStep,
};

/**
 * The call's steps, in the order of `CALL_STEP_ORDER`: what the driver runs for every call of
 * every host. Each step has the same shape (name, codes, run, resume, reject, plain), so the driver's
 * property reads stay monomorphic.
 */
export const CALL_STEPS: readonly CallStep[] = Object.freeze(
  CALL_STEP_ORDER.map(([name, codes]): CallStep => {
    const { run, resume, reject, plain } = IMPLEMENTATIONS[name];
    return Object.freeze({ name, codes, run, resume, reject, plain });
  }),
);
