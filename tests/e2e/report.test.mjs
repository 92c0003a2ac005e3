// The printable battle report: a scripted ITACS battle (docs/examples/battle-itacs.json) written
// as a report by the CLI over the same API as the app's "Save the battle report", checked as a
// self-contained file, and shown in WebKit's own browser (MiniBrowser, driven by WebKitWebDriver)
// at an A4 page's width for the screenshot the README shows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { remote } from 'webdriverio';
import { cli, shots } from './support.mjs';

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

test('the report is one self-contained page with a chart of the break gauges', () => {
  const html = execFileSync('cat', [report]).toString();
  assert.match(html, /^<!doctype html>/i);
  assert.match(html, /<svg[\s>]/, 'a chart');
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
