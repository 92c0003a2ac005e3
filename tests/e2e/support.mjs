// What every end-to-end test shares: the session with the real app, waiting, screenshots, and the
// checks each screen must pass at both sizes — nothing wider than the window, touch targets of
// 44 px, no serious or critical accessibility violation (axe-core), and no developer text.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { remote } from 'webdriverio';

export const app = process.env.REFEREE_APP;
export const cli = process.env.REFEREE_CLI;
export const shots = process.env.REFEREE_SHOTS ?? 'target/e2e';
export const DESKTOP = [1280, 800];
export const PHONE = [390, 844];
// tauri-driver's port: two people can run the tests on one machine (scripts/e2e-display.sh starts
// the driver on the same variable).
export const driverPort = Number(process.env.REFEREE_DRIVER_PORT ?? 4444);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function connect() {
  assert.ok(app && cli, 'REFEREE_APP and REFEREE_CLI must name the built app and CLI');
  mkdirSync(shots, { recursive: true });
  const browser = await remote({
    hostname: '127.0.0.1',
    port: driverPort,
    logLevel: 'warn',
    // A hung request costs 30 s, not the default 120.
    connectionRetryTimeout: 30000,
    capabilities: { browserName: 'wry', 'wdio:enforceWebDriverClassic': true, 'tauri:options': { application: app } },
  });
  await browser.$('#create-battle').waitForExist({ timeout: 20000 });
  await size(browser, DESKTOP);
  return browser;
}

/** The window's inner size set to [width, height] (WebDriver sets the outer size, and the window
 * takes a moment to follow). */
export async function size(browser, [width, height]) {
  const inner = () => browser.execute(() => [window.innerWidth, window.innerHeight]);
  await browser.setWindowSize(width, height);
  let now = await inner();
  for (let i = 0; i < 20 && Math.abs(now[0] - width) > 40; i++) {
    await browser.pause(100);
    now = await inner();
  }
  if (now[0] !== width || now[1] !== height) {
    await browser.setWindowSize(Math.max(100, 2 * width - now[0]), Math.max(100, 2 * height - now[1]));
    await browser.waitUntil(async () => (await inner())[0] === width, { timeout: 3000 }).catch(() => undefined);
  }
}

export function core(ruleset, action, situation, dice) {
  const args = ['resolve', '--ruleset', ruleset, '--action', action];
  if (dice) args.push('--dice', dice.join(','));
  return JSON.parse(execFileSync(cli, args, { input: JSON.stringify(situation) }).toString());
}

/** A tap as a person makes it: the element scrolled to the middle of the screen first, clear of
 * the bars fixed at the bottom (WebDriver alone scrolls it just into view, under them). */
export async function tap(browser, selector) {
  const el = await browser.$(selector);
  await el.waitForExist({ timeout: 10000 });
  await browser.execute((e) => e.scrollIntoView({ block: 'center' }), el);
  await el.click();
}

/** The new event form's rule systems ticked: exactly those named (ids), the others cleared — the
 * wanted ones ticked first, so at least one stays ticked throughout. */
export async function chooseSystems(browser, ids) {
  const boxes = await browser.execute(() => [...document.querySelectorAll('input[data-event-ruleset]')].map((b) => [b.dataset.eventRuleset, b.checked]));
  for (const [id, on] of boxes) if (!on && ids.includes(id)) await tap(browser, `input[data-event-ruleset="${id}"]`);
  for (const [id, on] of boxes) if (on && !ids.includes(id)) await tap(browser, `input[data-event-ruleset="${id}"]`);
  const ticked = await browser.execute(() => [...document.querySelectorAll('input[data-event-ruleset]:checked')].map((b) => b.dataset.eventRuleset));
  assert.deepEqual([...ticked].sort(), [...ids].sort(), 'the systems ticked');
}

export async function until(browser, what, check, timeout = 10000) {
  await browser.waitUntil(check, { timeout, timeoutMsg: what });
}

export async function shot(browser, name) {
  // WebKit under Xvfb may hand over the last painted frame: wait for a new one. A screenshot that
  // hangs is tried again, then left out with a warning: it is a picture for the README, not a
  // check. Without compositing (the app's default on Linux) WebKit paints only what changed, and
  // a screenshot waits for a paint: while it is taken, an invisible change every 50 ms keeps
  // paints coming (a single change before it was not always enough).
  for (let attempt = 1; attempt <= 2; attempt++) {
    await browser.execute(() => {
      let n = 0;
      window.__shotTicks = setInterval(() => { document.body.style.opacity = (n++ % 2) ? '0.999' : '0.998'; }, 50);
    });
    await browser.pause(600);
    try {
      await browser.saveScreenshot(`${shots}/${name}.png`);
      return;
    } catch (e) {
      console.log(`screenshot ${name} failed (attempt ${attempt}): ${e.message}`);
    } finally {
      await browser.execute(() => { clearInterval(window.__shotTicks); document.body.style.opacity = ''; }).catch(() => undefined);
    }
  }
}

/** Developer text that must never be on screen: the list ui/src/lib/words.ts reads too. */
const DEV_TEXT = JSON.parse(readFileSync('ui/src/lib/dev-text.json', 'utf8')).map(([source, flags, what]) => [new RegExp(source, flags), what]);

/** The developer text on screen now (JSON, field paths, code ids…), each with the words around it. */
export async function devTextProblems(browser) {
  return devTextIn(await browser.execute(() => document.body.innerText));
}

/** The developer text in a screen's text, each with the words around it. */
export function devTextIn(text) {
  const found = [];
  for (const [re, what] of DEV_TEXT) {
    const m = re.exec(text);
    if (m) found.push(`developer text (${what}): “${text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40).replace(/\s+/g, ' ')}”`);
  }
  return found;
}

/** From now on, every console error and warning of the page (Svelte's warnings among them) and
 * every uncaught error is kept, for `consoleSaid` to read. WebKitWebDriver hands over no browser
 * log, so the page's console is wrapped. */
export async function watchConsole(browser) {
  await browser.execute(() => {
    if (window.__consoleSaid) return;
    window.__consoleSaid = [];
    const keep = (kind, args) => window.__consoleSaid.push(`${kind}: ${args.map((a) => (a instanceof Error ? a.message : typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`.slice(0, 300));
    for (const kind of ['error', 'warn']) {
      const original = console[kind].bind(console);
      console[kind] = (...args) => {
        keep(kind, args);
        original(...args);
      };
    }
    window.addEventListener('error', (e) => keep('uncaught', [e.message]));
    window.addEventListener('unhandledrejection', (e) => keep('unhandled rejection', [e.reason instanceof Error ? e.reason.message : String(e.reason)]));
  });
}

/** What the console said since the last call (see `watchConsole`), emptied. */
export async function consoleSaid(browser) {
  return browser.execute(() => (window.__consoleSaid ?? []).splice(0));
}

/** Every check a screen must pass, at the window's present size. Returns the problems found. */
export async function screenProblems(browser) {
  const found = await browser.execute(() => {
    const out = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth) {
      const wide = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && el.getClientRects().length);
      const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
      out.push(`wider than the window (${doc.scrollWidth} > ${window.innerWidth}): ${wide.slice(-3).map(name).join(', ')}`);
    }
    // The header's row of screens fits: a button scrolled out of the row is out of reach.
    const header = document.querySelector('header.bar');
    if (header && header.scrollWidth > header.clientWidth + 1) {
      out.push(`the header's screens scroll (${header.scrollWidth} in ${header.clientWidth})`);
    }
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && !el.closest('details:not([open]) > :not(summary)');
    };
    // Text cut off by a box too small for it (overflow hidden or clipped, text wider or taller).
    for (const el of document.querySelectorAll('body *')) {
      if (!visible(el) || !el.textContent?.trim()) continue;
      const style = getComputedStyle(el);
      // A heading kept for screen readers only (1 px, clipped on purpose) is not text cut off.
      if (el.clientWidth <= 1 && el.clientHeight <= 1) continue;
      const clips = (o) => o === 'hidden' || o === 'clip';
      if ((clips(style.overflowX) && el.scrollWidth > el.clientWidth + 1) || (clips(style.overflowY) && el.scrollHeight > el.clientHeight + 1)) {
        if (el.closest('.track')) continue;
        out.push(`text clipped (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight}): ${el.tagName.toLowerCase()} “${el.textContent.trim().slice(0, 40)}”`);
      }
    }
    // The resolver's bar (odds, dice, Apply) is on screen without scrolling.
    const bar = document.querySelector('#sticky-bar');
    if (bar) {
      const r = bar.getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight + 1 || r.height > window.innerHeight * 0.45) out.push(`the bar with the odds, dice and Apply is not wholly on screen or too tall (${r.top.toFixed(0)}–${r.bottom.toFixed(0)} of ${window.innerHeight})`);
    }
    // A box's or a radio's target is its label; a citation inline in a sentence needs 24 px
    // (WCAG 2.5.8's inline exception) and has a 44 px hit area drawn around it.
    for (const el of document.querySelectorAll('button, a[href], input, select, summary, textarea, [role="tab"]')) {
      if (!visible(el)) continue;
      const target = (el.type === 'checkbox' || el.type === 'radio') && el.closest('label') ? el.closest('label') : el;
      const r = target.getBoundingClientRect();
      const least = el.classList.contains('cite') ? 24 : 44;
      if (r.height < least - 0.5 || r.width < least - 0.5) out.push(`a touch target of ${r.width.toFixed(0)}×${r.height.toFixed(0)} px: ${target.tagName.toLowerCase()} “${(target.textContent || target.getAttribute('aria-label') || target.id || '').trim().slice(0, 40)}”`);
    }
    return out;
  });
  found.push(...(await devTextProblems(browser)));
  await browser.execute(axeSource);
  const violations = await browser.executeAsync((done) => {
    window.axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`)), (e) => done([`axe failed: ${e}`]));
  });
  return [...found, ...violations.map((v) => `accessibility: ${v}`)];
}

/** Asserts a screen passes every check at both sizes, with a screenshot of each. */
export async function checkScreen(browser, name, { restore = DESKTOP } = {}) {
  const problems = [];
  for (const [label, dims] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    await size(browser, dims);
    // Each screen is looked at from its top, as it opens.
    await browser.execute(() => window.scrollTo(0, 0));
    await browser.pause(250);
    for (const p of await screenProblems(browser)) problems.push(`${name} (${label}): ${p}`);
    await shot(browser, `${name}-${label}`);
  }
  await size(browser, restore);
  assert.deepEqual(problems, [], problems.join('\n'));
}
