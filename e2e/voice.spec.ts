import { expect, test } from '@playwright/test';
import { fakeMicrophone, voiceWav } from './fake-microphone';
import { ChatPage } from './pages/chat';

/**
 * Reading an answer aloud through a text-to-speech server set in Settings → Voice (issue 50,
 * items 1 and 5): the answer goes to the server a sentence at a time, as words without Markdown,
 * with the voice chosen; the button says Stop while it reads, and stops it.
 */

const DOUBLE = 'http://127.0.0.1:18080';
// The microphone hears a voice-like sound for a second every two.
test.use({
  launchOptions: fakeMicrophone(
    voiceWav(
      'voice',
      10,
      [0, 1, 2, 3, 4].map((n) => [n * 2, n * 2 + 1]),
    ),
  ),
});
type Spoken = { input: string; voice: string; model: string };
type Heard = { model: string; file: { type: string; bytes: number; head: string } };

test.afterEach(async ({ page }) => {
  await page.request.patch('/api/settings', { data: { ttsUrl: null, ttsVoice: null, sttUrl: null } });
});

test('an answer is read aloud a sentence at a time through the server set in Settings, and Stop stops it', async ({ page }) => {
  await page.goto('/settings');
  const server = page.locator('#setting-ttsUrl-input');
  await server.fill(DOUBLE);
  await page.locator('#setting-ttsVoice-input').fill('af_heart');
  await page.locator('#setting-ttsVoice-input').press('Tab');
  await expect(page.getByTestId('settings-status')).toHaveText('Saved. Changes apply from the next reply.');
  await page.reload();
  await expect(server).toHaveValue(DOUBLE);

  await page.getByTestId('back-to-chat').click();
  const chat = new ChatPage(page);
  await chat.ask('Tell me about the harbour in Bergen.');
  await chat.waitForAnswer();
  const before = ((await (await page.request.get(`${DOUBLE}/__speech`)).json()) as { spoken: Spoken[] }).spoken.length;
  const read = page.getByTestId('read-aloud').last();
  await expect(read).toHaveText('Read aloud');
  await read.click();
  await expect(read).toHaveAttribute('aria-pressed', 'true');
  await expect(read).toHaveText('Stop');

  // The first sentence was asked for, as words, with the voice chosen.
  await expect
    .poll(async () => ((await (await page.request.get(`${DOUBLE}/__speech`)).json()) as { spoken: Spoken[] }).spoken.length)
    .toBeGreaterThan(before);
  const spoken = ((await (await page.request.get(`${DOUBLE}/__speech`)).json()) as { spoken: Spoken[] }).spoken.slice(before);
  expect(spoken[0].voice).toBe('af_heart');
  for (const s of spoken) expect(s.input).not.toMatch(/[*#`]|\]\(/);
  const answer = (await chat.lastAnswer().getByTestId('answer').innerText()).replace(/\s+/g, ' ').trim();
  expect(answer.startsWith(spoken[0].input.replace(/\.$/, '').slice(0, 20))).toBe(true);

  await read.click();
  await expect(read).toHaveAttribute('aria-pressed', 'false');
  await expect(read).toHaveText('Read aloud');
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});

test('speak to type: the microphone records, the speech-to-text server hears it, and the words land in the message box', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  // No speech-to-text server: no microphone (the browser's own recognition would send the audio away).
  await expect(page.getByTestId('microphone')).toHaveCount(0);
  expect((await page.request.patch('/api/settings', { data: { sttUrl: DOUBLE } })).ok()).toBe(true);
  await chat.open();
  const mic = page.getByTestId('microphone');
  await chat.composer.fill('Tell me:');
  const before = ((await (await page.request.get(`${DOUBLE}/__speech`)).json()) as { heard: Heard[] }).heard.length;
  await mic.click();
  await expect(page.getByTestId('listening')).toBeVisible();
  await expect(mic).toHaveAttribute('aria-pressed', 'true');
  // The fake microphone's voice is heard: the meter moves.
  await expect(page.getByTestId('level')).not.toHaveAttribute('style', /width: 0%/);
  await mic.click();
  await expect(chat.composer).toHaveValue('Tell me: what time is it');
  await expect(page.getByTestId('listening')).toHaveCount(0);
  const heard = ((await (await page.request.get(`${DOUBLE}/__speech`)).json()) as { heard: Heard[] }).heard.slice(before);
  expect(heard).toHaveLength(1);
  expect(heard[0].model).toBe('whisper-1');
  expect(heard[0].file.type).toBe('audio/webm');
  expect(heard[0].file.bytes).toBeGreaterThan(100);
});

test('keep recordings: what the microphone heard goes with the message, and plays back beside its transcript', async ({ page }) => {
  expect((await page.request.patch('/api/settings', { data: { sttUrl: DOUBLE, keepRecordings: true } })).ok()).toBe(true);
  const chat = new ChatPage(page);
  await chat.open();
  const mic = page.getByTestId('microphone');
  await mic.click();
  await expect(page.getByTestId('listening')).toBeVisible();
  await mic.click();
  await expect(chat.composer).toHaveValue('what time is it');
  await expect(page.getByTestId('pending-attachment')).toContainText(/Recording .*\.webm/);
  await chat.composer.press('Enter');
  await chat.waitForAnswer();
  const kept = page.getByTestId('message-attachment');
  await expect(kept).toContainText(/Recording .*\.webm/);
  await kept.click();
  const player = page.getByTestId('recording-player');
  await expect(player).toBeVisible();
  // The browser can play what was kept: its length is known once it has loaded.
  await expect.poll(() => player.evaluate((a: HTMLAudioElement) => a.readyState)).toBeGreaterThan(0);
  await expect(page.getByTestId('file-viewer')).toContainText('what time is it');
  await page.keyboard.press('Escape');
  await page.request.patch('/api/settings', { data: { keepRecordings: null } });
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});
