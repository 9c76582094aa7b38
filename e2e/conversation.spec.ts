import { expect, test } from '@playwright/test';
import { fakeMicrophone, voiceWav } from './fake-microphone';
import { ChatPage } from './pages/chat';

/**
 * Conversation mode (issue 50, items 3, 4 and 6), heard through Chromium's fake microphone fed a
 * WAV file (--use-file-for-fake-audio-capture): quiet, a second of a voice-like sound (the
 * question), quiet while Hearth answers aloud, and a second voice-like sound that cuts in.
 * The double hears the first recording as a question whose answer streams slowly in sentences.
 */

const DOUBLE = 'http://127.0.0.1:18080';
/** The microphone's 30 s: quiet, the question (1.0–2.2 s), quiet while Hearth answers, the cut-in (6.5–7.7 s), quiet. */
test.use({
  launchOptions: fakeMicrophone(
    voiceWav('conversation', 30, [
      [1.0, 2.2],
      [6.5, 7.7],
    ]),
  ),
});

type Spoken = { input: string };
type Heard = { model: string };
const speechLog = async (page: import('@playwright/test').Page) =>
  (await (await page.request.get(`${DOUBLE}/__speech`)).json()) as { heard: Heard[]; spoken: Spoken[] };

test.afterEach(async ({ page }) => {
  await page.request.post(`${DOUBLE}/__speech`, { data: { transcripts: [] } });
  await page.request.patch('/api/settings', { data: { ttsUrl: null, sttUrl: null } });
});

test('conversation: a spoken question is sent, the answer is spoken as it streams, and speaking cuts in', async ({ page }) => {
  test.setTimeout(60_000);
  expect((await page.request.patch('/api/settings', { data: { sttUrl: DOUBLE, ttsUrl: DOUBLE } })).ok()).toBe(true);
  await page.request.post(`${DOUBLE}/__speech`, {
    data: { transcripts: ['Tell me about the lighthouse.', 'Thank you, that is enough.'] },
  });
  const before = await speechLog(page);
  const chat = new ChatPage(page);
  await chat.open();
  await page.getByTestId('conversation-start').click();
  const bar = page.getByTestId('conversation');
  await expect(bar).toHaveAttribute('data-phase', /listening|hearing/);

  // The question, heard to its end by the silence after it, is written down and sent.
  await expect(chat.userMessages.first()).toHaveText(/Tell me about the lighthouse\./, { timeout: 15_000 });
  expect((await speechLog(page)).heard.length).toBe(before.heard.length + 1);

  // The first sentence is asked for while the answer is still being written.
  await expect
    .poll(async () => (await speechLog(page)).spoken.slice(before.spoken.length).map((s) => s.input))
    .toContainEqual('The lighthouse stands on the northern cape.');
  await expect(chat.lastAnswer()).not.toContainText('museum');
  await expect(bar).toHaveAttribute('data-phase', /answering|speaking/);

  // Speaking over Hearth cuts in: its voice stops, and what is said is the next turn.
  await expect(bar).toHaveAttribute('data-phase', 'speaking', { timeout: 15_000 });
  await expect(bar).toHaveAttribute('data-phase', /hearing|transcribing|answering/, { timeout: 15_000 });
  await expect(chat.userMessages.last()).toHaveText(/Thank you, that is enough\./, { timeout: 15_000 });
  const after = await speechLog(page);
  expect(after.heard.length).toBe(before.heard.length + 2);
  // Cut off in its second or third sentence (said in full it takes some 13 s): its last was never asked for.
  const asked = after.spoken.slice(before.spoken.length).map((s) => s.input);
  expect(asked.some((s) => /museum/.test(s))).toBe(false);

  // The first answer, spoken, has its figures: from the end of speech to the words, the first token, the first sound.
  await expect(page.getByTestId('voice-figures').first()).toContainText(/words \d+\.\d s · first token \d+\.\d s · first sound \d+\.\d s/);
  await page.getByTestId('conversation-end').click();
  await expect(bar).toHaveCount(0);
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});
