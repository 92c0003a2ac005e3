// End to end: a whole ITACS turn in the real app window, at 1280×800 and at 390×844, from the
// roster alone — units entered by hex (a mixed stack, a leader with it), the phases driving the
// resolver: missile fire, defensive fire with the terrain set (the 4.4.2 example), a melee of the
// mixed stack with its leader's bonus, a melee on a wall hex from the wall (its attack positions as chips, 3.1.4), the recovery phase
// opened from the roster, the next turn, the routed hastati's rout move opened from their row, a
// stack moved to a new hex typed in place.
// Every interaction of the turn is counted (`turn-flow itacs: N interactions`); each combat with
// one situational modifier takes at most 7.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, connect, shot, size, tap, until } from './support.mjs';
import { addUnit as add, fillUnit as fill, hexOf as hexIn, logInForce as logLines } from './turn-flow.mjs';

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

async function beginBattle(name) {
  await browser.$('#nav-battles').click();
  await browser.$('#new-ruleset').selectByAttribute('value', 'itacs');
  await browser.$('#new-name').setValue(name);
  await browser.$('#new-side-a').setValue('Carthage');
  await browser.$('#new-side-b').setValue('Rome');
  await browser.$('#create-battle').click();
  await browser.$('#add-unit').waitForExist({ timeout: 10000 });
}

const fillUnit = (...args) => fill(browser, ...args);
const addUnit = (...args) => add(browser, ...args);

/** The roster's words for each unit, by label (read off the roster tab). */
async function roster() {
  await tap(browser, 'button[data-tab="roster"]');
  await browser.$('#roster .unit-row').waitForExist({ timeout: 10000 });
  const out = {};
  for (const row of await browser.$$('#roster .unit-row')) {
    out[await row.$('strong').getText()] = await row.$('[data-testid="unit-state"]').getText();
  }
  return out;
}

async function rosterIds() {
  await tap(browser, 'button[data-tab="roster"]');
  const out = {};
  for (const row of await browser.$$('#roster .unit-row')) out[await row.$('strong').getText()] = Number(await row.getAttribute('data-unit'));
  return out;
}

/** The battle of the turn: Carthage's mixed stack with Hanno in 17.03, its militia in 22.18;
 * Rome's hastati in 18.04 and two bow stacks, one with spearmen, one with a leader. */
async function setUp(name) {
  await beginBattle(name);
  await addUnit('Pikes', 'Carthage', { type: 'PP', class: 'A', count: 2, hex: '17.03' });
  await addUnit('Bows', 'Carthage', { type: 'LB', count: 1, hex: '17.03' });
  await addUnit('Hanno', 'Carthage', { type: '2L', bonus: 2, hex: '17.03' }, 'leader');
  // The text gives Militia (MS) no strength: the form asks it when the unit is added, beside its
  // field, and adds nothing until it is in (R-ITACS-17).
  await fillUnit('Militia', 'Carthage', { type: 'MS' });
  await browser.$('#add-unit .field-error').waitForExist({ timeout: 10000 });
  assert.equal(await browser.$('#add-unit #unit-combat').getAttribute('aria-invalid'), 'true');
  assert.ok(!(await browser.$('#roster').getText()).includes('Militia'));
  await addUnit('Militia', 'Carthage', { type: 'MS', class: 'A', combat: '2', count: 3, hex: '22.18' });
  await addUnit('Hastati', 'Rome', { type: 'SD', count: 3, hex: '18.04' });
  await addUnit('Archers A', 'Rome', { type: 'LB', count: 2, hex: '22.19' });
  await addUnit('Spears', 'Rome', { type: 'PS', count: 1, hex: '22.19' });
  await addUnit('Archers B', 'Rome', { type: 'LB', count: 2, hex: '23.19' });
  await addUnit('Marcus', 'Rome', { bonus: 1, hex: '23.19' }, 'leader');
  // A wall: Carthage's scalers on the wall hex beside the Roman watch's (3.1.4).
  await addUnit('Scalers', 'Carthage', { type: 'PS', count: 1, hex: '30.09' });
  await addUnit('Watch', 'Rome', { type: 'PS', count: 1, hex: '30.10' });
  return rosterIds();
}

/** Plays the turn at the window's size, counting every interaction. */
async function playTurn(label) {
  const id = await rosterIds();
  let n = 0;
  const count = async (selector) => {
    await tap(browser, selector);
    n += 1;
  };
  const phase = async (key) => {
    await count('button[data-tab="dashboard"]');
    await browser.$('#phase').selectByAttribute('value', key);
    n += 1;
    await until(browser, `the ${key} phase`, async () => (await browser.$('#phase').getValue()) === key);
  };
  /** Picks on the roster, Resolve, the situation set, the dice typed, Apply: its interactions. */
  const fight = async (what, picks, action, situation, dice) => {
    const start = n;
    await count('button[data-tab="roster"]');
    for (const unit of picks) await count(`#roster button[data-pick-unit="${id[unit]}"]`);
    await count('#resolve-picked');
    await until(browser, `${what}: the resolver on ${action}`, async () => (await browser.$('#action').isExisting()) && (await browser.$('#action').getValue()) === action);
    await until(browser, `${what}: the odds`, async () => (await browser.$$('#sticky-bar .likely')).length > 0);
    n += await situation();
    await browser.$('#dice-typed').setValue(dice);
    n += 1;
    const apply = await browser.$('#apply-result');
    await until(browser, `${what}: Apply ready`, async () => apply.isEnabled());
    await apply.click();
    n += 1;
    await apply.click().catch(() => undefined); // a double tap applies once
    await browser.$('#applied').waitForExist({ timeout: 10000 });
    const taken = n - start - 1; // the tab tap is navigation
    console.log(`turn-flow itacs (${label}): ${what}: ${taken} interactions`);
    assert.ok(taken <= 7, `${what}: ${taken} interactions`);
  };
  const none = async () => 0;

  // Missile phase: the bowmen of 17.03 (the pikes come along, not firing) on the hastati.
  await phase('missile');
  await fight('missile combat', ['Bows', 'Hastati'], 'missile', none, '36');
  let words = await roster();
  assert.equal(words.Hastati, '3/3, 2 D');

  // Defensive fire: both Roman bow stacks on the militia, in mud (4.4.2): DX, and no D marker on
  // the bowmen — the spearmen stand in 22.19, Marcus in 23.19 (4.4.1).
  await phase('defensive_fire');
  await fight('defensive fire', ['Archers A', 'Archers B', 'Militia'], 'defensive_fire', async () => {
    let taken = 0;
    const terrain = await browser.$('[data-path="target.terrain"]');
    if (!(await terrain.isDisplayed())) {
      await browser.execute(() => document.querySelectorAll('#situation-form details').forEach((d) => { d.open = true; }));
      taken += 1;
    }
    await terrain.selectByAttribute('value', 'mud');
    return taken + 1;
  }, '36');
  assert.equal(await browser.$('#battle-resolution [data-testid="outcome-result"]').getAttribute('data-result'), 'DX');
  words = await roster();
  assert.deepEqual([words.Militia, words['Archers A'], words.Spears, words['Archers B']], ['0/3, lost', '2/2', '1/1', '2/2']);

  // Melee: the mixed stack attacks with 12 and Hanno's 2 (2.4.6, 6.1.3).
  await phase('melee');
  await fight('melee', ['Pikes', 'Hastati'], 'melee', async () => {
    await until(browser, 'the attack strength of 14', async () => (await browser.$('.resolver').getText()).includes('14'));
    return 0;
  }, '36');
  words = await roster();
  assert.equal(words.Hastati, '2/3, 4 D, Rout');

  // Melee on a wall hex (3.1.4): the Wall picked up front, the fight is refused from the ground;
  // the attack positions come up beside it as chips with their worth, and from the wall its −6
  // does not apply.
  await fight('melee on a wall', ['Scalers', 'Watch'], 'melee', async () => {
    const terrain = await browser.$('[data-chip="defenders.0.terrain"]');
    await browser.execute((e) => e.scrollIntoView({ block: 'center' }), terrain);
    await terrain.selectByAttribute('value', 'wall');
    const fromWall = await browser.$('[data-chip="attack_from=wall"]');
    await until(browser, 'the wall chip with its worth', async () => (await fromWall.isExisting()) && (await fromWall.getText()).includes('+6 on the dice'));
    assert.equal(await fromWall.getAttribute('aria-pressed'), 'false');
    assert.ok((await browser.$('[data-chip="attack_from=ladder_or_tower"]').getText()).includes('−6 on the dice'));
    // Refused from the ground, the bar says why rather than asking for the units again; the
    // attack position is asked up front only, not again under "Other situations".
    await until(browser, 'the bar saying why', async () => (await browser.$('#bar-refused').isExisting()) && (await browser.$('#bar-refused').getText()).includes('can be attacked only from a ladder or siege tower or an adjacent wall hex'));
    assert.equal(await browser.execute(() => document.querySelectorAll('#situation-form [data-path$="attack_from"]').length), 0);
    await shot(browser, `itacs-wall-chips-${label}`);
    await tap(browser, '[data-chip="attack_from=wall"]');
    await until(browser, 'the wall modifier set aside', async () => (await browser.$('#battle-resolution').getText()).includes('modifier does not apply'));
    assert.equal(await fromWall.getAttribute('aria-pressed'), 'true');
    assert.ok((await fromWall.getText()).includes('on: +6 on the dice'));
    return 2;
  }, '36');

  // Recovery: the phase's step opens it from the roster; one tap applies it.
  await phase('recovery');
  await count('button[data-step-action="recovery"]');
  await until(browser, 'the recovery from the roster', async () => (await browser.$('#from-roster').isExisting()));
  const apply = await browser.$('#apply-result');
  await until(browser, 'recovery: Apply ready', async () => (await apply.isExisting()) && (await apply.isEnabled()));
  await apply.click();
  n += 1;
  await browser.$('#applied').waitForExist({ timeout: 10000 });
  words = await roster();
  assert.equal(words.Hastati, '2/3, 3 D, Rout');

  // The next turn.
  await count('button[data-tab="dashboard"]');
  const turn = await browser.$('.turn-bar').getText();
  await count('#next-turn');
  await until(browser, 'the next turn', async () => (await browser.$('.turn-bar').getText()) !== turn || (await browser.$('#phase').getValue()) === '');

  // Rome's movement: the routed hastati make their rout move (5.3.1) from their row — the hexes
  // typed, each read from the roster —, landing in 20.05 with their markers, in one event.
  const start = n;
  await count('button[data-tab="roster"]');
  await count(`#roster button[data-open-move="${id.Hastati}"]`);
  const hexes = await browser.$('#move-path-hexes');
  await hexes.waitForExist({ timeout: 10000 });
  // With no hex typed, a rout move offers to say that no hex is farther from the enemy (5.3.1).
  const stay = await browser.$('#move-path-stay');
  await until(browser, 'the no-hex-farther choice', async () => stay.isExisting());
  assert.equal(await stay.getText(), 'No hex is farther from the nearest enemy unit');
  await shot(browser, `itacs-rout-move-open-${label}`);
  await hexes.setValue('19.05 20.05');
  await browser.keys('Enter');
  n += 1;
  const pathRead = () => browser.execute(() => [...document.querySelectorAll('#situation-form input')].some((i) => i.value === '20.05'));
  await until(browser, 'the path read from the roster', pathRead).catch(async (e) => {
    await shot(browser, `itacs-rout-move-refused-${label}`);
    throw e;
  });
  await until(browser, 'the move allowed', async () => (await browser.$$('#battle-resolution [data-testid="outcome-result"]')).length > 0);
  await shot(browser, `itacs-rout-move-${label}`);
  // The hexes are the line typed: the form adds none and takes none off; the choice is gone.
  assert.equal(await browser.execute(() => document.querySelectorAll('#situation-form [data-add="path"], #situation-form [data-remove^="path."]').length), 0);
  assert.equal(await browser.$('#move-path-stay').isExisting(), false);
  const move = await browser.$('#apply-result');
  await until(browser, 'rout move: Apply ready', async () => move.isEnabled());
  await move.click();
  n += 1;
  await move.click().catch(() => undefined); // a double tap applies once
  await browser.$('#applied').waitForExist({ timeout: 10000 });
  console.log(`turn-flow itacs (${label}): rout move: ${n - start - 1} interactions`);
  words = await roster();
  assert.equal(words.Hastati, '2/3, 3 D, Rout');
  assert.equal(await hexOf(id.Hastati), 'Hex 20.05');
  // The double tap landed one move: the log holds exactly one, in force.
  const moves = (await logInForce()).filter((t) => /^Move\b/.test(t));
  assert.equal(moves.length, 1, `one move in the log: ${moves.join(' | ')}`);
  await tap(browser, 'button[data-tab="roster"]');

  // A move to a hex no Roman stands in yet: typed in place on the row, Enter.
  await browser.$(`#roster select[data-move-unit="${id['Archers B']}"]`).selectByVisibleText('Another hex…');
  n += 1;
  const typed = await browser.$(`#roster input[data-new-place="${id['Archers B']}"]`);
  await typed.waitForExist({ timeout: 10000 });
  await typed.setValue('24.20');
  await browser.keys('Enter');
  n += 1;
  await until(browser, 'Archers B in 24.20', async () => (await hexOf(id['Archers B'])) === 'Hex 24.20');
  console.log(`turn-flow itacs (${label}): ${n} interactions`);
  return n;
}

const logInForce = () => logLines(browser);
const hexOf = (id) => hexIn(browser, id);

test('a whole ITACS turn from the roster at 1280×800', async () => {
  await setUp('Trebia');
  await playTurn('desktop');
  await shot(browser, 'itacs-turn-desktop');
  // Between stacks in one choice: Spears leave the archers of 22.19 for Marcus's 23.19; the log
  // holds it and one undo brings them back.
  const id = await rosterIds();
  assert.equal(await hexOf(id.Spears), 'Hex 22.19');
  await browser.$(`#roster select[data-move-unit="${id.Spears}"]`).selectByAttribute('value', '23.19');
  await until(browser, 'Spears in 23.19', async () => (await hexOf(id.Spears)) === 'Hex 23.19');
  assert.equal(await hexOf(id['Archers A']), 'Hex 22.19');
  await browser.pause(1100);
  await browser.$('#undo').click();
  await until(browser, 'Spears back in 22.19', async () => (await hexOf(id.Spears)) === 'Hex 22.19');
});

test('the same turn at 390×844', async () => {
  await setUp('Trebia again');
  await size(browser, PHONE);
  try {
    await playTurn('phone');
    await tap(browser, 'button[data-tab="roster"]');
    await shot(browser, 'itacs-turn-roster-phone');
  } finally {
    await size(browser, DESKTOP);
  }
});
