// End to end: one full combat per rule system in the real app window — begin a battle, add units,
// resolve with the documented situation (odds equal to the core's, as the CLI gives them), enter
// the dice, apply the result to the roster, undo it — with screenshots at desktop and phone widths.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { remote } from 'webdriverio';

const app = process.env.REFEREE_APP;
const cli = process.env.REFEREE_CLI;
const shots = process.env.REFEREE_SHOTS ?? 'target/e2e';
const examples = JSON.parse(readFileSync('ui/src/generated/examples.json', 'utf8'));
let browser;

function core(ruleset, action, situation, dice) {
  const args = ['resolve', '--ruleset', ruleset, '--action', action];
  if (dice) args.push('--dice', dice.join(','));
  return JSON.parse(execFileSync(cli, args, { input: JSON.stringify(situation) }).toString());
}

async function odds() {
  const out = [];
  for (const row of await browser.$$('#battle-resolution #odds .odds-row')) {
    out.push([await row.getAttribute('data-result'), await row.$('.exact').getText()]);
  }
  return out;
}

async function until(what, check) {
  await browser.waitUntil(check, { timeout: 10000, timeoutMsg: what });
}

async function shot(name) {
  await browser.pause(400);
  await browser.saveScreenshot(`${shots}/${name}.png`);
}

before(async () => {
  assert.ok(app && cli, 'REFEREE_APP and REFEREE_CLI must name the built app and CLI');
  mkdirSync(shots, { recursive: true });
  browser = await remote({
    hostname: '127.0.0.1',
    port: 4444,
    logLevel: 'warn',
    capabilities: { browserName: 'wry', 'wdio:enforceWebDriverClassic': true, 'tauri:options': { application: app } },
  });
  await browser.$('#create-battle').waitForExist({ timeout: 20000 });
});

after(async () => {
  await browser?.deleteSession();
});

async function beginBattle(ruleset, name, sides, panic) {
  await browser.$('#nav-battles').click();
  await browser.$('#new-ruleset').selectByAttribute('value', ruleset);
  await browser.$('#new-name').setValue(name);
  await browser.$('#new-side-a').setValue(sides[0]);
  await browser.$('#new-side-b').setValue(sides[1]);
  if (panic) {
    await browser.$('#panic-a').setValue(String(panic[0]));
    await browser.$('#panic-b').setValue(String(panic[1]));
  }
  await browser.$('#create-battle').click();
  await browser.$('#add-unit').waitForExist({ timeout: 10000 });
}

async function addUnit(label, side, stats) {
  await browser.$('#unit-label').setValue(label);
  await browser.$('#unit-side').selectByVisibleText(side);
  await browser.$('#unit-stats').setValue(JSON.stringify(stats));
  await browser.$('#add-unit-button').click();
  await until(`${label} on the roster`, async () => (await browser.$('#roster').getText()).includes(label));
}

async function unitState(id) {
  return browser.$(`.unit-row[data-unit="${id}"] [data-testid="unit-state"]`).getText();
}

/** Resolve the documented example of an action, enter dice, map the targets and apply. */
async function resolveAndApply(ruleset, action, dice, mapping, tap = false) {
  await browser.$('button[data-tab="resolve"]').click();
  await browser.$('#action').waitForExist({ timeout: 10000 });
  await browser.$('#action').selectByAttribute('value', action);
  const expected = core(ruleset, action, examples[`${ruleset}/${action}`]);
  const rows = expected.distribution.map((d) => [d.result, d.probability]);
  await until(`the odds of ${ruleset}/${action} on screen`, async () => JSON.stringify(await odds()) === JSON.stringify(rows));
  const dies = await browser.$$('#dice-box input.die');
  assert.equal(dies.length, dice.length, 'one input per die the action rolls');
  for (let i = 0; i < dice.length; i++) {
    // Typed, or tapped on the face pads as a player reads the dice off the table.
    if (tap) await browser.$(`button[data-face="${i}:${dice[i]}"]`).click();
    else await dies[i].setValue(String(dice[i]));
  }
  const withDice = core(ruleset, action, examples[`${ruleset}/${action}`], dice);
  await until('the outcome on screen', async () => (await browser.$('[data-testid="outcome-result"]').isExisting())
    && (await browser.$('#battle-resolution [data-testid="outcome-result"]').getText()) === withDice.outcome.result);
  for (const [target, id] of mapping) {
    const box = await browser.$(`input[data-map="${target}"][value="${id}"]`);
    if (!(await box.isExisting())) continue;
    await until(`${target} → #${id} ticked`, async () => {
      if (!(await box.isSelected())) await box.click();
      return box.isSelected();
    });
  }
  // Systems with break points show the chance this result reaches each (Medieval has none).
  if (ruleset !== 'medieval') {
    await until('the outlook for the break points', async () => (await browser.$('#outlook').getText()).includes('reached after this result'));
  }
  await browser.$('#apply-result').click();
  await browser.$('#applied').waitForExist({ timeout: 10000 });
  return withDice;
}

test('ITACS: a melee applied to the roster, the standing updated, then undone', async () => {
  await beginBattle('itacs', 'Cannae', ['Romans', 'Carthaginians'], [10, 8]);
  await addUnit('17.04', 'Carthaginians', { type: 'SD', count: 4 });
  await addUnit('18.05', 'Carthaginians', { type: 'SD', count: 2 });
  await addUnit('17.03', 'Romans', { type: 'PS', count: 2 });
  // 6,6 against PS: the documented melee (4 + 2 SD v 2 PS) destroys the defenders.
  const result = await resolveAndApply('itacs', 'melee', [6, 6], [['attacker', 1], ['attacker', 2], ['defender', 3]]);
  assert.equal(result.outcome.result, 'DX');
  // Before it was applied, the outlook gave the chance of each panic level being reached.
  await shot('battle-itacs-resolver-desktop');
  await browser.$('button[data-tab="roster"]').click();
  await until('the PS stack lost', async () => (await unitState(3)).includes('lost'));
  await browser.$('button[data-tab="dashboard"]').click();
  // Two PS (combat 4) lost: 2 × 2 = 4 victory points to the Carthaginians; the Romans' panic level 10 is 6 away.
  const card = await browser.$('.side-card[data-side="Romans"]');
  await until('the Romans panic gauge', async () => (await card.getText()).includes('6 to go'));
  await shot('battle-itacs-dashboard-desktop');
  await browser.$('#undo').click();
  await browser.$('button[data-tab="roster"]').click();
  await until('undone', async () => (await unitState(3)) === '2/2');
  await browser.$('#redo').click();
  await browser.$('button[data-tab="log"]').click();
  await until('the log shows the melee with its dice', async () => (await browser.$('.log').getText()).includes('melee: DX (dice 6, 6; physical dice)'));
  // The phone: the same battle at 390 px wide.
  await browser.setWindowSize(360, 780);
  await browser.$('button[data-tab="dashboard"]').click();
  await shot('battle-itacs-dashboard-phone');
  await browser.$('button[data-tab="roster"]').click();
  await shot('battle-itacs-roster-phone');
  await browser.$('button[data-tab="resolve"]').click();
  await browser.$('#battle-resolution #odds').waitForExist({ timeout: 10000 });
  // On a phone the odds stay in view at the bottom while the form is edited.
  const strip = await browser.$('#odds-strip');
  await until('the odds strip on the phone', async () => (await strip.isDisplayed()) && (await strip.getText()).includes('%'));
  await shot('battle-itacs-resolver-phone');
  await browser.setWindowSize(1280, 900);
});

test('Medieval: a combat costs SPs on the roster, then is undone', async () => {
  await beginBattle('medieval', 'Grunwald', ['Order', 'Lithuania']);
  await addUnit('Knights', 'Order', { type: 'heavy_cavalry', sp: 2, cf: 2 });
  await addUnit('Riders', 'Lithuania', { type: 'light_cavalry', sp: 2, cf: 1 });
  const before = await browser.$('#battle-screen').getText();
  assert.ok(before.includes('Knights'));
  const ids = await browser.$$('.unit-row');
  const knights = Number(await ids[0].getAttribute('data-unit'));
  const riders = Number(await ids[1].getAttribute('data-unit'));
  const result = await resolveAndApply('medieval', 'combat', [6, 6], [['attacker', knights], ['defender', riders]], true);
  assert.ok(result.outcome.effects.length > 0);
  await shot('battle-medieval-resolver-desktop');
  await browser.$('button[data-tab="roster"]').click();
  const changed = await unitState(riders);
  await browser.$('#undo').click();
  await until('undone', async () => (await unitState(riders)) === '2/2, CF 1');
  assert.notEqual(changed, '2/2, CF 1', 'the result changed the riders');
});

test('DBMM: a close combat destroys an element, the command morale follows, then undone', async () => {
  await beginBattle('dbmm', 'Hastings', ['Normans', 'Saxons']);
  await addUnit('Knights', 'Normans', { type: 'Kn', grade: 'O' });
  await addUnit('Huscarls', 'Saxons', { type: 'Bd', grade: 'O' });
  const rows = await browser.$$('.unit-row');
  const knights = Number(await rows[0].getAttribute('data-unit'));
  const huscarls = Number(await rows[1].getAttribute('data-unit'));
  // Kn 5 + 4 against Bd 2 + 4 in the Kn's bound: the Bd is quick-killed, the Kn pursue.
  const result = await resolveAndApply('dbmm', 'close_combat', [5, 2], [['unit:Kn (O)', knights], ['unit:Bd (O)', huscarls]]);
  assert.equal(result.outcome.result, 'pursue/destroyed');
  await shot('battle-dbmm-resolver-desktop');
  await browser.$('button[data-tab="roster"]').click();
  await until('the Bd destroyed on the roster', async () => (await unitState(huscarls)).includes('destroyed'));
  await browser.$('button[data-tab="dashboard"]').click();
  const saxons = await browser.$('.side-card[data-side="Saxons"]');
  await until('the command gauge', async () => (await saxons.getText()).includes('shattered'));
  await shot('battle-dbmm-dashboard-desktop');
  await browser.$('#undo').click();
  await browser.$('button[data-tab="roster"]').click();
  await until('undone', async () => !(await unitState(huscarls)).includes('destroyed'));
});

test('GTS: fire hits a unit on the roster, the army break point follows, then undone', async () => {
  await beginBattle('gts', 'Thermopylae', ['Greeks', 'Persians']);
  await addUnit('Archers', 'Greeks', { class: 'infantry', weapon: 'BW', armour: 'N', stands: 3 });
  await addUnit('Immortals', 'Persians', { class: 'infantry', weapon: 'SP', armour: 'M', stands: 3, hits: 3 });
  const rows = await browser.$$('.unit-row');
  const archers = Number(await rows[0].getAttribute('data-unit'));
  const immortals = Number(await rows[1].getAttribute('data-unit'));
  // Map every target the fire can hit to the Immortals.
  const result = await resolveAndApply('gts', 'fire', [10, 1], [['defender', immortals], ['unit:target', immortals], ['attacker', archers]]);
  await shot('battle-gts-resolver-desktop');
  await browser.$('button[data-tab="dashboard"]').click();
  const persians = await browser.$('.side-card[data-side="Persians"]');
  await until('the ABP gauge', async () => (await persians.getText()).includes('Units eliminated or in permanent Rout'));
  await shot('battle-gts-dashboard-desktop');
  await browser.$('#undo').click();
  await browser.$('button[data-tab="roster"]').click();
  await until('undone', async () => (await unitState(immortals)).startsWith('3/3'));
  assert.ok(result.outcome.result.length > 0);
});

test('bad input in the battle screens is a clear error, and nothing is written', async () => {
  await browser.$('button[data-tab="roster"]').click();
  await browser.$('#unit-label').setValue('Nobody');
  await browser.$('#unit-stats').setValue('{ "class": "dragons", "weapon": "SP", "stands": 2 }');
  await browser.$('#add-unit-button').click();
  const error = await browser.$('#add-unit-message .error');
  await error.waitForExist({ timeout: 10000 });
  assert.equal(await error.getAttribute('data-code'), 'situation.unknown_class');
  assert.ok(!(await browser.$('#roster').getText()).includes('Nobody'));
  await shot('battle-error');
});

test('settings: with app dice the resolver rolls and applies in one tap, and every toggle shows its worth', async () => {
  await browser.$('#nav-settings').click();
  await browser.$('select[data-setting="diceMode"]').selectByAttribute('value', 'app');
  await browser.$('#settings-message .ok').waitForExist({ timeout: 10000 });
  await shot('settings-desktop');
  await browser.$('#nav-battles').click();
  await browser.$('button[data-open]').waitForExist({ timeout: 10000 });
  // The newest battle first: Thermopylae (GTS).
  await browser.$('button[data-open]').click();
  await browser.$('button[data-tab="resolve"]').click();
  await browser.$('#action').selectByAttribute('value', 'fire');
  const apply = await browser.$('#apply-result');
  await until('a roll-and-apply button', async () => (await apply.isExisting()) && (await apply.getText()).startsWith('Roll'));
  await until('the worth of the toggles', async () => {
    for (const w of await browser.$$('.worth')) if ((await w.getText()).length > 0) return true;
    return false;
  });
  const rows = await browser.$$('input[data-map]');
  for (const box of rows) {
    const value = await box.getAttribute('value');
    const target = await box.getAttribute('data-map');
    if ((target === 'attacker') === (value === '1') && !(await box.isSelected())) await box.click();
  }
  await apply.click();
  const anyway = await browser.$('#apply-anyway');
  await browser.waitUntil(async () => (await browser.$('#applied').isExisting()) || (await anyway.isExisting()), { timeout: 10000 });
  if (await anyway.isExisting()) await anyway.click();
  await browser.$('#applied').waitForExist({ timeout: 10000 });
  assert.match(await browser.$('#applied').getText(), /app dice, seed \d+/);
  await browser.$('#nav-settings').click();
  await browser.$('select[data-setting="diceMode"]').selectByAttribute('value', 'physical');
  await browser.$('#settings-message .ok').waitForExist({ timeout: 10000 });
});

test('battles screen: duplicate, then delete only after a second tap', async () => {
  await browser.$('#nav-battles').click();
  await browser.$('button[data-open]').waitForExist({ timeout: 10000 });
  const count = async () => (await browser.$$('.battle-row')).length;
  const before = await count();
  await browser.$('button[data-duplicate]').click();
  await until('a copy in the list', async () => (await count()) === before + 1);
  const del = await browser.$('button[data-delete]');
  await del.click();
  assert.equal(await count(), before + 1, 'one tap deletes nothing');
  assert.equal(await del.getText(), 'Really delete?');
  await del.click();
  await until('the copy deleted', async () => (await count()) === before);
  await shot('battles-desktop');
  await browser.setWindowSize(360, 780);
  await shot('battles-phone');
  await browser.setWindowSize(1280, 900);
});
