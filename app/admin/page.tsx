import { PeoplePage } from '@/components/admin/PeoplePage';

export const metadata = { title: 'People · Hearth' };

export default function Admin() {
  return <PeoplePage />;
}
