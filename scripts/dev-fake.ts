/**
 * `npm run dev:fake`: the app against the llama-server double and the SearXNG stand-in, for
 * UI work without a GPU. Data goes to ./data-fake so it never mixes with real chats.
 */
import { spawn } from 'node:child_process';
import { nextEnv } from './next-env';
import { startLlamaDouble } from '../e2e/double/llama-double';
import { startSearxDouble } from '../e2e/double/searxng-double';

const double = await startLlamaDouble({}, 18080);
const searx = await startSearxDouble(18888);
console.log(`double: ${double.url}  searxng: ${searx.url}`);
const app = spawn('npx', ['next', 'dev', '-H', '127.0.0.1', '-p', process.env.PORT ?? '3000'], {
  stdio: 'inherit',
  env: { ...nextEnv(), LLAMA_URL: double.url, SEARXNG_URL: searx.url, DATA_DIR: process.env.DATA_DIR ?? './data-fake' },
});
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => app.kill(s));
app.on('exit', async (code) => {
  await double.close();
  await searx.close();
  process.exit(code ?? 0);
});
