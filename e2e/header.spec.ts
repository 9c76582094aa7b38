import { expect, test, type Page } from '@playwright/test';
import { ChatPage } from './pages/chat';

/** The thread header: one of each menu whatever was shown before, one menu open at a time. */

async function makeThread(page: Page, title: string): Promise<string> {
  const res = await page.request.post('/api/threads', { data: { title } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test('moving between threads without a reload leaves one of each header menu', async ({ page }) => {
  const stamp = Date.now();
  const first = await makeThread(page, `Header menus A ${stamp}`);
  const second = await makeThread(page, `Header menus B ${stamp}`);
  try {
    const chat = new ChatPage(page);
    await chat.open(`/t/${first}`);
    for (const id of [second, first, second, first]) {
      await chat.thread(id).getByTestId('thread-link').click();
      await expect(page).toHaveURL(new RegExp(`/t/${id}$`));
      await expect(page.getByTestId('thread-title')).toHaveText(`Header menus ${id === first ? 'A' : 'B'} ${stamp}`);
      await expect(page.getByTestId('edit-instructions')).toHaveCount(1);
      await expect(page.getByTestId('thread-tools')).toHaveCount(1);
      await expect(page.getByTestId('thread-knowledge')).toHaveCount(1);
      await expect(page.getByTestId('export-menu')).toHaveCount(1);
    }
  } finally {
    for (const id of [first, second]) await page.request.delete(`/api/threads/${id}`);
  }
});

test('the header menus open one at a time and close on a click elsewhere or Escape', async ({ page }) => {
  const id = await makeThread(page, `Header menus exclusive ${Date.now()}`);
  try {
    const chat = new ChatPage(page);
    await chat.open(`/t/${id}`);
    const knowledge = page.getByTestId('thread-knowledge');
    const tools = page.getByTestId('thread-tools');
    const exportMenu = page.getByTestId('export-menu');
    const open = (menu: typeof tools) => menu.locator('summary').click();

    await open(knowledge);
    await expect(knowledge).toHaveAttribute('open', '');
    await open(tools);
    await expect(tools).toHaveAttribute('open', '');
    await expect(knowledge).not.toHaveAttribute('open');
    await open(exportMenu);
    await expect(exportMenu).toHaveAttribute('open', '');
    await expect(tools).not.toHaveAttribute('open');
    await expect(page.locator('header details[open]')).toHaveCount(1);

    // A click elsewhere (the messages) closes it.
    await page.getByTestId('composer').click();
    await expect(page.locator('header details[open]')).toHaveCount(0);

    // So does Escape, from the keyboard, and focus goes back to the menu's button.
    await tools.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect(tools).toHaveAttribute('open', '');
    await page.keyboard.press('Escape');
    await expect(tools).not.toHaveAttribute('open');
    await expect(tools.locator('summary')).toBeFocused();

    // From the keyboard too, opening one closes the other.
    await page.keyboard.press('Enter');
    await expect(tools).toHaveAttribute('open', '');
    await knowledge.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect(knowledge).toHaveAttribute('open', '');
    await expect(tools).not.toHaveAttribute('open');
    // A click inside an open menu keeps it open.
    await knowledge.getByText('Collections this thread searches').click();
    await expect(knowledge).toHaveAttribute('open', '');
  } finally {
    await page.request.delete(`/api/threads/${id}`);
  }
});

/** Emoji, full-width forms and the odd symbols that were icons: empty boxes without the right font. */
const FONT_DEPENDENT = /[\u{1F000}-\u{1FFFF}\u{FF00}-\u{FFEF}\u2630\u22EF\u2715]/u;

test('the header and sidebar buttons are drawn icons (SVG) with names, on a phone and on a desktop', async ({ page }) => {
  const stamp = Date.now();
  const id = await makeThread(page, `Icons ${stamp}`);
  expect((await page.request.patch(`/api/threads/${id}`, { data: { pinned: true } })).status()).toBe(200);
  try {
    const chat = new ChatPage(page);
    const drawn = async (button: ReturnType<Page['getByTestId']>) => {
      const svg = button.locator('svg').first();
      await expect(svg).toBeVisible();
      const box = (await svg.boundingBox())!;
      expect(box.width).toBeGreaterThan(8);
      expect(box.height).toBeGreaterThan(8);
    };

    await page.setViewportSize({ width: 390, height: 800 });
    await chat.open(`/t/${id}`);
    const newChat = page.getByRole('button', { name: 'New chat' });
    await expect(newChat).toHaveAttribute('data-testid', 'header-new-chat');
    await drawn(newChat);
    const showList = page.getByRole('button', { name: 'Show conversations' });
    await drawn(showList);
    expect(await page.locator('header').innerText()).not.toMatch(FONT_DEPENDENT);
    // With the icons drawn, the header still fits the phone, and the title has a row to be read in.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect((await page.getByTestId('thread-title').boundingBox())!.width).toBeGreaterThan(150);
    await showList.click();
    await drawn(page.getByRole('button', { name: 'Close the thread list' }));
    await drawn(page.getByTestId('new-thread'));
    await page.getByRole('button', { name: 'Close the thread list' }).click();

    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByTestId('new-thread')).toHaveAccessibleName('New chat');
    await drawn(page.getByTestId('new-thread'));
    const row = chat.thread(id);
    await row.hover();
    const menu = row.getByRole('button', { name: `Actions for “Icons ${stamp}”` });
    await drawn(menu);
    // A pinned thread says so in a drawn pin that has a name.
    await expect(row.getByRole('img', { name: 'Pinned' })).toBeVisible();
    expect(await page.getByRole('navigation', { name: 'Threads' }).innerText()).not.toMatch(FONT_DEPENDENT);
  } finally {
    await page.request.delete(`/api/threads/${id}`);
  }
});

test('on a phone 375 px wide every header menu opens inside the screen, and the page never scrolls sideways', async ({ page }) => {
  const id = await makeThread(page, `Phone menus ${Date.now()}`);
  try {
    const chat = new ChatPage(page);
    await page.setViewportSize({ width: 375, height: 740 });
    await chat.open(`/t/${id}`);
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const inside = async (box: { x: number; width: number } | null, what: string) => {
      expect(box, what).not.toBeNull();
      expect(box!.x, `${what} starts on the screen`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `${what} ends on the screen`).toBeLessThanOrEqual(375);
    };
    expect(await sideways()).toBeLessThanOrEqual(0);
    await inside(await page.getByTestId('thread-model').boundingBox(), 'the model picker');
    for (const menu of ['thread-knowledge', 'thread-tools', 'export-menu']) {
      await page.getByTestId(menu).locator('summary').click();
      const popup = page.getByTestId(menu).locator('summary + div');
      await expect(popup).toBeVisible();
      await inside(await popup.boundingBox(), `the ${menu} menu`);
      expect(await sideways(), `the ${menu} menu open`).toBeLessThanOrEqual(0);
      await page.keyboard.press('Escape');
      await expect(popup).toBeHidden();
    }
    await page.getByTestId('edit-instructions').click();
    await inside(await page.getByTestId('instructions-popover').boundingBox(), 'the instructions');
    expect(await sideways()).toBeLessThanOrEqual(0);
  } finally {
    await page.request.delete(`/api/threads/${id}`);
  }
});
