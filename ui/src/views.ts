// Battle screens → HTML: the battles list, gauges, roster, log and the apply panel. Pure string
// building with escaping, so it is unit-tested.
import type { BattleRow, BattleView, Chance, Effect, Gauge, LogEntry, Resolution, SystemInfo, UnitState } from './generated/api';
import { cite, escape, percent } from './render';

/** "2d6" → two dice of 6; "d10 v d10" → two of 10; unknown forms (per unit) → null. */
export function diceFields(dice: string): number[] | null {
  if (!dice) return [];
  const sides: number[] = [];
  for (const part of dice.split(/ v | then /)) {
    const m = /^(\d*)d(\d+)$/.exec(part.trim());
    if (!m) return null;
    const count = m[1] ? Number(m[1]) : 1;
    for (let i = 0; i < count; i++) sides.push(Number(m[2]));
  }
  return sides;
}

export function battleRows(rows: BattleRow[]): string {
  if (rows.length === 0) {
    return '<p class="empty">No battles yet. Begin one below, or import a battle file.</p>';
  }
  return `<ul class="battles">${rows
    .map((b) => `<li class="battle-row" data-battle="${b.id}">
      <button class="open" data-open="${b.id}"><strong>${escape(b.name)}</strong> <span class="muted">${escape(b.ruleset)} · ${b.events} events · ${escape(b.updated_at.slice(0, 16).replace('T', ' '))}</span></button>
      <span class="row-actions">
        <button class="ghost" data-export="${b.id}" aria-label="Export ${escape(b.name)}">Export</button>
        <button class="ghost" data-duplicate="${b.id}" aria-label="Duplicate ${escape(b.name)}">Duplicate</button>
        <button class="ghost danger" data-delete="${b.id}" aria-label="Delete ${escape(b.name)}">Delete</button>
      </span></li>`)
    .join('')}</ul>`;
}

/** One gauge as a labelled bar: "Units lost 3 of 5 (2 to go)". */
export function gauge(g: Gauge): string {
  const bar = g.progress !== undefined && g.progress !== null
    ? `<span class="track"><span class="fill${g.reached ? ' reached' : ''}" data-p="${g.progress}"></span></span>`
    : '';
  const threshold = g.threshold ? ` <span class="muted">of ${escape(g.threshold)}</span>` : '';
  const toGo = g.to_go !== undefined && g.to_go !== null ? ` <span class="to-go${g.reached ? ' reached' : ''}">${g.reached ? 'reached' : `${escape(g.to_go)} to go`}</span>` : '';
  return `<div class="gauge${g.reached ? ' reached' : ''}" data-label="${escape(g.label)}">
    <div class="gauge-head"><span>${escape(g.label)}</span> <strong data-testid="gauge-value">${escape(g.value)}</strong>${threshold}${toGo} ${cite(g.rule, g.ruling)}</div>${bar}</div>`;
}

export function standing(view: BattleView): string {
  const sides = view.state.sides.map((s) => {
    const gauges = view.standing.gauges.filter((g) => g.side === s.name).map(gauge).join('');
    return `<section class="side-card" data-side="${escape(s.name)}"><h3>${escape(s.name)}${s.panicked ? ' <span class="badge bad">panicked</span>' : ''}</h3>${gauges || '<p class="muted">No figures yet.</p>'}</section>`;
  });
  const shared = view.standing.gauges.filter((g) => !g.side).map(gauge).join('');
  // One verdict per side (GTS army break) is labelled with its side; one for the battle is not.
  const perSide = view.standing.resolutions.length === view.state.sides.length && view.state.sides.length > 1;
  const verdicts = view.standing.resolutions
    .filter((r) => r.outcome)
    .map((r, i) => `<div class="verdict">${perSide ? `<strong>${escape(view.state.sides[i].name)}</strong> ` : ''}<span class="code">${escape(r.outcome!.result)}</span> ${escape(r.outcome!.meaning)}</div>`)
    .join('');
  return `${shared ? `<section class="side-card wide">${shared}</section>` : ''}<div class="sides">${sides.join('')}</div>${verdicts ? `<div class="verdicts">${verdicts}</div>` : ''}`;
}

export function logEntries(entries: LogEntry[], limit = entries.length): string {
  const shown = entries.slice(-limit).reverse();
  if (shown.length === 0) return '<p class="empty">Nothing has happened yet.</p>';
  return `<ol class="log">${shown
    .map((e) => `<li class="log-entry${e.undone ? ' undone' : ''}${e.edited ? ' edited' : ''}" data-seq="${e.seq}" data-kind="${escape(e.kind)}">
      <span class="seq">#${e.seq}</span> <span class="time muted">${escape(e.at.slice(11, 19))}</span>
      <span class="text">${escape(e.text)}</span>${e.undone ? ' <span class="badge">undone</span>' : ''}${e.edited ? ' <span class="badge">roll edited</span>' : ''}
      ${e.changes.length ? `<ul class="changes">${e.changes.map((c) => `<li>${escape(c)}</li>`).join('')}</ul>` : ''}
      ${e.kind === 'applied' && !e.undone ? `<button class="ghost small" data-edit-roll="${e.seq}">Edit roll</button>` : ''}
    </li>`)
    .join('')}</ol>`;
}

/** The quick edits an umpire makes on a unit in each system, as (label, change) pairs. */
export function quickEdits(system: string, unit: UnitState): [string, Record<string, unknown>][] {
  if (unit.lost) return [];
  switch (system) {
    case 'itacs':
      return [
        ['+D', { kind: 'd_markers', count: 1 }],
        ['−D', { kind: 'remove_d_markers', count: 1 }],
        ['−1 unit', { kind: 'lose_units', count: 1, chosen_by: 'defender' }],
        [unit.broken ? 'Unbreak' : 'Break', unit.broken ? { kind: 'remove_break' } : { kind: 'break' }],
      ];
    case 'medieval':
      return [
        ['−1 SP', { kind: 'lose_sp', count: 1, chosen_by: 'defender' }],
        ['CF −1', { kind: 'reduce_charge_factor', by: 1 }],
        ['Scatter', { kind: 'scatter' }],
      ];
    case 'gts':
      return [
        ['+1 hit', { kind: 'hits', count: 1 }],
        ['Disorder', { kind: 'disorder' }],
        ['Rout', { kind: 'rout_unit' }],
        ['Remove', { kind: 'destroy_all' }],
      ];
    case 'dbmm':
      return [
        ['Destroyed', { kind: 'element_fate', fate: 'destroyed' }],
        ['Spent', { kind: 'element_fate', fate: 'spent' }],
        ['Off table', { kind: 'element_fate', fate: 'off_table' }],
      ];
    default:
      return [];
  }
}

export function matches(unit: UnitState, filter: string): boolean {
  if (!filter) return true;
  const f = filter.toLowerCase();
  return [unit.label, unit.side, unit.command ?? '', JSON.stringify(unit.stats), String(unit.id)].some((x) => x.toLowerCase().includes(f));
}

export function rosterList(view: BattleView, filter: string): string {
  const units = Object.values(view.state.units).filter((u): u is UnitState => !!u);
  if (units.length === 0) return '<p class="empty">No units yet: add them below, or copy a saved roster.</p>';
  return view.state.sides
    .map((side) => {
      const mine = units.filter((u) => u.side === side.name && matches(u, filter));
      const commands = [...new Set(mine.map((u) => u.command ?? ''))];
      const groups = commands
        .map((c) => `${c ? `<h4>${escape(c)}</h4>` : ''}<ul class="units">${mine
          .filter((u) => (u.command ?? '') === c)
          .map((u) => `<li class="unit-row${u.lost ? ' lost' : ''}" data-unit="${u.id}">
            <span class="unit-name"><strong>${escape(u.label)}</strong> <span class="muted">#${u.id}${u.role !== 'unit' ? ` · ${u.role}` : ''}</span></span>
            <span class="unit-state" data-testid="unit-state">${escape(summary(u))}</span>
            <span class="quick">${quickEdits(view.state.ruleset, u)
              .map(([label, change]) => `<button class="ghost small" data-quick="${u.id}" data-change="${escape(JSON.stringify(change))}">${escape(label)}</button>`)
              .join('')}${derives(view.state.ruleset) && u.role !== 'leader' ? `<button class="ghost small" data-derive="${u.id}" title="The unit's values from the tables, with their sources">Values</button>` : ''}</span>
            ${derives(view.state.ruleset) ? `<div class="derived" id="derived-${u.id}"></div>` : ''}</li>`)
          .join('')}</ul>`)
        .join('');
      return `<section class="roster-side" data-side="${escape(side.name)}"><h3>${escape(side.name)} <span class="muted">(${mine.length})</span></h3>${groups || '<p class="muted">none match</p>'}</section>`;
    })
    .join('');
}

/** The unit's state in a few words, as the core's summary does. */
/** Systems whose roster units have a "Values" button (the tables' derivation of a unit). */
export function derives(system: string): boolean {
  return system === 'gts' || system === 'dbmm';
}

export function summary(u: UnitState): string {
  const stats = (u.stats ?? {}) as Record<string, unknown>;
  // A DBMM element: its type and grade, and how it left the table.
  if (typeof stats.grade === 'string' && typeof stats.type === 'string') {
    const parts = [`${stats.irr ? 'Irr ' : ''}${stats.type} (${stats.grade})${stats.general ? ', general' : ''}`];
    if (u.lost) parts.push(typeof stats.state === 'string' ? stats.state.replace('_', ' ') : 'lost');
    return parts.join(', ');
  }
  const parts = [`${u.strength}/${u.starting}`];
  if (u.lost) parts.push('lost');
  if (u.d_markers) parts.push(`${u.d_markers} D`);
  if (u.broken) parts.push('Break');
  if (u.rout) parts.push('Rout');
  if (u.scattered) parts.push('scattered');
  if (u.disordered) parts.push('Disordered');
  if (u.hits) parts.push(`${u.hits} hits`);
  const cf = (u.stats as Record<string, unknown> | null)?.cf;
  if (typeof cf === 'number') parts.push(`CF ${cf}`);
  if (u.leader) parts.push(u.leader);
  return parts.join(', ');
}

/** The effect targets of an outcome that need roster units (army effects land on sides). */
export function targetKeys(effects: Effect[]): string[] {
  const keys = effects.map((e) => targetKey(e.target)).filter((k) => !k.startsWith('army:'));
  return [...new Set(keys)];
}

export function targetKey(t: Effect['target']): string {
  if (t === 'attacker' || t === 'defender') return t;
  if ('hex' in t) return `hex:${t.hex}`;
  if ('unit' in t) return `unit:${t.unit}`;
  return `army:${t.army}`;
}

/** The effects a resolution may apply: its outcome's, or before the dice every result's. */
export function possibleEffects(r: Resolution): Effect[] {
  return r.outcome ? r.outcome.effects : r.distribution.flatMap((d) => d.effects);
}

/** The apply panel: each target with a checkbox per live roster unit. Before the dice, only
 * when the app is to roll them ("Roll and apply"). */
export function applyPanel(r: Resolution, view: BattleView, mapping: Record<string, number[]>, appRolls = false): string {
  if (!r.outcome && !(appRolls && r.dice)) return r.dice ? '<p class="muted apply-hint">Enter the dice (or roll) to apply the result to the roster.</p>' : '';
  const keys = targetKeys(possibleEffects(r));
  const live = Object.values(view.state.units).filter((u): u is UnitState => !!u && !u.lost);
  const rows = keys
    .map((k) => `<fieldset class="target" data-target="${escape(k)}"><legend>${escape(k.replace(':', ' '))}</legend>${live
      .map((u) => `<label class="check"><input type="checkbox" data-map="${escape(k)}" value="${u.id}"${(mapping[k] ?? []).includes(u.id) ? ' checked' : ''}> ${escape(u.label)} <span class="muted">${escape(u.side)}</span></label>`)
      .join('')}</fieldset>`)
    .join('');
  return `<section class="apply" id="apply"><h2>Apply to the roster</h2>${keys.length ? `<p class="muted">Which units are each side of the result? Leave a target empty if it is not on the roster.</p>${rows}` : '<p class="muted">This result changes no unit.</p>'}
    <div id="outlook" aria-live="polite"></div>
    <button class="primary" id="apply-result">${r.outcome ? `Apply ${escape(r.outcome.result)}` : `Roll ${escape(r.dice)} and apply`}</button></section>`;
}

export function phaseOptions(system: SystemInfo | undefined, current: string | undefined): string {
  const phases = system?.phases ?? [];
  return `<option value="">—</option>${phases.map((p) => `<option value="${escape(p.key)}"${p.key === current ? ' selected' : ''}>${escape(p.name)}</option>`).join('')}`;
}

/** What flipping a toggle does to the odds: the change in the dice modifier, or else the largest
 * change in any result's probability, in percentage points. */
export function worth(base: Resolution, flipped: Resolution): string {
  const drm = flipped.total_modifier - base.total_modifier;
  if (drm !== 0) return `${drm > 0 ? '+' : ''}${drm} DRM`;
  const p = new Map(base.distribution.map((d) => [d.result, d.p]));
  let most = 0;
  let which = '';
  for (const d of flipped.distribution) {
    const change = d.p - (p.get(d.result) ?? 0);
    if (Math.abs(change) > Math.abs(most)) {
      most = change;
      which = d.result;
    }
  }
  if (Math.abs(most) < 0.0005) return '';
  return `${which} ${most > 0 ? '+' : '−'}${Math.abs(most * 100).toFixed(1)} pts`;
}

/** The steps of the current phase of the sequence of play, each with its rule and action. */
export function phaseSteps(system: SystemInfo | undefined, current: string | undefined): string {
  const phase = system?.phases.find((p) => p.key === current);
  if (!phase) return '<p class="muted">Choose the phase to see its steps in the sequence of play.</p>';
  return `<ol class="steps">${phase.steps
    .map((s) => `<li>${escape(s.text)} ${cite(s.rule)}${s.action ? ` <button class="ghost small" data-tab="resolve" data-step-action="${escape(s.action)}">${escape(s.action)}</button>` : ''}</li>`)
    .join('')}</ol>`;
}

/** The break points this result may reach, with their exact chances. */
export function outlookRows(chances: Chance[]): string {
  if (chances.length === 0) return '';
  return `<h3>If this result is applied</h3><div class="odds forecast">${chances
    .map((c) => `<div class="forecast-row" title="${escape(c.probability)}">
      <span class="label">${escape(c.label)}</span>
      <span class="track"><span class="fill" data-p="${c.p}"></span></span>
      <span class="pct">${percent(c.p)}</span>
      <span class="exact">${escape(c.probability)}</span>
      <span class="cite">${cite(c.rule, c.ruling)}</span></div>`)
    .join('')}</div>`;
}

/** A one-line strip of the odds (and the outcome, once the dice are in) that stays in view at the
 * bottom of a phone's screen while the situation is edited above. */
export function oddsStrip(r: Resolution): string {
  const outcome = r.outcome ? `<span class="strip-outcome">${escape(r.outcome.result)}</span>` : '';
  const cells = r.distribution
    .filter((d) => d.p > 0)
    .map((d) => `<span class="strip-cell${r.outcome?.result === d.result ? ' hit' : ''}"><span class="code">${escape(d.result)}</span> ${percent(d.p)}</span>`)
    .join('');
  return `${outcome}${cells}`;
}
