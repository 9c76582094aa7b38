import assert from 'node:assert/strict';
import { test } from 'node:test';
import { singleDollarMath } from './math';

test('inline math between single dollars by pandoc’s rule; prices stay prices', () => {
  const cases: [string, string][] = [
    ['$F_n = F_{n-1} + F_{n-2}$', '$$F_n = F_{n-1} + F_{n-2}$$'],
    ['so $x$ and $y^2$ hold', 'so $$x$$ and $$y^2$$ hold'],
    ['It costs $5 and $10.', 'It costs $5 and $10.'],
    ['between $5 and 10$ a day', 'between $$5 and 10$$ a day'],
    ['from $5.99 (or $6) each', 'from $5.99 (or $6) each'],
    ['$ x$ is not math, nor $x $', '$ x$ is not math, nor $x $'],
    ['$a$5 is a price after all', '$a$5 is a price after all'],
    ['display $$x^2$$ stays', 'display $$x^2$$ stays'],
    ['an escaped \\$5 and $10', 'an escaped \\$5 and $10'],
    ['$\\$5$ is math with a dollar in it', '$$\\$5$$ is math with a dollar in it'],
    ['no math across\nlines: $a\nb$', 'no math across\nlines: $a\nb$'],
  ];
  for (const [input, expected] of cases) assert.equal(singleDollarMath(input), expected, input);
});
