import { z } from 'zod';
import { roles } from './statuses';
import { isHttpUrl } from './checks';
import { samplingSchema } from './sampling';

/** Request shapes of the HTTP API, validated at the edge. */

export const MAX_MESSAGE_CHARS = 100_000;

/** Ids are UUIDs; anything else cannot name a stored thing, so it is answered as unknown (404). */
export const idParam = z.string().uuid('is not a valid id');
/** An invitation's token, as in its link (32 random bytes, base64url). */
export const inviteTokenParam = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'is not an invitation');
/** An invitation's id: the SHA-256 of its token. */
export const inviteIdParam = z.string().regex(/^[0-9a-f]{64}$/, 'is not an invitation id');
/** A session's id: the SHA-256 of its token, in hex (the token itself is never shown). */
export const sessionIdParam = z.string().regex(/^[0-9a-f]{64}$/, 'is not a session id');

export const listThreadsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  /** One folder's threads, or `none`: those in no folder. */
  folder: z.union([z.literal('none'), z.string().uuid('is not a folder id')]).optional(),
  /** `true`: the archive instead of the list. */
  archived: z.enum(['true', 'false']).optional(),
});

/** PUT /api/threads/:id/messages/:messageId/rating: thumbs up or down on an answer, null to take them back. */
export const rateAnswerBody = z.object({ rating: z.enum(['up', 'down']).nullable() }).strict();

/** POST /api/prompts {name, text}; PATCH /api/prompts/:id {name?, text?}. A name is what is typed after "/". */
export const PROMPT_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
const promptName = z
  .string()
  .trim()
  .transform((n) => n.replace(/^\//, '').toLowerCase())
  .pipe(z.string().regex(PROMPT_NAME, 'use up to 40 lowercase letters, digits and dashes, as you would type it after /'));
const promptText = z
  .string()
  .max(20_000, 'a prompt can be at most 20,000 characters')
  .refine((t) => t.trim().length > 0, 'write the prompt');
export const promptBody = z.object({ name: promptName, text: promptText }).strict();
export const patchPromptBody = z
  .object({ name: promptName.optional(), text: promptText.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'give name or text');

/** POST /api/folders, PATCH /api/folders/:id. */
export const folderBody = z.object({ name: z.string().trim().min(1, 'give the folder a name').max(100) }).strict();

/** POST /api/collections {name, everyThread?}; PATCH /api/collections/:id. */
const collectionName = z.string().trim().min(1, 'give the collection a name').max(100);
export const createCollectionBody = z.object({ name: collectionName, everyThread: z.boolean().optional() }).strict();
export const patchCollectionBody = z
  .object({
    name: collectionName.optional(),
    everyThread: z.boolean().optional(),
    /** Offered to everyone on this Hearth, read-only to them (the owner's and admins' to set). */
    shared: z.boolean().optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'give name, everyThread or shared');
/** POST /api/collections/:id/files as JSON: a file already attached to a message, added to the collection. */
export const addAttachmentToCollectionBody = z.object({ attachmentId: z.string().uuid('is not an attachment id') }).strict();
/** GET /api/collections/:id/search?q= */
export const collectionSearchQuery = z.object({
  q: z.string().trim().min(1, 'give something to search for').max(500),
  limit: z.coerce.number().int().min(1).max(20).default(6),
});

/** GET /api/collections/:id/files/:fileId?from=&to=: the lines of a passage (1-based, inclusive). */
export const passageQuery = z
  .object({ from: z.coerce.number().int().min(1).default(1), to: z.coerce.number().int().min(1).optional() })
  .refine((r) => r.to === undefined || r.to >= r.from, 'to: must not be before from');

/** A model's id as a server lists it. */
const modelId = z.string().trim().min(1, 'give a model id').max(200);

export const createThreadBody = z.object({ title: z.string().trim().max(200).optional() }).strict();

export const patchThreadBody = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    pinned: z.boolean().optional(),
    systemPrompt: z.string().max(20_000).optional(),
    /** Show another branch: a message of the thread (the page shows the newest message under it). */
    branch: z.string().uuid('is not a valid message id').optional(),
    /** Thinking for this thread: on, off, the model's default, or null to follow Settings. */
    thinking: z.enum(['default', 'on', 'off']).nullable().optional(),
    /** Tools switched off in this thread only (the names the model sees); an empty list switches them all back on. */
    disabledTools: z.array(z.string().min(1).max(100)).max(500).optional(),
    /** The folder it goes in; null takes it out of its folder. */
    folderId: z.string().uuid('is not a folder id').nullable().optional(),
    /** Into the archive (out of the list, still searchable), or back. */
    archived: z.boolean().optional(),
    /** The model its turns ask for (one GET /api/models lists); null: the default of Settings. */
    model: modelId.nullable().optional(),
    /** The knowledge collections its turns search (besides those for every thread); an empty list: none. */
    collectionIds: z.array(z.string().uuid('is not a collection id')).max(100).optional(),
    /** Sampling for its replies (temperature, topP, topK, minP); null or {}: each server's defaults. */
    sampling: samplingSchema.nullable().optional(),
  })
  .strict()
  .refine(
    (b) => Object.keys(b).length > 0,
    'give at least one of title, pinned, systemPrompt, branch, thinking, disabledTools, folderId, archived, model, collectionIds, sampling',
  );

/** POST /api/threads/bulk: one action on many threads at once (the sidebar's selection). */
export const MAX_BULK_THREADS = 500;
export const bulkThreadsBody = z
  .object({
    ids: z
      .array(z.string().uuid('is not a thread id'))
      .min(1, 'select at least one thread')
      .max(MAX_BULK_THREADS, `at most ${MAX_BULK_THREADS} threads at once`)
      .refine((ids) => new Set(ids).size === ids.length, 'names a thread twice'),
    action: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('delete') }).strict(),
      z.object({ kind: z.literal('archive'), archived: z.boolean() }).strict(),
      z.object({ kind: z.literal('move'), folderId: z.string().uuid('is not a folder id').nullable() }).strict(),
    ]),
  })
  .strict();
export type BulkThreadsBody = z.infer<typeof bulkThreadsBody>;

/** POST /api/threads/:id/messages/:messageId/regenerate: optionally another model for this one answer. */
export const regenerateBody = z.object({ model: modelId.optional() }).strict();

export const postMessageBody = z
  .object({
    content: z
      .string()
      .max(MAX_MESSAGE_CHARS, `a message can be at most ${MAX_MESSAGE_CHARS} characters`)
      .refine((s) => s.trim().length > 0, 'the message is empty'),
    attachmentIds: z.array(z.string().uuid()).max(10).optional(),
    /** An earlier question this one replaces, on a new branch beside it. */
    editOf: z.string().uuid('is not a valid message id').optional(),
  })
  .strict();

export const eventsQuery = z.object({ after: z.coerce.number().int().min(0).default(0) });

/** A day (YYYY-MM-DD, UTC midnight) or epoch milliseconds. */
const instant = z.union([
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-12-01, or epoch milliseconds')
    .transform((d, ctx) => {
      const t = Date.parse(`${d}T00:00:00Z`);
      // Date.parse rolls 2026-02-31 over into March: a real date reads back as itself.
      if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== d) {
        ctx.addIssue({ code: 'custom', message: 'is not a real date' });
        return z.NEVER;
      }
      return t;
    }),
  z.coerce.number().int().min(0),
]);

export const searchQuery = z
  .object({
    q: z.string().trim().min(1, 'give something to search for').max(200),
    limit: z.coerce.number().int().min(1).max(50).default(20),
    /** Only this thread. */
    threadId: z.string().uuid('is not a valid thread id').optional(),
    role: z.enum(['user', 'assistant']).optional(),
    /** From this day or instant (inclusive) to that one (exclusive). */
    from: instant.optional(),
    to: instant.optional(),
    /** "true": the models' thinking is searched too (left out otherwise). */
    thinking: z.enum(['true', 'false']).optional(),
  })
  .refine((s) => s.from === undefined || s.to === undefined || s.from < s.to, { message: 'from must be before to', path: ['from'] });

/** A thread's export: JSON (lossless, importable), Markdown, or one self-contained web page. */
export const exportQuery = z.object({ format: z.enum(['md', 'json', 'html']).default('json') });

export const memoryBody = z.object({ text: z.string().max(2000, 'a fact is one short sentence') }).strict();

/** The Settings page's live checks: a model server (and the model name to ask for), a SearXNG address. */
const checkUrl = z.string().trim().max(500).refine(isHttpUrl, 'must be an http(s) URL');
export const checkModelBody = z.object({ url: checkUrl, model: z.string().trim().max(200).optional() }).strict();
/** The Settings page's check of an embeddings server (and the model name to ask for). */
export const checkEmbeddingsBody = checkModelBody;
export const checkSearchBody = z.object({ url: checkUrl }).strict();

/** A tool server's name in a URL (mcp.json's key). */
export const serverNameParam = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'is letters, digits, - and _ (at most 40)');

/** A tool server's entry as mcp.json has it (checked in full by lib/tools/mcp/config.ts). */
export const toolServerBody = z.object({ server: z.record(z.string(), z.unknown()) }).strict();

const proposedNames = z.array(serverNameParam).max(100);
/** POST /api/tool-servers/proposals: servers an imported file proposed, added or dismissed by name. */
export const toolServerProposalsAction = z
  .object({ apply: proposedNames.optional(), dismiss: proposedNames.optional() })
  .strict()
  .refine((a) => (a.apply?.length ?? 0) + (a.dismiss?.length ?? 0) > 0, 'name at least one server to add or dismiss');

/** The user's answer to a tool call waiting for them. */
export const approvalBody = z
  .object({
    callId: z.string().min(1).max(200),
    allow: z.boolean(),
    /** With allow: run this tool without asking from now on. */
    always: z.boolean().optional(),
  })
  .strict();

/** POST /api/audio/speech {text, voice?}: an answer's Markdown, spoken (the route turns it into words). */
export const speechBody = z
  .object({
    text: z.string().max(MAX_MESSAGE_CHARS, `the text can be at most ${MAX_MESSAGE_CHARS} characters`),
    voice: z.string().trim().max(200).optional(),
  })
  .strict();

/** POST /api/audio/transcriptions: the recording's language, when the person set one (ISO 639-1, e.g. "en"). */
export const transcriptionLanguage = z
  .string()
  .trim()
  .regex(/^[a-z]{2,3}$/, 'is a language code such as en or de')
  .optional();
/** A recording's form field "keep": keep it as an attachment (when Settings → Voice → Keep recordings is on). */
export const keepField = z
  .enum(['true', 'false'], { message: 'is true or false' })
  .optional()
  .transform((v) => v === 'true');

/** POST /api/auth/login {password}. */
/** A login: the username may be left out while only one person can log in. */
export const loginBody = z.object({ username: z.string().max(200).optional(), password: z.string().max(10_000) }).strict();

/** GET /api/attachments/:id?part=text: the whole text Hearth read from the file (what the model reads), for the file viewer. */
export const attachmentQuery = z.object({
  part: z.enum(['original', 'text'], "give 'original' (the file as it came) or 'text' (the text read from it)").default('original'),
});

/** GET /api/remote-image?url=…: an image named in model output, loaded after the user asked. */
export const remoteImageQuery = z
  .object({
    url: z
      .string()
      .min(8)
      .max(2000)
      .regex(/^https?:\/\//i, 'must be an http(s) URL'),
  })
  .strict();

/** POST /api/people/invites: the role the invitation gives. */
export const inviteBody = z.object({ role: z.enum(roles) }).strict();
/** A limit the owner sets on a person: a whole number, or null for none. */
const limit = (max: number) => z.number().int().min(1).max(max).nullable().optional();
/** PATCH /api/people/:id: a new role, disabled (or enabled again), or their limits. */
export const personPatch = z
  .object({
    role: z.enum(roles).optional(),
    disabled: z.boolean().optional(),
    /** Turns they may begin a day (null: no limit). */
    turnsPerDay: limit(100_000),
    /** The most fuel one of their turns may burn (null: the Settings page's budget). */
    fuelPerTurn: limit(1_000_000),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'give role, disabled, turnsPerDay or fuelPerTurn');
/** POST /api/invites/:token: the name and password the invited person chooses. */
export const acceptInviteBody = z.object({ username: z.string().max(200), password: z.string().max(10_000) }).strict();

/** GET /api/usage and /api/people/usage (and their /csv): the last `days` days, today included. */
export const usageQuery = z.object({ days: z.coerce.number().int().min(1).max(366).default(30) }).strict();

/** GET /api/auth/oidc/login: where to go once signed on, and an invitation to join with. */
export const signOnQuery = z.object({ next: z.string().max(2000).optional(), invite: z.string().max(100).optional() }).strict();
