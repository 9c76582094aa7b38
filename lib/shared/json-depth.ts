/**
 * How deep JSON text nests, found by reading its outline (strings and their escapes skipped),
 * before anything walks the parsed value: JSON.parse takes 100,000 levels of `[[[…` without
 * trouble, but every check that then walks it recursively (zod's, Hearth's own) runs out of
 * stack and the request fails as a 500. Nothing Hearth reads nests anywhere near MAX_JSON_DEPTH.
 */

export const MAX_JSON_DEPTH = 200;

/** Whether `text` nests arrays and objects deeper than `max` levels. */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The sentence a refusal says. */
export const tooDeep = (what: string) => `${what} nests deeper than ${MAX_JSON_DEPTH} levels, which nothing Hearth reads does`;
