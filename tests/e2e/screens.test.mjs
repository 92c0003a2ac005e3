// Every screen as an umpire sees it, at 1280×800 and 390×844: nothing wider than the window,
// touch targets of 44 px, no serious or critical accessibility violation, no developer text —
// with the screenshots the README shows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkScreen, connect, core, until } from './support.mjs';

const examples = JSON.parse(readFileSync('ui/src/generated/examples.json', 'utf8'));

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

test('a battle begun from a preset', async () => {
  await browser.$('#nav-battles').click();
  await browser.$('#new-ruleset').selectByAttribute('value', 'itacs');
  const preset = await browser.$('#new-preset');
  await until(browser, 'the ITACS presets listed', async () => (await preset.$$('option')).length > 1);
  await preset.selectByIndex(1);
  await browser.$('#preset-preview').waitForExist({ timeout: 10000 });
  await browser.$('#create-battle').click();
  await browser.$('#standing').waitForExist({ timeout: 10000 });
});

test('the dashboard of a battle begun from a preset', async () => {
  await until(browser, 'the sides on the dashboard', async () => (await browser.$$('.side-card')).length >= 2);
  await checkScreen(browser, 'dashboard');
});

test('the roster, a unit editor open, and a citation opened', async () => {
  await browser.$('button[data-tab="roster"]').click();
  await browser.$('#roster .unit-row').waitForExist({ timeout: 10000 });
  await checkScreen(browser, 'roster');
  const edit = await browser.$('#roster .unit-row button[aria-label^="Edit"]');
  await edit.click();
  await browser.$('form[id^="edit-unit-"]').waitForExist({ timeout: 10000 });
  await checkScreen(browser, 'unit-editor');
  await edit.click();
  await browser.$('#roster button.cite, #add-unit button.cite').click();
  const dialog = await browser.$('dialog.rule-dialog[open]');
  await dialog.waitForExist({ timeout: 10000 });
  await until(browser, 'the section looked up', async () => !(await dialog.getText()).includes('Looking it up'));
  await checkScreen(browser, 'citation');
  await browser.$('dialog.rule-dialog[open] button.primary').click();
  assert.equal(await browser.$('dialog.rule-dialog[open]').isExisting(), false);
});

test('the resolver: a fight picked on the dashboard, its result, the table view; the rule\'s example; the log', async () => {
  await browser.$('button[data-tab="dashboard"]').click();
  const strips = await browser.$$('.unit-strip');
  assert.ok(strips.length >= 2, 'a unit strip per side');
  await (await strips[0].$('button')).click();
  await (await strips[1].$('button')).click();
  await browser.$('#resolve-picked').click();
  await until(browser, 'the odds in the bar', async () => (await browser.$$('#sticky-bar .likely')).length > 0);
  await checkScreen(browser, 'resolver');
  await browser.$('#dice-typed').setValue('34');
  await browser.$('#battle-resolution [data-testid="outcome-result"]').waitForExist({ timeout: 10000 });
  await checkScreen(browser, 'resolver-result');
  await browser.$('#table-view').click();
  await browser.$('#table-view-screen').waitForExist({ timeout: 10000 });
  await checkScreen(browser, 'table-view');
  await browser.$('#close-table-view').click();
  // The rule's worked example is one tap away, with the core's odds.
  const action = await browser.$('#action').getValue();
  await browser.$('#load-example').click();
  const expected = core('itacs', action, examples[`itacs/${action}`]).distribution.map((d) => [d.result, d.probability]);
  await until(browser, 'the example\'s odds, as the core gives them', async () => {
    const rows = [];
    for (const row of await browser.$$('#battle-resolution #odds .odds-row')) rows.push([await row.getAttribute('data-result'), await row.$('.exact').getText()]);
    return JSON.stringify(rows) === JSON.stringify(expected);
  });
  await browser.$('button[data-tab="log"]').click();
  await checkScreen(browser, 'log');
});

test('settings and the quick combat form', async () => {
  await browser.$('#nav-settings').click();
  await browser.$('select[data-setting="theme"]').waitForExist({ timeout: 10000 });
  await checkScreen(browser, 'settings');
  await browser.$('#nav-quick').click();
  await browser.$('#odds .odds-row').waitForExist({ timeout: 10000 });
  await checkScreen(browser, 'quick-combat');
});

test('the battles list, and the begin form showing a preset', async () => {
  await browser.$('#nav-battles').click();
  await browser.$('button[data-open]').waitForExist({ timeout: 10000 });
  await browser.$('#new-ruleset').selectByAttribute('value', 'dbmm');
  const preset = await browser.$('#new-preset');
  await until(browser, 'the DBMM presets listed', async () => (await preset.$$('option')).length > 1);
  await preset.selectByIndex(1);
  await browser.$('#preset-preview').waitForExist({ timeout: 10000 });
  await checkScreen(browser, 'battles');
});
