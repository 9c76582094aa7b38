import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { issueInWords } from './zod-issue';

const said = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  assert.ok(!r.success);
  return issueInWords(r.error.issues[0]);
};

test("zod's defaults in plain words; a schema's own message kept (issue 46)", () => {
  assert.equal(said(z.number().int().min(100), 5), 'must be at least 100');
  assert.equal(said(z.number().int().max(20), 21), 'must be at most 20');
  assert.equal(said(z.number().gt(0), 0), 'must be more than 0');
  assert.equal(said(z.number().int(), 1.5), 'must be a whole number');
  assert.equal(said(z.number(), 'x'), 'must be a number');
  assert.equal(said(z.object({ id: z.string() }), {}), 'is missing');
  assert.equal(said(z.string().min(1), ''), 'must not be empty');
  assert.equal(said(z.string().max(3), 'abcd'), 'must be at most 3 characters');
  assert.equal(said(z.array(z.string()).min(1), []), 'must have at least 1 item');
  assert.equal(said(z.string().url(), 'nope'), 'must be a web address such as http://127.0.0.1:8080/v1');
  assert.equal(said(z.enum(['on', 'off']), 'maybe'), 'must be one of: on, off');
  assert.equal(said(z.object({}).strict(), { extra: 1 }), 'has a field Hearth does not know: extra');
  assert.equal(
    said(
      z.string().refine(() => false, 'must be an IANA timezone such as Europe/Paris'),
      'x',
    ),
    'must be an IANA timezone such as Europe/Paris',
  );
});
