import { PassageViewer } from '@/components/knowledge/PassageViewer';

export const metadata = { title: 'Passage · Hearth' };

/** A cited passage in its file, its lines highlighted (the links in an answer's citations open here). */
export default async function Passage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; fileId: string }>;
  searchParams: Promise<{ from?: string; to?: string }>;
}) {
  const [{ id, fileId }, { from, to }] = await Promise.all([params, searchParams]);
  const first = Math.max(1, Number.parseInt(from ?? '1', 10) || 1);
  const last = Math.max(first, Number.parseInt(to ?? String(first), 10) || first);
  return <PassageViewer collectionId={id} fileId={fileId} from={first} to={last} />;
}
