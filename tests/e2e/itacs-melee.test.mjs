// End to end: the real built app under Xvfb, driven through tauri-driver and WebKitWebDriver.
// An umpire enters an ITACS melee; the odds on screen must equal the core's, as the CLI gives them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { remote } from 'webdriverio';

const app = process.env.REFEREE_APP;
const cli = process.env.REFEREE_CLI;
const shots = process.env.REFEREE_SHOTS ?? 'target/e2e';
let browser;
let coldStartMs;

function core(action, situation, dice) {
  const args = ['resolve', '--ruleset', 'itacs', '--action', action];
  if (dice) args.push('--dice', dice.join(','));
  return JSON.parse(execFileSync(cli, args, { input: JSON.stringify(situation) }).toString());
}

async function onScreen() {
  const rows = await browser.$$('#odds .odds-row');
  const out = [];
  for (const row of rows) {
    out.push([await row.getAttribute('data-result'), await row.$('.exact').getText()]);
  }
  return out;
}

async function waitForOdds(expected) {
  await browser.waitUntil(async () => JSON.stringify(await onScreen()) === JSON.stringify(expected), {
    timeout: 10000,
    timeoutMsg: `screen never showed ${JSON.stringify(expected)}; it shows ${JSON.stringify(await onScreen())}`,
  });
}

before(async () => {
  assert.ok(app && cli, 'REFEREE_APP and REFEREE_CLI must name the built app and CLI');
  mkdirSync(shots, { recursive: true });
  const t0 = performance.now();
  browser = await remote({
    hostname: '127.0.0.1',
    port: 4444,
    logLevel: 'warn',
    capabilities: {
      browserName: 'wry',
      'wdio:enforceWebDriverClassic': true,
      'tauri:options': { application: app },
    },
  });
  // The app opens on the battles screen; it is interactive once the form to begin one is there.
  await browser.$('#create-battle').waitForExist({ timeout: 20000 });
  coldStartMs = performance.now() - t0;
  console.log(`cold start to the interactive battles screen: ${coldStartMs.toFixed(0)} ms`);
  await browser.$('#nav-quick').click();
  await browser.$('#odds .odds-row').waitForExist({ timeout: 20000 });
});

after(async () => {
  await browser?.deleteSession();
});

test('an ITACS melee entered in the window shows the core exact odds and the dice result', async () => {
  await browser.$('button[data-action="melee"]').click();
  // Five SD attack two PS in woods, from the front.
  const attackerCount = await browser.$('.unit[data-side="attackers"] input[data-field="count"]');
  await attackerCount.setValue('5');
  await browser.$('#terrain').selectByAttribute('value', 'woods');
  const rear = await browser.$('#rear');
  if (await rear.isSelected()) await rear.click();

  const situation = {
    attackers: [{ rear: false, units: [{ type: 'SD', count: 5 }] }],
    defenders: [{ terrain: 'woods', stream: false, road: false, square: false, units: [{ type: 'PS', count: 2 }] }],
    attack_from: 'ground',
    attacker_leader_bonus: 0,
    defender_leader_bonus: 0,
  };
  const expected = core('melee', situation);
  const rows = expected.distribution.map((d) => [d.result, d.probability]);
  assert.equal(rows.length, 7);
  await waitForOdds(rows);
  // 20:8 → 2:1 (+1), woods −2, B attacking A +2: the total the core gives is on screen.
  assert.equal(expected.total_modifier, 1);
  assert.equal(await browser.$('[data-testid="total-modifier"]').getText(), '+1');

  await browser.$('#die-0').setValue('6');
  await browser.$('#die-1').setValue('5');
  const withDice = core('melee', situation, [6, 5]);
  await browser.waitUntil(async () => (await browser.$('[data-testid="outcome-result"]').isExisting()), { timeout: 10000 });
  assert.equal(await browser.$('[data-testid="outcome-result"]').getText(), withDice.outcome.result);
  assert.equal(withDice.outcome.result, 'DX');
  await browser.pause(500); // the frame after the text lands
  await browser.saveScreenshot(`${shots}/itacs-melee.png`);
});

test('missile combat: the 4.2.8 example in the window', async () => {
  await browser.$('button[data-action="missile"]').click();
  await browser.$('.unit[data-side="attackers"] select[data-field="type"]').selectByAttribute('value', 'LB');
  await browser.$('.unit[data-side="attackers"] input[data-field="count"]').setValue('2');
  await browser.$('.unit[data-side="defenders"] select[data-field="type"]').selectByAttribute('value', 'MS');
  await browser.$('.unit[data-side="defenders"] input[data-field="count"]').setValue('2');
  await browser.$('#terrain').selectByAttribute('value', 'mud');
  await browser.$('#range').setValue('2');
  const rear = await browser.$('#rear');
  if (await rear.isSelected()) await rear.click();
  await browser.$('#die-0').setValue('5');
  await browser.$('#die-1').setValue('2');
  await browser.waitUntil(async () => (await browser.$('[data-testid="total-modifier"]').getText()) === '-1', { timeout: 10000 });
  await browser.waitUntil(async () => (await browser.$('[data-testid="outcome-result"]').isExisting()), { timeout: 10000 });
  assert.equal(await browser.$('[data-testid="outcome-result"]').getText(), 'DD');

  // 5.3.4: with a D marker already on the MS, a DD routs them: the chained forecast on screen is
  // the core's.
  await browser.$('#d-markers').setValue('1');
  const expected = core('missile', {
    firing_hexes: [{ range: 2, units: [{ type: 'LB', count: 2 }] }],
    target: { terrain: 'mud', d_markers: 1, units: [{ type: 'MS', count: 2 }] },
  });
  const routs = expected.forecast.find((c) => c.label === 'The target hex routs');
  assert.ok(routs, 'the core forecasts a rout');
  await browser.waitUntil(async () => (await browser.$('#forecast').isExisting())
    && (await browser.$('#forecast').getText()).includes(routs.probability), { timeout: 10000 });
  await browser.saveScreenshot(`${shots}/itacs-missile-forecast.png`);
  await browser.$('#d-markers').setValue('0');
});

test('the app rolls the dice, shows the seed, and the outcome follows the faces', async () => {
  await browser.$('#clear-dice').click();
  await browser.$('#roll').click();
  await browser.waitUntil(async () => (await browser.$('#seed').getText()).includes('seed'), { timeout: 10000 });
  const faces = [await browser.$('#die-0').getValue(), await browser.$('#die-1').getValue()].map(Number);
  for (const f of faces) assert.ok(f >= 1 && f <= 6, `face ${f}`);
  await browser.waitUntil(async () => (await browser.$('[data-testid="outcome-result"]').isExisting()), { timeout: 10000 });
  const head = await browser.$('.outcome-head').getText();
  assert.match(head, new RegExp(`Dice ${faces[0]} \\+ ${faces[1]} = ${faces[0] + faces[1]}`));
});

test('bad input shows a clear error, not a crash', async () => {
  await browser.$('button[data-action="melee"]').click();
  await browser.$('.unit[data-side="defenders"] input[data-field="combat"]').setValue('lots');
  const error = await browser.$('.error');
  await error.waitForExist({ timeout: 10000 });
  assert.equal(await error.getAttribute('data-code'), 'situation.invalid_strength');
  assert.match(await error.getText(), /combat strength/i);
  const input = await browser.$('.unit[data-side="defenders"][data-index="0"] [data-field="combat"]');
  assert.equal(await input.getAttribute('aria-invalid'), 'true');
  await browser.pause(300);
  await browser.saveScreenshot(`${shots}/itacs-error.png`);
});

test('settings: a switchable ruling put in force refuses a melee below 1:2 (R-ITACS-1), taken out resolves it again', async () => {
  const forbid = 'input[data-house-rule="rulesets/switches/itacs-forbid-below-lowest-column.toml"]';
  const toggle = async (on) => {
    await browser.$('#nav-settings').click();
    const box = await browser.$(forbid);
    await box.waitForExist({ timeout: 10000 });
    assert.equal(await box.isSelected(), !on);
    await box.click();
    await browser.waitUntil(async () => (await browser.$('#settings-message').getText()).includes(on ? 'in force' : 'left out'), { timeout: 10000 });
    assert.equal(await browser.$(forbid).isSelected(), on);
  };
  await toggle(true);
  assert.match(await browser.$('#settings-screen').getText(), /Tactical System: the rules, with R-ITACS-1 /);
  await browser.saveScreenshot(`${shots}/settings-rulings.png`);
  await browser.$('#nav-quick').click();
  await browser.$('button[data-action="melee"]').click();
  await browser.$('.unit[data-side="attackers"] select[data-field="type"]').selectByAttribute('value', 'SD');
  await browser.$('.unit[data-side="defenders"] select[data-field="type"]').selectByAttribute('value', 'PS');
  await browser.$('.unit[data-side="defenders"] input[data-field="combat"]').setValue('40');
  const error = await browser.$('#resolution .error');
  await error.waitForExist({ timeout: 10000 });
  assert.equal(await error.getAttribute('data-code'), 'situation.below_lowest_column');
  assert.match(await error.getText(), /R-ITACS-1/);
  await toggle(false);
  assert.doesNotMatch(await browser.$('#settings-screen').getText(), /Tactical System: the rules, with R-ITACS-1/);
  await browser.$('#nav-quick').click();
  await browser.$('#odds .odds-row').waitForExist({ timeout: 10000 });
  assert.match(await browser.$('#resolution').getText(), /below the lowest column/);
});

test('measured: an input change redraws the odds, and the idle app’s memory', async () => {
  await browser.$('button[data-action="melee"]').click();
  // Back to the first test's melee: SD against PS, no strength override.
  await browser.execute(() => {
    const combat = document.querySelector('.unit[data-side="defenders"] input[data-field="combat"]');
    combat.value = '';
    combat.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await browser.$('.unit[data-side="attackers"] select[data-field="type"]').selectByAttribute('value', 'SD');
  await browser.$('.unit[data-side="defenders"] select[data-field="type"]').selectByAttribute('value', 'PS');
  await browser.$('#odds .odds-row').waitForExist({ timeout: 10000 });
  // In the page: change the attacker count, time until the odds list is replaced (the IPC
  // round trip, the core's resolution and the redraw), 20 times.
  const { times, missed, screen } = await browser.executeAsync((done) => {
    const input = document.querySelector('.unit[data-side="attackers"] input[data-field="count"]');
    const odds = document.querySelector('#resolution');
    const out = [];
    const missed = [];
    let n = 0;
    const next = () => {
      if (++n < 20) setTimeout(once, 30);
      else done({ times: out, missed, screen: odds.innerText.slice(0, 300) });
    };
    const once = () => {
      const before = odds.innerText;
      const t0 = performance.now();
      const seen = new MutationObserver(() => {
        if (odds.innerText === before || !document.querySelector('#odds .odds-row')) return;
        seen.disconnect();
        clearTimeout(timer);
        out.push(performance.now() - t0);
        next();
      });
      // A change that never shows is recorded as missed, not waited on for ever.
      const timer = setTimeout(() => {
        seen.disconnect();
        missed.push(input.value);
        next();
      }, 3000);
      seen.observe(odds, { childList: true, subtree: true, characterData: true });
      // Always another count than the one shown (2 … 7, round again).
      input.value = String(2 + ((Number(input.value) - 1) % 6));
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    once();
  });
  assert.deepEqual(missed, [], `no redraw for counts ${missed.join(', ')}; the screen shows: ${screen}`);
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`input change → odds redrawn: median ${median.toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms (20 changes)`);
  assert.equal(times.length, 20);
  await browser.pause(1500);
  // Memory of the app's whole process tree once idle (the app and WebKit's web and network
  // processes): the sum of their PSS, each shared page split among the processes mapping it.
  const ps = execFileSync('ps', ['-eo', 'pid=,ppid=,comm=']).toString().trim().split('\n').map((l) => l.trim().split(/\s+/, 3));
  const appPid = ps.find(([, , comm]) => comm === 'referee-app')?.[0];
  const tree = new Set(appPid ? [appPid] : []);
  for (let grown = true; grown;) {
    grown = false;
    for (const [pid, ppid] of ps) if (tree.has(ppid) && !tree.has(pid)) { tree.add(pid); grown = true; }
  }
  const kb = (pid, field) => {
    try {
      return Number((new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')) ?? [])[1] ?? 0);
    } catch {
      return 0;
    }
  };
  const rows = [...tree].map((pid) => [ps.find(([p]) => p === pid)[2], kb(pid, 'Pss'), kb(pid, 'Rss')]);
  const pss = rows.reduce((n, [, p]) => n + p, 0);
  const app = rows.find(([comm]) => comm === 'referee-app')?.[2] ?? 0;
  console.log(`idle memory: ${(pss / 1024).toFixed(0)} MB PSS over ${rows.length} processes (${rows.map(([c, p]) => `${c} ${(p / 1024).toFixed(0)}`).join(', ')}); app RSS ${(app / 1024).toFixed(0)} MB`);
  assert.ok(app > 0, 'the app process is found');
});
