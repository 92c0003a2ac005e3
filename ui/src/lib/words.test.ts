import { describe, expect, it } from 'vitest';
import { devText, fieldLabel, humanize, problem, sentence, singular, targetWords } from './words';

describe('words an umpire reads', () => {
  it('names fields in words', () => {
    expect(humanize('d_markers')).toBe('D markers');
    expect(humanize('attacker_leader_bonus')).toBe('Attacker leader bonus');
    expect(humanize('in_bua')).toBe('In BUA');
    expect(humanize('manning_pf_tower')).toBe('Manning PF tower');
    expect(humanize('me_lost')).toBe('ME lost');
    expect(fieldLabel('side_a[0].stats.armour')).toBe('Armour');
    expect(fieldLabel('stats.type', { type: 'Unit type' })).toBe('Unit type');
    expect(fieldLabel(undefined)).toBeUndefined();
    // A whole field the screen names (a result's target, as an apply names it) by that name.
    expect(fieldLabel('targets.unit:EL 23.11', { 'targets.unit:EL 23.11': 'EL 23.11' })).toBe('EL 23.11');
    // A result landing relative to a leader is named in words from its typed target.
    expect([{ enemy_of: 'Zyndram' }, { side_of: 'Zyndram' }, { hex: '17.03' }, { army: 'Poles' }, { command: 'leader' }, 'defender' as const].map(targetWords)).toEqual(['The enemy of Zyndram', 'Zyndram’s side', 'Hex 17.03', 'Poles', 'leader’s command', 'The defender']);
    expect(targetWords({ within: { of: 'Artaphernes', inches: 6 } })).toBe('The units within 6" of Artaphernes');
    expect(targetWords('battle')).toBe('The battle');
  });

  it('makes a sentence without code quotes', () => {
    expect(sentence('whose bound it is: `a` or `b`')).toBe('Whose bound it is: a or b.');
    expect(sentence('The unit type is missing.')).toBe('The unit type is missing.');
  });

  it('turns an error into a sentence with the field label and the rule, the code kept apart', () => {
    const p = problem({ code: 'situation.unknown_class', message: 'no class `dragons` in Table 2.10', field: 'stats.class', rule: '2.10' }, { class: 'Class' });
    expect(p).toEqual({ text: 'No class dragons in Table 2.10.', label: 'Class', rule: '2.10', ruling: undefined, code: 'situation.unknown_class' });
    expect(problem(new Error('boom')).text).toBe('Error: boom.');
  });

  it('never shows the window’s own refusal of a request it could not read', () => {
    const raw = 'invalid args `request` for command `battle_create`: invalid value: integer `5000000000`, expected u32';
    const p = problem(raw);
    expect(p.text).toBe('The app could not read what was entered: check the fields and try again.');
    expect(devText(p.text)).toBeUndefined();
    expect(devText('Invalid args request for command battle_create')).toMatch(/could not read/);
    expect(devText('invalid value: integer 5000000000, expected u32')).toMatch(/serde/);
  });

  it('spots developer text', () => {
    expect(devText('Housecarls — broken · lost 2 of 6 ME')).toBeUndefined();
    // A result key is developer text; the rules' own "and/or" is not.
    expect(devText('Bd (O): recoil/stand')).toMatch(/result key/);
    expect(devText('a unit type from the ruleset and/or the values printed on the counter')).toBeUndefined();
    expect(devText('side_a[0].armour')).toMatch(/array index|code id/);
    expect(devText('unknown field `armour`')).toMatch(/backtick/);
    expect(devText('invalid type: string, expected u32')).toMatch(/serde/);
    expect(devText(`ruleset ${'ab'.repeat(32)}`)).toMatch(/fingerprint/);
    expect(devText('see docs/rosters.md')).toMatch(/file name/);
    expect(devText('leader_fate')).toMatch(/code id/);
  });
  it('names one item of a list from the list’s name', () => {
    expect(singular('Firing hexes')).toBe('Firing hex');
    expect(singular('retreat hexes')).toBe('retreat hex');
    expect(singular('Attackers')).toBe('Attacker');
    expect(singular('Armies')).toBe('Army');
    expect(singular('Marches')).toBe('March');
    expect(singular('Terrain')).toBe('Terrain');
  });
});
