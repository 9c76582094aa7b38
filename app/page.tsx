import { ChatApp } from '@/components/chat/ChatApp';
import { headers } from 'next/headers';
import { settingsOfRequest } from '@/lib/services/runtime';

// The assistant's name and the user's place come from Settings (the person's own place), read when the page is asked for.
export const dynamic = 'force-dynamic';

export default async function Home() {
  const { assistantName, location } = await settingsOfRequest(await headers());
  return <ChatApp initialThreadId={null} assistantName={assistantName} location={location} />;
}
