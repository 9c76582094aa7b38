/**
 * The page's theme: light, dark, or the system's. Kept in a cookie (not localStorage) so the
 * server renders `<html data-theme>` and the first paint is already in the chosen colours.
 */

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_COOKIE = 'hearth-theme';

export function parseTheme(value: string | undefined | null): Theme {
  return (THEMES as readonly string[]).includes(value ?? '') ? (value as Theme) : 'system';
}

/** The cookie that keeps a theme for a year in this browser (set by the page's picker, and by an import that brings one). */
export const themeCookie = (theme: Theme) => `${THEME_COOKIE}=${theme}; Path=/; Max-Age=31536000; SameSite=Strict`;
