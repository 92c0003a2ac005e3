// End to end: the real built app under Xvfb, driven through tauri-driver and WebKitWebDriver.
// An umpire enters an ITACS melee in Quick combat (the resolver without a battle); the odds on
// screen must equal the core's, as the CLI gives them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { remote } from 'webdriverio';
import { driverPort } from './support.mjs';

const app = process.env.REFEREE_APP;
const cli = process.env.REFEREE_CLI;
const shots = process.env.REFEREE_SHOTS ?? 'target/e2e';
let browser;

function core(action, situation, dice) {
  const args = ['resolve', '--ruleset', 'itacs', '--action', action];
  if (dice) args.push('--dice', dice.join(','));
  return JSON.parse(execFileSync(cli, args, { input: JSON.stringify(situation) }).toString());
}

async function onScreen() {
  const rows = await browser.$$('#odds .odds-row');
  const out = [];
  for (const row of rows) {
    out.push([await row.getAttribute('data-result'), await row.$('.exact').getText()]);
  }
  return out;
}

async function waitForOdds(expected) {
  await browser.waitUntil(async () => JSON.stringify(await onScreen()) === JSON.stringify(expected), {
    timeout: 10000,
    timeoutMsg: `screen never showed ${JSON.stringify(expected)}; it shows ${JSON.stringify(await onScreen())}`,
  });
}

before(async () => {
  assert.ok(app && cli, 'REFEREE_APP and REFEREE_CLI must name the built app and CLI');
  mkdirSync(shots, { recursive: true });
  browser = await remote({
    hostname: '127.0.0.1',
    port: driverPort,
    logLevel: 'warn',
    capabilities: {
      browserName: 'wry',
      'wdio:enforceWebDriverClassic': true,
      'tauri:options': { application: app },
    },
  });
  // The app opens on the battles screen; it is interactive once the form to begin one is there.
  await browser.$('#create-battle').waitForExist({ timeout: 20000 });
  await browser.$('#nav-quick').click();
  await browser.$('#odds .odds-row').waitForExist({ timeout: 20000 });
});

after(async () => {
  await browser?.deleteSession();
});

/** The situation form's field at a path ("attackers.0.units.0.count"), folded away or not. */
async function field(path) {
  // Fields left at their defaults wait under "Other situations": open every fold first.
  await browser.execute(() => document.querySelectorAll('#situation-form details').forEach((d) => { d.open = true; }));
  const el = await browser.$(`[data-path="${path}"]`);
  await el.waitForExist({ timeout: 10000 });
  return el;
}

/** Types a value into a field the way the umpire does: the old value cleared, the new one in. */
async function setField(path, value) {
  const el = await field(path);
  await browser.execute((p, v) => {
    const input = document.querySelector(`[data-path="${p}"]`);
    input.value = v;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, path, String(value));
  return el;
}

/** An element's text, shown or folded away (the odds fold under their heading once the dice are in). */
async function text(selector) {
  return browser.execute((sel) => document.querySelector(sel)?.textContent?.trim() ?? null, selector);
}

async function chooseAction(id) {
  await browser.$('#action').selectByAttribute('value', id);
  await browser.$('#odds .odds-row').waitForExist({ timeout: 10000 });
}

async function typeDice(text) {
  const typed = await browser.$('#dice-typed');
  await typed.setValue(text);
}

test('an ITACS melee entered in the window shows the core exact odds and the dice result', async () => {
  // Quick combat is the resolver without a battle: any system, any action, its situation form.
  await browser.$('#quick-ruleset').selectByAttribute('value', 'itacs');
  await browser.waitUntil(async () => (await browser.$('#action').getValue()) === 'melee', { timeout: 10000 });
  await chooseAction('melee');
  // The rule's example opens it; make it four SD (a full hex, 4.3.3) attacking two PS in woods, from the front.
  await browser.$('[data-remove="attackers.1"]').click();
  await setField('attackers.0.units.0.count', 4);
  await (await field('defenders.0.terrain')).selectByAttribute('value', 'woods');

  const situation = {
    attackers: [{ label: '17.04', units: [{ type: 'SD', count: 4 }] }],
    defenders: [{ label: '17.03', terrain: 'woods', units: [{ type: 'PS', count: 2 }] }],
  };
  const expected = core('melee', situation);
  const rows = expected.distribution.map((d) => [d.result, d.probability]);
  assert.equal(rows.length, 7);
  await waitForOdds(rows);
  // 16:8 → 2:1 (+1), woods −2, B attacking A +2: the total the core gives is on screen.
  assert.equal(expected.total_modifier, 1);
  await browser.waitUntil(async () => (await text('[data-testid="total-modifier"]')) === '+1', { timeout: 10000 });

  await typeDice('65');
  const withDice = core('melee', situation, [6, 5]);
  await browser.waitUntil(async () => (await text('.outcome-result .code')) !== null, { timeout: 10000 });
  assert.equal(await text('.outcome-result .code'), withDice.outcome.result);
  assert.equal(await browser.$('#result-words').getAttribute('data-result'), 'DX');
  assert.equal(withDice.outcome.result, 'DX');
  // Without a battle there is no roster to apply to: no Apply, the dice and the odds only.
  assert.equal(await browser.$('#apply-result').isExisting(), false);
  await browser.pause(500); // the frame after the text lands
  await browser.saveScreenshot(`${shots}/itacs-melee.png`);
});

test('missile combat: the 4.2.8 example in the window', async () => {
  await chooseAction('missile');
  // The example's LB at range 2 on MS in mud, off the road.
  await (await field('target.road')).click();
  await typeDice('52');
  await browser.waitUntil(async () => (await text('[data-testid="total-modifier"]')) === '-1', { timeout: 10000 });
  await browser.waitUntil(async () => (await text('.outcome-result .code')) === 'DD', { timeout: 10000 });

  // 5.3.4: with a D marker already on the MS, a DD routs them: the chained forecast on screen is
  // the core's.
  await setField('target.d_markers', 1);
  const expected = core('missile', {
    firing_hexes: [{ label: '27.15', range: 2, units: [{ type: 'LB', count: 2 }] }],
    target: { terrain: 'mud', d_markers: 1, units: [{ type: 'MS', count: 2 }] },
  });
  const routs = expected.forecast.find((c) => c.label === 'The target hex routs');
  assert.ok(routs, 'the core forecasts a rout');
  await browser.waitUntil(async () => (await text('#forecast'))?.includes(routs.probability), { timeout: 10000 });
  await browser.saveScreenshot(`${shots}/itacs-missile-forecast.png`);
  await setField('target.d_markers', 0);
});

test('the app rolls the dice, shows the seed, and the outcome follows the faces', async () => {
  await browser.$('#battle-roll').click();
  await browser.waitUntil(async () => (await browser.$('#battle-seed').getText()).includes('seed'), { timeout: 10000 });
  const faces = [...(await browser.$('#dice-typed').getValue())].map(Number);
  assert.equal(faces.length, 2);
  for (const f of faces) assert.ok(f >= 1 && f <= 6, `face ${f}`);
  await browser.waitUntil(async () => (await text('.outcome-head')) !== null, { timeout: 10000 });
  const head = await text('.outcome-head');
  assert.match(head, new RegExp(`Dice ${faces[0]} \\+ ${faces[1]} = ${faces[0] + faces[1]}`));
});

test('bad input shows a clear error, not a crash', async () => {
  await chooseAction('melee');
  const input = await setField('defenders.0.units.0.combat', 'lots');
  const error = await browser.$('#battle-resolution .error');
  await error.waitForExist({ timeout: 10000 });
  assert.equal(await error.getAttribute('data-code'), 'situation.invalid_strength');
  assert.match(await error.getText(), /combat strength/i);
  await browser.waitUntil(async () => (await input.getAttribute('aria-invalid')) === 'true', { timeout: 10000 });
  await browser.pause(300);
  await browser.saveScreenshot(`${shots}/itacs-error.png`);
  await setField('defenders.0.units.0.combat', '');
});

test('settings: a switchable ruling put in force refuses a melee below 1:2 (R-ITACS-1), taken out resolves it again', async () => {
  const forbid = 'input[data-house-rule="rulesets/switches/itacs-forbid-below-lowest-column.toml"]';
  const toggle = async (on) => {
    await browser.$('#nav-settings').click();
    const box = await browser.$(forbid);
    await box.waitForExist({ timeout: 10000 });
    assert.equal(await box.isSelected(), !on);
    await box.click();
    await browser.waitUntil(async () => (await browser.$('#settings-message').getText()).includes(on ? 'in force' : 'left out'), { timeout: 10000 });
    assert.equal(await browser.$(forbid).isSelected(), on);
  };
  await toggle(true);
  assert.match(await browser.$('#settings-screen').getText(), /Tactical System: the rules, with R-ITACS-1 /);
  await browser.saveScreenshot(`${shots}/settings-rulings.png`);
  await browser.$('#nav-quick').click();
  await chooseAction('melee');
  await setField('defenders.0.units.0.combat', '40');
  const error = await browser.$('#battle-resolution .error');
  await error.waitForExist({ timeout: 10000 });
  assert.equal(await error.getAttribute('data-code'), 'situation.below_lowest_column');
  assert.match(await error.getText(), /R-ITACS-1/);
  await toggle(false);
  assert.doesNotMatch(await browser.$('#settings-screen').getText(), /Tactical System: the rules, with R-ITACS-1/);
  await browser.$('#nav-quick').click();
  await browser.$('#odds .odds-row').waitForExist({ timeout: 10000 });
  assert.match(await browser.$('#battle-resolution').getText(), /below the lowest column/);
});
