// End to end: one full combat per rule system in the real app window — begin a battle, add units
// from the ruleset's lists, resolve with the documented situation (odds equal to the core's, as
// the CLI gives them), enter the dice, apply the result to the roster, undo it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, core, shot, until } from './support.mjs';

const examples = JSON.parse(readFileSync('ui/src/generated/examples.json', 'utf8'));
let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

async function odds() {
  const out = [];
  for (const row of await browser.$$('#battle-resolution #odds .odds-row')) {
    out.push([await row.getAttribute('data-result'), await row.$('.exact').getText()]);
  }
  return out;
}

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

/** A field of the unit form set as an umpire would: a code typed into a searchable list picks
 * it; a short list is chosen from; a number typed. Answers the interactions it took. */
async function setField(key, value) {
  const el = await browser.$(`#add-unit #unit-${key}`);
  await el.waitForExist({ timeout: 10000 });
  const tag = await el.getTagName();
  if (tag === 'select') await el.selectByAttribute('value', String(value));
  else if ((await el.getAttribute('type')) === 'checkbox') { if ((await el.isSelected()) !== value) await el.click(); }
  else await el.setValue(String(value));
  return 1;
}

async function addUnit(label, side, stats) {
  await browser.$('#unit-label').setValue(label);
  await browser.$('#unit-side').selectByVisibleText(side);
  for (const [key, value] of Object.entries(stats)) await setField(key, value);
  await browser.$('#add-unit-button').click();
  await until(browser, `${label} on the roster`, async () => (await browser.$('#roster').getText()).includes(label));
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
  await until(browser, `the odds of ${ruleset}/${action} on screen`, async () => JSON.stringify(await odds()) === JSON.stringify(rows));
  const dies = await browser.$$('#dice-box input.die');
  assert.equal(dies.length, dice.length, 'one input per die the action rolls');
  for (let i = 0; i < dice.length; i++) {
    // Typed, or tapped on the face pads as a player reads the dice off the table.
    if (tap) await browser.$(`button[data-face="${i}:${dice[i]}"]`).click();
    else await dies[i].setValue(String(dice[i]));
  }
  const withDice = core(ruleset, action, examples[`${ruleset}/${action}`], dice);
  await until(browser, 'the outcome on screen', async () => (await browser.$('#battle-resolution [data-testid="outcome-result"]').isExisting())
    && (await browser.$('#battle-resolution [data-testid="outcome-result"]').getText()) === withDice.outcome.result);
  for (const [target, id] of mapping) {
    const box = await browser.$(`input[data-map="${target}"][value="${id}"]`);
    if (!(await box.isExisting())) continue;
    await until(browser, `${target} → #${id} ticked`, async () => {
      if (!(await box.isSelected())) await box.click();
      return box.isSelected();
    });
  }
  // Systems with break points show the chance this result reaches each (Medieval has none).
  if (ruleset !== 'medieval') {
    await until(browser, 'the outlook for the break points', async () => (await browser.$('#outlook').getText()).includes('after this result'));
  }
  const apply = await browser.$('#apply-result');
  await apply.click();
  await browser.$('#applied').waitForExist({ timeout: 10000 });
  // Applied once: the button says so and does not apply again.
  assert.equal(await apply.getText(), 'Applied ✓');
  assert.equal(await apply.isEnabled(), false);
  return withDice;
}

test('adding 6 × SD to an ITACS roster takes at most five interactions', async () => {
  await beginBattle('itacs', 'Count the taps', ['Romans', 'Carthaginians']);
  let n = 0;
  n += await setField('type', 'SD');
  n += await setField('quantity', 6).catch(async () => { await browser.$('#unit-quantity').setValue('6'); return 1; });
  await browser.$('#add-unit-button').click();
  n += 1;
  await until(browser, 'six SD on the roster', async () => (await browser.$$('#roster .unit-row')).length === 6);
  const labels = [];
  for (const row of await browser.$$('#roster .unit-row strong')) labels.push(await row.getText());
  assert.deepEqual(labels, ['SD 1', 'SD 2', 'SD 3', 'SD 4', 'SD 5', 'SD 6']);
  console.log(`roster: 6 × SD added in ${n} interactions`);
  assert.ok(n <= 5, `${n} interactions`);
});

test('ITACS: a melee applied to the roster, the standing updated, then undone', async () => {
  await beginBattle('itacs', 'Cannae', ['Romans', 'Carthaginians'], [10, 8]);
  await addUnit('17.04', 'Carthaginians', { type: 'SD', count: 4 });
  await addUnit('18.05', 'Carthaginians', { type: 'SD', count: 2 });
  await addUnit('17.03', 'Romans', { type: 'PS', count: 2 });
  const ids = [];
  for (const row of await browser.$$('.unit-row')) ids.push(Number(await row.getAttribute('data-unit')));
  const [sd4, sd2, ps] = [...ids].sort((a, b) => a - b);
  // 6,6 against PS: the documented melee (4 + 2 SD v 2 PS) destroys the defenders.
  const result = await resolveAndApply('itacs', 'melee', [6, 6], [['attacker', sd4], ['attacker', sd2], ['defender', ps]]);
  assert.equal(result.outcome.result, 'DX');
  await shot(browser, 'battle-itacs-resolver-desktop');
  await browser.$('button[data-tab="roster"]').click();
  await until(browser, 'the PS stack lost', async () => (await unitState(ps)).includes('lost'));
  await browser.$('button[data-tab="dashboard"]').click();
  // Two PS (combat 4) lost: 2 × 2 = 4 victory points to the Carthaginians; the Romans' panic level 10 is 6 away.
  const card = await browser.$('.side-card[data-side="Romans"]');
  await until(browser, 'the Romans panic gauge', async () => /\b6\b/.test(await card.getText()) && (await card.getText()).includes('Panic'));
  await shot(browser, 'battle-itacs-dashboard-desktop');
  const undo = await browser.$('#undo');
  assert.match(await undo.getAttribute('aria-label'), /^Undo: .*melee/i);
  await undo.click();
  await browser.$('button[data-tab="roster"]').click();
  await until(browser, 'undone', async () => (await unitState(ps)) === '2/2');
  await browser.$('#redo').click();
  await browser.$('button[data-tab="log"]').click();
  await until(browser, 'the log shows the melee with its dice', async () => (await browser.$('.log').getText()).includes('DX (dice 6, 6; physical dice)'));
});

test('Medieval: a combat costs SPs on the roster, then is undone', async () => {
  await beginBattle('medieval', 'Grunwald', ['Order', 'Lithuania']);
  await addUnit('Knights', 'Order', { type: 'heavy_cavalry', sp: 2, cf: 2 });
  await addUnit('Riders', 'Lithuania', { type: 'light_cavalry', sp: 2, cf: 1 });
  const rows = await browser.$$('.unit-row');
  const knights = Number(await rows[0].getAttribute('data-unit'));
  const riders = Number(await rows[1].getAttribute('data-unit'));
  const result = await resolveAndApply('medieval', 'combat', [6, 6], [['attacker', knights], ['defender', riders]], true);
  assert.ok(result.outcome.effects.length > 0);
  await shot(browser, 'battle-medieval-resolver-desktop');
  await browser.$('button[data-tab="roster"]').click();
  const changed = await unitState(riders);
  await browser.$('#undo').click();
  await until(browser, 'undone', async () => (await unitState(riders)) === '2/2, CF 1');
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
  await shot(browser, 'battle-dbmm-resolver-desktop');
  await browser.$('button[data-tab="roster"]').click();
  await until(browser, 'the Bd destroyed on the roster', async () => (await unitState(huscarls)).includes('destroyed'));
  await browser.$('button[data-tab="dashboard"]').click();
  const saxons = await browser.$('.side-card[data-side="Saxons"]');
  await until(browser, 'the command gauge', async () => (await saxons.getText()).includes('shattered'));
  await shot(browser, 'battle-dbmm-dashboard-desktop');
  await browser.$('#undo').click();
  await browser.$('button[data-tab="roster"]').click();
  await until(browser, 'undone', async () => !(await unitState(huscarls)).includes('destroyed'));
});

test('GTS: fire hits a unit on the roster, the army break point follows, then undone', async () => {
  await beginBattle('gts', 'Thermopylae', ['Greeks', 'Persians']);
  await addUnit('Archers', 'Greeks', { class: 'infantry', weapon: 'BW', armour: 'N', stands: 3 });
  await addUnit('Immortals', 'Persians', { class: 'infantry', weapon: 'SP', armour: 'M', stands: 3 });
  const rows = await browser.$$('.unit-row');
  const archers = Number(await rows[0].getAttribute('data-unit'));
  const immortals = Number(await rows[1].getAttribute('data-unit'));
  // Map every target the fire can hit to the Immortals.
  const result = await resolveAndApply('gts', 'fire', [10, 1], [['defender', immortals], ['unit:target', immortals], ['attacker', archers]]);
  await shot(browser, 'battle-gts-resolver-desktop');
  await browser.$('button[data-tab="dashboard"]').click();
  const persians = await browser.$('.side-card[data-side="Persians"]');
  await until(browser, 'the army break gauge', async () => (await persians.$('.gauge').isExisting()));
  await shot(browser, 'battle-gts-dashboard-desktop');
  await browser.$('#undo').click();
  await browser.$('button[data-tab="roster"]').click();
  await until(browser, 'undone', async () => (await unitState(immortals)).startsWith('3/3'));
  assert.ok(result.outcome.result.length > 0);
});

test('bad input in the unit form is a clear sentence beside the field, and nothing is written', async () => {
  await browser.$('button[data-tab="roster"]').click();
  const before = (await browser.$$('.unit-row')).length;
  await browser.$('#unit-label').setValue('Nobody');
  await browser.$('#add-unit #unit-weapon').setValue('dragonfire');
  await browser.$('#add-unit-button').click();
  const error = await browser.$('#add-unit .field-error');
  await error.waitForExist({ timeout: 10000 });
  assert.match(await error.getText(), /Pick one from the list/);
  assert.equal(await browser.$('#add-unit #unit-weapon').getAttribute('aria-invalid'), 'true');
  assert.equal((await browser.$$('.unit-row')).length, before);
  assert.ok(!(await browser.$('#roster').getText()).includes('Nobody'));
  await shot(browser, 'battle-error');
});

test('settings: with app dice the resolver rolls and applies in one tap, and every toggle shows its worth', async () => {
  await browser.$('#nav-settings').click();
  await browser.$('select[data-setting="diceMode"]').selectByAttribute('value', 'app');
  await browser.$('#settings-message .ok').waitForExist({ timeout: 10000 });
  await browser.$('#nav-battles').click();
  await browser.$('button[data-open]').waitForExist({ timeout: 10000 });
  // The newest battle first: Thermopylae (GTS).
  await browser.$('button[data-open]').click();
  await browser.$('button[data-tab="resolve"]').click();
  await browser.$('#action').selectByAttribute('value', 'fire');
  const apply = await browser.$('#apply-result');
  await until(browser, 'a roll-and-apply button', async () => (await apply.isExisting()) && (await apply.getText()).startsWith('Roll'));
  await until(browser, 'the worth of the toggles', async () => {
    for (const w of await browser.$$('.worth')) if ((await w.getText()).length > 0) return true;
    return false;
  });
  // The archers are the attacker: the fire's hits land on whoever the dice say.
  for (const box of await browser.$$('input[data-map="attacker"]')) {
    if (!(await box.isSelected()) && (await box.parentElement().getText()).includes('Archers')) await box.click();
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
  await until(browser, 'a copy in the list', async () => (await count()) === before + 1);
  const del = await browser.$('button[data-delete]');
  await del.click();
  assert.equal(await count(), before + 1, 'one tap deletes nothing');
  assert.equal(await del.getText(), 'Really delete?');
  await del.click();
  await until(browser, 'the copy deleted', async () => (await count()) === before);
});
