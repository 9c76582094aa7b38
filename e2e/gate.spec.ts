import { expect, test } from '@playwright/test';
import { deferralFor } from './double/persona';
import { ChatPage } from './pages/chat';

test('a deferral is set aside and the researched answer replaces it', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const question = 'What is the price of bitcoin today?';
  await chat.ask(question);
  await chat.waitForAnswer();
  const answer = chat.lastAnswer();
  const setAside = answer.getByTestId('set-aside-draft');
  await expect(setAside).toHaveCount(1);
  await expect(setAside).toHaveAttribute('data-reason', 'deferral');
  await expect(setAside).toContainText(deferralFor(question));
  await expect(answer.locator('[data-testid="tool-call"][data-tool="web_search"]')).toBeVisible();
  // The search as a card, collapsed: what it did in words and how it went; opened: a preview, the arguments, the result.
  const card = answer.locator('[data-testid="tool-call"][data-tool="web_search"]');
  await expect(card).not.toHaveAttribute('open', '');
  await expect(card.getByTestId('tool-call-doing')).toHaveText(/^Searched the web for “.+”$/);
  await expect(card.getByTestId('tool-call-outcome')).toHaveText(/^✓ \d+ ms$/);
  await expect(card.getByTestId('tool-call-preview')).toBeHidden();
  await card.locator('summary').click();
  await expect(card.getByTestId('tool-call-preview')).toHaveText(/^\d+ results?: /);
  await expect(card).toContainText('"query"');
  await expect(setAside.locator('summary')).toHaveText(
    /^Set aside: it offered to look this up instead of doing it — so it searched for “.+”$/,
  );
  await expect(answer.getByTestId('answer')).toContainText('According to');
  await expect(answer.getByTestId('answer')).not.toContainText(deferralFor(question));
  // A link in model output opens apart from Hearth, telling the site nothing.
  const link = answer.getByTestId('answer').locator('a[href^="https://"]').first();
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(link).toHaveAttribute('target', '_blank');
  // The page it linked is a source chip under the answer, named by its title, opening apart as well.
  const source = answer.getByTestId('sources').getByTestId('source');
  await expect(source).toHaveCount(1);
  await expect(source).toHaveAttribute('data-kind', 'page');
  await expect(source).toHaveAttribute('href', (await link.getAttribute('href'))!);
  await expect(source).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await answer.getByTestId('decisions').locator('summary').click();
  // Checks read as sentences with how sure each was, never as raw values; the classifier's say they are its own.
  const judged = answer.locator('[data-testid="decision"][data-step="deferral_classifier"]');
  await expect(judged).toHaveCount(2);
  await expect(judged.first()).toContainText(/Reads as a deferral \(Hearth’s classifier\): (yes|no), \d+%/);
  await expect(judged.first()).toContainText('a deferral, and a pattern agrees: set aside');
  // In words, not the classifier's version name (issue 46).
  await expect(judged.first()).toContainText('(scored by Hearth, no model call)');
  await expect(judged.first()).not.toContainText('deferral-classifier-1');
  await expect(judged.first().locator('meter')).toHaveCount(1);
  // The researched answer carries what the search found: the rule accepts it with no verdict call, and the Checks say so.
  await expect(judged.last()).toContainText(/Reads as a deferral \(Hearth’s classifier\): no, \d+%/);
  await expect(judged.last()).toContainText('not a deferral');
  await expect(answer.locator('[data-testid="decision"][data-step="verdict"]')).toHaveCount(0);
  const accepted = answer.locator('[data-testid="decision"][data-step="acceptance"]');
  await expect(accepted).toHaveCount(1);
  await expect(accepted).toContainText('Accepted by: the rule: it uses this turn’s tool results');
  await expect(accepted).toContainText(/It carries: .*\b42\b/);
  await expect(accepted).toContainText('(Hearth’s rule)');
  await expect(answer.getByTestId('decisions')).not.toContainText('is_deferral=');
  // Under the answer, what it took (the double sends llama.cpp's timings).
  await expect(answer.getByTestId('answer-figures')).toContainText(
    /first word after \d+ ms · [\d.]+ tokens\/s · \d+ model calls · tools: web search · fuel \d+/,
  );
  // What fuel and the Checks are, said where they appear.
  await expect(answer.getByTestId('answer-fuel')).toHaveAttribute('title', /budget: a model call costs 100/);
  await expect(answer.getByTestId('decisions-summary')).toHaveAttribute('title', /asks the model short questions/);
  await page.reload();
  await expect(chat.lastAnswer().getByTestId('set-aside-draft')).toContainText(deferralFor(question));
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('According to');
  await expect(chat.lastAnswer().getByTestId('answer-figures')).toContainText(/tokens\/s · \d+ model calls · tools: web search/);
});

test('arithmetic is computed by the program and shown as a card', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('What is 23 * 47 + 156?');
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('calculation-result')).toHaveText('1237');
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('1237');
  await page.reload();
  await expect(chat.lastAnswer().getByTestId('calculation')).toContainText('23 * 47 + 156 = 1237');
});
