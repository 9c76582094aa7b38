import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { APP } from '../playwright.config';
import { ChatPage } from './pages/chat';

/**
 * The README's screenshots, taken from a real thread (a researched answer with its set-aside
 * draft, search card, checks and figures; code and math; a regenerated answer's arrows), in
 * the light and dark themes, on a desktop and on a phone. Every run checks that nothing runs
 * off the side of the screen; `npm run screenshots` also writes them to docs/screenshots.
 */

const OUT = process.env.HEARTH_SCREENSHOTS_DIR;
const SIZES = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } } as const;

test('light and dark, desktop and phone: the page fits the screen, and the README pictures come from here', async ({ page, context }) => {
  test.setTimeout(90_000);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Show me code and math please');
  await chat.waitForAnswer();
  await chat.ask('What is the price of bitcoin today?');
  await chat.waitForAnswer();
  await page.locator('[data-message-id]').last().getByTestId('regenerate').click();
  await chat.waitForAnswer();
  await expect(page.locator('[data-message-id]').last().getByTestId('version-label')).toHaveText('2 / 2');
  const url = page.url();

  for (const theme of ['light', 'dark'] as const) {
    for (const [name, size] of Object.entries(SIZES)) {
      await context.addCookies([{ name: 'hearth-theme', value: theme, url: APP }]);
      await page.setViewportSize(size);
      await page.goto(url);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expect(chat.lastAnswer().getByTestId('answer-figures')).toBeVisible();
      await chat.lastAnswer().getByTestId('decisions').locator('summary').click();
      await chat.lastAnswer().getByTestId('set-aside-draft').locator('summary').click();
      // Nothing wider than the screen: no sideways scrolling on a phone.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${theme} ${name}: the page is wider than the screen`).toBeLessThanOrEqual(0);
      await page.getByTestId('messages').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await page.evaluate(() => document.fonts.ready);
      const shot = await page.screenshot({ timeout: 20_000, animations: 'disabled' });
      expect(shot.length).toBeGreaterThan(10_000);
      if (OUT) {
        fs.mkdirSync(OUT, { recursive: true });
        fs.writeFileSync(path.join(OUT, `${theme}-${name}.png`), shot);
      }
    }
  }
});
