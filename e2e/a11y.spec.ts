import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { APP } from '../playwright.config';
import { ChatPage } from './pages/chat';

/**
 * Accessibility, in both themes: axe finds no serious or critical violation (labels, names,
 * contrast to WCAG 2.1 AA) on a thread that shows everything a turn can show; keyboard focus
 * is visible; a finished reply is announced politely.
 */

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes
          .slice(0, 8)
          .map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').at(-1)?.trim()} ${n.html.slice(0, 120)}`)
          .join('\n  ')}`,
    );
}

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds no serious violation in the ${theme} theme`, async ({ page, context }) => {
    // Four full axe analyses and two turns in one test: on a loaded 2-core machine that took
    // over 30 s. The test is about violations, not speed, so it gets room.
    test.setTimeout(120_000);
    await context.addCookies([{ name: 'hearth-theme', value: theme, url: APP }]);
    const chat = new ChatPage(page);
    await chat.open();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    expect(await seriousViolations(page), 'the empty page').toEqual([]);

    // A turn with a set-aside draft, a web search, checks and figures; then code and math.
    await chat.ask(`What is the price of bitcoin today? (${theme})`);
    await chat.waitForAnswer();
    await chat.lastAnswer().getByTestId('decisions').locator('summary').click();
    await chat.lastAnswer().getByTestId('tool-call').first().locator('summary').click();
    await chat.ask('Show me code and math please');
    await chat.waitForAnswer();
    await expect(chat.lastAnswer().locator('code[data-highlighted="true"]').first()).toBeVisible();
    expect(await seriousViolations(page), 'a thread with everything a turn shows').toEqual([]);

    // The shortcuts list, a dialog.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    await expect(page.getByTestId('shortcuts')).toBeVisible();
    expect(await seriousViolations(page), 'the shortcuts dialog').toEqual([]);

    await page.goto('/settings');
    await expect(page.getByTestId('server-check')).toHaveAttribute('data-ok', 'true');
    expect(await seriousViolations(page), 'the settings page').toEqual([]);
  });
}

test('the theme is chosen in the page, applies at once and is kept; the system theme follows the system', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/settings');
  const html = page.locator('html');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await expect(html).toHaveAttribute('data-theme', 'system');
  const systemDark = await background();
  await page.getByTestId('theme-picker').getByText('Light').click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  const light = await background();
  expect(light).not.toEqual(systemDark);
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'light');
  expect(await background()).toEqual(light);
  await page.getByTestId('theme-picker').getByText('Dark').click();
  expect(await background()).toEqual(systemDark);
  await page.getByTestId('theme-picker').getByText('System').click();
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await background()).toEqual(light);
});

test('keyboard focus is visible, and a finished reply is announced politely', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.composer.focus();
  await page.keyboard.press('Shift+Tab');
  const outline = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return { tag: el.tagName, style: style.outlineStyle, width: style.outlineWidth };
  });
  expect(outline.tag).toBe('BUTTON');
  expect(outline.style).not.toBe('none');
  expect(outline.width).not.toBe('0px');

  const announcer = page.getByTestId('live-announcer');
  await expect(announcer).toHaveAttribute('aria-live', 'polite');
  await chat.ask('Hello there, announce me');
  await chat.waitForAnswer();
  await expect(announcer).toContainText('Hearth replied: Hello! You said: "Hello there, announce me"');
});

test('a screen reader hears the answer as the page shows it, not its Markdown (issue 46)', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Please give the markdown test answer');
  await chat.waitForAnswer();
  const announcer = page.getByTestId('live-announcer');
  await expect(announcer).toContainText('Hearth replied: Result');
  await expect(announcer).toContainText('fruit, count');
  await expect(announcer).toContainText('old bold code');
  for (const raw of ['##', '**', '|', '`', '<script', '<img', '](']) await expect(announcer).not.toContainText(raw);
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});
