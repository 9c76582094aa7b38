import { z } from 'zod';
import { defineTool, ToolError } from './types';

/**
 * Exact arithmetic: a small recursive-descent parser over rational numbers (BigInt
 * numerator/denominator), so 0.1 + 0.2 = 0.3 and (1/3) * 3 = 1. No eval, no Function.
 * + - * / % ^, parentheses, unary minus, sqrt, round, min, max, abs. Never Infinity or NaN:
 * every impossible case is a ToolError with a message for the model.
 */

export const MAX_EXPRESSION_CHARS = 1000;
/** Beyond this many bits a number is "too big": it keeps a hostile ^ from eating memory. */
const MAX_BITS = 4096n;
/** Significant digits of the decimal shown for a fraction that does not terminate. */
const DECIMAL_DIGITS = 20;

type Rational = { n: bigint; d: bigint };

function abs(x: bigint) {
  // the negation of 0 is 0
  return x < 0n ? -x : x;
}
function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}
function bits(x: bigint): bigint {
  return BigInt(abs(x).toString(2).length);
}
function make(n: bigint, d: bigint): Rational {
  // no caller passes a zero denominator (division and modulo check first); kept as a guard
  if (d === 0n) throw new ToolError('division by zero');
  // d is not 0 here
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d) || 1n;
  const r = { n: n / g, d: d / g };
  if (bits(r.n) > MAX_BITS || bits(r.d) > MAX_BITS) throw new ToolError('a number in this calculation is too big to compute exactly');
  return r;
}
const add = (a: Rational, b: Rational) => make(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Rational, b: Rational) => make(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Rational, b: Rational) => make(a.n * b.n, a.d * b.d);
const div = (a: Rational, b: Rational) => {
  // make() refuses the zero denominator with the same words
  if (b.n === 0n) throw new ToolError('division by zero');
  return make(a.n * b.d, a.d * b.n);
};
const cmp = (a: Rational, b: Rational) => {
  const x = a.n * b.d - b.n * a.d;
  // cmp only serves min and max, where a tie picks an equal value either way
  return x < 0n ? -1 : x > 0n ? 1 : 0;
};

function mod(a: Rational, b: Rational): Rational {
  if (b.n === 0n) throw new ToolError('modulo by zero');
  // a - b * trunc(a / b), the sign of the result follows a (as in most calculators and JS).
  const q = div(a, b);
  const t = q.n / q.d;
  return sub(a, mul(b, { n: t, d: 1n }));
}

function pow(base: Rational, exp: Rational): Rational {
  if (exp.d !== 1n) throw new ToolError('only whole-number exponents are supported (use sqrt for square roots)');
  if (abs(exp.n) > 100_000n) throw new ToolError('the exponent is too big');
  if (base.n === 0n && exp.n < 0n) throw new ToolError('division by zero (zero to a negative power)');
  const e = abs(exp.n);
  if (base.n !== 0n && abs(base.n) !== 1n && bits(base.n) * e > MAX_BITS) throw new ToolError('the result is too big to compute exactly');
  if (base.d !== 1n && bits(base.d) * e > MAX_BITS) throw new ToolError('the result is too big to compute exactly');
  const r = make(base.n ** e, base.d ** e);
  // x^0 is 1, and 1/1 is 1
  return exp.n < 0n ? div({ n: 1n, d: 1n }, r) : r;
}

/** Integer square root by Newton's method (exact for any size). */
function isqrt(n: bigint): bigint {
  // isqrt(2) as 2 fails the square test as 1 does, so sqrt takes the same path
  if (n < 2n) return n;
  // any start above the root converges to it; a larger one only takes longer
  let x = 1n << (BigInt(n.toString(2).length + 1) / 2n);
  for (;;) {
    const y = (x + n / x) / 2n;
    if (y >= x) return x;
    x = y;
  }
}

type Value = { r: Rational; exact: boolean };

function sqrt(v: Value): Value {
  if (v.r.n < 0n) throw new ToolError('the square root of a negative number is not a real number');
  const rn = isqrt(v.r.n);
  const rd = isqrt(v.r.d);
  if (rn * rn === v.r.n && rd * rd === v.r.d) return { r: make(rn, rd), exact: v.exact };
  // Irrational: 30 digits of precision through integer square root, flagged as not exact.
  const scale = 10n ** 30n;
  const n = isqrt((v.r.n * scale * scale) / v.r.d);
  return { r: make(n, scale), exact: false };
}

function roundTo(v: Rational, digits: number): Rational {
  if (!Number.isInteger(digits) || digits < 0 || digits > 30) throw new ToolError('round takes 0 to 30 decimal places');
  const scale = 10n ** BigInt(digits);
  const scaled = v.n * scale;
  // half away from zero
  const q = (abs(scaled) * 2n + v.d) / (2n * v.d);
  // -0 is 0
  return make(scaled < 0n ? -q : q, scale);
}

function parseNumber(text: string): Rational {
  // the tokenizer hands over whole number tokens only, so the anchors never decide
  const m = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  // the tokenizer never hands over a lone point or an empty token; kept as a guard
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) throw new ToolError(`"${text}" is not a number`);
  // BigInt reads the digits the same with or without a leading 0
  const whole = m[1] || '0';
  const frac = m[2] ?? '';
  const exp = m[3] ? Number(m[3]) : 0;
  if (Math.abs(exp) > 1000) throw new ToolError(`the number ${text} is too big`);
  let n = BigInt(whole + frac);
  let d = 10n ** BigInt(frac.length);
  // 10^0 is 1
  if (exp > 0) n *= 10n ** BigInt(exp);
  // 10^0 is 1
  if (exp < 0) d *= 10n ** BigInt(-exp);
  return make(n, d);
}

const FUNCTIONS = ['sqrt', 'round', 'min', 'max', 'abs'] as const;

type Token = { kind: 'num' | 'op' | 'name' | '(' | ')' | ','; text: string; at: number };

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i));
    if (num) {
      tokens.push({ kind: 'num', text: num[0], at: i });
      i += num[0].length;
      continue;
    }
    const name = /^[a-zA-Z]+/.exec(src.slice(i));
    if (name) {
      if (!(FUNCTIONS as readonly string[]).includes(name[0].toLowerCase())) {
        throw new ToolError(
          `unknown name "${name[0]}" at position ${i + 1}; use numbers, + - * / % ^, parentheses and ${FUNCTIONS.join(', ')}`,
        );
      }
      tokens.push({ kind: 'name', text: name[0].toLowerCase(), at: i });
      i += name[0].length;
      continue;
    }
    if ('+-*/%^'.includes(c)) tokens.push({ kind: 'op', text: c, at: i });
    else if (c === '(' || c === ')' || c === ',') tokens.push({ kind: c, text: c, at: i });
    else if (c === '×' || c === '÷') tokens.push({ kind: 'op', text: c === '×' ? '*' : '/', at: i });
    else throw new ToolError(`unknown character "${c}" at position ${i + 1}; use numbers, + - * / % ^ and parentheses`);
    i++;
  }
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Value {
    if (this.tokens.length === 0) throw new ToolError('the expression is empty');
    const v = this.expr();
    const extra = this.tokens[this.pos];
    if (extra) throw new ToolError(`unexpected "${extra.text}" at position ${extra.at + 1}`);
    return v;
  }

  private peek() {
    return this.tokens[this.pos];
  }
  private next(): Token {
    const t = this.tokens[this.pos++];
    if (!t) throw new ToolError('the expression ends too early');
    return t;
  }
  private expect(kind: Token['kind']) {
    const t = this.next();
    if (t.kind !== kind) throw new ToolError(`expected "${kind}" at position ${t.at + 1}, found "${t.text}"`);
  }

  private expr(): Value {
    let left = this.term();
    // after a term only + or - can follow as an operator (term and power take the others)
    while (this.peek()?.kind === 'op' && (this.peek().text === '+' || this.peek().text === '-')) {
      const op = this.next().text;
      const right = this.term();
      left = { r: op === '+' ? add(left.r, right.r) : sub(left.r, right.r), exact: left.exact && right.exact };
    }
    return left;
  }

  private term(): Value {
    let left = this.unary();
    while (this.peek()?.kind === 'op' && '*/%'.includes(this.peek().text)) {
      const op = this.next().text;
      const right = this.unary();
      const r = op === '*' ? mul(left.r, right.r) : op === '/' ? div(left.r, right.r) : mod(left.r, right.r);
      left = { r, exact: left.exact && right.exact };
    }
    return left;
  }

  // Unary minus binds looser than ^, so -2^2 = -4 as in mathematics.
  private unary(depth = 0): Value {
    if (depth > 200) throw new ToolError('too many signs in a row');
    const t = this.peek();
    if (t?.kind === 'op' && (t.text === '-' || t.text === '+')) {
      this.next();
      const v = this.unary(depth + 1);
      return t.text === '-' ? { r: make(-v.r.n, v.r.d), exact: v.exact } : v;
    }
    return this.power();
  }

  private power(): Value {
    const base = this.atom();
    if (this.peek()?.kind === 'op' && this.peek().text === '^') {
      this.next();
      const exp = this.unary(); // right-associative: 2^3^2 = 2^9
      return { r: pow(base.r, exp.r), exact: base.exact && exp.exact };
    }
    return base;
  }

  private depth = 0;
  private atom(): Value {
    const t = this.next();
    if (t.kind === 'num') return { r: parseNumber(t.text), exact: true };
    if (t.kind === '(') {
      if (++this.depth > 100) throw new ToolError('too many nested parentheses');
      const v = this.expr();
      this.expect(')');
      this.depth--;
      return v;
    }
    if (t.kind === 'name') {
      this.expect('(');
      const args: Value[] = [this.expr()];
      while (this.peek()?.kind === ',') {
        this.next();
        args.push(this.expr());
      }
      this.expect(')');
      return callFunction(t.text, args);
    }
    throw new ToolError(`unexpected "${t.text}" at position ${t.at + 1}`);
  }
}

function callFunction(name: string, args: Value[]): Value {
  const exact = args.every((a) => a.exact);
  switch (name) {
    case 'sqrt':
      if (args.length !== 1) throw new ToolError('sqrt takes one number');
      return sqrt(args[0]);
    case 'abs':
      if (args.length !== 1) throw new ToolError('abs takes one number');
      return { r: make(abs(args[0].r.n), args[0].r.d), exact };
    case 'round': {
      if (args.length > 2) throw new ToolError('round takes a number and optionally the decimal places');
      const digits = args[1] ? Number(args[1].r.n) / Number(args[1].r.d) : 0;
      return { r: roundTo(args[0].r, digits), exact };
    }
    case 'min':
    case 'max': {
      // a tie picks an equal value either way
      const pick = args.reduce((best, v) => ((name === 'min' ? cmp(v.r, best.r) < 0 : cmp(v.r, best.r) > 0) ? v : best));
      return { r: pick.r, exact };
    }
    default:
      // the tokenizer refuses unknown names first; kept as a guard
      throw new ToolError(`unknown function ${name}`);
  }
}

/** The decimal form: exact when the denominator has only 2s and 5s, else rounded to 20 significant digits. */
export function toDecimal(r: Rational): { text: string; terminates: boolean } {
  let d = r.d;
  let twos = 0;
  let fives = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    twos++;
  }
  while (d % 5n === 0n) {
    d /= 5n;
    fives++;
  }
  const terminates = d === 1n;
  // a zero prints as 0 whatever its sign
  const sign = r.n < 0n ? '-' : '';
  const n = abs(r.n);
  let places: number;
  if (terminates) places = Math.max(twos, fives);
  else {
    const whole = n / r.d;
    if (whole > 0n) places = Math.max(DECIMAL_DIGITS - whole.toString().length, 6);
    else {
      let zeros = 0; // zeros right after the point, before the first significant digit
      // equality would make the fraction 1/10^k, which ends and never comes here
      while (n * 10n ** BigInt(zeros + 1) < r.d) zeros++;
      places = zeros + DECIMAL_DIGITS;
    }
  }
  const scale = 10n ** BigInt(places);
  const scaled = (n * scale * 2n + r.d) / (2n * r.d); // rounded half up
  let text = scaled.toString().padStart(places + 1, '0');
  text = places > 0 ? `${text.slice(0, -places)}.${text.slice(-places)}`.replace(/\.?0+$/, '') : text;
  // scaled is 0 only for 0, whose text is already 0
  return { text: scaled === 0n ? '0' : sign + text, terminates };
}

export type Calculation = { expression: string; result: string; exact: boolean; fraction?: string };

/** Evaluates an expression exactly; throws ToolError for anything that cannot be computed. */
export function calculate(expression: string): Calculation {
  if (expression.length > MAX_EXPRESSION_CHARS) {
    throw new ToolError(`the expression is ${expression.length} characters long; the limit is ${MAX_EXPRESSION_CHARS}`);
  }
  const value = new Parser(tokenize(expression)).parse();
  const dec = toDecimal(value.r);
  const out: Calculation = { expression: expression.trim(), result: dec.text, exact: value.exact && dec.terminates };
  if (!dec.terminates && value.exact) {
    out.fraction = `${value.r.n}/${value.r.d}`;
    out.exact = true; // the fraction is exact; the decimal is its rounding
  }
  return out;
}

export const calculatorTool = defineTool({
  name: 'calculator',
  description:
    'Exact arithmetic. Use it for every sum, product, percentage or total instead of working numbers out yourself. ' +
    'Operators: + - * / % (remainder) ^ (power), parentheses, and sqrt(x), round(x, places), min(a, b, ...), max(...), abs(x). ' +
    'Example: {"expression": "(23 * 47 + 156) / 3"}.',
  params: z.object({ expression: z.string().min(1).max(MAX_EXPRESSION_CHARS).describe('the arithmetic expression') }),
  cost: 2,
  timeoutMs: 2000,
  async run({ expression }) {
    return calculate(expression);
  },
});
