/**
 * Runs the llama-server double (and optionally the SearXNG stand-in) as processes, for the
 * browser tests and `npm run dev:fake`.
 *   tsx e2e/double/cli.ts --port 18080 [--searx-port 18888] [--slots 1] [--metrics] [--vision] [--deferring]
 *                         [--router id,id,…]   (router mode: these models, the first one running)
 *                         [--embeddings dims]  (started with --embeddings: /v1/embeddings answers)
 *                         [--speech]           (the speech endpoints too: /v1/audio/transcriptions and /v1/audio/speech)
 */
import { deferringModel } from './deferring';
import { startLlamaDouble } from './llama-double';
import { startSearxDouble } from './searxng-double';

function arg(name: string, fallback?: string) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const port = Number(arg('port', '8080'));
const searxPort = arg('searx-port');
const double = await startLlamaDouble(
  {
    slots: Number(arg('slots', '1')),
    metrics: process.argv.includes('--metrics'),
    vision: process.argv.includes('--vision'),
    script: process.argv.includes('--deferring') ? deferringModel : undefined,
    ...(arg('embeddings') ? { embeddings: { dims: Number(arg('embeddings')) } } : {}),
    ...(process.argv.includes('--speech') ? { speech: {} } : {}),
    ...(arg('router')
      ? {
          router: {
            models: arg('router')!
              .split(',')
              .map((id, i) => ({ id, loaded: i === 0 })),
          },
        }
      : {}),
  },
  port,
);
console.log(`llama-server double on ${double.url}`);
if (searxPort) {
  const searx = await startSearxDouble(Number(searxPort));
  console.log(`SearXNG stand-in on ${searx.url}`);
}
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => process.exit(0));
