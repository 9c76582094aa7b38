import assert from 'node:assert/strict';
import { test } from 'node:test';
import { calculate, MAX_EXPRESSION_CHARS } from './calculator';
import { ToolError } from './types';

const r = (e: string) => calculate(e).result;

test('exact rational arithmetic', () => {
  assert.equal(r('0.1 + 0.2'), '0.3');
  assert.equal(r('(1/3) * 3'), '1');
  assert.equal(r('1/3 + 1/6'), '0.5');
  assert.equal(r('2.50 * 4'), '10');
  assert.equal(r('1e3 + 1'), '1001');
  assert.deepEqual(calculate('1/3'), { expression: '1/3', result: '0.33333333333333333333', exact: true, fraction: '1/3' });
});

test('precedence, associativity and unary minus', () => {
  assert.equal(r('10 - 2 * 3'), '4');
  assert.equal(r('23 * 47 + 156'), '1237');
  assert.equal(r('(10 - 2) * 3'), '24');
  assert.equal(r('2 ^ 3 ^ 2'), '512');
  assert.equal(r('-2 ^ 2'), '-4');
  assert.equal(r('--3'), '3');
  assert.equal(r('10 - -3'), '13');
  assert.equal(r('7 % 3'), '1');
  assert.equal(r('-7 % 3'), '-1');
  assert.equal(r('2 ^ -2'), '0.25');
  assert.equal(r('100 / 8 / 5'), '2.5');
});

test('functions', () => {
  assert.equal(r('sqrt(16)'), '4');
  assert.equal(r('sqrt(1/4)'), '0.5');
  assert.equal(calculate('sqrt(2)').exact, false);
  assert.match(r('sqrt(2)'), /^1\.41421356237309504880/);
  assert.equal(r('round(2.345, 2)'), '2.35');
  assert.equal(r('round(-2.5)'), '-3');
  assert.equal(r('min(3, 1, 2)'), '1');
  assert.equal(r('max(3, 1, 2)'), '3');
  assert.equal(r('abs(-4.5)'), '4.5');
});

test('every error is a clear tool error, never Infinity or NaN', () => {
  const cases: [string, RegExp][] = [
    ['1/0', /division by zero/],
    ['5 % 0', /modulo by zero/],
    ['0 ^ -1', /division by zero/],
    ['2 $ 3', /unknown character "\$" at position 3/],
    ['2 + foo(1)', /unknown name "foo"/],
    ['9 ^ 9 ^ 9', /too big/],
    ['2 ^ 0.5', /whole-number exponents/],
    ['10 ^ 5000', /too big/],
    ['', /empty/],
    ['(1 + 2', /ends too early|expected/],
    ['1 2', /unexpected "2"/],
    ['sqrt(-1)', /negative/],
    ['1'.repeat(MAX_EXPRESSION_CHARS + 1), /limit is 1000/],
    [
      '((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))',
      /nested/,
    ],
  ];
  for (const [expr, message] of cases) {
    assert.throws(
      () => calculate(expr),
      (err: unknown) => err instanceof ToolError && message.test(err.message),
      expr.slice(0, 30),
    );
  }
});

test('no eval: code is just unknown characters', () => {
  assert.throws(() => calculate('process.exit(1)'), ToolError);
  assert.throws(() => calculate('constructor.constructor("x")()'), ToolError);
});
