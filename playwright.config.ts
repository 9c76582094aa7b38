import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests drive the built app (`next start`, never the dev server) in Debian's
 * Chromium against the llama-server double and the SearXNG stand-in. A second app instance
 * points at a dead model server for the "cannot reach llama-server" banner, a third at two
 * servers of which the first is dead.
 */
const LLAMA_PORT = 18080;
/** A second model server in router mode (two models), for the per-thread model tests. */
export const ROUTER_URL = 'http://127.0.0.1:18081/v1';
const SEARX_PORT = 18888;
export const APP = 'http://127.0.0.1:13000';
export const APP_DOWN = 'http://127.0.0.1:13001';
/** Two model servers, the first dead: turns must go to the second. */
export const APP_HALF = 'http://127.0.0.1:13002';

const appEnv = (extra: Record<string, string>) =>
  ({ ...process.env, NEXT_TELEMETRY_DISABLED: '1', HEARTH_TIMEZONE: 'UTC', MODEL_SLOTS: '1', ...extra }) as Record<string, string>;

export default defineConfig({
  testDir: './e2e',
  testMatch: /.*\.spec\.ts$/,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: APP,
    trace: 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: `npx tsx e2e/double/cli.ts --port ${LLAMA_PORT} --searx-port ${SEARX_PORT} --embeddings 64 --speech`,
      url: `http://127.0.0.1:${LLAMA_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: 'npx tsx e2e/double/cli.ts --port 18081 --router qwen3-4b,qwen3-30b-a3b',
      url: 'http://127.0.0.1:18081/health',
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: 'npx next start -H 127.0.0.1 -p 13000',
      url: `${APP}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: appEnv({
        LLAMA_URL: `http://127.0.0.1:${LLAMA_PORT}/v1`,
        SEARXNG_URL: `http://127.0.0.1:${SEARX_PORT}`,
        DATA_DIR: '.e2e-data/main',
      }),
    },
    {
      command: 'npx next start -H 127.0.0.1 -p 13001',
      url: `${APP_DOWN}/api/threads`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: appEnv({ LLAMA_URL: 'http://127.0.0.1:9/v1', DATA_DIR: '.e2e-data/down' }),
    },
    {
      command: 'npx next start -H 127.0.0.1 -p 13002',
      url: `${APP_HALF}/api/threads`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: appEnv({ LLAMA_URL: `http://127.0.0.1:9/v1,http://127.0.0.1:${LLAMA_PORT}/v1`, DATA_DIR: '.e2e-data/half' }),
    },
  ],
});
