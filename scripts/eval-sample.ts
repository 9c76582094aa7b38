/**
 * `npm run eval:sample`: the sample scorecard in docs/ (what docs/models.md shows). Two doubles stand in
 * for two models, the persona (looks things up) and one that only offers to, and `npm run eval`
 * compares them; then Chromium takes a picture of the HTML report.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { deferringModel } from '../e2e/double/deferring';
import { startLlamaDouble } from '../e2e/double/llama-double';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'docs', 'scorecard-sample');
const [good, deferring] = await Promise.all([startLlamaDouble({ metrics: true }), startLlamaDouble({ script: deferringModel })]);
try {
  // The CLI itself, as a user runs it, in a child process (this one serves the doubles).
  const run = await new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=react-server',
        '--import',
        'tsx',
        'scripts/eval.ts',
        '--url',
        good.url,
        '--name',
        'looks-things-up',
        '--url',
        deferring.url,
        '--name',
        'only-offers',
        '--out',
        out,
      ],
      { cwd: root, stdio: 'inherit' },
    );
    child.on('exit', (code) => resolve(code ?? 1));
  });
  if (run !== 0) throw new Error(`npm run eval exited with ${run}`);
} finally {
  await Promise.all([good.close(), deferring.close()]);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
await page.goto(`file://${path.join(out, 'scorecard.html')}`);
await page.waitForSelector('body[data-charts]');
await page.screenshot({ path: path.join(root, 'docs', 'scorecard-sample.png'), fullPage: false });
await browser.close();
console.log(`Wrote ${path.relative(root, out)}/ and docs/scorecard-sample.png`);
