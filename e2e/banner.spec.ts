import { expect, test } from '@playwright/test';
import { APP_DOWN } from '../playwright.config';
import { ChatPage } from './pages/chat';

test('when llama-server cannot be reached, a banner says how to start it and nothing typed is lost', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(`${APP_DOWN}/`);
  await expect(chat.banner).toContainText('cannot be reached');
  // The command for the address Hearth is set to reach (LLAMA_URL http://127.0.0.1:9/v1), not always 8080 (issue 46).
  await expect(chat.banner.getByTestId('model-banner-command')).toHaveText(
    'llama-server -m your-model.gguf --jinja -c 32768 -np 2 --kv-unified --cache-ram 8192 --metrics --port 9',
  );
  await chat.ask('Is anyone there?');
  await expect(chat.lastAnswer().getByTestId('turn-error')).toHaveAttribute('data-code', 'model_unreachable');
  await page.reload();
  await expect(chat.userMessages.last()).toHaveText('Is anyone there?');
});
