// End to end: a round robin in the real app window, at 1280×800 and 390×844 — created without
// being asked its rounds or first round, four players, round 1 of 3 paired and two players
// swapped by hand, both results entered by hand, the players then fixed (a sentence where the add
// form was), a player withdrawn, round 2 paired without him and the player the circle gave him named as not paired,
// up to the last round. Every screen passes support.mjs's checks at both sizes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, checkScreen, connect, devTextIn, size, tap, until } from './support.mjs';

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

const text = async (selector) => browser.$(selector).getText();

/** Each game of the round shown entered by hand, the first player winning. */
async function allByHand() {
  const tables = await browser.execute(() => [...document.querySelectorAll('#round-games .game')].map((g) => g.dataset.table));
  for (const table of tables) {
    await tap(browser, `button[data-hand="${table}"]`);
    await tap(browser, `#hand-${table} input[type="radio"][name="winner-${table}"]`);
    await tap(browser, `#hand-send-${table}`);
    await until(browser, `table ${table}'s result`, async () => browser.$(`[data-result="${table}"]`).isExisting());
  }
  return tables.length;
}

test('a round robin: its rounds from its players, no late entry, a withdrawal sits his partner out', async () => {
  await size(browser, DESKTOP);
  await tap(browser, '#nav-events');
  await browser.$('#new-event').waitForExist({ timeout: 10000 });
  await browser.$('#event-pairing').selectByAttribute('value', 'round_robin');
  await until(browser, 'the rounds no longer asked', async () => !(await browser.$('#event-rounds').isExisting()));
  assert.equal(await browser.$('#event-first-round').isExisting(), false, 'no first round asked');
  assert.match(await text('#event-rounds-robin'), /^Each player meets every other once/);
  await checkScreen(browser, 'events-new-round-robin');
  await browser.$('#event-name').setValue('Club league');
  await tap(browser, '#create-event');
  await until(browser, 'the event open', async () => (await browser.$('#event-title').isExisting()) && (await text('#event-title')) === 'Club league');

  for (const [name, army] of [['Anna', 'Romans'], ['Boris', 'Gauls'], ['Carl', 'Iberians'], ['Dora', 'Numidians']]) {
    await browser.$('#player-name').setValue(name);
    await browser.$('#player-army').setValue(army);
    await browser.keys('Enter');
    await until(browser, `${name} listed`, async () => (await text('#player-list')).includes(name));
  }
  assert.match(await text('#event-summary'), /Round robin · 3 rounds$/);
  await tap(browser, '#pair-round');
  await until(browser, 'round 1 paired', async () => (await browser.$$('#round-games .game')).length === 2);
  assert.equal(await browser.$('#event-round h3').getText(), 'Round 1 of 3');
  const lines = async () => browser.execute(() => [...document.querySelectorAll('#round-games .game .line')].map((l) => l.textContent.trim()));
  // In the order entered: Anna–Dora, Boris–Carl. Carl and Dora swapped by hand before it starts:
  // the later rounds turn on round 1 as swapped (R-EVENT-7), so nobody meets twice.
  assert.deepEqual(await lines(), ['Table 1 · Anna (Romans) v Dora (Numidians)', 'Table 2 · Boris (Gauls) v Carl (Iberians)']);
  await tap(browser, '#swap-open');
  await browser.$('#swap-a').selectByAttribute('value', 'Carl');
  await browser.$('#swap-b').selectByAttribute('value', 'Dora');
  await tap(browser, '#swap-send');
  await until(browser, 'the swap made', async () => (await lines())[0] === 'Table 1 · Anna (Romans) v Carl (Iberians)');

  // Once round 1 is paired no player joins: the sentence stands where the form was.
  await until(browser, 'the players fixed', async () => browser.$('#players-closed').isExisting());
  const closed = await text('#players-closed');
  assert.match(closed, /^Round 1 is paired, so this round robin takes no more players/);
  assert.deepEqual(devTextIn(closed), []);
  assert.equal(await browser.$('#player-name').isExisting(), false, 'no name field to type in for nothing');

  assert.equal(await allByHand(), 2);
  // Dora withdraws (a second tap confirms): round 2 has one game, and the one the circle gave
  // her is named as not paired.
  await tap(browser, 'button[data-withdraw="Dora"]');
  await tap(browser, 'button[data-withdraw="Dora"]');
  await until(browser, 'Dora withdrawn', async () => (await text('li[data-entrant="Dora"]')).includes('(withdrawn)'));
  await tap(browser, '#pair-round');
  await until(browser, 'round 2 paired', async () => (await browser.$('#event-round h3').getText()) === 'Round 2 of 3');
  // The circle gives Anna–Dora and Carl–Boris: Anna sits out, no rematch of round 1.
  assert.deepEqual(await lines(), ['Table 1 · Carl (Iberians) v Boris (Gauls)']);
  assert.equal(await text('#round-not-paired'), 'Not paired in round 2: Anna (the round robin gives no opponent still to meet: no game, no bye).');
  assert.equal(await browser.$('#swap-open').isExisting(), false, 'round 2 follows from round 1: no swap');
  await checkScreen(browser, 'event-round-robin-withdrawn');

  // The last round is offered and paired; then the round robin is over.
  assert.equal(await allByHand(), 1);
  await tap(browser, '#pair-round');
  await until(browser, 'round 3 paired', async () => (await browser.$('#event-round h3').getText()) === 'Round 3 of 3');
  assert.deepEqual(await lines(), ['Table 1 · Anna (Romans) v Boris (Gauls)']);
  assert.match(await text('#round-not-paired'), /^Not paired in round 3: Carl /);
  assert.equal(await allByHand(), 1);
  assert.equal(await browser.$('#pair-round').isExisting(), false, 'no fourth round offered');
});
