// End to end: a participation day of two rule systems in the real app window, at 1280×800 and
// 390×844 — GTS and ITACS ticked on the new event form (only the scorings suiting both offered:
// DBMM's own and any reading victory points absent), four players added, round 1 paired, each
// table offering a begin button per system, "Begin ITACS battle" double-tapped at table 1 (one
// battle, an ITACS one, opens), table 2 entered by hand (its system asked, then kept), and back
// at the event the games' lines and the projector naming the systems. Every screen passes support.mjs's
// checks at both sizes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, checkScreen, chooseSystems, connect, devTextIn, shot, size, tap, until } from './support.mjs';

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

const text = async (selector) => browser.$(selector).getText();

test('an event of GTS and ITACS: a battle begun under the system tapped, named on the game’s line', async () => {
  await size(browser, DESKTOP);
  await tap(browser, '#nav-events');
  await browser.$('#new-event').waitForExist({ timeout: 10000 });

  // Two systems ticked: the scorings offered suit both (DBMM's 25 points is DBMM's alone).
  await chooseSystems(browser, ['gts', 'itacs']);
  const offered = await browser.execute(() => [...document.querySelectorAll('#event-scoring option')].map((o) => o.value));
  assert.ok(offered.length > 0, 'a scoring is offered');
  assert.ok(!offered.includes('dbmm-25'), `DBMM's own scoring is not offered for GTS and ITACS: ${offered}`);
  assert.ok(!offered.includes('win-draw-loss'), `a scoring reading victory points is not offered for two systems: ${offered}`);
  assert.ok(offered.includes('participation-day'), `the participation day's scoring is offered: ${offered}`);
  assert.equal(await browser.$('#event-scoring').getValue(), offered[0], 'the first suiting scoring chosen');
  await checkScreen(browser, 'events-new-two-systems');

  // Every box cleared: said beside them in a sentence, nothing sent; one ticked again clears it.
  await chooseSystems(browser, ['gts']);
  await tap(browser, 'input[data-event-ruleset="gts"]');
  await until(browser, 'the boxes say a system is needed', async () => browser.$('#event-rulesets-error').isExisting());
  const needed = await text('#event-rulesets-error');
  assert.match(needed, /^[A-Z].*\.$/, `a sentence: ${needed}`);
  assert.deepEqual(devTextIn(needed), []);
  await chooseSystems(browser, ['gts', 'itacs']);
  assert.ok(!(await browser.$('#event-rulesets-error').isExisting()), 'the warning goes once a system is ticked');

  await browser.$('#event-name').setValue('Participation day');
  await tap(browser, '#create-event');
  await until(browser, 'the event open', async () => (await browser.$('#event-title').isExisting()) && (await text('#event-title')) === 'Participation day');
  assert.match(await text('#event-summary'), /GTS and ITACS/);

  for (const [name, army] of [['Anna', 'Spartans'], ['Boris', 'Persians'], ['Carl', 'Thebans'], ['Dora', 'Macedonians']]) {
    await browser.$('#player-name').setValue(name);
    await browser.$('#player-army').setValue(army);
    await browser.keys('Enter');
    await until(browser, `${name} listed`, async () => (await text('#player-list')).includes(name));
  }
  await tap(browser, '#pair-round');
  await until(browser, 'round 1 paired', async () => (await browser.$$('#round-games .game')).length === 2);

  // A begin button per system, in words; no bare "Begin battle".
  const begins = await browser.execute(() => [...document.querySelectorAll('button[data-begin="1"]')].map((b) => b.textContent.trim()));
  assert.deepEqual(begins, ['Begin GTS battle', 'Begin ITACS battle']);
  await checkScreen(browser, 'event-two-systems-round-1');

  const table1 = (await text('#round-games .game[data-table="1"] .line')).match(/^Table 1 · (\S+) \(.+\) v (\S+) \(.+\)$/);
  assert.ok(table1, 'table 1 names its two players');
  const [, first, second] = table1;

  // "Begin ITACS battle" tapped twice at once: one battle, under ITACS, its sides the two players.
  await browser.execute(() => {
    const begin = document.querySelector('button[data-begin="1"][data-begin-ruleset="itacs"]');
    begin.click();
    begin.click();
  });
  await browser.$('#battle-title').waitForExist({ timeout: 10000 });
  const head = await text('.battle-head');
  assert.match(head, /ITACS/, `the battle's head names its system: ${head}`);
  assert.doesNotMatch(head, /GTS/);
  const sides = await browser.execute(() => [...document.querySelectorAll('#unit-side option')].map((o) => o.textContent.trim()));
  assert.ok(sides.some((s) => s.includes(first)) && sides.some((s) => s.includes(second)), `the battle's sides are ${first} and ${second}: ${sides}`);
  await shot(browser, 'event-two-systems-battle-desktop');

  // The battles kept: one of this event's (named after it), the double tap began it once.
  const ours = () => browser.execute(() => [...document.querySelectorAll('.battle-row')].filter((r) => r.textContent.includes('Participation day')).length);
  await tap(browser, '#nav-battles');
  await until(browser, 'the battles listed', async () => (await ours()) > 0);
  await browser.pause(300);
  assert.equal(await ours(), 1, 'one battle begun');

  // Back at the event: the game's line names its system; it offers its battle, no begin button.
  await tap(browser, '#nav-events');
  await browser.$('button[data-open-battle="1"]').waitForExist({ timeout: 10000 });
  const line = await text('#round-games .game[data-table="1"] .line');
  assert.match(line, /^Table 1 · .+ v .+ · ITACS$/, line);
  assert.equal((await browser.$$('button[data-begin="1"]')).length, 0);
  await checkScreen(browser, 'event-two-systems-begun');

  // Table 2 had no device: by hand, the system it played is asked first (said beside the boxes
  // when left out), then kept on its line.
  await tap(browser, 'button[data-hand="2"]');
  await browser.$('#hand-2').waitForExist({ timeout: 10000 });
  const winner = await browser.execute(() => document.querySelector('#hand-2 input[name="winner-2"]').value);
  await tap(browser, `#hand-2 input[name="winner-2"][value="${winner}"]`);
  await tap(browser, '#hand-send-2');
  await until(browser, 'the system asked', async () => browser.$('#hand-system-2-error').isExisting());
  assert.match(await text('#hand-system-2-error'), /^Say which rule system table 2 played\.$/);
  await checkScreen(browser, 'event-two-systems-by-hand');
  await tap(browser, '#hand-2 input[data-hand-ruleset="gts"]');
  await tap(browser, '#hand-send-2');
  await until(browser, 'table 2 has its result', async () => browser.$('[data-result="2"]').isExisting());
  assert.match(await text('#round-games .game[data-table="2"] .line'), /· GTS$/);

  // The projector's table names the system too.
  await tap(browser, '#projector-open');
  await browser.$('#projector-view').waitForExist({ timeout: 10000 });
  assert.match(await text('[data-projector-table="1"]'), /· ITACS/);
  await checkScreen(browser, 'event-two-systems-projector');
  await browser.keys('Escape');
  await until(browser, 'the projector view closed', async () => !(await browser.$('#projector-view').isExisting()));
});
