/**
 * What a stored content type may be: `type/subtype` with optional `; name=value` parameters,
 * in HTTP's own grammar (RFC 9110's token and quoted-string), at most 200 characters. Nothing
 * else is stored, whether it came with an upload or in an imported library, because it is sent
 * back as a Content-Type header: a control character or a line break there would make every
 * later download of the file fail (or split the answer).
 */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const VALUE = `(?:${TOKEN}|"[^"\\\\\\x00-\\x1f\\x7f]*")`;
const MIME = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=${VALUE})*$`);

export function isMimeType(value: string): boolean {
  return value.length <= 200 && MIME.test(value);
}

/** The type as sent when it is one, else `fallback`. */
export function cleanMimeType(value: string, fallback: string): string {
  const trimmed = value.trim();
  return isMimeType(trimmed) ? trimmed : fallback;
}
