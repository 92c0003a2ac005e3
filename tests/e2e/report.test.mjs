// The printable battle report: a scripted ITACS battle (docs/examples/battle-itacs.json) written
// as a report by the CLI over the same API as the app's "Save the battle report", checked as a
// self-contained file, and shown in WebKit's own browser (MiniBrowser, driven by WebKitWebDriver)
// at an A4 page's width for the screenshot the README shows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { remote } from 'webdriverio';
import { DESKTOP, PHONE, cli, connect, devTextIn, shot, shots, size, tap, until } from './support.mjs';
import { beginPreset } from './turn-flow.mjs';

const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
let home;
let report;

before(() => {
  home = mkdtempSync(join(tmpdir(), 'referee-report-'));
  const db = join(home, 'battles.db');
  execFileSync(cli, ['--db', db, 'battle', 'script', 'docs/examples/battle-itacs.json']);
  const id = JSON.parse(execFileSync(cli, ['--db', db, 'battle', 'list']).toString())[0].id;
  report = join(home, 'report.html');
  writeFileSync(report, execFileSync(cli, ['--db', db, 'battle', 'report', String(id)]));
});

after(() => rmSync(home, { recursive: true, force: true }));

test('the report is one self-contained page, charting only the break gauges that moved', () => {
  const html = execFileSync('cat', [report]).toString();
  assert.match(html, /^<!doctype html>/i);
  // The scripted battle moves no break point: no flat chart, the gauges named as unchanged.
  assert.doesNotMatch(html, /<svg[\s>]/, 'no chart of figures that never moved');
  assert.match(html, /No break point moved during the battle\./);
  assert.match(html, /Unchanged throughout, not charted: Romans: Victory points; /);
  assert.doesNotMatch(html, /<script|\bsrc=|href="http|@import|url\(/i, 'nothing loaded from elsewhere, no script');
  console.log(`report of the scripted battle: ${html.length} bytes`);
});

test('the report as printed: a screenshot in WebKit', { skip: !existsSync(MINIBROWSER) && 'no MiniBrowser on this machine' }, async () => {
  const driver = spawn('WebKitWebDriver', ['--port=4446'], { stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 800));
    const browser = await remote({
      hostname: '127.0.0.1', port: 4446, logLevel: 'warn', connectionRetryTimeout: 30000,
      capabilities: { browserName: 'MiniBrowser', 'wdio:enforceWebDriverClassic': true, 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } },
    });
    try {
      // An A4 page at 96 dpi.
      await browser.setWindowSize(794, 1123);
      await browser.url(`file://${resolve(report)}`);
      assert.ok((await browser.$('h1').getText()).length > 0);
      // WebKit hands over a frame once it has painted one: give it the time.
      await browser.pause(1500);
      await browser.saveScreenshot(`${shots}/report-page.png`);
    } finally {
      await browser.deleteSession();
    }
  } finally {
    driver.kill();
  }
});

// The report saved from the real window, where the umpire chooses: a DBMM close combat picked
// on the dashboard and applied, the table view naming both sides' elements and only what
// happened, then "Save the battle report…" answered in the system's own save dialog (GTK's,
// typed into with xdotool as a person types), the screen saying where it went, and the saved
// page in words with the result's modifiers and situation.
const XDOTOOL = '/usr/bin/xdotool';
test('the report is saved from the window where the umpire chooses, in words, with each result’s modifiers', { skip: !existsSync(XDOTOOL) && 'no xdotool on this machine' }, async () => {
  const browser = await connect();
  const saved = join(home, 'chosen', 'Hastings report.html');
  mkdirSync(join(home, 'chosen'));
  try {
    await size(browser, DESKTOP);
    await beginPreset(browser, 'dbmm', 'dbmm-combat-example');
    await tap(browser, 'button[data-tab="dashboard"]');
    await until(browser, 'a unit strip per side', async () => (await browser.$$('.unit-strip')).length >= 2);
    const strips = await browser.$$('.unit-strip');
    await (await strips[0].$('button')).click();
    await (await strips[1].$('button')).click();
    await browser.$('#resolve-picked').click();
    await until(browser, 'the odds in the bar', async () => (await browser.$$('#sticky-bar .likely')).length > 0);
    await browser.$('#dice-typed').setValue('61');
    await until(browser, 'the result in the bar', async () => (await browser.$('#bar-result').isExisting()));
    assert.equal(await browser.$('#bar-result').getText(), 'Bd (O) stands; Pk (O) front rank is destroyed');
    await tap(browser, '#apply-result');
    await until(browser, 'applied', async () => (await browser.$('#apply-result').getText()) === 'Applied ✓');

    // The table view: both sides' elements by name, what became of each, no table key.
    await tap(browser, '#table-view');
    await browser.$('#table-view-screen').waitForExist({ timeout: 10000 });
    assert.equal(await browser.$('#table-view-a').getText(), 'Own army: Bd (O)');
    assert.equal(await browser.$('#table-view-b').getText(), 'Enemy: Pk (O) front rank');
    assert.equal(await browser.$('#table-view-result').getText(), 'Bd (O) stands; Pk (O) front rank is destroyed');
    assert.deepEqual(devTextIn(await browser.$('#table-view-screen').getText()), []);
    await browser.pause(500);
    await shot(browser, 'table-view-dbmm-desktop');
    await tap(browser, '#close-table-view');

    // Save: the system's dialog asks where; the screen says where it went.
    await tap(browser, 'button[data-tab="log"]');
    await browser.$('#save-report').waitForExist({ timeout: 10000 });
    await browser.$('#save-report').click();
    // GTK's save dialog, a window of its own: its name field takes the whole path.
    execFileSync(XDOTOOL, ['search', '--sync', '--name', 'Save the battle', 'windowfocus', '--sync', '%1', 'key', '--clearmodifiers', 'ctrl+a']);
    execFileSync(XDOTOOL, ['type', '--delay', '20', saved]);
    execFileSync(XDOTOOL, ['key', 'Return']);
    await until(browser, 'where the report went', async () => /saved as/.test(await browser.$('#shared').getText().catch(() => '')), 20000);
    assert.equal(await browser.$('#shared').getText(), 'The battle report is saved as “Hastings report.html” in the folder “chosen”: open it in a browser to print it or save it as PDF.');
    assert.deepEqual(devTextIn(await browser.execute(() => document.body.innerText)), []);
    await browser.execute(() => document.querySelector('#shared').scrollIntoView({ block: 'center' }));
    await browser.pause(500);
    await shot(browser, 'report-saved-desktop');

    // The table view at a phone's size: the same words, wrapped.
    await size(browser, PHONE);
    await tap(browser, 'button[data-tab="resolve"]');
    await tap(browser, '#table-view');
    await browser.$('#table-view-screen').waitForExist({ timeout: 10000 });
    assert.equal(await browser.$('#table-view-result').getText(), 'Bd (O) stands; Pk (O) front rank is destroyed');
    await browser.pause(500);
    await shot(browser, 'table-view-dbmm-phone');
    await tap(browser, '#close-table-view');

    const html = readFileSync(saved, 'utf8');
    assert.match(html, /^<!DOCTYPE html>/);
    const words = html.split('</style>').pop().replace(/<[^>]*>/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&quot;/g, '"');
    assert.deepEqual(devTextIn(words), [], 'the saved report shows no developer text');
    for (const line of ['Bd (O) stands; Pk (O) front rank is destroyed', 'The situation:', 'Modifiers', 'Bd (O): Combat factor: Bd against Others +4 (p. 36)']) {
      assert.ok(words.includes(line), `the saved report lacks “${line}”`);
    }
  } finally {
    await browser.deleteSession();
  }
});
