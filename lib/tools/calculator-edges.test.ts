import assert from 'node:assert/strict';
import { test } from 'node:test';
import { calculate, calculatorTool, toDecimal } from './calculator';
import { ToolError } from './types';

/**
 * The calculator at its edges, each expectation worked out by hand: every limit on both sides,
 * each error's exact words and position, how exactness travels through functions, and the
 * decimal form of fractions that do and do not terminate.
 */

const r = (e: string) => calculate(e).result;
const fails = (e: string, message: string) =>
  assert.throws(
    () => calculate(e),
    (err: unknown) => err instanceof ToolError && err.message === message,
    `${e.slice(0, 40)} → ${message}`,
  );

test('numbers in every written form', () => {
  assert.equal(r('.5'), '0.5');
  assert.equal(r('5.'), '5');
  assert.equal(r('1.5e2'), '150');
  assert.equal(r('1e-2'), '0.01');
  assert.equal(r('1E+2'), '100');
  assert.equal(r('6 × 7'), '42');
  assert.equal(r('8 ÷ 2'), '4');
  assert.equal(r('SQRT(16) + Abs(-1)'), '5');
  assert.equal(r('+3'), '3');
  assert.equal(r('-(-3)'), '3');
});

test('remainders follow the sign of the dividend; powers of fractions and negatives', () => {
  assert.equal(r('7.5 % 2'), '1.5');
  assert.equal(r('7 % -3'), '1');
  assert.equal(r('-7 % -3'), '-1');
  assert.equal(r('(-2)^3'), '-8');
  assert.equal(r('2^0'), '1');
  assert.equal(r('0^0'), '1');
  assert.equal(r('(1/2)^-2'), '4');
  assert.deepEqual(calculate('(2/3)^2'), { expression: '(2/3)^2', result: '0.44444444444444444444', exact: true, fraction: '4/9' });
});

test('the size limits, on both sides', () => {
  assert.equal(r('1e1000 / 1e1000'), '1', 'an exponent of 1000 is read');
  fails('1e1001', 'the number 1e1001 is too big');
  fails('1e1000 * 1e300', 'a number in this calculation is too big to compute exactly');
  assert.equal(r('2^2048').length, 617, '2^2048 has 617 digits and fits');
  fails('2^2049', 'the result is too big to compute exactly');
  assert.equal(r('0.5^2048').length > 600, true, 'a fraction’s denominator may reach the limit');
  fails('0.5^2049', 'the result is too big to compute exactly');
  assert.equal(r('1^100000'), '1');
  assert.equal(r('(-1)^100000'), '1');
  fails('1^100001', 'the exponent is too big');
  assert.equal(r(`${'-'.repeat(200)}1`), '1', '200 signs in a row are read');
  fails(`${'-'.repeat(201)}1`, 'too many signs in a row');
  assert.equal(r(`${'('.repeat(100)}1${')'.repeat(100)}`), '1', '100 nested parentheses are read');
  fails(`${'('.repeat(101)}1${')'.repeat(101)}`, 'too many nested parentheses');
  const longest = `1${'+1'.repeat(499)}${' '.repeat(1)}`;
  assert.equal(longest.length, 1000);
  assert.equal(r(longest), '500', 'an expression of exactly 1000 characters');
  fails(`${longest}1`, 'the expression is 1001 characters long; the limit is 1000');
});

test('each error in its own words, with the position a person counts from 1', () => {
  fails('1/0', 'division by zero');
  fails('1/(2-2)', 'division by zero');
  fails('5 % 0', 'modulo by zero');
  fails('0^-1', 'division by zero (zero to a negative power)');
  fails('2^0.5', 'only whole-number exponents are supported (use sqrt for square roots)');
  fails('sqrt(-4)', 'the square root of a negative number is not a real number');
  fails('2 $ 3', 'unknown character "$" at position 3; use numbers, + - * / % ^ and parentheses');
  fails('2 + foo(1)', 'unknown name "foo" at position 5; use numbers, + - * / % ^, parentheses and sqrt, round, min, max, abs');
  fails('', 'the expression is empty');
  fails('   ', 'the expression is empty');
  fails('2 +', 'the expression ends too early');
  fails(')', 'unexpected ")" at position 1');
  fails('1 2', 'unexpected "2" at position 3');
  fails('sqrt 4', 'expected "(" at position 6, found "4"');
  fails('min(1 2)', 'expected ")" at position 7, found "2"');
  fails('sqrt(1, 2)', 'sqrt takes one number');
  fails('abs(1, 2)', 'abs takes one number');
  fails('round(1, 2, 3)', 'round takes a number and optionally the decimal places');
  fails('round(1, 31)', 'round takes 0 to 30 decimal places');
  fails('round(1, -1)', 'round takes 0 to 30 decimal places');
  fails('round(1, 0.5)', 'round takes 0 to 30 decimal places');
  fails('1.2.3', 'unexpected ".3" at position 4');
});

test('rounding: half away from zero, to 0 to 30 places', () => {
  assert.equal(r('round(2.5)'), '3');
  assert.equal(r('round(2.4999)'), '2');
  assert.equal(r('round(-2.345, 2)'), '-2.35');
  assert.equal(r('round(2.344, 2)'), '2.34');
  assert.equal(r('round(1/3, 30)'), '0.333333333333333333333333333333');
  assert.equal(r('round(7, 0)'), '7');
});

test('min, max and abs', () => {
  assert.equal(r('min(5)'), '5');
  assert.equal(r('max(-1, -2)'), '-1');
  assert.equal(r('min(-1, -2)'), '-2');
  assert.equal(r('max(1/3, 0.3)'), '0.33333333333333333333');
  assert.equal(r('min(2, 2)'), '2');
  assert.equal(r('abs(3)'), '3');
  assert.equal(r('abs(-1/3)'), '0.33333333333333333333');
});

test('square roots: exact for squares of any size, otherwise cut (not rounded) to 30 decimal places and marked inexact', () => {
  assert.equal(r('sqrt(0)'), '0');
  assert.equal(r('sqrt(1)'), '1');
  assert.equal(r('sqrt(9/4)'), '1.5');
  assert.equal(r('sqrt(1e40)'), '1'.padEnd(21, '0'));
  assert.deepEqual(calculate('sqrt(2)'), { expression: 'sqrt(2)', result: '1.414213562373095048801688724209', exact: false });
  assert.equal(r('sqrt(1/2)'), '0.707106781186547524400844362104');
  assert.deepEqual(calculate('sqrt(0.01)'), { expression: 'sqrt(0.01)', result: '0.1', exact: true });
});

test('exactness travels: anything computed from an irrational root is not exact', () => {
  assert.equal(calculate('sqrt(4) + 1').exact, true);
  assert.equal(calculate('sqrt(2) * 2').exact, false);
  assert.equal(calculate('sqrt(2) - sqrt(2)').exact, false);
  assert.equal(calculate('sqrt(2) / 1').exact, false);
  assert.equal(calculate('-sqrt(2)').exact, false);
  assert.equal(calculate('sqrt(2) ^ 2').exact, false);
  assert.equal(calculate('2 ^ sqrt(4)').exact, true);
  assert.equal(calculate('min(sqrt(2), 5)').exact, false);
  assert.equal(calculate('abs(sqrt(2))').exact, false);
  assert.deepEqual(calculate('round(sqrt(2), 2)'), { expression: 'round(sqrt(2), 2)', result: '1.41', exact: false });
  assert.equal(calculate('sqrt(sqrt(16))').exact, true);
  assert.equal(calculate('sqrt(2 + sqrt(4))').exact, true, 'the square root of an exact 4');
});

test('the decimal form: exact when it ends, else rounded half up to 20 significant digits', () => {
  const d = (n: bigint, den: bigint) => toDecimal({ n, d: den });
  assert.deepEqual(d(1n, 8n), { text: '0.125', terminates: true });
  assert.deepEqual(d(1n, 40n), { text: '0.025', terminates: true });
  assert.deepEqual(d(-1n, 2n), { text: '-0.5', terminates: true });
  assert.deepEqual(d(0n, 1n), { text: '0', terminates: true });
  assert.deepEqual(d(12n, 1n), { text: '12', terminates: true });
  assert.deepEqual(d(2n, 3n), { text: '0.66666666666666666667', terminates: false });
  assert.deepEqual(d(-1n, 3n), { text: '-0.33333333333333333333', terminates: false });
  assert.deepEqual(d(1n, 3000n), { text: '0.00033333333333333333333', terminates: false });
  assert.deepEqual(d(100000n, 3n), { text: '33333.333333333333333', terminates: false });
  assert.deepEqual(d(10n ** 20n, 3n), { text: '33333333333333333333.333333', terminates: false });
  assert.deepEqual(d(1n, 7n * 10n ** 30n), { text: '0.00000000000000000000000000000014285714285714285714', terminates: false });
  assert.equal(r('1/3 - 1/3'), '0');
});

test('the result: the expression trimmed, a fraction only when the decimal does not end', () => {
  assert.deepEqual(calculate('  3/4 '), { expression: '3/4', result: '0.75', exact: true });
  assert.deepEqual(calculate('-2/3'), { expression: '-2/3', result: '-0.66666666666666666667', exact: true, fraction: '-2/3' });
});

test('the tool as the model sees it: one expression of 1 to 1000 characters, cheap and quick', () => {
  assert.equal(calculatorTool.name, 'calculator');
  assert.equal(calculatorTool.cost, 2);
  assert.equal(calculatorTool.timeoutMs, 2000);
  assert.equal(calculatorTool.params.safeParse({ expression: '' }).success, false);
  assert.equal(calculatorTool.params.safeParse({ expression: '1'.repeat(1000) }).success, true);
  assert.equal(calculatorTool.params.safeParse({ expression: '1'.repeat(1001) }).success, false);
  assert.match(calculatorTool.description, /^Exact arithmetic\./);
});

test('fractions through each operation, and a negative divisor', () => {
  assert.equal(r('0.5 * 0.25'), '0.125');
  assert.equal(r('0.5 - 0.25'), '0.25');
  assert.equal(r('1 / -2'), '-0.5');
  assert.equal(r('-3 / -4'), '0.75');
  assert.equal(r('12.5 * 2'), '25', 'a number of several digits with a fraction is one number');
  assert.equal(r('.25 * 4'), '1', 'and one that starts at the point');
});

test('min and max pick by value wherever the pick stands, fractions compared exactly', () => {
  assert.equal(r('min(3, 1, 2)'), '1');
  assert.equal(r('max(1, 3, 2)'), '3');
  assert.equal(r('min(0.5, 0.25, 0.75)'), '0.25');
  assert.equal(r('max(0.5, 0.75, 0.25)'), '0.75');
  assert.equal(calculate('max(1, 2)').exact, true, 'exact arguments give an exact pick');
  assert.equal(calculate('round(2.5)').exact, true);
});

test('a number of exactly 4096 bits is computed; one of 4097 is too big (numerators and denominators)', () => {
  assert.equal(r('2^2048 * 2^2047').length, 1233, '2^4095 has 4096 bits and 1233 digits');
  fails('2^2048 * 2^2048', 'a number in this calculation is too big to compute exactly');
  assert.ok(r('0.5^2048 * 0.5^2047').startsWith('0.'), 'a denominator of 4096 bits');
  fails('0.5^2048 * 0.5^2048', 'a number in this calculation is too big to compute exactly');
});

test('zero and one to huge powers need no size check', () => {
  assert.equal(r('0^100000'), '0');
  assert.equal(r('(-1)^99999'), '-1');
});

test('exactness of a sum or difference needs both sides exact', () => {
  assert.equal(calculate('sqrt(2) + 1').exact, false);
  assert.equal(calculate('1 - sqrt(2)').exact, false);
});

test('where the parser can go wrong: an operator with nothing before it, a call left open, many groups in a row', () => {
  fails('*3', 'unexpected "*" at position 1');
  fails('max(1', 'the expression ends too early');
  assert.equal(r(Array.from({ length: 60 }, () => '(1)').join('+')), '60', 'groups one after another are not nested');
});

test('a decimal that does not end drops the zeros its rounding leaves', () => {
  const c = calculate('0.1 + 1/(3*10^25)');
  assert.equal(c.result, '0.1');
  assert.equal(c.fraction, '3000000000000000000000001/30000000000000000000000000');
});

test('the calculator as a tool: the model’s expression in, the calculation out', async () => {
  assert.deepEqual(
    await calculatorTool.run({ expression: ' 1 + 1 ' }, { now: () => 0, timezone: 'UTC', threadId: 't' }, new AbortController().signal),
    { expression: '1 + 1', result: '2', exact: true },
  );
});
