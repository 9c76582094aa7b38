import { expect, type Locator, type Page } from '@playwright/test';

/** The chat screen as a person sees it: a page object over data-testid hooks. */
export class ChatPage {
  readonly composer: Locator;
  readonly send: Locator;
  readonly stop: Locator;
  readonly userMessages: Locator;
  readonly assistantMessages: Locator;
  readonly threads: Locator;
  readonly banner: Locator;

  constructor(readonly page: Page) {
    this.composer = page.getByTestId('composer');
    this.send = page.getByTestId('send');
    this.stop = page.getByTestId('stop');
    this.userMessages = page.getByTestId('user-message');
    this.assistantMessages = page.getByTestId('assistant-message');
    this.threads = page.getByTestId('thread-item');
    this.banner = page.getByTestId('model-banner');
  }

  async open(path = '/') {
    await this.page.goto(path);
    await expect(this.composer).toBeVisible();
  }

  async newChat() {
    await this.page.getByTestId('new-thread').click();
    await expect(this.page).toHaveURL(/\/$/);
  }

  /** Types a message and sends it with Enter, as a person would. */
  async ask(text: string) {
    await this.composer.fill(text);
    await this.composer.press('Enter');
  }

  lastAnswer(): Locator {
    return this.assistantMessages.last();
  }

  async waitForAnswer() {
    await expect(this.lastAnswer()).toHaveAttribute('data-status', /complete|error|interrupted/);
  }

  threadId(): string {
    const m = this.page.url().match(/\/t\/([\w-]+)/);
    if (!m) throw new Error(`not on a thread page: ${this.page.url()}`);
    return m[1];
  }

  thread(id: string): Locator {
    return this.page.locator(`[data-testid="thread-item"][data-thread-id="${id}"]`);
  }

  /** One of a sidebar row's actions (rename-thread, move-thread, archive-thread, delete-thread), its ⋯ menu opened first. */
  async threadAction(id: string, testId: string): Promise<Locator> {
    const row = this.thread(id);
    if (!(await row.getByTestId('thread-actions').isVisible())) {
      await row.hover(); // on a wide screen the ⋯ shows on hover, as a mouse user finds it
      await row.getByTestId('thread-menu').click();
    }
    return row.getByTestId('thread-actions').getByTestId(testId);
  }
}
