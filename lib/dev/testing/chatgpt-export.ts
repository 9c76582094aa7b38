/**
 * A large conversations.json as ChatGPT's data export writes it (a list of conversations, each
 * a `mapping` tree with `current_node`), generated a conversation at a time so that neither
 * the test nor the bench that sends it holds it whole. Each conversation has `turns` questions
 * and answers on one branch and carries `metadataBytes` of the metadata ChatGPT puts on every
 * message (citations, model details), which Hearth does not keep: real exports are mostly that.
 */
export type LargeExportOptions = { conversations: number; turns?: number; wordsPerMessage?: number; metadataBytes?: number };

const WORDS = ['fjord', 'rain', 'boots', 'ferry', 'cabin', 'salmon', 'trail', 'harbour', 'map', 'coffee', 'wool', 'bridge'];

/** The id ChatGPT gave conversation `i`: what a test looks for after the import. */
export const largeExportConversationId = (i: number) => `6790c2a1-0000-8000-9000-${String(i).padStart(12, '0')}`;

function conversation(i: number, { turns = 2, wordsPerMessage = 60, metadataBytes = 0 }: Omit<LargeExportOptions, 'conversations'>) {
  const text = (n: number) => Array.from({ length: wordsPerMessage }, (_, w) => WORDS[(i * 7 + n * 3 + w) % WORDS.length]).join(' ');
  const filler = metadataBytes > 0 ? 'c'.repeat(Math.max(0, Math.floor(metadataBytes / (turns * 2)))) : '';
  const start = 1_600_000_000 + i * 60;
  const mapping: Record<string, unknown> = { root: { id: 'root', message: null, parent: null, children: ['m0'] } };
  let parent = 'root';
  for (let m = 0; m < turns * 2; m++) {
    const id = `m${m}`;
    mapping[id] = {
      id,
      message: {
        id,
        author: { role: m % 2 === 0 ? 'user' : 'assistant', name: null, metadata: {} },
        create_time: start + m,
        content: { content_type: 'text', parts: [`${m % 2 === 0 ? 'Question' : 'Answer'} ${m >> 1} of chat ${i}: ${text(m)}`] },
        status: 'finished_successfully',
        end_turn: m % 2 === 1,
        weight: 1,
        metadata: { model_slug: 'gpt-4o', citations: filler ? [{ snippet: filler }] : [] },
        recipient: 'all',
      },
      parent,
      children: m + 1 < turns * 2 ? [`m${m + 1}`] : [],
    };
    parent = id;
  }
  return {
    title: `Chat ${i}`,
    create_time: start,
    update_time: start + turns * 2,
    conversation_id: largeExportConversationId(i),
    current_node: parent,
    mapping,
  };
}

/** The export's bytes, a conversation per chunk. */
export function* largeChatgptExport(options: LargeExportOptions): Generator<Buffer> {
  yield Buffer.from('[');
  for (let i = 0; i < options.conversations; i++) yield Buffer.from(`${i ? ',' : ''}${JSON.stringify(conversation(i, options))}`);
  yield Buffer.from(']');
}

/** The export as a request body, made as it is sent, and how many bytes have gone. */
export function largeChatgptExportBody(options: LargeExportOptions): { body: ReadableStream<Uint8Array>; sent(): number } {
  const chunks = largeChatgptExport(options);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) return controller.close();
      sent += next.value.length;
      controller.enqueue(next.value);
    },
  });
  return { body, sent: () => sent };
}
