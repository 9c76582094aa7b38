import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/**
 * Exact answers over an attached table (issue 33): a bank statement attached as a CSV, a
 * question for its total, and the answer beside a card that shows the query Hearth ran and
 * the exact figure it computed, kept over a reload.
 */

test('an attached statement: asked for its total, the answer has the exact figure and the card shows the query Hearth ran', async ({
  page,
}) => {
  const rows = Array.from(
    { length: 400 },
    (_, i) => `2025-03-${String((i % 28) + 1).padStart(2, '0')},Shop ${i},${(((i * 7919) % 20_011) - 9_000) / 100}`,
  );
  const cents = Array.from({ length: 400 }, (_, i) => ((i * 7919) % 20_011) - 9_000).reduce((a, b) => a + b, 0);
  const total = (cents / 100).toFixed(2);
  const chat = new ChatPage(page);
  await chat.open();
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(`Date,Payee,Amount\n${rows.join('\n')}\n`) });
  await expect(page.getByTestId('pending-attachment')).toContainText('statement.csv');
  await chat.ask('What is the total of all amounts in this statement?');
  await chat.waitForAnswer();
  const card = chat.lastAnswer().getByTestId('query-card');
  await expect(card).toContainText('Computed by Hearth from statement.csv');
  await expect(card.getByTestId('query-sql')).toHaveText('SELECT sum(Amount) FROM data');
  await expect(card.getByTestId('query-rows').locator('td')).toHaveText([
    Number(total).toLocaleString('en', { maximumFractionDigits: 10 }),
  ]);
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText(`The total is ${total.replace(/\.?0+$/, '')}`);
  await page.reload();
  await expect(chat.lastAnswer().getByTestId('query-card')).toContainText('Computed by Hearth from statement.csv');
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});
