import { isIP } from 'node:net';
import { z } from 'zod';
import { brand, isBranded } from '@/lib/shared/errors';
import { isHttpUrl, isTimezone } from '@/lib/contract/checks';

/** What `npm run hash-password` prints (lib/services/auth/password.ts writes and reads it). */
export const PASSWORD_HASH_FORMAT = /^scrypt\$(\d{1,7})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,128})\$([A-Za-z0-9_-]{32,256})$/;

/**
 * Hearth's whole configuration, read from the environment once and validated here.
 * Every key is documented in docs/configuration.md.
 */

export { isHttpUrl, isTimezone };

const url = (what: string) => z.string().trim().refine(isHttpUrl, `must be an http(s) URL for ${what}`);

const positiveInt = (max: number) => z.coerce.number().int().min(1).max(max);

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const configSchema = z
  .object({
    /** One llama-server's base URL, or several, comma-separated (one GPU or one machine each). */
    LLAMA_URL: z
      .string()
      .default('http://127.0.0.1:8080/v1')
      .transform((v, ctx) => {
        const urls = [
          ...new Set(
            v
              .split(',')
              .map((u) => u.trim().replace(/\/+$/, ''))
              .filter(Boolean),
          ),
        ];
        if (urls.length === 0 || !urls.every(isHttpUrl)) {
          ctx.addIssue({ code: 'custom', message: 'must be one http(s) URL of llama-server, or several separated by commas' });
          return z.NEVER;
        }
        return urls;
      }),
    /** Sent as a Bearer token when llama-server runs with --api-key. */
    LLAMA_API_KEY: z.preprocess(emptyToUndefined, z.string().max(500).optional()),
    /** The model name to ask for (llama-swap and other routers need it); by default the server's own. */
    LLAMA_MODEL: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
    /** A small model for decide steps, plans and titles (one a server lists); by default each turn's own. */
    HEARTH_CHECKS_MODEL: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
    HOST: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9.:\-[\]]+$/, 'must be a host name or an IP address')
      .default('127.0.0.1'),
    /** Extra host names Hearth answers to (comma-separated), e.g. its LAN name when exposed. */
    HEARTH_ALLOWED_HOSTS: z.string().default(''),
    /** The login password; required when Hearth listens on anything but loopback (or HEARTH_ALLOWED_HOSTS is set). */
    HEARTH_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(8, 'must be at least 8 characters').max(1024).optional()),
    /** The same password as an scrypt hash from `npm run hash-password`, so the password itself is in no file. */
    HEARTH_PASSWORD_HASH: z.preprocess(
      emptyToUndefined,
      z.string().trim().regex(PASSWORD_HASH_FORMAT, 'must be a hash printed by `npm run hash-password`').optional(),
    ),
    /** How long a login lasts, in days. */
    HEARTH_SESSION_DAYS: positiveInt(365).default(30),
    /**
     * Single sign-on with OpenID Connect (docs/sharing.md): the provider's issuer URL, this app's
     * client id and secret there, and the callback address registered with it
     * (https://your-hearth/api/auth/oidc/callback).
     */
    HEARTH_OIDC_ISSUER: z.preprocess(emptyToUndefined, url('the OpenID Connect issuer').optional()),
    HEARTH_OIDC_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().trim().max(500).optional()),
    HEARTH_OIDC_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().max(2000).optional()),
    HEARTH_OIDC_REDIRECT_URL: z.preprocess(emptyToUndefined, url('the OpenID Connect callback').optional()),
    /** The sign-on button's words: "Sign in with …" (Authentik, Keycloak, Google). */
    HEARTH_OIDC_NAME: z.preprocess(emptyToUndefined, z.string().trim().max(60).default('single sign-on')),
    /**
     * E-mail domains whose people may join by signing on (comma-separated, the address verified by the
     * provider), as members; empty: only with an invitation.
     */
    HEARTH_OIDC_DOMAINS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
          .filter(Boolean),
      ),
    /**
     * Trusted-header login behind a reverse proxy that logs people in (Authelia, Authentik, Tailscale
     * serve): the header that names the person (e.g. Remote-User), believed only on requests whose
     * connection comes from one of HEARTH_TRUSTED_PROXIES (comma-separated IP addresses).
     */
    HEARTH_TRUSTED_HEADER: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9-]{1,100}$/, 'must be a header name such as Remote-User')
        .transform((h) => h.toLowerCase())
        .optional(),
    ),
    HEARTH_TRUSTED_PROXIES: z
      .string()
      .default('')
      .transform((v, ctx) => {
        const addresses = v
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean);
        // Compared with the connection's address exactly: a range or a name would never match.
        const wrong = addresses.find((a) => isIP(a) === 0);
        if (wrong) {
          ctx.addIssue({ code: 'custom', message: `must be IP addresses, each written out (not a range or a name: ${wrong})` });
          return z.NEVER;
        }
        return addresses;
      }),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    /**
     * postgres://…: Hearth keeps its libraries in this PostgreSQL database (a schema each) instead
     * of SQLite files in DATA_DIR; attached files stay in DATA_DIR (docs/postgresql.md).
     */
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .refine((v) => /^postgres(ql)?:\/\/./.test(v) && URL.canParse(v), 'must be a postgres:// address')
        .optional(),
    ),
    /** Where `npm run eval` keeps its reports: the thread's model picker shows each model's newest scorecard. */
    HEARTH_EVAL_DIR: z.string().trim().min(1).default('./eval-results'),
    /** SearXNG base URL; when unset, web search is off and the model is told so. */
    SEARXNG_URL: z.preprocess(emptyToUndefined, url('SearXNG').optional()),
    /** A llama-server started with --embeddings: knowledge collections search by meaning too (lib/data/knowledge). */
    EMBEDDINGS_URL: z.preprocess(emptyToUndefined, url('embeddings server').optional()),
    /** The embedding model's name as that server lists it (a router or llama-swap needs it). */
    EMBEDDINGS_MODEL: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
    /** `true`: messages are embedded too, so Ctrl+K finds past conversations by meaning as well as by their words. */
    HEARTH_CONVERSATIONS_BY_MEANING: z.enum(['true', 'false']).default('false'),
    /** A speech-to-text server with OpenAI's /v1/audio/transcriptions (llama-server with an audio model, whisper.cpp's server, faster-whisper, llama-swap). */
    HEARTH_STT_URL: z.preprocess(emptyToUndefined, url('speech-to-text server').optional()),
    /** The transcription model to ask that server for. */
    HEARTH_STT_MODEL: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
    /** A text-to-speech server with OpenAI's /v1/audio/speech (Kokoro-FastAPI, openedai-speech, llama-swap). */
    HEARTH_TTS_URL: z.preprocess(emptyToUndefined, url('text-to-speech server').optional()),
    /** The speech model to ask that server for. */
    HEARTH_TTS_MODEL: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
    /** The voice, as that server names it (Kokoro: af_heart, bm_george, …). */
    HEARTH_TTS_VOICE: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
    /** Passages per embeddings request while indexing (each must fit the server's --ubatch-size on its own). */
    EMBEDDINGS_BATCH: positiveInt(512).default(32),
    /** Ports fetch_url may connect to, comma-separated. */
    FETCH_ALLOWED_PORTS: z
      .string()
      .default('80,443')
      .transform((v, ctx) => {
        const ports = v.split(',').map((p) => Number(p.trim()));
        if (ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
          ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of ports' });
          return z.NEVER;
        }
        return ports;
      }),
    /** The user's IANA timezone, for the date line and the `now` tool. */
    HEARTH_TIMEZONE: z
      .string()
      .default(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC')
      .refine(isTimezone, 'must be an IANA timezone such as Europe/Paris'),
    /** Where the user is, for weather and "near me" questions; optional. */
    HEARTH_LOCATION: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
    /** The assistant's name in its identity line. */
    HEARTH_ASSISTANT_NAME: z.string().min(1).max(60).default('Hearth'),
    MODEL_TIMEOUT_MS: positiveInt(3_600_000).default(600_000),
    /** How long a model call may take to connect to its server; past it the server is down and the call moves. */
    MODEL_CONNECT_TIMEOUT_MS: positiveInt(600_000).default(5_000),
    /**
     * How long a model call may wait for its first byte, and a stream for its next one. llama-server
     * answers a stream's headers as soon as a slot takes the prompt and pings every 30 s while it
     * reads a long one; a router loading a model (llama-swap) holds the call meanwhile.
     */
    MODEL_FIRST_BYTE_TIMEOUT_MS: positiveInt(3_600_000).default(120_000),
    /** How often a model server marked down is asked again whether it is back. */
    MODEL_RECHECK_MS: positiveInt(3_600_000).default(10_000),
    MAX_ROUNDS: positiveInt(20).default(6),
    TURN_FUEL: positiveInt(1_000_000).default(2000),
    TURN_MODEL_CALLS: positiveInt(200).default(16),
    /** The largest text file (logs, data, code) that can be attached, in MB; PDF and Word files stay at 20 MB. */
    HEARTH_MAX_UPLOAD_MB: positiveInt(4096).default(512),
    /** The largest library file POST /api/import takes, in MB (it holds every attached file). */
    HEARTH_MAX_IMPORT_MB: positiveInt(1_048_576).default(16_384),
    /** The most the database may grow to, in MB; beyond it writes are refused (507) and nothing stored is lost. Unset: the disk is the limit. */
    HEARTH_MAX_DB_MB: z.preprocess(emptyToUndefined, positiveInt(16_777_216).optional()),
    /** "model": after a thread's first exchange the model writes its title in the background; "first-words": the first words of the first message. */
    HEARTH_TITLES: z.enum(['model', 'first-words']).default('model'),
    /** The user's MCP servers, in the mcp.json format (default DATA_DIR/mcp.json). */
    HEARTH_MCP_CONFIG: z.preprocess(emptyToUndefined, z.string().max(4000).optional()),
    /**
     * Several processes on one PostgreSQL database: how long a process holds a turn without
     * renewing it (it renews three times as often), in ms. A process that dies has its turns taken
     * over by another at most this long after; SIGTERM hands them over at once.
     */
    HEARTH_TURN_LEASE_MS: z.coerce.number().int().min(300).max(600_000).default(10_000),
    /** How long a tool call that asks first waits for the user before it counts as denied, in seconds. */
    HEARTH_APPROVAL_TIMEOUT_S: positiveInt(86_400).default(600),
    /** How long one query over an attached table may run before it is stopped (query_table). */
    HEARTH_TABLE_QUERY_MS: positiveInt(600_000).default(10_000),
    /** Thinking models: "default" leaves it to the model and the server; "on" or "off" asks for it (each thread may choose). */
    HEARTH_THINKING: z.enum(['default', 'on', 'off']).default('default'),
    /** "true": earlier answers go back to the model with their thinking (most templates leave it out anyway). */
    HEARTH_THINKING_HISTORY: z.preprocess((v) => (v === undefined || v === '' ? undefined : v), z.enum(['true', 'false']).default('false')),
    /** "false": the gate trusts its classifier's "clearly an answer" and skips the verdict for it (Settings → Checks). */
    HEARTH_JUDGE_EVERY_ANSWER: z.preprocess(
      (v) => (v === undefined || v === '' ? undefined : v),
      z.enum(['true', 'false']).default('true'),
    ),
    /** Model slots when /props cannot be read; normally taken from llama-server. */
    MODEL_SLOTS: z.preprocess(emptyToUndefined, positiveInt(64).optional()),
  })
  // Single sign-on needs all of its parts, and a trusted header its proxies: half a setting is a mistake said at start.
  .superRefine((c, ctx) => {
    if (c.HEARTH_OIDC_ISSUER)
      for (const key of ['HEARTH_OIDC_CLIENT_ID', 'HEARTH_OIDC_REDIRECT_URL'] as const)
        if (!c[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'must be set with HEARTH_OIDC_ISSUER' });
    if (c.HEARTH_TRUSTED_HEADER && c.HEARTH_TRUSTED_PROXIES.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['HEARTH_TRUSTED_PROXIES'],
        message: "must name the proxy's address when HEARTH_TRUSTED_HEADER is set",
      });
  });

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    brand(this, 'ConfigError');
  }
}

/** Recognised by brand, not class identity (see lib/shared/errors.ts). */
export const isConfigError = (err: unknown): err is ConfigError => isBranded(err, 'ConfigError');

/**
 * `LLAMA_API_KEY` for a server the environment itself names (`LLAMA_URL`, `EMBEDDINGS_URL`, the
 * speech servers; same origin), and for no other: a server set in the page or proposed by an imported file never
 * receives the key the environment holds for its own servers.
 */
export function apiKeyFor(
  config: Pick<Config, 'LLAMA_API_KEY' | 'LLAMA_URL' | 'EMBEDDINGS_URL'> & Partial<Pick<Config, 'HEARTH_STT_URL' | 'HEARTH_TTS_URL'>>,
  url: string,
): string | undefined {
  if (!config.LLAMA_API_KEY) return undefined;
  const origin = (u: string) => {
    try {
      return new URL(u).origin;
    } catch {
      return null;
    }
  };
  const target = origin(url);
  if (target === null) return undefined;
  const named = [config.LLAMA_URL, config.EMBEDDINGS_URL, config.HEARTH_STT_URL, config.HEARTH_TTS_URL]
    .flat()
    .filter((u) => u !== undefined);
  return named.some((u) => origin(u) === target) ? config.LLAMA_API_KEY : undefined;
}

const SECRET_KEYS = new Set(['HEARTH_PASSWORD', 'HEARTH_PASSWORD_HASH', 'LLAMA_API_KEY', 'HEARTH_OIDC_CLIENT_SECRET']);

/** Parses an environment; throws ConfigError with a one-line message naming the key. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0];
    const key = String(issue.path[0] ?? 'environment');
    const message =
      issue.code === 'invalid_type' && issue.expected === 'number'
        ? 'must be a whole number'
        : (issue.code === 'too_small' || issue.code === 'too_big') && issue.origin === 'string'
          ? issue.message
          : issue.code === 'too_small' || issue.code === 'too_big'
            ? `is out of range (${issue.message.replace(/^Too (small|big): expected number to be /, '')})`
            : issue.message;
    // A secret is never echoed into a log.
    const got = SECRET_KEYS.has(key) ? `${(env[key] ?? '').length} characters` : JSON.stringify(env[key] ?? '');
    throw new ConfigError(`Hearth configuration: ${key} ${message} (got ${got})`);
  }
  return result.data;
}

let cached: Config | undefined;

/** The process configuration, parsed on first use. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
