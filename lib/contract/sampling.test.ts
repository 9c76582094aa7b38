import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalSampling, samplingFields, samplingSchema } from './sampling';

test("a thread's sampling as llama-server's fields: only those set, by their wire names", () => {
  assert.deepEqual(samplingFields(null), {});
  assert.deepEqual(samplingFields({}), {});
  assert.deepEqual(samplingFields({ temperature: 0, topP: 1, topK: 0, minP: 0.05 }), { temperature: 0, top_p: 1, top_k: 0, min_p: 0.05 });
  assert.deepEqual(samplingFields({ topK: 40 }), { top_k: 40 });
});

test('nothing set is no sampling of its own', () => {
  assert.equal(normalSampling(null), null);
  assert.equal(normalSampling({}), null);
  assert.equal(normalSampling({ temperature: undefined }), null);
  assert.deepEqual(normalSampling({ temperature: 0 }), { temperature: 0 });
});

test('the ranges are llama-server’s sensible ones, both ends included', () => {
  const ok = (v: unknown) => samplingSchema.safeParse(v).success;
  assert.ok(ok({ temperature: 0, topP: 0, topK: 0, minP: 0 }));
  assert.ok(ok({ temperature: 2, topP: 1, topK: 200, minP: 1 }));
  assert.ok(!ok({ temperature: 2.01 }));
  assert.ok(!ok({ topP: 1.01 }));
  assert.ok(!ok({ topK: 201 }));
  assert.ok(!ok({ topK: 1.5 }));
  assert.ok(!ok({ minP: -0.01 }));
  assert.ok(!ok({ temperature: Number.NaN }));
  assert.ok(!ok({ mirostat: 2 }));
});
