import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { AVERAGED, SUMMED, summarise, type ModelSummary, type Score } from './score';
import type { Scenario } from './scenario';

/**
 * The scorecard's three outputs: JSON for machines (and for --compare), Markdown for a README
 * or an issue, and one self-contained HTML file (tables and a chart per score, with Chart.js
 * inlined, so it opens anywhere, offline).
 */

export type EvalReport = {
  tool: 'hearth-eval';
  version: 1;
  startedAt: string;
  finishedAt: string;
  repeat: number;
  models: { name: string; url: string; modelId?: string }[];
  scenarios: { id: string; title: string; about: string }[];
  scores: Score[];
  summaries: ModelSummary[];
};

export function buildReport(args: {
  startedAt: Date;
  repeat: number;
  models: EvalReport['models'];
  scenarios: Scenario[];
  scores: Score[];
}): EvalReport {
  return {
    tool: 'hearth-eval',
    version: 1,
    startedAt: args.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    repeat: args.repeat,
    models: args.models,
    scenarios: args.scenarios.map((s) => ({ id: s.id, title: s.title, about: s.about })),
    scores: args.scores,
    summaries: args.models.map((m) => summarise(m.name, args.scores)),
  };
}

/** Several saved runs side by side: each run's models, named after the run when names repeat. */
export function compareReports(reports: { label: string; report: EvalReport }[]): EvalReport {
  const names = reports.flatMap((r) => r.report.models.map((m) => m.name));
  const clash = new Set(names.filter((n, i) => names.indexOf(n) !== i));
  const rename = (label: string, name: string) => (clash.has(name) ? `${name} (${label})` : name);
  const scenarios = new Map<string, EvalReport['scenarios'][number]>();
  for (const { report } of reports) for (const s of report.scenarios) scenarios.set(s.id, s);
  const models = reports.flatMap(({ label, report }) => report.models.map((m) => ({ ...m, name: rename(label, m.name) })));
  const scores = reports.flatMap(({ label, report }) => report.scores.map((s) => ({ ...s, model: rename(label, s.model) })));
  return {
    tool: 'hearth-eval',
    version: 1,
    startedAt: reports.map((r) => r.report.startedAt).sort()[0] ?? new Date().toISOString(),
    finishedAt:
      reports
        .map((r) => r.report.finishedAt)
        .sort()
        .at(-1) ?? new Date().toISOString(),
    repeat: Math.max(...reports.map((r) => r.report.repeat)),
    models,
    scenarios: [...scenarios.values()],
    scores,
    summaries: models.map((m) => summarise(m.name, scores)),
  };
}

export const SCORE_LABELS: Record<string, string> = {
  met: 'expectations met',
  toolCalls: 'tool calls',
  malformedArguments: 'malformed arguments',
  inventedTools: 'invented tool names',
  gateNudges: 'gate nudges needed',
  deferralsLeft: 'deferrals left in answers',
  repeats: 'repeated calls',
  compiled: 'compiled (fallback) answers',
  rounds: 'rounds',
  modelCalls: 'model calls',
  promptTokens: 'prompt tokens',
  completionTokens: 'completion tokens',
  ttftMs: 'time to first token (ms)',
  tokensPerSecond: 'tokens per second',
  cacheReuse: 'prompt-cache reuse',
  wallMs: 'wall time (ms)',
};

const fmt = (key: string, v: number | null | undefined): string => {
  if (v === null || v === undefined) return '–';
  if (key === 'cacheReuse') return `${(v * 100).toFixed(0)}%`;
  if (key === 'ttftMs' || key === 'wallMs') return v.toFixed(0);
  if (key === 'tokensPerSecond') return v.toFixed(1);
  return String(Math.round(v * 100) / 100);
};

const COLUMNS = ['met', ...SUMMED, ...AVERAGED] as const;

function cell(s: Score | ModelSummary, key: (typeof COLUMNS)[number]): string {
  if (key === 'met') return `${s.met}/${s.total}`;
  return fmt(key, (s as Record<string, number | null>)[key]);
}

export function toMarkdown(report: EvalReport): string {
  const lines = [
    `# Hearth model scorecard`,
    '',
    `${report.models.length} model${report.models.length === 1 ? '' : 's'}, ${report.scenarios.length} scenarios, ${report.repeat} run${report.repeat === 1 ? '' : 's'} each; ${report.startedAt} to ${report.finishedAt}. Every score is counted by code, none by a model.`,
    '',
  ];
  const header = `| model | ${COLUMNS.map((c) => SCORE_LABELS[c]).join(' | ')} |`;
  const rule = `|${'---|'.repeat(COLUMNS.length + 1)}`;
  lines.push('## Summary', '', header, rule);
  for (const s of report.summaries) lines.push(`| ${s.model} | ${COLUMNS.map((c) => cell(s, c)).join(' | ')} |`);
  for (const m of report.models) {
    lines.push(
      '',
      `## ${m.name}`,
      '',
      `Server ${m.url}${m.modelId ? `, model ${m.modelId}` : ''}.`,
      '',
      `| scenario | ${COLUMNS.map((c) => SCORE_LABELS[c]).join(' | ')} |`,
      rule,
    );
    for (const s of report.scores.filter((x) => x.model === m.name))
      lines.push(`| ${s.scenario}${report.repeat > 1 ? ` #${s.repeat}` : ''} | ${COLUMNS.map((c) => cell(s, c)).join(' | ')} |`);
    const missed = report.scores
      .filter((x) => x.model === m.name)
      .flatMap((s) => s.expectations.filter((e) => !e.met).map((e) => `- ${s.scenario}: ${e.what}${e.detail ? ` (${e.detail})` : ''}`));
    if (missed.length) lines.push('', 'Missed:', '', ...missed);
  }
  lines.push('', '## Scenarios', '');
  for (const s of report.scenarios) lines.push(`- **${s.id}**: ${s.title}.${s.about ? ` ${s.about}` : ''}`);
  return `${lines.join('\n')}\n`;
}

const html = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
/** Text placed inside a <script> element must not close it. */
const inScript = (s: string) => s.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

function chartLibrary(): string {
  const require = createRequire(import.meta.url);
  // The UMD build sits beside the package's main file (its exports map does not list it).
  return fs.readFileSync(path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}

export function toHtml(report: EvalReport): string {
  const table = (rows: (Score | ModelSummary)[], first: (r: Score | ModelSummary) => string, firstHead: string) =>
    `<table><thead><tr><th>${firstHead}</th>${COLUMNS.map((c) => `<th>${html(SCORE_LABELS[c])}</th>`).join('')}</tr></thead><tbody>${rows
      .map((r) => `<tr><th scope="row">${html(first(r))}</th>${COLUMNS.map((c) => `<td>${html(cell(r, c))}</td>`).join('')}</tr>`)
      .join('')}</tbody></table>`;
  const perModel = report.models
    .map((m) => {
      const scores = report.scores.filter((s) => s.model === m.name);
      const missed = scores.flatMap((s) =>
        s.expectations
          .filter((e) => !e.met)
          .map(
            (e) =>
              `<li><b>${html(s.scenario)}</b>: ${html(e.what)}${e.detail ? ` <span class="muted">(${html(e.detail)})</span>` : ''}</li>`,
          ),
      );
      return `<section><h2>${html(m.name)}</h2><p class="muted">${html(m.url)}${m.modelId ? ` · ${html(m.modelId)}` : ''}</p>${table(scores, (r) => `${(r as Score).scenario}${report.repeat > 1 ? ` #${(r as Score).repeat}` : ''}`, 'scenario')}${missed.length ? `<details><summary>${missed.length} expectation(s) missed</summary><ul>${missed.join('')}</ul></details>` : '<p>Every expectation met.</p>'}</section>`;
    })
    .join('');
  const charts = COLUMNS.map(
    (c) =>
      `<figure><figcaption>${html(SCORE_LABELS[c])}</figcaption><canvas data-score="${c}" role="img" aria-label="${html(SCORE_LABELS[c])} per scenario and model"></canvas></figure>`,
  ).join('');
  const data = JSON.stringify({
    scenarios: report.scenarios.map((s) => s.id),
    models: report.models.map((m) => m.name),
    scores: report.scores,
    labels: SCORE_LABELS,
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hearth model scorecard</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1c1917;background:#fafaf9}
h1{font-size:1.6rem}h2{margin-top:2rem}.muted{color:#57534e}
table{border-collapse:collapse;width:100%;font-size:12px;margin:.5rem 0;display:block;overflow-x:auto}
th,td{border:1px solid #d6d3d1;padding:4px 6px;text-align:right;white-space:nowrap}th[scope=row],thead th:first-child{text-align:left}
thead th{background:#f5f5f4}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(360px,1fr));gap:1rem}
figure{margin:0;background:#fff;border:1px solid #e7e5e4;border-radius:8px;padding:.5rem}figcaption{font-weight:600;margin-bottom:.25rem}
</style></head><body>
<h1>Hearth model scorecard</h1>
<p class="muted">${report.models.length} model(s), ${report.scenarios.length} scenarios, ${report.repeat} run(s) each · ${html(report.startedAt)} to ${html(report.finishedAt)} · every score counted by code, none by a model.</p>
<h2>Summary</h2>${table(report.summaries, (r) => (r as ModelSummary).model, 'model')}
<h2>Per score</h2><div class="charts">${charts}</div>
${perModel}
<h2>Scenarios</h2><ul>${report.scenarios.map((s) => `<li><b>${html(s.id)}</b>: ${html(s.title)}. <span class="muted">${html(s.about)}</span></li>`).join('')}</ul>
<script type="application/json" id="scorecard-data">${inScript(data)}</script>
<script>${inScript(chartLibrary())}</script>
<script>
(function () {
  var d = JSON.parse(document.getElementById('scorecard-data').textContent);
  var colors = ['#b45309', '#1d4ed8', '#15803d', '#9333ea', '#be123c', '#0e7490'];
  document.querySelectorAll('canvas[data-score]').forEach(function (canvas) {
    var key = canvas.getAttribute('data-score');
    var datasets = d.models.map(function (model, i) {
      return {
        label: model,
        backgroundColor: colors[i % colors.length],
        data: d.scenarios.map(function (scenario) {
          var runs = d.scores.filter(function (s) { return s.model === model && s.scenario === scenario; });
          var values = runs.map(function (s) { return key === 'met' ? s.met / s.total : s[key]; }).filter(function (v) { return v !== null; });
          return values.length ? values.reduce(function (a, b) { return a + b; }, 0) / values.length : null;
        })
      };
    });
    new Chart(canvas, { type: 'bar', data: { labels: d.scenarios, datasets: datasets }, options: { animation: false, responsive: true, plugins: { legend: { position: 'bottom' } }, scales: { x: { ticks: { autoSkip: false, maxRotation: 60, minRotation: 45 } } } } });
  });
  document.body.setAttribute('data-charts', String(document.querySelectorAll('canvas[data-score]').length));
})();
</script>
</body></html>
`;
}
