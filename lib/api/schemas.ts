import { z } from 'zod';

/** Request shapes of the HTTP API, validated at the edge. */

export const MAX_MESSAGE_CHARS = 100_000;

/** Ids are UUIDs; anything else cannot name a stored thing, so it is answered as unknown (404). */
export const idParam = z.string().uuid('is not a valid id');

export const listThreadsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
});

export const createThreadBody = z.object({ title: z.string().trim().max(200).optional() }).strict();

export const patchThreadBody = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    pinned: z.boolean().optional(),
    systemPrompt: z.string().max(20_000).optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'give at least one of title, pinned, systemPrompt');

export const postMessageBody = z
  .object({
    content: z
      .string()
      .max(MAX_MESSAGE_CHARS, `a message can be at most ${MAX_MESSAGE_CHARS} characters`)
      .refine((s) => s.trim().length > 0, 'the message is empty'),
    attachmentIds: z.array(z.string().uuid()).max(10).optional(),
  })
  .strict();

export const eventsQuery = z.object({ after: z.coerce.number().int().min(0).default(0) });

export const searchQuery = z.object({
  q: z.string().trim().min(1, 'give something to search for').max(200),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const exportQuery = z.object({ format: z.enum(['md', 'json']).default('json') });

export const memoryBody = z.object({ text: z.string().max(2000, 'a fact is one short sentence') }).strict();
