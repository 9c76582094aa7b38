/**
 * Checks that both sides make of what a person types: the server on its environment and
 * requests, the page before it sends them. Plain functions over the language's own URL and
 * Intl, so the browser's bundle can take them.
 */

export const isHttpUrl = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

export const isTimezone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
