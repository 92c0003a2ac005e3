// End to end: a whole GTS turn in the real app window, at 1280×800 and at 390×844, from the roster
// alone — bowmen fire at peltasts in cover, cavalry charge them (the 4.43 morale check chained in
// front of the round), the Immortals fight the hoplites through a stand lost, a failed stand-loss
// check, a rout and their leader's casualty test, the peltasts recover from Disorder on the roster,
// and the turn advances. Every die of every chain is typed as the table threw it, stage by stage:
// the pads of the next stage appear once the faces before them are in. Every interaction is
// counted (`turn-flow gts: N interactions`); a combat with one situational modifier takes at most 7,
// plus one per follow-up die the rules call for.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, checkScreen, connect, size, tap, until } from './support.mjs';
import { addUnit as add, beginBattle, pads as padsOf, roster as rosterOf, rosterIds as idsOf, turnFlow, atBothSizes } from './turn-flow.mjs';

const addUnit = (...args) => add(browser, ...args);
const rosterIds = () => idsOf(browser);
const roster = () => rosterOf(browser);
const pads = () => padsOf(browser);

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

async function setUp(name) {
  await beginBattle(browser, 'gts', name, ['Persians', 'Greeks']);
  await addUnit('Mardonius', 'Persians', { class: 'cavalry', armour: 'M', weapon: 'LN', stands: 1 }, 'general');
  await addUnit('Immortals', 'Persians', { class: 'infantry', armour: 'M', weapon: 'SP', order: 'CO', stands: 4, leader_pv: 1 });
  await addUnit('Sparabara', 'Persians', { class: 'infantry', armour: 'L', weapon: 'BW', stands: 4 });
  await addUnit('Persian cavalry', 'Persians', { class: 'cavalry', armour: 'N', weapon: 'BW', stands: 3 });
  await addUnit('Hoplites', 'Greeks', { class: 'infantry', armour: 'H', weapon: 'SP', order: 'CO', stands: 4 });
  await addUnit('Peltasts', 'Greeks', { class: 'infantry', armour: 'L', weapon: 'JV', order: 'OO', stands: 4 });
}

async function playTurn(label) {
  const flow = turnFlow(browser, 'gts', label, await rosterIds());
  const { count, phase, chip, fight } = flow;

  // Missile fire at the peltasts in cover: one chip.
  await phase('fire');
  await fight('missile fire', ['Sparabara', 'Peltasts'], 'fire', chip('target_in_cover'), [10, 1]);
  let words = await roster();
  assert.match(words.Peltasts, /hit|3\/4/, words.Peltasts);

  await phase('melee');
  // The cavalry charge: contact this turn; the peltasts' morale check (a 10 fails it), then the
  // round's dice as each stage asks for them.
  await fight('cavalry charge', ['Persian cavalry', 'Peltasts'], 'melee_round', chip('contact'), [10, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5], async () => (await pads()).some((p) => p.includes('morale check against')));
  words = await roster();
  assert.match(words.Peltasts, /Disordered|Rout/, words.Peltasts);

  // The Immortals, their leader on the roster, attack the hoplites: a 1 against a 10, a failed
  // stand-loss check, a rout; their leader's casualty test (1) hurts him, Table 1.10 (2) dazes him.
  await fight('Immortals against the hoplites', ['Immortals', 'Hoplites'], 'melee_round', async () => 0, [1, 10, 10, 1, 2, 5]);
  words = await roster();
  assert.match(words.Immortals, /Rout/, words.Immortals);
  assert.match(words.Immortals, /leader dazed/, words.Immortals);
  assert.match(words.Immortals, /^1\/4|^[0-3]\/4/, words.Immortals);

  // Recovery on the roster: the peltasts recover from Disorder in one tap, if they are still in
  // it (a rout is rallied instead).
  await count('button[data-tab="roster"]');
  const recover = await browser.$(`button[aria-label="Recover: Peltasts"]`);
  if (await recover.isExisting()) {
    await recover.click();
    flow.n += 1;
    await until(browser, 'the peltasts recovered', async () => !(await roster()).Peltasts.includes('Disordered'));
  }

  // The next turn.
  await flow.nextTurn();
  return flow.done();
}

atBothSizes(test, () => browser, 'GTS', 'gts', ['Plataea', 'Mycale'], setUp, playTurn);

test('a GTS chain’s dice read at both sizes', async () => {
  await size(browser, DESKTOP);
  await setUp('Thermopylae');
  const id = await rosterIds();
  await tap(browser, `#roster button[data-pick-unit="${id.Immortals}"]`);
  await tap(browser, `#roster button[data-pick-unit="${id.Hoplites}"]`);
  await tap(browser, '#resolve-picked');
  await until(browser, 'the round', async () => (await pads()).length === 2);
  await browser.$('#dice-typed').setValue('1 10');
  await until(browser, 'the stand-loss check asked', async () => (await pads()).some((p) => p.includes('stand-loss check')));
  const names = await pads();
  assert.ok(names.some((p) => p.startsWith('Immortals’ d10 · stand-loss check')), names.join(' | '));
  // The roll-off's dice, thrown, are shown small with their faces.
  assert.equal(await browser.execute(() => document.querySelectorAll('#sticky-bar .thrown').length), 2);
  // The developer-text and accessibility checks of the screen with a chain half thrown.
  await checkScreen(browser, 'gts-chain');
});
