// Every screen as an umpire sees it, at 1280×800 and 390×844: nothing wider than the window,
// touch targets of 44 px, no serious or critical accessibility violation, no developer text —
// with the screenshots the README shows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkScreen, connect, until } from './support.mjs';

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

test('the resolver and the log', async () => {
  await browser.$('button[data-tab="resolve"]').click();
  await browser.$('#battle-resolution #odds').waitForExist({ timeout: 10000 });
  await checkScreen(browser, 'resolver');
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
