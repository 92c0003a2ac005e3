// End to end, issue 35's actions in the real window: the result is always the throw in the dice
// box (cleared or retyped, Apply applies the new throw, checked on the log); the pads of every
// die at both sizes; a GTS recoil rolled and entered per unit, its follow-up dice asked in turn.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, connect, shot, size, tap, until } from './support.mjs';
import { beginPreset as begin } from './turn-flow.mjs';

const beginPreset = (ruleset, preset, names) => begin(browser, ruleset, preset, names);

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

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
  assert.deepEqual(names, ['Persian cavalry’s d100 · recoil test', 'Greek cavalry’s d100 · recoil test']);
  // Each d100 typed whole (as pasted): keystroke by keystroke, "9" of "95" is already a throw
  // the chain answers, and the box it was typed in is drawn again before the "5".
  await browser.execute(() => {
    const boxes = document.querySelectorAll('#sticky-bar input.own');
    for (const [box, face] of [[boxes[0], '20'], [boxes[1], '95']]) {
      box.value = face;
      box.dispatchEvent(new Event('input', { bubbles: true }));
    }
  });
  // Then, in turn, whatever the d100s call for (7.2, 7.3): each next d10 on a pad of its own.
  for (let i = 2; (await shown()).result === null; i += 1) {
    await until(browser, `die ${i + 1} asked, or the result`, async () => (await shown()).result !== null || browser.$(`#sticky-bar button[data-face="${i}:1"]`).isExisting());
    if ((await shown()).result === null) await tap(browser, `#sticky-bar button[data-face="${i}:1"]`);
  }
  assert.match((await shown()).box, /^20 95/);
  await tap(browser, '#battle-roll');
  await until(browser, 'the app rolled', async () => /seed/.test(await browser.$('#battle-seed').getText()));
  await until(browser, 'the rolled recoil resolved', async () => (await shown()).result !== null);
  assert.equal(await browser.$('#battle-resolution .error').isExisting(), false, 'no refusal');
  await shot(browser, 'gts-recoil-rolled');
});

test('a preset begun under other side names; no verdict before the first result and no banner without a threshold; the log by turn, and undo back to an entry', async () => {
  await beginPreset('itacs', 'itacs-melee-example', ['Romans', 'Gauls']);
  const sides = [];
  for (const h of await browser.$$('.strip-side')) sides.push(await h.getText());
  assert.deepEqual(sides, ['Romans', 'Gauls']);
  assert.ok((await browser.$$('.unit-strip button')).length >= 2, 'the preset’s units joined the renamed sides');
  assert.equal(await browser.$('#verdicts').isExisting(), false, 'no verdict before any fight');
  // Turn 1: a fight, its result applied (5 at 1:1: the defender disrupted).
  await pickAndResolve();
  await applyThrow('23');
  await tap(browser, 'button[data-tab="dashboard"]');
  await browser.$('#verdicts').waitForExist({ timeout: 10000 });
  assert.equal(await browser.$('#alerts').isExisting(), false, 'no threshold crossed: no banner');
  // Turn 2: the same fight again.
  await tap(browser, '#next-turn');
  await until(browser, 'turn 2', async () => (await browser.$('#turn').getText()) === '2');
  await pickAndResolve();
  await applyThrow('23');
  // The log of turn 2 alone.
  await tap(browser, 'button[data-tab="log"]');
  await browser.$('#log-turn').selectByVisibleText('Turn 2');
  await until(browser, 'turn 2 alone', async () => (await browser.$$('.log .log-entry')).length === 2);
  const turn2 = [];
  for (const e of await browser.$$('.log .log-entry')) turn2.push(await e.getText());
  assert.ok(turn2.some((t) => /^.*Turn 2/.test(t)) && turn2.some((t) => /dice 2, 3/.test(t)), turn2.join(' | '));
  assert.ok(!turn2.some((t) => /Added/.test(t)), 'no entry of turn 1');
  await browser.$('#log-turn').selectByVisibleText('Every turn');
  await until(browser, 'every turn', async () => (await browser.$$('.log .log-entry')).length > 2);
  await shot(browser, 'log-by-turn');
  // Undo back to the last unit added: both results go in one step, the turn stays.
  const entries = await browser.$$('.log .log-entry');
  let target;
  for (const e of entries) if (!target && /Added/.test(await e.getText())) target = e;
  assert.ok(target, 'an entry of a unit added');
  await (await target.$('button[data-undo-to]')).click();
  await browser.$('#undo-to-panel').waitForExist({ timeout: 10000 });
  assert.match(await browser.$('#undo-to-panel').getText(), /takes back 2 changes/);
  await shot(browser, 'undo-to-confirm');
  await tap(browser, '#confirm-undo-to');
  const logNow = async () => {
    const texts = [];
    for (const e of await browser.$$('.log .log-entry')) texts.push(await e.getText());
    return texts;
  };
  await until(browser, 'both results undone', async () => (await logNow()).filter((t) => /dice 2, 3/.test(t) && /undone/.test(t)).length === 2).catch(async (e) => {
    await shot(browser, 'failed-undo-to');
    throw new Error(`${e.message}; the log: ${(await logNow()).join(' | ')}; the screen: ${(await browser.$('main, body').getText()).slice(0, 400)}`);
  });
  await tap(browser, 'button[data-tab="dashboard"]');
  await until(browser, 'no verdict once every result is undone', async () => !(await browser.$('#verdicts').isExisting()));
});
