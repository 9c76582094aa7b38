/**
 * Inline math between single dollars, by pandoc's rule (tex_math_dollars): the opening `$` has
 * a non-space character right after it, the closing `$` a non-space character right before it
 * and no digit right after it, and neither is escaped or part of `$$`. So `$F_n = F_{n-1}$` is
 * math while "$5 and $10" stays two prices. Matches become `$$…$$`, which remark-math sets
 * inline (it is run with single dollars off, so a lone `$` is never math).
 */
const SINGLE_DOLLAR = /(?<![\\$])\$(?=[^\s$])((?:[^$\n\\]|\\[^\n])*?[^\s$\\])\$(?![\d$])/g;

export function singleDollarMath(prose: string): string {
  return prose.replace(SINGLE_DOLLAR, (_, body: string) => `$$${body}$$`);
}
