import { ChatApp } from '@/components/chat/ChatApp';
import { getRuntime } from '@/lib/server/runtime';

// The assistant's name comes from Settings, read when the page is asked for.
export const dynamic = 'force-dynamic';

export default function Home() {
  return <ChatApp initialThreadId={null} assistantName={getRuntime().settings.current().assistantName} />;
}
