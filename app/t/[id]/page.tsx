import { ChatApp } from '@/components/chat/ChatApp';

export default async function ThreadPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ChatApp initialThreadId={id} />;
}
