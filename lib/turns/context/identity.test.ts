import assert from 'node:assert/strict';
import { test } from 'node:test';
import { identityPrompt } from './identity';

/** The identity block's date line (to the hour, in the user's timezone) and location line (docs/what-a-turn-does.md). */

const base = { assistantName: 'Hearth', modelId: 'm', webSearch: true, toolNames: ['web_search'] };

test('the date is given to the hour, in the user’s timezone', () => {
  const text = identityPrompt({ ...base, now: Date.UTC(2026, 11, 1, 23, 30), timezone: 'Asia/Tokyo' });
  assert.match(text, /Today is Wednesday,? 2 December 2026\. It is around 8 AM in the user's timezone \(Asia\/Tokyo\)\./);
  // Minutes are left out, so the block (and the prompt cache behind it) stays the same within the hour.
  assert.equal(identityPrompt({ ...base, now: Date.UTC(2026, 11, 1, 23, 5), timezone: 'Asia/Tokyo' }), text);
  assert.notEqual(identityPrompt({ ...base, now: Date.UTC(2026, 11, 2, 0, 5), timezone: 'Asia/Tokyo' }), text);
});

test('the location line is there when a location is set, and only then', () => {
  const at = { ...base, now: Date.UTC(2026, 11, 1, 9), timezone: 'Europe/Paris' };
  assert.match(
    identityPrompt({ ...at, location: 'Lyon, France' }),
    /The user is in Lyon, France; use that for weather, local news and anything nearby\./,
  );
  assert.doesNotMatch(identityPrompt(at), /The user is in/);
});

test('the identity block, word for word, with every option set', () => {
  const text = identityPrompt({
    assistantName: 'Ember',
    modelId: 'qwen3-8b',
    now: Date.UTC(2026, 5, 15, 13, 45),
    timezone: 'Europe/Paris',
    location: 'Lyon',
    userName: '  Ada ',
    webSearch: false,
    toolNames: ['now', 'calculator'],
    defaultInstructions: '  Be brief.  ',
    systemPrompt: '\nAnswer in French.\n',
  });
  // ICU versions differ on a comma after the weekday; the rest is fixed.
  assert.equal(
    text.replace('Monday, 15', 'Monday 15'),
    [
      "You are Ember, an assistant running on the user's own machine: the open-weights model qwen3-8b served by llama.cpp. You are not ChatGPT, Claude or Gemini.",
      "Today is Monday 15 June 2026. It is around 3 PM in the user's timezone (Europe/Paris). The user is in Lyon; use that for weather, local news and anything nearby. The user's name is Ada.",
      '',
      'How you work:',
      '- Use a tool for anything current, local, priced, scheduled or checkable, instead of answering from memory.',
      '- Never offer to look something up and never ask whether you should: there is nobody to say yes. If a tool can find it, call the tool now.',
      '- If a tool fails, say so plainly and answer with what you have.',
      '- Use the calculator for arithmetic instead of working numbers out yourself.',
      '- Lead with the answer. Every name, date, number and price comes from a tool result, the conversation or the user.',
      '- Web search is off on this machine. Do not promise to search: answer with what you know and say plainly what you could not check.',
      'Your tools: now, calculator.',
      '',
      "The user's instructions for every conversation:",
      'Be brief.',
      '',
      "The user's instructions for this conversation:",
      'Answer in French.',
    ].join('\n'),
  );
});

test('the identity block leaves out what is not set: no web-search line when search is on, no tools line without tools, blank names and instructions', () => {
  const text = identityPrompt({
    ...base,
    now: Date.UTC(2026, 5, 15, 9),
    timezone: 'UTC',
    toolNames: [],
    userName: '  ',
    defaultInstructions: ' ',
    systemPrompt: ' \n ',
  });
  assert.equal(text.split('\n').length, 9, 'two identity lines, a blank, the heading and five rules');
  assert.doesNotMatch(text, /Web search is off|Your tools|instructions|The user's name/);
  assert.match(text, /It is around 9 AM in the user's timezone \(UTC\)\.$/m);
});
