// Preferences, kept by the store plugin in `settings.json` (never battle data). Whatever the file
// holds is checked field by field: a damaged or foreign value falls back to its default.
import { load } from '@tauri-apps/plugin-store';
import { escape } from './render';

export interface Settings {
  theme: 'dark' | 'light' | 'system';
  /** How results are rolled when the umpire enters no faces. */
  diceMode: 'physical' | 'app';
  /** Ask once more before a result is written to the roster. */
  confirmApply: boolean;
  units: 'inches' | 'cm';
  /** Figure scale, e.g. 15 mm: how many millimetres a pace or an inch is on this table. */
  figureScale: '6mm' | '15mm' | '25mm' | '28mm';
}

export const DEFAULTS: Settings = { theme: 'dark', diceMode: 'physical', confirmApply: false, units: 'inches', figureScale: '15mm' };

const CHOICES: { [K in keyof Settings]: readonly Settings[K][] } = {
  theme: ['dark', 'light', 'system'],
  diceMode: ['physical', 'app'],
  confirmApply: [false, true],
  units: ['inches', 'cm'],
  figureScale: ['6mm', '15mm', '25mm', '28mm'],
};

/** The settings a stored value stands for: each known field if valid, else its default. */
export function sanitize(raw: unknown): Settings {
  const out: Settings = { ...DEFAULTS };
  if (!raw || typeof raw !== 'object') return out;
  for (const key of Object.keys(DEFAULTS) as (keyof Settings)[]) {
    const value = (raw as Record<string, unknown>)[key];
    if ((CHOICES[key] as readonly unknown[]).includes(value)) (out as unknown as Record<string, unknown>)[key] = value;
  }
  return out;
}

let current: Settings = { ...DEFAULTS };
export const settings = (): Settings => current;

const FILE = 'settings.json';

export async function loadSettings(): Promise<Settings> {
  try {
    const store = await load(FILE, { autoSave: false, defaults: {} });
    current = sanitize(await store.get('settings'));
  } catch {
    current = { ...DEFAULTS };
  }
  return current;
}

export async function saveSettings(next: Settings): Promise<void> {
  current = sanitize(next);
  applyTheme(current.theme);
  const store = await load(FILE, { autoSave: false, defaults: {} });
  await store.set('settings', current);
  await store.save();
}

export function themeFor(theme: Settings['theme'], prefersLight: boolean): 'dark' | 'light' {
  if (theme === 'system') return prefersLight ? 'light' : 'dark';
  return theme;
}

export function applyTheme(theme: Settings['theme']): void {
  const light = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: light)').matches;
  document.documentElement.dataset.theme = themeFor(theme, light);
}

const LABELS: { [K in keyof Settings]: [string, Record<string, string>] } = {
  theme: ['Theme', { dark: 'Dark (dim halls)', light: 'Light', system: 'As the system' }],
  diceMode: ['Dice, when no faces are entered', { physical: 'Ask for the physical dice', app: 'The app rolls them (seeded, logged)' }],
  confirmApply: ['Before a result is applied', { false: 'Apply at once (undo is there)', true: 'Ask to confirm' }],
  units: ['Table units', { inches: 'Inches', cm: 'Centimetres' }],
  figureScale: ['Figure scale', { '6mm': '6 mm', '15mm': '15 mm', '25mm': '25 mm', '28mm': '28 mm' }],
};

export function renderSettings(s: Settings, layers: string[]): string {
  const rows = (Object.keys(LABELS) as (keyof Settings)[])
    .map((key) => {
      const [label, options] = LABELS[key];
      const opts = Object.entries(options)
        .map(([value, text]) => `<option value="${escape(value)}"${String(s[key]) === value ? ' selected' : ''}>${escape(text)}</option>`)
        .join('');
      return `<label class="setting">${escape(label)} <select data-setting="${key}">${opts}</select></label>`;
    })
    .join('');
  return `<h2>Settings</h2><form id="settings-form" class="panel">${rows}</form>
    <div class="panel"><h3>Rulesets and house rules in force</h3>
      <ul>${layers.map((l) => `<li><code>${escape(l)}</code></li>`).join('')}</ul>
      <p class="muted">House-rule files go in the app data folder's <code>rulesets/</code> (docs/rulesets.md); they load when the app starts. Rulings are the referee's readings (docs/rulings.md); a house rule changes a table or modifier by data.</p></div>
    <div id="settings-message" aria-live="polite"></div>`;
}

/** A value from the settings form, typed. */
export function readSetting(key: keyof Settings, raw: string): Settings[keyof Settings] {
  return key === 'confirmApply' ? raw === 'true' : (raw as Settings[keyof Settings]);
}
