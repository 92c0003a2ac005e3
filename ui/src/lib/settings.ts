// Preferences, kept by the app in its one preferences file (the store plugin, driven from Rust:
// the window names no file). Never battle data. Whatever the file holds is checked field by
// field: a damaged or foreign value falls back to its default.
import { chooseRulesets, loadPreferences, savePreferences } from './api';
import type { HouseRuleChoice, RulesetList } from '../generated/api';
import { setTableUnits } from './format';

export interface Settings {
  theme: 'dark' | 'light' | 'system';
  /** How results are rolled when the umpire enters no faces. */
  diceMode: 'physical' | 'app';
  /** Ask once more before a result is written to the roster. */
  confirmApply: boolean;
  units: 'inches' | 'cm';
  /** Figure scale, e.g. 15 mm: how many millimetres a pace or an inch is on this table. */
  figureScale: '6mm' | '15mm' | '25mm' | '28mm';
  /** House rules the umpire put in force (true) or left out (false), by file; unnamed ones keep
   * their default: switchable rulings off, the data folder's house-rule files on. */
  houseRules: Record<string, boolean>;
}

/** The preferences chosen from a list (all but the house rules). */
export type SettingKey = Exclude<keyof Settings, 'houseRules'>;

export const DEFAULTS: Settings = { theme: 'dark', diceMode: 'physical', confirmApply: false, units: 'inches', figureScale: '15mm', houseRules: {} };

const CHOICES: { [K in SettingKey]: readonly Settings[K][] } = {
  theme: ['dark', 'light', 'system'],
  diceMode: ['physical', 'app'],
  confirmApply: [false, true],
  units: ['inches', 'cm'],
  figureScale: ['6mm', '15mm', '25mm', '28mm'],
};

/** The settings a stored value stands for: each known field if valid, else its default. */
export function sanitize(raw: unknown): Settings {
  const out: Settings = { ...DEFAULTS, houseRules: {} };
  if (!raw || typeof raw !== 'object') return out;
  for (const key of Object.keys(CHOICES) as SettingKey[]) {
    const value = (raw as Record<string, unknown>)[key];
    if ((CHOICES[key] as readonly unknown[]).includes(value)) (out as unknown as Record<string, unknown>)[key] = value;
  }
  const houseRules = (raw as Record<string, unknown>).houseRules;
  if (houseRules && typeof houseRules === 'object' && !Array.isArray(houseRules)) {
    for (const [file, on] of Object.entries(houseRules)) if (typeof on === 'boolean') out.houseRules[file] = on;
  }
  return out;
}

/** What the settings ask the referee to put in force, as the `rulesets_choose` command takes it. */
export function houseRuleChoice(s: Settings): HouseRuleChoice {
  const files = Object.entries(s.houseRules);
  return { on: files.filter(([, on]) => on).map(([f]) => f), off: files.filter(([, on]) => !on).map(([f]) => f) };
}

let current: Settings = { ...DEFAULTS };
export const settings = (): Settings => current;

export async function loadSettings(): Promise<Settings> {
  try {
    current = sanitize(await loadPreferences());
  } catch {
    current = { ...DEFAULTS };
  }
  setTableUnits(current.units);
  return current;
}

export async function saveSettings(next: Settings): Promise<void> {
  current = sanitize(next);
  applyTheme(current.theme);
  setTableUnits(current.units);
  await savePreferences(current);
}

export function themeFor(theme: Settings['theme'], prefersLight: boolean): 'dark' | 'light' {
  if (theme === 'system') return prefersLight ? 'light' : 'dark';
  return theme;
}

export function applyTheme(theme: Settings['theme']): void {
  const light = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: light)').matches;
  document.documentElement.dataset.theme = themeFor(theme, light);
}

export const LABELS: { [K in SettingKey]: [string, Record<string, string>] } = {
  theme: ['Theme', { dark: 'Dark (dim halls)', light: 'Light', system: 'As the system' }],
  diceMode: ['Dice, when no faces are entered', { physical: 'Ask for the physical dice', app: 'The app rolls them (seeded, logged)' }],
  confirmApply: ['Before a result is applied', { false: 'Apply at once (undo is there)', true: 'Ask to confirm' }],
  units: ['Table units', { inches: 'Inches, as the rules measure', cm: 'Centimetres (each inch figure also in cm)' }],
  figureScale: ['Figure scale (the scale DBMM distances start at)', { '6mm': '6 mm', '15mm': '15 mm', '25mm': '25 mm', '28mm': '28 mm' }],
};

/** The short name of a system ("ITACS", "DBMM 2.x"), which keeps a row readable on a phone. */
export function shortName(systems: RulesetList['systems'], id: string): string {
  return (systems.find((x) => x.id === id)?.name ?? id).split(' — ')[0];
}

let whenRulesChange: (list: RulesetList) => void = () => undefined;
/** Who redraws the screens when other rules are put in force (the shell). */
export function onRulesChange(redraw: (list: RulesetList) => void): void {
  whenRulesChange = redraw;
}

/** Puts house rules in force (true) or leaves them out (false), by file: saved as preferences,
 * then in force at once. Answers the rulesets now in force. */
export async function chooseHouseRules(changes: Record<string, boolean>): Promise<RulesetList> {
  await saveSettings({ ...current, houseRules: { ...current.houseRules, ...changes } });
  const list = await chooseRulesets(houseRuleChoice(current));
  whenRulesChange(list);
  return list;
}

/** The preference changes that put a battle's rules back in force. */
export function changesFor(choice: HouseRuleChoice): Record<string, boolean> {
  return Object.fromEntries([...choice.on.map((f) => [f, true]), ...choice.off.map((f) => [f, false])]);
}

/** The ruleset's figure scale for the table's figures: the smallest scale at or above their size
 * (DBMM "15mm" is 15 mm and smaller), else the largest ("25mm" is 20–28 mm). */
export function scaleFor(figures: Settings['figureScale'], scales: readonly string[]): string | undefined {
  const size = (key: string) => Number.parseFloat(key);
  const sorted = [...scales].filter((k) => Number.isFinite(size(k))).sort((a, b) => size(a) - size(b));
  return sorted.find((k) => size(k) >= size(figures)) ?? sorted[sorted.length - 1];
}

/** A value from the settings form, typed. */
export function readSetting(key: SettingKey, raw: string): Settings[SettingKey] {
  return key === 'confirmApply' ? raw === 'true' : (raw as Settings[SettingKey]);
}
