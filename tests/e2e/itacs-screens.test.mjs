// End to end: the ITACS screens a turn touches, read as an umpire would at 1280×800 and 390×844,
// each checked for developer text and accessibility: a unit whose type gives no strength refused
// beside its field, the roster by hex with "Move to…", the dashboard's strips by hex, and a melee
// opened from a stack with its chips.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkScreen, connect, tap, until } from './support.mjs';
import { addUnit, fillUnit } from './turn-flow.mjs';

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

const fill = (...args) => fillUnit(browser, ...args);
const add = (...args) => addUnit(browser, ...args);

test('the ITACS roster, dashboard and resolver of a turn, at both sizes, in words', async () => {
  await browser.$('#nav-battles').click();
  await browser.$('#new-ruleset').selectByAttribute('value', 'itacs');
  await browser.$('#new-name').setValue('Ticinus');
  await browser.$('#new-side-a').setValue('Carthage');
  await browser.$('#new-side-b').setValue('Rome');
  await browser.$('#create-battle').click();
  await browser.$('#add-unit').waitForExist({ timeout: 10000 });
  await add('Pikes', 'Carthage', { type: 'PP', class: 'A', count: 2, hex: '17.03' });
  await add('Bows', 'Carthage', { type: 'LB', count: 1, hex: '17.03' });
  await add('Hanno', 'Carthage', { type: '2L', bonus: 2, hex: '17.03' }, 'leader');
  await add('Hastati', 'Rome', { type: 'SD', count: 3, hex: '18.04' });
  await add('Spears', 'Rome', { type: 'PS', count: 1, hex: '19.04' });
  // A type the text gives no strength: asked beside its field, nothing added.
  await fill('Militia', 'Carthage', { type: 'MS', class: 'A', count: 2, hex: '22.18' });
  await browser.$('#add-unit .field-error').waitForExist({ timeout: 10000 });
  assert.match(await browser.$('#add-unit .field-error').getText(), /^Combat strength: /);
  await checkScreen(browser, 'itacs-unit-asked');
  await browser.$('#add-unit #unit-combat').setValue('2');
  await browser.$('#add-unit-button').click();
  await until(browser, 'Militia on the roster', async () => (await browser.$('#roster').getText()).includes('Militia'));
  // The roster by hex, each unit with the side's other hexes one choice away.
  assert.ok(await browser.$('#roster select[data-move-unit]').isExisting());
  await checkScreen(browser, 'itacs-roster-stacks');
  await tap(browser, 'button[data-tab="dashboard"]');
  await browser.$('.unit-strip [data-place="Hex 17.03"]').waitForExist({ timeout: 10000 });
  await checkScreen(browser, 'itacs-dashboard-stacks');
  // Hastati attack the stack in 17.03: one tap on a unit of it picks it whole.
  const strip = (label) => browser.$(`//div[contains(@class,"unit-strip")]//button[.//strong[text()="${label}"]]`);
  await (await strip('Hastati')).click();
  await (await strip('Bows')).click();
  await browser.$('#resolve-picked').click();
  await browser.$('#action').waitForExist({ timeout: 10000 });
  await until(browser, 'the melee with its chips', async () => (await browser.$$('.chips .chip')).length > 0);
  const chips = [];
  for (const c of await browser.$$('.chips .chip')) chips.push(await c.getText());
  assert.ok(chips.some((c) => c.startsWith('Rear')), chips.join(' | '));
  // The hex defends whole, with its leader (captured if it is eliminated): each side named once.
  assert.equal(await browser.$('#apply-title').getText(), 'Applies to: Rome · Carthage');
  await checkScreen(browser, 'itacs-melee-from-stack');
});
