// End to end: a square on the roster in the real window, at 1280×800 and at 390×844 (2.6.1,
// R-ITACS-43, R-ITACS-44): "Form square" on the row of 4 pikes (a double tap forms it once), a D
// marker breaks it and the row is marked to restack, the recovery lifts the marker, the row's
// restack move opens the move form, 2 of the 4 units move to the next hex (a double tap on Apply
// applies once), and the mark is gone: 2 pikes stay, "Pikes 2" stand in the new hex.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, connect, shot, size, tap, until } from './support.mjs';
import { addUnit, beginBattle, hexOf as hexIn, logInForce as logLines, roster, rosterIds } from './turn-flow.mjs';

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

const logInForce = () => logLines(browser);
const hexOf = (id) => hexIn(browser, id);

/** Two taps in one gesture: the second lands where the first did, whatever now stands there. */
async function doubleTap(selector) {
  const el = await browser.$(selector);
  await el.waitForExist({ timeout: 10000 });
  await browser.execute((e) => e.scrollIntoView({ block: 'center' }), el);
  const { x, y } = await browser.execute((e) => {
    const r = e.getBoundingClientRect();
    return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) };
  }, el);
  await el.click();
  await browser.pause(120);
  await browser.execute((px, py) => document.elementFromPoint(px, py)?.click(), x, y);
}

/** The battle begun at the desktop size (its forms), then walked at the size given. */
async function walkTheSquare(label, dims) {
  await beginBattle(browser, 'itacs', `The square (${label})`, ['Carthage', 'Rome']);
  await addUnit(browser, 'Pikes', 'Carthage', { type: 'PP', class: 'A', count: 4, movement: 3, hex: '12.05' });
  await addUnit(browser, 'Knights', 'Rome', { type: 'HC', count: 2, hex: '20.04' });
  await size(browser, dims);
  const id = await rosterIds(browser);
  const logBefore = (await logInForce()).length;

  // Form square, tapped twice in one gesture: formed once.
  await tap(browser, 'button[data-tab="roster"]');
  await doubleTap(`#roster .unit-row[data-unit="${id.Pikes}"] button[aria-label="Form square: Pikes"]`);
  await until(browser, 'the square on the row', async () => (await roster(browser)).Pikes === '4/4, square');
  await browser.pause(700);
  assert.equal((await roster(browser)).Pikes, '4/4, square', 'the second tap did not leave the square');
  assert.equal((await logInForce()).length, logBefore + 1, 'one log entry for the double tap');

  // A D marker breaks it: the row marked to restack (2.6.1).
  await tap(browser, 'button[data-tab="roster"]');
  await tap(browser, `#roster .unit-row[data-unit="${id.Pikes}"] button[aria-label="+D: Pikes"]`);
  const marked = '4/4, 1 D, broken square: must restack to the stacking limit at its next movement (2.6.1)';
  await until(browser, 'the mark on the row', async () => (await roster(browser)).Pikes === marked);
  await shot(browser, `itacs-square-marked-${label}`);
  // The marker lifted (the recovery phase's, by hand): the mark stays until the units move.
  await tap(browser, `#roster .unit-row[data-unit="${id.Pikes}"] button[aria-label="−D: Pikes"]`);
  await until(browser, 'the marker lifted, the mark kept', async () => (await roster(browser)).Pikes === '4/4, broken square: must restack to the stacking limit at its next movement (2.6.1)');

  // The row's restack move: 2 of the 4 into 12.06.
  const logBeforeMove = (await logInForce()).length;
  await tap(browser, 'button[data-tab="roster"]');
  await tap(browser, `#roster button[data-open-move="${id.Pikes}"]`);
  const hexes = await browser.$('#move-path-hexes');
  await hexes.waitForExist({ timeout: 10000 });
  await hexes.setValue('12.06');
  await browser.keys('Enter');
  const moving = await browser.$('#move-units-moving');
  await moving.waitForExist({ timeout: 10000 });
  // Bad input first: more units than the entry has is a sentence beside the field.
  const typeMoving = (value) => browser.execute((e, v) => {
    e.value = v;
    e.dispatchEvent(new Event('input', { bubbles: true }));
    e.dispatchEvent(new Event('change', { bubbles: true }));
  }, moving, value);
  await browser.execute((e) => e.scrollIntoView({ block: 'center' }), moving);
  await typeMoving('5');
  await until(browser, 'the refusal beside the field', async () => (await browser.$('#move-units-moving-refused').isExisting())
    && (await browser.$('#move-units-moving-refused').getText()) === 'Units moving: from 1 to 4 (Pikes has 4 units).');
  await typeMoving('2');
  await until(browser, 'the move of 2 allowed', async () => !(await browser.$('#move-units-moving-refused').isExisting())
    && (await browser.$$('#battle-resolution [data-testid="outcome-result"]')).length > 0);
  await shot(browser, `itacs-square-split-move-${label}`);
  const apply = await browser.$('#apply-result');
  await until(browser, 'the move: Apply ready', async () => apply.isEnabled());
  await apply.click();
  await apply.click().catch(() => undefined); // a double tap applies once
  await browser.$('#applied').waitForExist({ timeout: 10000 });

  const words = await roster(browser);
  assert.equal(words.Pikes, '2/2', 'the 2 that stay, the mark gone');
  assert.equal(words['Pikes 2'], '2/2', 'the 2 that moved, an entry of their own');
  const after = await rosterIds(browser);
  assert.equal(await hexOf(after.Pikes), 'Hex 12.05');
  assert.equal(await hexOf(after['Pikes 2']), 'Hex 12.06');
  assert.equal(await browser.$(`#roster button[data-open-move="${id.Pikes}"]`).isExisting(), false);
  assert.equal((await logInForce()).length, logBeforeMove + 1, 'one log entry for the move');
  await tap(browser, 'button[data-tab="roster"]');
  await shot(browser, `itacs-square-restacked-${label}`);
}

test('a square formed, broken and restacked at 1280×800', async () => {
  await walkTheSquare('desktop', DESKTOP);
});

test('the same at 390×844', async () => {
  try {
    await walkTheSquare('phone', PHONE);
  } finally {
    await size(browser, DESKTOP);
  }
});
