/**
 * Implementation of the tool `remember_calculation` (schemas/memory/remember_calculation.tool.json).
 * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.
 */
import { RememberCalculationToolBase } from '../../generated/tools/remember-calculation.base.js';

/** `remember_calculation`: Evaluates an arithmetic expression and stores the result in working memory under a key (composed: calculator, then memory_write). */
export class RememberCalculationTool extends RememberCalculationToolBase {}
