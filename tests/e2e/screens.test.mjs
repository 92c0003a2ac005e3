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

test('settings: preferences kept through the app, the store plugin out of the window\'s reach, the backups', async () => {
  await browser.$('#nav-settings').click();
  await browser.$('select[data-setting="theme"]').waitForExist({ timeout: 10000 });
  await browser.$('select[data-setting="units"]').selectByAttribute('value', 'cm');
  await browser.$('#settings-message .ok').waitForExist({ timeout: 10000 });
  // The page can name no store file: the plugin's own commands are refused whatever the path,
  // the app's file included; the preferences come back through the app's commands.
  const answers = await browser.executeAsync(async (done) => {
    const out = {};
    for (const path of ['/tmp/referee-escape.json', '../referee-escape.json', 'settings.json']) {
      try {
        await window.__TAURI_INTERNALS__.invoke('plugin:store|load', { path, options: {} });
        out[path] = 'allowed';
      } catch (e) {
        out[path] = String(e);
      }
    }
    try {
      out.preferences = await window.__TAURI_INTERNALS__.invoke('preferences_load', {});
    } catch (e) {
      out.preferences = `refused: ${String(e)}`;
    }
    done(out);
  });
  for (const path of ['/tmp/referee-escape.json', '../referee-escape.json', 'settings.json']) {
    assert.match(answers[path], /not allowed/i, `the store plugin at ${path}: ${answers[path]}`);
  }
  assert.equal(answers.preferences?.units, 'cm', `preferences kept: ${JSON.stringify(answers.preferences)}`);
  await browser.$('select[data-setting="units"]').selectByAttribute('value', 'inches');
  // A backup on request shows by its time and reason, restorable.
  await browser.$('#backup-now').click();
  // Listed among the others (the day's first change makes its own backup, in the same minute).
  const rows = async () => {
    const out = [];
    for (const row of await browser.$$('#backups .backup-row')) out.push(await row.getText());
    return out;
  };
  await until(browser, 'the backup listed', async () => (await rows()).some((t) => /backed up on request/.test(t)));
  assert.ok((await rows()).some((t) => /backed up on request · \d+ battles?/.test(t)), (await rows()).join(' | '));
  await checkScreen(browser, 'settings');
});

test('the quick combat form', async () => {
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

test('a deleted battle waits among the recently deleted and comes back whole', async () => {
  await browser.$('#nav-battles').click();
  const first = await browser.$('button[data-open]');
  await first.waitForExist({ timeout: 10000 });
  const id = await first.getAttribute('data-open');
  const name = await browser.$(`li[data-battle="${id}"] strong`).getText();
  await browser.$(`button[data-delete="${id}"]`).click();
  await browser.$(`button[data-delete="${id}"]`).click();
  // An earlier test may have left the recently deleted list on screen: wait for this battle to go.
  await until(browser, 'the battle gone from the list', async () => !(await browser.$(`button[data-open="${id}"]`).isExisting()));
  await browser.$(`button[data-restore="${id}"]`).waitForExist({ timeout: 10000 });
  await browser.$('#recently-deleted summary').click();
  assert.match(await browser.$('#recently-deleted').getText(), /Deleted today · can be restored until/);
  await checkScreen(browser, 'recently-deleted');
  await browser.$(`button[data-restore="${id}"]`).click();
  await browser.$(`button[data-open="${id}"]`).waitForExist({ timeout: 10000 });
  assert.equal(await browser.$(`li[data-battle="${id}"] strong`).getText(), name);
  assert.equal(await browser.$(`button[data-restore="${id}"]`).isExisting(), false, 'no longer among the deleted');
});

test('a DBMM battle\'s set-up and weather, each from its rule\'s example, with the core\'s odds', async () => {
  await browser.$('#nav-battles').click();
  await browser.$('#new-ruleset').selectByAttribute('value', 'dbmm');
  const preset = await browser.$('#new-preset');
  await until(browser, 'the DBMM presets listed', async () => (await preset.$$('option')).length > 1);
  await preset.selectByIndex(1);
  await browser.$('#preset-preview').waitForExist({ timeout: 10000 });
  await browser.$('#create-battle').click();
  await browser.$('#standing').waitForExist({ timeout: 10000 });
  await browser.$('button[data-tab="resolve"]').click();
  for (const action of ['setup', 'weather']) {
    await browser.$('#action').selectByAttribute('value', action);
    await browser.$('#load-example').click();
    const expected = core('dbmm', action, examples[`dbmm/${action}`]).distribution.map((d) => [d.result, d.probability]);
    await until(browser, `the ${action} example's odds, as the core gives them`, async () => {
      const rows = [];
      for (const row of await browser.$$('#battle-resolution #odds .odds-row')) rows.push([await row.getAttribute('data-result'), await row.$('.exact').getText()]);
      return JSON.stringify(rows) === JSON.stringify(expected);
    });
    if (action === 'weather') {
      // The weather's effects are boxes from the ruleset's list, the example's ticked: no typed keys.
      const held = examples['dbmm/weather'].effects ?? [];
      const boxes = await browser.$$('fieldset[data-checks="effects"] input[type="checkbox"]');
      assert.ok(boxes.length > held.length, 'a box for each of the weather\'s effects');
      for (const box of boxes) assert.equal(await box.isSelected(), held.includes(await box.getAttribute('data-choice')));
      // Nothing to throw and no unit to change: no "Dice 0", and the result is recorded, not applied.
      assert.equal(await browser.$('#apply-result').getText(), 'Record in the log');
      assert.equal(await browser.$('#throw-line').isExisting(), false, 'no throw line for a dice-less answer');
    }
    await checkScreen(browser, `dbmm-${action}`);
  }
});
