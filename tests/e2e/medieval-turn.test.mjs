// End to end: a whole Medieval turn in the real app window, at 1280×800 and at 390×844, from the
// roster alone — the Knights charge the Boyars with the Komtur stacked on their hex (one chip,
// 8.2.1) and drive them back, the scatter d6 asked after the 2d6 and tapped on its pad (5.1.1 g);
// the Sergeants fight the Tatars, no follow-up die; the Crossbows shoot the Spears in the enemy's
// movement phase, the d6 of 6 after their loss scattering them (10.6.3); and the turn advances.
// The defending hex's terrain is a chip, asked up front with each terrain's worth.
// Every interaction is counted (`turn-flow medieval: N interactions`); a combat with one
// situational modifier takes at most 7, plus one per follow-up die the rules call for.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, checkScreen, connect, shot, size, tap, until } from './support.mjs';
import { addUnit, beginBattle, pads, roster, rosterIds, turnFlow, atBothSizes } from './turn-flow.mjs';

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

async function setUp(name) {
  await beginBattle(browser, 'medieval', name, ['Order', 'Lithuanians']);
  await addUnit(browser, 'Komtur', 'Order', {}, 'leader');
  await addUnit(browser, 'Knights', 'Order', { type: 'heavy_cavalry', sp: 2, cf: 2 });
  await addUnit(browser, 'Sergeants', 'Order', { type: 'cavalry', sp: 2, cf: 1 });
  await addUnit(browser, 'Crossbows', 'Order', { type: 'crossbowmen', sp: 2 });
  await addUnit(browser, 'Boyars', 'Lithuanians', { type: 'light_cavalry', sp: 2, cf: 1 });
  await addUnit(browser, 'Tatars', 'Lithuanians', { type: 'light_cavalry', sp: 2, cf: 1 });
  await addUnit(browser, 'Spears', 'Lithuanians', { type: 'light_infantry', sp: 2 });
}

async function playTurn(label) {
  const flow = turnFlow(browser, 'medieval', label, await rosterIds(browser));

  await flow.phase('a_cavalry_attack');
  // 1:1, the attacker's armour 2, charge 2 and the stacked leader's 2 CMs against the Boyars'
  // charge 1: 6:1. A 7 (3 + 4): D2-1, the Boyars lose 1 SP and retreat 2; their scatter d6 of 1
  // scatters them (light cavalry after D2: 1–2).
  const charge = await flow.fight('charge with the Komtur stacked', ['Knights', 'Boyars'], 'combat', flow.chip('attackers.0.leader'), [3, 4, 1]);
  assert.equal(charge, 1, 'the scatter d6 asked after the 2d6');
  let words = await roster(browser);
  assert.match(words.Boyars, /1\/2|1 SP/, words.Boyars);
  assert.match(words.Boyars, /[Ss]cattered/, words.Boyars);
  assert.doesNotMatch(words.Knights, /[Ss]cattered/, words.Knights);

  // 1:1, armour 1 and charge 1 against charge 1: 2:1. A 10 (4 + 6): −1/−, the Sergeants lose 1
  // SP; nothing retreats, no scatter d6.
  const plain = await flow.fight('Sergeants against the Tatars', ['Sergeants', 'Tatars'], 'combat', async () => 0, [4, 6]);
  assert.equal(plain, 0);
  words = await roster(browser);
  assert.match(words.Sergeants, /1\/2|1 SP/, words.Sergeants);

  // The Crossbows shoot in the Lithuanians' movement phase (10.1.5): at range 1, 2d6 − 1 for the
  // Spears' armour; a 7 gives 6: −1, then the d6 of 6 scatters them (10.6.3).
  await flow.phase('b_infantry_movement');
  const volley = await flow.fight('crossbow volley', ['Crossbows', 'Spears'], 'fire', async () => 0, [3, 4, 6]);
  assert.equal(volley, 1);
  words = await roster(browser);
  assert.match(words.Spears, /[Ss]cattered/, words.Spears);

  await flow.nextTurn();
  return flow.done();
}

atBothSizes(test, () => browser, 'Medieval', 'medieval', ['Grunwald', 'Tannenberg'], setUp, playTurn);

test('the Medieval scatter die named on its pad, at both sizes', async () => {
  await size(browser, DESKTOP);
  await setUp('Koronowo');
  const id = await rosterIds(browser);
  await tap(browser, `#roster button[data-pick-unit="${id.Knights}"]`);
  await tap(browser, `#roster button[data-pick-unit="${id.Boyars}"]`);
  await tap(browser, '#resolve-picked');
  await until(browser, 'the combat', async () => (await pads(browser)).length === 2);
  await browser.$('#dice-typed').setValue('3 4');
  await until(browser, 'the scatter d6 asked', async () => (await pads(browser)).some((p) => p.includes('scatter')));
  const names = await pads(browser);
  assert.ok(names.some((p) => p.startsWith('Boyars’ d6 · scatter')), names.join(' | '));
  // The defending hex's terrain is asked up front, among the chips, each terrain with its worth.
  const terrain = await browser.$('select[data-chip="defenders.0.terrain"]');
  assert.ok(await terrain.isExisting(), 'the terrain asked up front');
  const { y } = await terrain.getLocation();
  assert.ok(y < 800, `the terrain chip ${y} px down the form`);
  const options = await browser.execute((el) => [...el.options].map((o) => o.text), terrain);
  assert.ok(options.some((o) => /^Forest \(defender \+\d CMs?\)$/.test(o)), options.join(' | '));
  // The screen with the chain half thrown: no developer text, nothing wider than the window.
  await checkScreen(browser, 'medieval-chain');
  await shot(browser, 'medieval-scatter-pad-desktop');
  await size(browser, PHONE);
  await shot(browser, 'medieval-scatter-pad-phone');
  // The scatter d6 tapped: the result in words; the table view names every result in words too.
  await tap(browser, '#sticky-bar button[data-face="2:1"]');
  await until(browser, 'the result', async () => browser.$('#bar-result').isExisting());
  await tap(browser, '#table-view');
  const table = await browser.$('#table-view-screen');
  await until(browser, 'the table view', async () => table.isExisting());
  const words = await table.getText();
  assert.match(words, /Boyars retreats 2 hexes and loses 1 SP|Boyars retreats/, words);
  assert.match(words, /Scatter d6 1 \(Boyars\): Boyars scattered/, words);
  await shot(browser, 'medieval-table-view-phone');
  await tap(browser, '#close-table-view');
});
