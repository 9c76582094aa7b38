import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import type { TurnEvent } from '@/lib/contract/events';
import { reply, toolCall } from '@/lib/dev/testing/scripted-model';
import { runScriptedTurn as run } from '@/lib/dev/testing/turn-harness';
import { defineTool, withImages, type Tool } from '@/lib/tools/types';

describe('images a tool gives back', () => {
  const PNG = 'iVBORw0KGgo=';
  const camera = defineTool({
    name: 'snapshot',
    description: 'a picture of the door',
    params: z.object({}),
    cost: 1,
    timeoutMs: 1000,
    async run() {
      return withImages({ text: 'the front door' }, [{ mime: 'image/png', data: PNG }]);
    },
  }) as Tool;

  test('go to a model that sees images as image parts after the results; otherwise only the result, without the bytes', async () => {
    for (const vision of [true, false]) {
      const { model, events } = await run({
        tools: [camera],
        rounds: [toolCall('snapshot', {}), reply('The door is closed.')],
        question: 'Is the door closed?',
        vision,
      });
      const second = model.roundRequests[1];
      const parts = second.messages.flatMap((m) => (m.role === 'user' && Array.isArray(m.content) ? m.content : []));
      assert.deepEqual(
        parts.filter((p) => p.type === 'image_url').map((p) => (p as { image_url: { url: string } }).image_url.url),
        vision ? [`data:image/png;base64,${PNG}`] : [],
        `vision ${vision}`,
      );
      const result = events.find((e) => e.type === 'tool_result') as Extract<TurnEvent, { type: 'tool_result' }>;
      assert.deepEqual(result.result, { text: 'the front door' });
      assert.ok(!JSON.stringify(second.messages.filter((m) => m.role === 'tool')).includes(PNG), 'no bytes in the tool message');
    }
  });
});
