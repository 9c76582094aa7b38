import { endpoints } from '@/lib/contract/endpoints';
import { keepField, transcriptionLanguage } from '@/lib/contract/requests';
import { parseInput, readBodyCapped } from '@/lib/http/handle';
import { on, reply, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';
import { MAX_AUDIO_BYTES, transcribeRecording } from '@/lib/services/speech';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * A recording (multipart: "file", "language" when the person set one, "keep" when they keep
 * recordings) → {text, attachment?}, through the speech-to-text server in Settings. Over 25 MB is
 * refused before a byte goes to it.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.transcribe, async ({ request, rt }) => {
    const type = request.headers.get('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(type))
      throw new HearthError('unsupported_type', 'Send the recording as multipart/form-data, in a field called "file".');
    const bytes = await readBodyCapped(request, MAX_AUDIO_BYTES, `The recording is larger than ${MAX_AUDIO_BYTES / 1024 / 1024} MB.`);
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
    } catch {
      throw new HearthError(
        'bad_request',
        'The form could not be read: send the recording as multipart/form-data in a field called "file".',
      );
    }
    const file = form.get('file');
    if (!(file instanceof Blob)) throw new HearthError('bad_request', 'file: send the recording in a field called "file".');
    const language = parseInput(transcriptionLanguage, form.get('language') ?? undefined, () => 'language');
    const keep = parseInput(keepField, form.get('keep') ?? undefined, () => 'keep');
    const heard = await transcribeRecording(rt, { bytes: new Uint8Array(await file.arrayBuffer()), language, keep }, request.signal);
    return reply(heard);
  }),
);
