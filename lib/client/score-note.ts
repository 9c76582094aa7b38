import type { ModelView } from '@/lib/contract/responses';

/** A model's eval headline (npm run eval): scenarios answered, deferrals left in answers, speed; as the gate's judge (--gate); and the user's thumbs on its answers. */
export function scoreNote(m: Pick<ModelView, 'scorecard' | 'gate' | 'ratings'>): string {
  const s = m.scorecard;
  const g = m.gate;
  const r = m.ratings;
  if (!s && !g && !r) return '';
  const parts: string[] = [];
  if (s) {
    const speed = s.tokensPerSecond === null ? '' : ` · ${s.tokensPerSecond.toFixed(0)} tok/s`;
    parts.push(`${s.completed}/${s.runs} answered · ${s.deferralsLeft} deferral${s.deferralsLeft === 1 ? '' : 's'} left${speed}`);
  }
  if (g) {
    const share = (x: number | null) => (x === null ? '–' : `${Math.round(x * 100)}%`);
    parts.push(`as judge: catches ${share(g.recall)} of deferrals, ${share(g.precision)} right, ${Math.round(g.msPerJudgement)} ms`);
  }
  if (r) parts.push(`your thumbs: ${r.up} up, ${r.down} down`);
  return ` — ${parts.join(' · ')}`;
}
