import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { errorResponse } from '@/lib/http/handle';
import { ConfigError, isConfigError } from '@/lib/shared/config';
import { isToolError, ToolError } from '@/lib/tools/types';
import { HearthError, hasErrorCode, isHearthError } from './errors';

/**
 * Next bundles instrumentation and each route apart, so the same class exists twice in one
 * process. A second, separately evaluated copy of lib/shared/errors.ts stands in for the other bundle.
 */
const otherBundle = (await import(`${new URL('./errors.ts', import.meta.url).href}?bundle=other`)) as typeof import('./errors');

test('a second copy of the module is a different class (the trap this guards against)', () => {
  const foreign = new otherBundle.HearthError('turn_running', 'busy');
  assert.notEqual(otherBundle.HearthError, HearthError);
  assert.equal(foreign instanceof HearthError, false);
});

test('errors made by another bundle are recognised by brand and keep their status', async () => {
  const cases = [
    ['turn_running', 409],
    ['not_found', 404],
    ['bad_request', 400],
    ['too_large', 413],
    ['model_unreachable', 503],
  ] as const;
  for (const [code, status] of cases) {
    const foreign = new otherBundle.HearthError(code, `message for ${code}`);
    assert.ok(isHearthError(foreign), code);
    assert.ok(hasErrorCode(foreign, code), code);
    const res = errorResponse(foreign);
    assert.equal(res.status, status, code);
    assert.deepEqual(await res.json(), { error: { code, message: `message for ${code}` } });
  }
});

test('look-alikes are not HearthErrors: plain errors, unknown codes, objects without the brand', async () => {
  const unknownCode = new otherBundle.HearthError('turn_running', 'x');
  Object.defineProperty(unknownCode, 'code', { value: 'made_up' });
  for (const value of [new Error('boom'), unknownCode, { name: 'HearthError', code: 'not_found', message: 'x' }, null, 'not_found']) {
    assert.equal(isHearthError(value), false, String(value));
  }
  const original = console.error;
  console.error = () => undefined;
  try {
    const res = errorResponse(new Error('database detail that must not leak'));
    assert.equal(res.status, 500);
    const body = await res.json();
    assert.equal(body.error.code, 'internal');
    assert.doesNotMatch(body.error.message, /database detail/);
  } finally {
    console.error = original;
  }
});

test('ToolError and ConfigError are branded too, and not confused with each other', () => {
  assert.ok(isToolError(new ToolError('x')));
  assert.ok(isConfigError(new ConfigError('x')));
  assert.equal(isToolError(new ConfigError('x')), false);
  assert.equal(isHearthError(new ToolError('x')), false);
  assert.equal(isToolError(new Error('x')), false);
});

test('no server code recognises a branded error by class identity', () => {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts')) {
        const text = fs.readFileSync(path.join(root, rel), 'utf8');
        if (/instanceof\s+(HearthError|ToolError|ConfigError)\b/.test(text)) offenders.push(rel);
      }
    }
  };
  for (const dir of ['app', 'lib', 'db', 'scripts']) walk(dir);
  assert.deepEqual(offenders, [], 'use isHearthError / isToolError / isConfigError instead');
});
