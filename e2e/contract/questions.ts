import assert from 'node:assert/strict';
import { persona } from '@/e2e/double/persona';
import type { DoubleReply, DoubleRequest, LlamaDouble } from '@/e2e/double/llama-double';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';
import { httpCall } from './client';
import type { HearthServer } from './hearth-server';

/** What the suites that stop and start servers ask: a thread, and the double scripted for one kind of question. */

/** The last question of a model request. */
export const lastUser = (req: DoubleRequest) => {
  const c = req.messages.filter((m) => m.role === 'user').at(-1)?.content;
  return typeof c === 'string' ? c : '';
};

/** Questions containing `marker` get `reply`; everything else (checks, titles, other questions) the persona. */
export function scriptQuestions(double: LlamaDouble, marker: string, reply: (req: DoubleRequest) => DoubleReply) {
  double.setScript((req) => (!req.schema && !isTitleRequest(req) && lastUser(req).includes(marker) ? reply(req) : persona(req)));
}

export async function newThread(server: HearthServer): Promise<string> {
  const r = await httpCall(server.url, 'POST', '/api/threads', { json: {} });
  assert.equal(r.status, 201, r.text);
  return (r.body as { id: string }).id;
}
