import { SettingsPage } from '@/components/settings/SettingsPage';

export const metadata = { title: 'Settings · Hearth' };

export default function Settings() {
  return <SettingsPage />;
}
