import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { speak } from '@/lib/services/speech';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * {text, voice?} → the audio of its words (Markdown turned into what a person would say),
 * streamed through from the text-to-speech server in Settings.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.speak, async ({ request, body, rt }) => {
    const audio = await speak(rt, await body(), request.signal);
    return new Response(audio.body, { headers: { 'Content-Type': audio.type, 'Cache-Control': 'no-store' } });
  }),
);
