import { KnowledgePage } from '@/components/knowledge/KnowledgePage';

export const metadata = { title: 'Knowledge · Hearth' };

export default function Knowledge() {
  return <KnowledgePage />;
}
