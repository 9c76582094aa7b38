import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { arithmeticStep } from './arithmetic';
import { tableFigureStep } from './query-first';
import { freshnessStep, verdictStep } from './gate';
import * as prompts from './prompts';

/**
 * Every sentence Hearth says to the model, word for word, as prompts-said.txt keeps it: the
 * checks' instructions and questions, the notes and nudges of a turn, and the gate's input.
 * They steer a small model, so a change to one should be seen in review; after a deliberate change,
 * `UPDATE_PROMPTS=1 npm test` rewrites the file. (The identity block has its own tests.)
 */

const expectedFile = path.join(import.meta.dirname, 'prompts-said.txt');

function said(): string {
  const sections: [string, string][] = [
    ['FRESHNESS_SYSTEM', prompts.FRESHNESS_SYSTEM],
    ['VERDICT_SYSTEM', prompts.VERDICT_SYSTEM],
    ['ARITHMETIC_SYSTEM', prompts.ARITHMETIC_SYSTEM],
    ['PLAN_SYSTEM', prompts.PLAN_SYSTEM],
    ['TABLE_FIGURE_SYSTEM', prompts.TABLE_FIGURE_SYSTEM],
    ['TABLE_PLAN_SYSTEM', prompts.TABLE_PLAN_SYSTEM],
    [
      'tableResultNote',
      prompts.tableResultNote('sum(amount) = 1234.56', "SELECT sum(amount) FROM data WHERE category = 'groceries'", 'statement.csv'),
    ],
    ['LAST_ROUND_NOTE', prompts.LAST_ROUND_NOTE],
    ['TOOLS_OFF_NOTE', prompts.TOOLS_OFF_NOTE],
    ['NO_RESEARCH_NUDGE', prompts.NO_RESEARCH_NUDGE],
    ['REPEAT_NOTE', prompts.REPEAT_NOTE],
    ['answerNowNote, with results', prompts.answerNowNote('- now {}: "12:00"')],
    ['answerNowNote, with none', prompts.answerNowNote('')],
    ['researchNudge, with a query (quotes dropped)', prompts.researchNudge(' “Lyon weather” today" ')],
    ['researchNudge, with a blank query', prompts.researchNudge(' "" ')],
    ['researchNudge, with none', prompts.researchNudge(undefined)],
    ['exactResultNote', prompts.exactResultNote('1237', '23 * 47 + 156')],
    ['verdictInput, plain', prompts.verdictInput({ question: 'Weather in Lyon?', toolResults: [], earlierAnswers: [], draft: 'Sunny.' })],
    [
      'verdictInput, with earlier answers and results',
      prompts.verdictInput({
        question: 'And tomorrow?',
        toolResults: ['{"a":1}', '{"b":2}'],
        earlierAnswers: ['Sunny.', 'Warm.'],
        draft: 'Rain.',
      }),
    ],
    ...[freshnessStep, verdictStep, arithmeticStep, tableFigureStep].map((step): [string, string] => {
      const { questions, text, maxTokens } = step.definition;
      return [`decide step ${step.id}: its questions, text fields and length`, JSON.stringify({ questions, text, maxTokens }, null, 2)];
    }),
  ];
  return sections.map(([name, text]) => `=== ${name} ===\n${text}\n`).join('\n');
}

test('every sentence said to the model', () => {
  const actual = said();
  if (process.env.UPDATE_PROMPTS === '1') fs.writeFileSync(expectedFile, actual);
  assert.equal(
    actual,
    fs.readFileSync(expectedFile, 'utf8'),
    'what Hearth says to the model changed; if that was meant, run UPDATE_PROMPTS=1 npm test and review the diff',
  );
});

test('the gate’s input is cut: the question and the draft at 2,000 characters, each earlier answer and tool result at 600', () => {
  const text = prompts.verdictInput({
    question: 'q'.repeat(2001),
    toolResults: ['r'.repeat(601)],
    earlierAnswers: ['e'.repeat(601)],
    draft: 'd'.repeat(2001),
  });
  assert.equal(
    text,
    `Question:\n${'q'.repeat(2000)}\n\nAnswers already given earlier in this conversation:\n- ${'e'.repeat(600)}\n\nTool results in this turn:\n${'r'.repeat(600)}\n\nDraft answer:\n${'d'.repeat(2000)}`,
  );
});
