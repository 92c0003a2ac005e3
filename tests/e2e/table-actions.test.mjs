// End to end, issue 35's actions in the real window: the result is always the throw in the dice
// box (cleared or retyped, Apply applies the new throw, checked on the log); the pads of every
// die at both sizes; a GTS recoil rolled and entered per unit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, connect, shot, size, tap, until } from './support.mjs';

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

/** A battle begun from a preset, its sides renamed when names are given. */
async function beginPreset(ruleset, preset, names) {
  await browser.$('#nav-battles').click();
  await browser.$('#new-ruleset').selectByAttribute('value', ruleset);
  const list = await browser.$('#new-preset');
  await until(browser, `the ${ruleset} presets listed`, async () => (await list.$$(`option[value="${preset}"]`)).length === 1);
  await list.selectByAttribute('value', preset);
  await browser.$('#preset-preview').waitForExist({ timeout: 10000 });
  if (names) {
    await browser.$('#new-side-a').setValue(names[0]);
    await browser.$('#new-side-b').setValue(names[1]);
  }
  await browser.$('#create-battle').click();
  await browser.$('#standing').waitForExist({ timeout: 10000 });
}

/** The first unit of each side picked on the dashboard, and Resolve. */
async function pickAndResolve() {
  await tap(browser, 'button[data-tab="dashboard"]');
  await until(browser, 'a unit strip per side', async () => (await browser.$$('.unit-strip')).length >= 2);
  const strips = await browser.$$('.unit-strip');
  await (await strips[0].$('button')).click();
  await (await strips[1].$('button')).click();
  await browser.$('#resolve-picked').click();
  await until(browser, 'the odds in the bar', async () => (await browser.$$('#sticky-bar .likely')).length > 0);
}

/** What the dice box, the result and Apply show now. */
async function shown() {
  return browser.execute(() => ({
    box: document.querySelector('#dice-typed')?.value,
    help: document.querySelector('#dice-typed-help')?.textContent?.trim(),
    result: document.querySelector('#battle-resolution [data-testid="outcome-result"]')?.getAttribute('data-result') ?? null,
    apply: document.querySelector('#apply-result')?.textContent?.trim(),
    enabled: !document.querySelector('#apply-result')?.disabled,
  }));
}

async function typeDice(text) {
  const box = await browser.$('#dice-typed');
  await box.clearValue();
  // clearValue sets the value without an input event in WebKit: one is sent, as typing would.
  await browser.execute(() => document.querySelector('#dice-typed').dispatchEvent(new Event('input', { bubbles: true })));
  if (text) await box.setValue(text);
}

/** A throw typed and its result applied, as the umpire does it. */
async function applyThrow(dice) {
  await typeDice(dice);
  await until(browser, `the result of ${dice}`, async () => (await shown()).enabled && (await shown()).result !== null);
  await tap(browser, '#apply-result');
  await until(browser, 'applied', async () => (await shown()).apply === 'Applied ✓');
}

/** The newest log entries, as the log screen lists them (newest first). */
async function logTexts() {
  await tap(browser, 'button[data-tab="log"]');
  await browser.$('.log .log-entry').waitForExist({ timeout: 10000 });
  const out = [];
  for (const e of await browser.$$('.log .log-entry')) out.push(await e.getText());
  return out;
}

test('the result is the throw in the dice box: cleared, wrong or retyped, Apply applies what is shown', async () => {
  await beginPreset('itacs', 'itacs-melee-example');
  await pickAndResolve();
  await typeDice('66');
  await until(browser, 'the result of 6, 6', async () => (await shown()).result !== null);
  const first = await shown();
  assert.equal(first.enabled, true);
  // Cleared: no result on screen, and nothing to apply.
  await typeDice('');
  await until(browser, 'the result gone with the dice', async () => (await shown()).result === null);
  assert.equal((await shown()).enabled, false, 'Apply is disabled without dice');
  // "9" over "66": no d6 shows it; said beside the box.
  await typeDice('9');
  await until(browser, 'the 9 refused', async () => /9 is not one of its faces/.test((await shown()).help));
  assert.deepEqual([(await shown()).result, (await shown()).enabled], [null, false]);
  // Three dice for two: refused beside the box, nothing applied.
  await typeDice('4 3 2');
  await until(browser, 'three dice refused', async () => (await shown()).help === 'That is 3 dice; this throw is 2 dice, e.g. 34.');
  assert.equal((await shown()).enabled, false);
  await shot(browser, 'dice-refused');
  // A new throw, applied: the log has that throw.
  await applyThrow('12');
  let log = await logTexts();
  assert.match(log[0], /dice 1, 2/, `the applied throw in the log: ${log[0]}`);
  // Undone, the dice retyped: Apply applies the new throw, not the old one.
  await tap(browser, 'button[data-tab="resolve"]');
  await browser.pause(1100);
  await tap(browser, '#undo-applied');
  await until(browser, 'Apply again', async () => (await shown()).apply !== 'Applied ✓');
  await typeDice('');
  await until(browser, 'the result gone with the dice', async () => (await shown()).result === null);
  await applyThrow('34');
  log = await logTexts();
  assert.match(log[0], /dice 3, 4/, `the new throw applied: ${log[0]}`);
  assert.ok(log.some((e) => /dice 1, 2/.test(e) && /undone/.test(e)), `the first throw undone: ${log.join(' | ')}`);
  assert.equal(log.filter((e) => /dice 3, 4/.test(e)).length, 1, 'applied once');
});

test('the pads of every die show at both sizes; a GTS recoil is rolled and entered per unit', async () => {
  await beginPreset('gts', 'gts-cavalry-melee');
  await pickAndResolve();
  for (const dims of [DESKTOP, PHONE]) {
    await size(browser, dims);
    const pads = await browser.$$('#sticky-bar .pad');
    assert.ok(pads.length >= 2, `a pad per die at ${dims.join('×')}`);
    for (const pad of pads) {
      const face = await pad.$('.face, input.own');
      assert.ok(await face.isDisplayed(), `${await pad.getAttribute('aria-label')}: its faces shown at ${dims.join('×')}`);
    }
    await shot(browser, `dice-pads-${dims[0] === PHONE[0] ? 'phone' : 'desktop'}`);
  }
  await size(browser, DESKTOP);
  // The recoil: a d100 for each unit, named by it; typed per unit, and rolled by the app.
  await browser.$('#action').selectByAttribute('value', 'recoil');
  await until(browser, 'a d100 per unit', async () => (await browser.$$('#sticky-bar input.own')).length === 2);
  const names = [];
  for (const box of await browser.$$('#sticky-bar input.own')) names.push(await box.getAttribute('aria-label'));
  assert.deepEqual(names, ['Persian cavalry’s d100', 'Greek cavalry’s d100']);
  const boxes = await browser.$$('#sticky-bar input.own');
  await boxes[0].setValue('20');
  await boxes[1].setValue('95');
  await until(browser, 'the recoil resolved from the typed dice', async () => (await shown()).result !== null);
  assert.equal((await shown()).box, '20 95');
  await tap(browser, '#battle-roll');
  await until(browser, 'the app rolled', async () => /seed/.test(await browser.$('#battle-seed').getText()));
  await until(browser, 'the rolled recoil resolved', async () => (await shown()).result !== null);
  assert.equal(await browser.$('#battle-resolution .error').isExisting(), false, 'no refusal');
  await shot(browser, 'gts-recoil-rolled');
});
