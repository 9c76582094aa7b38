import { ChatApp } from '@/components/chat/ChatApp';

export default function Home() {
  return <ChatApp initialThreadId={null} />;
}
