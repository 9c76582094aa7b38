// eslint-disable-next-line no-control-regex -- a control character in the path is refused
const CONTROL = /[\u0000-\u001f]/;

/** Where to go after logging in: a path on this site only (never //host or /\host, which browsers treat as another site). */
export function safeNextPath(raw: string | null | undefined): string {
  if (!raw || raw.length > 2000 || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || CONTROL.test(raw)) return '/';
  return raw;
}
