// End to end: a whole GTS turn in the real app window, at 1280×800 and at 390×844, from the roster
// alone — bowmen fire at peltasts in cover and at an elephant whose escort stand comes in from its
// own row, cavalry charge the peltasts (the 4.43 morale check chained in front of the round), the
// Immortals fight the hoplites through a stand lost, a failed stand-loss check, a rout and the
// casualty test of their leader, whose own row takes his fate, a routed unit rallies from its
// roster row (the response test opened on it, 3.33), the peltasts recover from Disorder on the
// roster, and the turn advances. Every die of every chain is typed as the table threw it, stage by stage:
// the pads of the next stage appear once the faces before them are in. Every interaction is
// counted (`turn-flow gts: N interactions`); a combat with one situational modifier takes at most 7,
// plus one per follow-up die the rules call for.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, checkScreen, connect, shot, size, tap, until } from './support.mjs';
import { addUnit as add, beginBattle, pads as padsOf, roster as rosterOf, rosterIds as idsOf, turnFlow, atBothSizes } from './turn-flow.mjs';

const addUnit = (...args) => add(browser, ...args);
const rosterIds = () => idsOf(browser);
const roster = () => rosterOf(browser);
const pads = () => padsOf(browser);

/** The log's entries in force, in words. */
async function logEntries() {
  await tap(browser, 'button[data-tab="log"]');
  await browser.$('.log .log-entry').waitForExist({ timeout: 10000 });
  return browser.execute(() => [...document.querySelectorAll('.log .log-entry:not(.undone)')].map((e) => e.textContent.replace(/\s+/g, ' ').trim()));
}

/** The result the resolver shows now (none: no result yet). */
const outcomeResult = () => browser.execute(() => document.querySelector('#battle-resolution [data-testid="outcome-result"]')?.getAttribute('data-result') ?? null);

/** Apply, once the result is ready, then a second tap as a double tap would: one result lands. */
async function applyOnce(flow, what) {
  const apply = await browser.$('#apply-result');
  await until(browser, `${what} ready to apply`, async () => apply.isEnabled());
  await flow.count('#apply-result');
  await apply.click().catch(() => undefined); // a double tap applies once
  await browser.$('#applied').waitForExist({ timeout: 10000 });
}

/** A double tap on a row's button: two clicks on the same button before the app answers the
 * first (the hazard of a finger on a phone). Counted as one interaction. */
async function doubleTap(flow, selector) {
  const el = await browser.$(selector);
  await el.waitForExist({ timeout: 10000 });
  await browser.execute((e) => {
    e.scrollIntoView({ block: 'center' });
    e.click();
    e.click();
  }, el);
  flow.n += 1;
}

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
  await addUnit('Immortals', 'Persians', { class: 'infantry', armour: 'M', weapon: 'SP', order: 'CO', stands: 4 });
  // Their leader: a row of his own, attached to them from the roster's list (1.5, R-GTS-32).
  await addUnit('Artaphernes', 'Persians', { leads: 'Immortals', pv: 1, pc: 3, ts: 'G' }, 'leader');
  await addUnit('Sparabara', 'Persians', { class: 'infantry', armour: 'L', weapon: 'BW', stands: 4 });
  await addUnit('Persian cavalry', 'Persians', { class: 'cavalry', armour: 'N', weapon: 'BW', stands: 3 });
  await addUnit('Hoplites', 'Greeks', { class: 'infantry', armour: 'H', weapon: 'SP', order: 'CO', stands: 4 });
  await addUnit('Peltasts', 'Greeks', { class: 'infantry', armour: 'L', weapon: 'JV', order: 'OO', stands: 4 });
  // An elephant and its escort stand, entered once: the escort's row names its elephant (3.16, R-GTS-34).
  await addUnit('War elephant', 'Greeks', { class: 'elephant', weapon: 'SP', stands: 1 });
  await addUnit('Runners', 'Greeks', { class: 'infantry', armour: 'N', weapon: 'JV', stands: 1, escorts: 'War elephant' });
}

async function playTurn(label) {
  // A wing general with no unit (6.25: contacted, he is moved up to 10").
  await tap(browser, 'button[data-tab="roster"]');
  await addUnit('Hydarnes', 'Persians', { pv: 0 }, 'leader');
  const flow = turnFlow(browser, 'gts', label, await rosterIds());
  const { count, phase, chip, fight } = flow;

  // Command: Artaphernes rolls his command points on his row (1.2): his d8's 6 lands on him, and
  // a point spent (1.7) leaves 5 (R-GTS-40).
  await phase('command');
  await count('button[data-tab="roster"]');
  await doubleTap(flow, 'button[aria-label="Command points: Artaphernes"]');
  await until(browser, 'his command die asked', async () => (await pads()).length === 1);
  await count('#sticky-bar button[data-face="0:6"]');
  await applyOnce(flow, 'his points');
  await count('button[data-tab="roster"]');
  await until(browser, 'his 6 points on his row', async () => /6 of 6 command points left/.test((await roster()).Artaphernes));
  await count('button[aria-label="Spend 1 point: Artaphernes"]');
  await until(browser, 'a point spent', async () => /5 of 6 command points left/.test((await roster()).Artaphernes));
  await shot(browser, `gts-command-${label}`);

  // Movement: the Persian cavalry placed in Reserve in one tap (3.31); "Move" on its row opens
  // its move priced against its allowance (4.1): 10" clear and 2" through a wood (2:1) spend 14"
  // of its 15"; applied once, the Reserve chit is lost (3.31).
  await phase('movement');
  await count('button[data-tab="roster"]');
  await doubleTap(flow, 'button[aria-label="Reserve: Persian cavalry"]');
  await until(browser, 'the cavalry in Reserve', async () => /in Reserve/.test((await roster())['Persian cavalry']));
  await doubleTap(flow, 'button[aria-label="Move: Persian cavalry"]');
  await until(browser, 'the move opened on the cavalry', async () => browser.$('#f-clear_inches').isExisting());
  for (const [key, inches] of [['clear_inches', '10'], ['rough_inches', '2']]) {
    await browser.$(`#f-${key}`).setValue(inches);
    flow.n += 1;
  }
  await until(browser, 'the move within its allowance', async () => (await outcomeResult()) === 'within' && /14" spent of 15"/.test(await browser.$('#battle-resolution').getText()));
  await shot(browser, `gts-move-${label}`);
  await applyOnce(flow, 'the move');
  let moveWords = await roster();
  assert.doesNotMatch(moveWords['Persian cavalry'], /Reserve/, moveWords['Persian cavalry']);

  // Passing through a friend (4.7, R-GTS-41): "Pass through…" on Mardonius' row, the Sparabara
  // picked from his army's units, a move with no one-stand gap: the moving unit is Disordered,
  // landing on his row as one result.
  await count('button[data-tab="roster"]');
  await doubleTap(flow, 'button[aria-label="Pass through…: Mardonius"]');
  await until(browser, 'the passage opened on Mardonius', async () => browser.$('#f-through').isExisting());
  const friends = await browser.execute(() => [...document.querySelectorAll('#f-through option')].map((o) => o.textContent.trim()).filter((t) => t && t !== '—'));
  assert.ok(friends.includes('Sparabara') && !friends.includes('Mardonius') && !friends.includes('Hoplites'), friends.join(' | '));
  await browser.execute(() => document.querySelector('#f-through').scrollIntoView({ block: 'center' }));
  await browser.$('#f-through').selectByVisibleText('Sparabara');
  flow.n += 1;
  await until(browser, 'the passage resolved', async () => (await outcomeResult()) !== null);
  await shot(browser, `gts-pass-through-${label}`);
  await applyOnce(flow, 'the passage');
  const passWords = await roster();
  assert.match(passWords.Mardonius, /Disordered/, passWords.Mardonius);
  assert.doesNotMatch(passWords.Sparabara, /Disordered/, passWords.Sparabara);

  // A leader with no unit, contacted by an enemy unit, is moved up to 10" (6.25, R-GTS-42).
  await doubleTap(flow, 'button[aria-label="Contacted by the enemy: Hydarnes"]');
  await until(browser, 'Hydarnes moved from contact', async () => /moved up to 10" away this turn/.test((await roster()).Hydarnes));

  // Missile fire at the peltasts in cover: one chip.
  await phase('fire');
  await fight('missile fire', ['Sparabara', 'Peltasts'], 'fire', chip('target_in_cover'), [10, 1]);
  let words = await roster();
  assert.match(words.Peltasts, /hit|3\/4/, words.Peltasts);
  // Fire at the elephant: its escort comes in from the roster, and an even die puts the shot on
  // the escort's own row (3.163).
  await fight('fire at the escorted elephant', ['Sparabara', 'War elephant'], 'fire', async () => 0, [10, 1]);
  words = await roster();
  assert.match(words.Runners, /hit|lost|0\/1/, words.Runners);
  assert.match(words['War elephant'], /^1\/1$/, words['War elephant']);

  await phase('melee');
  // The cavalry charge: contact this turn; the peltasts' morale check (a 10 fails it), then the
  // round's dice as each stage asks for them.
  await fight('cavalry charge', ['Persian cavalry', 'Peltasts'], 'melee_round', chip('contact'), [10, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5], async () => (await pads()).some((p) => p.includes('morale check against')));
  words = await roster();
  assert.match(words.Peltasts, /Disordered|Rout/, words.Peltasts);

  // The Immortals, their leader's row attached to them, attack the hoplites: a 1 against a 10, a
  // failed stand-loss check, a rout; their leader's casualty test (1) hurts him, Table 1.10 (2)
  // dazes him — on his own row.
  await fight('Immortals against the hoplites', ['Immortals', 'Hoplites'], 'melee_round', async () => 0, [1, 10, 10, 1, 2, 5]);
  words = await roster();
  assert.match(words.Immortals, /Rout/, words.Immortals);
  assert.match(words.Artaphernes, /leads Immortals, leader dazed/, words.Artaphernes);
  assert.match(words.Immortals, /^1\/4|^[0-3]\/4/, words.Immortals);

  // Rallies from the roster rows (3.33): "Rally" opens the response test on the unit as it
  // stands, its leader's valour filled in from his row. The Immortals, down to half their
  // stands, are past their terminal rout trigger: the test says they cannot rally, with no die.
  await count(`button[aria-label="Rally: Immortals"]`);
  const rallyShown = async () => browser.execute(() => ({
    tested: document.querySelector('#unit-tested')?.textContent ?? '',
    result: document.querySelector('#battle-resolution [data-testid="outcome-result"]')?.getAttribute('data-result') ?? null,
    pads: [...document.querySelectorAll('#sticky-bar .pad')].map((p) => p.getAttribute('aria-label')),
  }));
  await until(browser, 'the rally opened on the Immortals', async () => { const r = await rallyShown(); return /Immortals/.test(r.tested) && (r.result !== null || r.pads.length > 0); });
  let rally = await rallyShown();
  if (rally.result !== null) assert.equal(rally.result, 'cannot_rally');
  // The Sparabara, routed on the table (marked on their row), rally: the d10 on its pad named by
  // them, a 1 passes, and Apply lands it in one event — no longer Routed, Disordered.
  await count('button[data-tab="roster"]');
  await count('button[aria-label="Rout: Sparabara"]');
  await until(browser, 'the Sparabara routed', async () => /Rout/.test((await roster()).Sparabara));
  await count('button[aria-label="Rally: Sparabara"]');
  await until(browser, 'the rally opened on the Sparabara', async () => { const r = await rallyShown(); return /Sparabara/.test(r.tested) && r.pads.length > 0; });
  rally = await rallyShown();
  assert.deepEqual(rally.pads, ['Sparabara’s d10 · Rally from Rout'], rally.pads.join(' | '));
  await count('#sticky-bar button[data-face="0:1"]');
  await applyOnce(flow, 'the rally');
  await shot(browser, `gts-rally-${label}`);
  words = await roster();
  assert.doesNotMatch(words.Sparabara, /Rout/, words.Sparabara);
  assert.match(words.Sparabara, /Disordered/, words.Sparabara);

  // Recovery on the roster: the peltasts recover from Disorder in one tap, if they are still in
  // it (a rout is rallied instead).
  await count('button[data-tab="roster"]');
  const recover = await browser.$(`button[aria-label="Recover: Peltasts"]`);
  if (await recover.isExisting()) {
    await recover.click();
    flow.n += 1;
    await until(browser, 'the peltasts recovered', async () => !(await roster()).Peltasts.includes('Disordered'));
  }

  // Each row action double-tapped above wrote one entry to the log, not two.
  const log = await logEntries();
  for (const [what, entry] of [
    ['Reserve', /Adjusted: Persian cavalry: placed in Reserve/],
    ['Move', /Movement — Persian cavalry/],
    ['Command points', /Command points — Artaphernes/],
    ['Pass through…', /Interpenetration — /],
    ['Contacted by the enemy', /Adjusted: Hydarnes: contacted by the enemy/],
  ]) assert.equal(log.filter((e) => entry.test(e)).length, 1, `${what}: ${log.join(' | ')}`);

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

  // An elephant's third hit (7.41): its frenzy d8 (3 − 1 ≤ 3 frenzies), its driver's d10 (5
  // fails to kill it), then its heading's d8 (4.46), each face named by its compass point with
  // its facing as North; a 3 sends it east.
  await tap(browser, 'button[data-tab="resolve"]');
  await browser.$('#action').selectByAttribute('value', 'frenzy');
  await until(browser, 'the frenzy asked', async () => browser.$('#f-hits_before').isExisting());
  await browser.$('#f-hits_before').setValue('2');
  await browser.$('#f-new_hits').setValue('1');
  await until(browser, 'one frenzy test', async () => (await pads()).length === 1);
  await tap(browser, '#sticky-bar button[data-face="0:3"]');
  await until(browser, 'the driver asked', async () => browser.$('#sticky-bar button[data-face="1:5"]').isExisting());
  await tap(browser, '#sticky-bar button[data-face="1:5"]');
  await until(browser, 'the heading asked', async () => browser.$('#sticky-bar button[data-face="2:3"]').isExisting());
  const headings = await browser.execute(() => [...document.querySelectorAll('#sticky-bar button[data-face^="2:"]')].map((b) => b.getAttribute('aria-label')));
  assert.equal(headings.length, 8, headings.join(' | '));
  assert.match(headings[0], /shows 1 \(N \(straight ahead\)\)$/, headings[0]);
  assert.match(headings[7], /shows 8 \(NW\)$/, headings[7]);
  await shot(browser, 'gts-frenzy-heading');
  await tap(browser, '#sticky-bar button[data-face="2:3"]');
  await until(browser, 'frenzied, heading east', async () => /frenzied, heading E\b/.test(await browser.$('#battle-resolution').getText()));
});

test('a leader moved between units, and result 8’s units within 6" picked as it lands', async () => {
  await size(browser, DESKTOP);
  await setUp('Marathon');
  const id = await rosterIds();
  // The leader goes to the Sparabara from his own row: one correction, undone as one.
  await browser.$(`#roster select[data-link-unit="${id.Artaphernes}"]`).selectByAttribute('value', 'Sparabara');
  await until(browser, 'the leader with the Sparabara', async () => /leads Sparabara/.test((await roster()).Artaphernes));
  await tap(browser, '#undo');
  await until(browser, 'the leader back with the Immortals', async () => /leads Immortals/.test((await roster()).Artaphernes));
  // The roster with its linked rows: the unit names who comes into its fights with it.
  const withRows = await browser.execute(() => Object.fromEntries([...document.querySelectorAll('#roster .unit-row')].map((r) => [r.querySelector('strong').textContent, r.querySelector('[data-testid="unit-with"]')?.textContent ?? ''])));
  assert.equal(withRows.Immortals, 'with Artaphernes');
  assert.equal(withRows['War elephant'], 'with Runners');
  await checkScreen(browser, 'gts-roster-links');
  // The Immortals rout and their leader falls on his sword (Table 1.10, 8): the players are asked
  // which of his side's units stood within 6".
  await tap(browser, `#roster button[data-pick-unit="${id.Immortals}"]`);
  await tap(browser, `#roster button[data-pick-unit="${id.Hoplites}"]`);
  await tap(browser, '#resolve-picked');
  await until(browser, 'the round', async () => (await pads()).length === 2);
  await browser.execute(() => {
    const box = document.querySelector('#dice-typed');
    box.value = '1 10';
    box.dispatchEvent(new Event('input', { bubbles: true }));
  });
  for (const [i, face] of [[2, 10], [3, 1], [4, 8]]) {
    await until(browser, `die ${i} asked`, async () => browser.$(`#sticky-bar button[data-face="${i}:${face}"]`).isExisting());
    await tap(browser, `#sticky-bar button[data-face="${i}:${face}"]`);
  }
  await until(browser, 'the result', async () => browser.$('#bar-result').isExisting());
  await tap(browser, '#apply-result');
  await browser.$('#confirm-choice').waitForExist({ timeout: 10000 });
  const offered = await browser.execute(() => [...document.querySelectorAll('.choice input[data-choice]')].map((b) => b.parentElement.textContent.trim()));
  assert.deepEqual(offered.sort(), ['Immortals', 'Mardonius', 'Persian cavalry', 'Sparabara'], offered.join(' | '));
  await checkScreen(browser, 'gts-near-fallen-leader');
  await tap(browser, `.choice input[data-choice][value="${id.Sparabara}"]`);
  await tap(browser, '#confirm-choice');
  await browser.$('#applied').waitForExist({ timeout: 10000 });
  const words = await roster();
  assert.match(words.Sparabara, /fallen leader/, words.Sparabara);
  assert.doesNotMatch(words['Persian cavalry'], /fallen leader/, words['Persian cavalry']);
  assert.match(words.Artaphernes, /lost|killed/, words.Artaphernes);
});
