/**
 * Implementation of the tool `calculator` (schemas/utility/calculator.tool.json).
 * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../index.js';
import { CalculatorToolBase } from '../../generated/tools/calculator.base.js';
import type { CalculatorArgs, CalculatorOutput } from '../../generated/types/calculator.js';

/** `calculator`: parses the expression with a small recursive-descent parser; never `eval`. */
export class CalculatorTool extends CalculatorToolBase {
  async execute(args: CalculatorArgs, _context: ToolExecutionContext): Promise<ToolExecutionResult<CalculatorOutput>> {
    let value: number;
    try {
      value = evaluateExpression(args.expression);
    } catch (error) {
      if (error instanceof ExpressionError)
        return { success: false, error: error.message, details: { position: error.position } };
      throw error;
    }
    if (!Number.isFinite(value))
      return { success: false, error: `the result of "${args.expression}" is not a finite number` };
    const rounded = Number(value.toFixed(args.precision));
    return { success: true, output: { expression: args.expression, result: Object.is(rounded, -0) ? 0 : rounded } };
  }
}

/** A syntax or evaluation error at a 0-based position of the expression. */
class ExpressionError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

const FUNCTIONS: Readonly<Record<string, { arity: [number, number]; apply: (...values: number[]) => number }>> =
  Object.freeze({
    sqrt: { arity: [1, 1], apply: Math.sqrt },
    abs: { arity: [1, 1], apply: Math.abs },
    round: { arity: [1, 1], apply: Math.round },
    floor: { arity: [1, 1], apply: Math.floor },
    ceil: { arity: [1, 1], apply: Math.ceil },
    min: { arity: [1, 64], apply: Math.min },
    max: { arity: [1, 64], apply: Math.max },
  });

const CONSTANTS: Readonly<Record<string, number>> = Object.freeze({ pi: Math.PI, e: Math.E });

/**
 * Evaluates `+ - * / % ^` (`^` right-associative, binding tighter than unary minus), parentheses,
 * unary signs, the functions above and the constants `pi` and `e`.
 */
export function evaluateExpression(text: string): number {
  let position = 0;
  const skipSpace = () => {
    while (position < text.length && /\s/.test(text[position]!)) position++;
  };
  const peek = () => {
    skipSpace();
    return text[position];
  };
  const fail = (message: string): never => {
    throw new ExpressionError(
      `${message} at position ${position + 1} of "${text.length > 80 ? `${text.slice(0, 80)}…` : text}"`,
      position,
    );
  };
  const expect = (char: string) => {
    if (peek() !== char) fail(`expected "${char}"`);
    position++;
  };

  const parseSum = (): number => {
    let value = parseProduct();
    for (let op = peek(); op === '+' || op === '-'; op = peek()) {
      position++;
      const right = parseProduct();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  };
  const parseProduct = (): number => {
    let value = parseUnary();
    for (let op = peek(); op === '*' || op === '/' || op === '%'; op = peek()) {
      const at = position;
      position++;
      const right = parseUnary();
      if ((op === '/' || op === '%') && right === 0) {
        position = at;
        fail(op === '/' ? 'division by zero' : 'modulo by zero');
      }
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  };
  const parseUnary = (): number => {
    const op = peek();
    if (op === '-' || op === '+') {
      position++;
      const value = parseUnary();
      return op === '-' ? -value : value;
    }
    return parsePower();
  };
  const parsePower = (): number => {
    const base = parseAtom();
    if (peek() === '^') {
      position++;
      return base ** parseUnary();
    }
    return base;
  };
  const parseAtom = (): number => {
    const char = peek();
    if (char === undefined) return fail('unexpected end of expression');
    if (char === '(') {
      position++;
      const value = parseSum();
      expect(')');
      return value;
    }
    const number = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(position));
    if (number) {
      position += number[0].length;
      return Number(number[0]);
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(position));
    if (word) {
      const name = word[0].toLowerCase();
      const start = position;
      position += word[0].length;
      if (Object.prototype.hasOwnProperty.call(FUNCTIONS, name)) {
        const fn = FUNCTIONS[name]!;
        expect('(');
        const values = [parseSum()];
        while (peek() === ',') {
          position++;
          values.push(parseSum());
        }
        expect(')');
        if (values.length < fn.arity[0] || values.length > fn.arity[1]) {
          position = start;
          const [least, most] = fn.arity;
          const count = least === most ? String(least) : `${least} to ${most}`;
          fail(`${name}() takes ${count} argument${most === 1 ? '' : 's'}, not ${values.length}`);
        }
        return fn.apply(...values);
      }
      if (Object.prototype.hasOwnProperty.call(CONSTANTS, name)) return CONSTANTS[name]!;
      position = start;
      return fail(`unknown name "${word[0]}" (functions: ${Object.keys(FUNCTIONS).join(', ')}; constants: pi, e)`);
    }
    return fail(`unexpected "${char}"`);
  };

  const value = parseSum();
  if (peek() !== undefined) fail(`unexpected "${text[position]}"`);
  return value;
}
