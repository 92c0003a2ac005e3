// Measured, never asserted on time (the figures go into docs/performance.md): a cold start of the
// app, an input change until the new odds are painted — on the ITACS quick melee and on the
// heaviest form, DBMM close combat with every tactical factor listed and each box's worth asked —,
// and the idle app's memory over its whole process tree. `bash scripts/measure-app.sh` runs this
// file on the release build with JavaScriptCore's JIT on (the app's default) and off.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, until } from './support.mjs';

let browser;

before(async () => {
  const t0 = performance.now();
  browser = await connect();
  // `connect` returns once the form to begin a battle is in the DOM: the app is interactive.
  console.log(`cold start to the interactive battles screen: ${(performance.now() - t0).toFixed(0)} ms (JIT ${process.env.JSC_useJIT === '0' ? 'off' : 'on'})`);
  await browser.$('#nav-quick').click();
  await browser.$('#odds .odds-row').waitForExist({ timeout: 20000 });
});

after(async () => {
  await browser?.deleteSession();
});

async function quick(ruleset, action) {
  await browser.$('#quick-ruleset').selectByAttribute('value', ruleset);
  await until(browser, `${ruleset} opens`, async () => (await browser.$('#action').isExisting()) && (await browser.$('#odds .odds-row').isExisting()));
  await browser.$('#action').selectByAttribute('value', action);
  await browser.$('#odds .odds-row').waitForExist({ timeout: 10000 });
  await browser.execute(() => document.querySelectorAll('#situation-form details').forEach((d) => { d.open = true; }));
  await browser.pause(500);
}

/**
 * In the page: 20 changes of one input, each timed from its input event until the odds' text
 * changed in the DOM and until the frame showing it was painted (the first animation frame after
 * the change, then the task after it: the paint happens between the two). `change` names how:
 * a count cycled 1 … 4, or a box turned over.
 */
async function redraw(selector, change) {
  const { dom, painted, missed } = await browser.executeAsync((selector, change, done) => {
    const input = document.querySelector(selector);
    const odds = document.querySelector('#battle-resolution');
    const dom = [];
    const painted = [];
    let missed = 0;
    let n = 0;
    const next = () => {
      if (++n < 20) setTimeout(once, 60);
      else done({ dom, painted, missed });
    };
    const once = () => {
      const before = odds.innerText;
      const t0 = performance.now();
      const seen = new MutationObserver(() => {
        if (odds.innerText === before || !document.querySelector('#odds .odds-row')) return;
        seen.disconnect();
        clearTimeout(timer);
        dom.push(performance.now() - t0);
        requestAnimationFrame(() => setTimeout(() => {
          painted.push(performance.now() - t0);
          next();
        }, 0));
      });
      // A change that never shows is counted as missed, not waited on for ever.
      const timer = setTimeout(() => {
        seen.disconnect();
        missed += 1;
        next();
      }, 3000);
      seen.observe(odds, { childList: true, subtree: true, characterData: true });
      if (change === 'toggle') {
        input.checked = !input.checked;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      } else {
        input.value = String(1 + (Number(input.value) % 4));
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
    };
    once();
  }, selector, change);
  assert.equal(missed, 0, `${missed} of 20 changes never redrew the odds`);
  const figures = (times) => {
    const sorted = [...times].sort((a, b) => a - b);
    return `median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`;
  };
  return `in the DOM ${figures(dom)}; painted ${figures(painted)} (20 changes)`;
}

test('measured: an input change until the odds are painted', async () => {
  await quick('itacs', 'melee');
  console.log(`input change → odds, ITACS melee (attacker count): ${await redraw('[data-path="attackers.0.units.0.count"]', 'count')}`);

  await quick('dbmm', 'close_combat');
  // Every tactical factor the ruleset lists is a box of the form, each with its worth asked.
  const boxes = await browser.execute(() => [...document.querySelectorAll('#situation-form input[type="checkbox"][data-choice]')].map((b) => `${b.dataset.path}|${b.dataset.choice}`));
  assert.ok(boxes.length >= 10, `the close combat form lists the tactical factors (${boxes.length} boxes)`);
  // The box timed is one whose turning over changes the odds: the first tactical factor of side A
  // that does.
  const box = boxes.find((b) => b.startsWith('a.') && b.includes('upslope')) ?? boxes[0];
  const [path, choice] = box.split('|');
  console.log(`input change → odds, DBMM close combat (${boxes.length} factor boxes, “${choice}” turned over): ${await redraw(`[data-path="${path}"][data-choice="${choice}"]`, 'toggle')}`);
});

test('measured: the idle app’s memory', async () => {
  await browser.pause(1500);
  // The app and WebKit's web and network processes: the sum of their PSS, each shared page split
  // among the processes mapping it.
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
