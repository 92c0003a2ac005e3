// A damaged battles database in the real window: the app still starts and says so in words (no
// path), Settings lists the backups it took, and one is restored after a confirmation — the
// battles come back and the damaged file is kept among the backups.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkScreen, cli, connect, tap, until } from './support.mjs';

// The app's own database: the data folder the e2e run points XDG_DATA_HOME at.
const folder = join(process.env.XDG_DATA_HOME ?? join(process.env.HOME, '.local/share'), 'dev.tabletop.referee');
const db = join(folder, 'referee.db');
const referee = (...args) => JSON.parse(execFileSync(cli, ['--db', db, ...args]).toString());

let browser;

before(async () => {
  // A battle, backed up, then the database damaged while the app is closed.
  referee('battle', 'create', '--preset', 'itacs-melee-example', '--name', 'Kept safe');
  referee('db', 'backup');
  for (const side of ['-wal', '-shm']) rmSync(`${db}${side}`, { force: true });
  writeFileSync(db, Buffer.alloc(16384, 0x5a));
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

test('a damaged database: said in words, restored from Settings after a confirmation', async () => {
  const message = await browser.$('#battles-message');
  await until(browser, 'the damage said', async () => /damaged/.test(await message.getText()));
  const said = await message.getText();
  assert.ok(!said.includes(folder) && !said.includes('referee.db'), `no path on screen: ${said}`);
  assert.match(said, /Settings/);
  await checkScreen(browser, 'damaged-database');

  await browser.$('#nav-settings').click();
  await until(browser, 'the backup listed', async () => (await browser.$$('#backups .backup-row')).length > 0);
  const row = await browser.$('#backups .backup-row');
  assert.match(await row.getText(), /backed up on request · \d+ battles?/);
  await tap(browser, '#backups .backup-row button');
  await browser.$('#restore-confirm').waitForExist({ timeout: 10000 });
  assert.match(await browser.$('[role="alertdialog"]').getText(), /kept as a backup first/);
  await checkScreen(browser, 'restore-backup');
  await tap(browser, '#restore-confirm');
  await until(browser, 'the restore said', async () => /^Restored: the battles as they were on/.test(await browser.$('#backups .ok').getText().catch(() => '')));
  // The damaged file is kept, unreadable, as the backup taken before the restore.
  assert.match(await browser.$('#backups').getText(), /before a backup was restored · cannot be read/);

  await browser.$('#nav-battles').click();
  await until(browser, 'the battle back', async () => (await browser.$('#battle-list').getText()).includes('Kept safe'));
  assert.ok(existsSync(db));
});
