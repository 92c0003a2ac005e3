// Resolution → HTML. Pure string building with escaping, so it is unit-tested.
import type { Chance, Check, Effect, Modifier, Outcome, RefereeError, Resolution, ResultOdds } from './generated/api';

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

export const signed = (n: number): string => (n > 0 ? `+${n}` : `${n}`);

/** The table's units from Settings. The rules measure in inches; on a table measured in
 * centimetres every inch figure also shows in cm. */
let tableUnits: 'inches' | 'cm' = 'inches';
export function setTableUnits(units: 'inches' | 'cm'): void {
  tableUnits = units;
}

/** `3"` → `3" (7.6 cm)` on a centimetre table; a text that already gives millimetres (DBMM
 * distances) is left as it is. */
export function measured(text: string, units: 'inches' | 'cm' = tableUnits): string {
  if (units !== 'cm' || /\d mm\b/.test(text)) return text;
  return text.replace(/(\d+(?:\.\d+)?)"/g, (inches, n: string) => `${inches} (${Number((Number(n) * 2.54).toFixed(1))} cm)`);
}

/** A probability for display: "91.7 %", "0 %", "< 0.1 %". */
export function percent(p: number): string {
  if (p === 0) return '0 %';
  if (p < 0.001) return '< 0.1 %';
  return `${(p * 100).toFixed(1)} %`;
}

export function cite(rule: string, ruling?: string): string {
  const r = `<span class="rule" title="Rule section">§ ${escape(rule)}</span>`;
  return ruling ? `${r} <span class="ruling" title="Referee ruling">${escape(ruling)}</span>` : r;
}

function modifierRow(m: Modifier): string {
  return `<tr><td>${escape(measured(m.label))}</td><td class="num">${signed(m.value)}</td><td>${cite(m.rule, m.ruling)}</td></tr>`;
}

function effects(list: Effect[]): string {
  if (list.length === 0) return '<span class="muted">no effect</span>';
  return `<ul class="effects">${list.map((e) => `<li>${escape(measured(e.text))} ${cite(e.rule, e.ruling)}</li>`).join('')}</ul>`;
}

/** "At least this good for the attacker": cumulative from the best result down. */
export function atLeast(distribution: ResultOdds[]): number[] {
  const out = new Array<number>(distribution.length).fill(0);
  let acc = 0;
  for (let i = distribution.length - 1; i >= 0; i--) {
    acc += distribution[i].p;
    out[i] = acc;
  }
  return out;
}

function distributionRows(r: Resolution, outcome?: Outcome): string {
  const cumulative = atLeast(r.distribution);
  return r.distribution
    .map((d, i) => {
      const hit = outcome?.result === d.result ? ' hit' : '';
      const impossible = d.p === 0 ? ' impossible' : '';
      return `<div class="odds-row${hit}${impossible}" data-result="${escape(d.result)}" title="${escape(d.meaning)}">
        <span class="code">${escape(d.result)}</span>
        <span class="rolls">${escape(d.rolls)}</span>
        <span class="track"><span class="fill" data-p="${d.p}"></span></span>
        <span class="pct">${percent(d.p)}</span>
        <span class="exact" data-testid="exact">${escape(d.probability)}</span>
        <span class="cum muted" title="This result or better for the attacker">≥ ${percent(cumulative[i])}</span>
      </div>`;
    })
    .join('');
}

const CHECK_MARK: Record<Check['status'], string> = { met: '✓', not_met: '✗', umpire: '?' };

/** Conditions of a rule: met, not met, or for the umpire to see on the table. */
export function renderChecks(checks: Check[]): string {
  if (checks.length === 0) return '';
  const rows = checks
    .map((c) => `<li class="check-${c.status}"><span class="mark" aria-label="${c.status.replace('_', ' ')}">${CHECK_MARK[c.status]}</span> ${escape(measured(c.label))} ${cite(c.rule, c.ruling)}</li>`)
    .join('');
  return `<ul class="checks">${rows}</ul>`;
}

/** What finally becomes of each hex or side: the chained odds. */
export function renderForecast(forecast: Chance[]): string {
  if (forecast.length === 0) return '';
  const rows = forecast
    .map((c) => `<div class="forecast-row" title="${escape(c.probability)}">
        <span class="label">${escape(c.label)}</span>
        <span class="track"><span class="fill" data-p="${c.p}"></span></span>
        <span class="pct">${percent(c.p)}</span>
        <span class="exact">${escape(c.probability)}</span>
        <span class="cite">${cite(c.rule, c.ruling)}</span>
      </div>`)
    .join('');
  return `<h2>What becomes of each stack</h2><div class="odds forecast" id="forecast">${rows}</div>`;
}

export function renderResolution(r: Resolution): string {
  const totals = r.totals
    .map((t) => `<div class="total"><span class="muted">${escape(t.label)}</span> <strong>${escape(measured(t.value))}</strong> ${cite(t.rule, t.ruling)}</div>`)
    .join('');
  const notes = r.notes.map((n) => `<li>${escape(measured(n.message))} ${cite(n.rule, n.ruling)}</li>`).join('');
  const outcome = r.outcome
    ? `<div class="outcome" id="outcome">
        <div class="outcome-head">Dice ${r.outcome.dice.join(' + ')} = ${r.outcome.roll}, modified ${signed(r.total_modifier)} → <strong>${r.outcome.modified}</strong></div>
        <div class="outcome-result"><span class="code big" data-testid="outcome-result">${escape(r.outcome.result)}</span> ${escape(r.outcome.meaning)}</div>
        ${effects(r.outcome.effects)}
      </div>`
    : '';
  return `
    ${outcome}
    <div class="totals">${totals}</div>
    <table class="modifiers"><thead><tr><th>Modifier</th><th class="num">DRM</th><th>Rule</th></tr></thead>
      <tbody>${r.modifiers.map(modifierRow).join('')}</tbody>
      <tfoot><tr><td>Total modifier on ${escape(r.dice)}</td><td class="num" data-testid="total-modifier">${signed(r.total_modifier)}</td><td></td></tr></tfoot>
    </table>
    ${notes ? `<ul class="notes">${notes}</ul>` : ''}
    ${renderChecks(r.checks)}
    <h2>Odds of every result</h2>
    <div class="odds" id="odds">${distributionRows(r, r.outcome)}</div>
    ${renderForecast(r.forecast)}`;
}

export function renderError(e: RefereeError): string {
  const where = [e.location, e.field].filter(Boolean).map((x) => escape(String(x))).join(' · ');
  const rule = e.rule ? ` ${cite(e.rule, e.ruling)}` : '';
  return `<div class="error" role="alert" data-code="${escape(e.code)}">
    <strong>${escape(measured(e.message))}</strong>${rule}
    ${where ? `<div class="muted">${where}</div>` : ''}
  </div>`;
}

/** After inserting the HTML: bar widths via the CSSOM (the CSP allows no inline style attributes). */
export function sizeBars(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>('.fill').forEach((el) => {
    el.style.width = `${(Number(el.dataset.p) * 100).toFixed(2)}%`;
  });
}
