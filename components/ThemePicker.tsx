'use client';

import { useEffect, useState } from 'react';
import { parseTheme, themeCookie, THEMES, type Theme } from '@/lib/contract/theme';

const LABEL: Record<Theme, string> = { light: 'Light', dark: 'Dark', system: 'System' };

/** Light, dark or the system's: applied at once, remembered for a year in this browser. */
export function ThemePicker() {
  const [theme, setTheme] = useState<Theme>('system');
  useEffect(() => setTheme(parseTheme(document.documentElement.dataset.theme)), []);
  const choose = (next: Theme) => {
    setTheme(next);
    document.documentElement.dataset.theme = next;
    document.cookie = themeCookie(next);
  };
  return (
    <fieldset className="mt-2 px-1 text-xs" data-testid="theme-picker">
      <legend className="mb-1 text-stone-600 dark:text-stone-400">Theme</legend>
      <div className="flex overflow-hidden rounded-md border border-stone-300 dark:border-stone-700">
        {THEMES.map((t) => (
          <label
            key={t}
            className={`relative flex-1 cursor-pointer px-2 py-1 text-center has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-amber-500 ${theme === t ? 'bg-stone-800 text-white dark:bg-stone-200 dark:text-stone-900' : 'hover:bg-white dark:hover:bg-stone-800'}`}
          >
            <input
              type="radio"
              name="theme"
              value={t}
              checked={theme === t}
              onChange={() => choose(t)}
              className="sr-only"
              data-testid={`theme-${t}`}
            />
            {LABEL[t]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
