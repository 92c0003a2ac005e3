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
import { DESKTOP, PHONE, checkScreen, connect, shot, size, tap, until } from './support.mjs';

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

async function beginBattle(name) {
  await browser.$('#nav-battles').click();
  await browser.$('#new-ruleset').selectByAttribute('value', 'gts');
  await browser.$('#new-name').setValue(name);
  await browser.$('#new-side-a').setValue('Persians');
  await browser.$('#new-side-b').setValue('Greeks');
  await browser.$('#create-battle').click();
  await browser.$('#add-unit').waitForExist({ timeout: 10000 });
}

async function addUnit(label, side, stats, role = 'unit') {
  await browser.$('#add-unit #unit-role').selectByAttribute('value', role);
  await browser.$('#unit-label').setValue(label);
  await browser.$('#unit-side').selectByVisibleText(side);
  for (const [key, value] of Object.entries(stats)) {
    const el = await browser.$(`#add-unit #unit-${key}`);
    await el.waitForExist({ timeout: 10000 });
    if ((await el.getTagName()) === 'select') await el.selectByAttribute('value', String(value));
    else await el.setValue(String(value));
  }
  await browser.$('#add-unit-button').click();
  await until(browser, `${label} on the roster`, async () => (await browser.$('#roster').getText()).includes(label));
}

async function rosterIds() {
  await tap(browser, 'button[data-tab="roster"]');
  await browser.$('#roster .unit-row').waitForExist({ timeout: 10000 });
  const out = {};
  for (const row of await browser.$$('#roster .unit-row')) out[await row.$('strong').getText()] = Number(await row.getAttribute('data-unit'));
  return out;
}

/** The roster's words for each unit, by label. */
async function roster() {
  await tap(browser, 'button[data-tab="roster"]');
  await browser.$('#roster .unit-row').waitForExist({ timeout: 10000 });
  const out = {};
  for (const row of await browser.$$('#roster .unit-row')) out[await row.$('strong').getText()] = await row.$('[data-testid="unit-state"]').getText();
  return out;
}

async function setUp(name) {
  await beginBattle(name);
  await addUnit('Mardonius', 'Persians', { class: 'cavalry', armour: 'M', weapon: 'LN', stands: 1 }, 'general');
  await addUnit('Immortals', 'Persians', { class: 'infantry', armour: 'M', weapon: 'SP', order: 'CO', stands: 4, leader_pv: 1 });
  await addUnit('Sparabara', 'Persians', { class: 'infantry', armour: 'L', weapon: 'BW', stands: 4 });
  await addUnit('Persian cavalry', 'Persians', { class: 'cavalry', armour: 'N', weapon: 'BW', stands: 3 });
  await addUnit('Hoplites', 'Greeks', { class: 'infantry', armour: 'H', weapon: 'SP', order: 'CO', stands: 4 });
  await addUnit('Peltasts', 'Greeks', { class: 'infantry', armour: 'L', weapon: 'JV', order: 'OO', stands: 4 });
}

/** The dice laid out now: each pad's name. */
async function pads() {
  // Read at once: the pads of the next stage come and go as faces are typed.
  return browser.execute(() => [...document.querySelectorAll('#sticky-bar .pad')].map((p) => p.getAttribute('aria-label')));
}

/** The dice laid out now, thrown or not. */
async function laidOut() {
  return browser.execute(() => document.querySelectorAll('#sticky-bar .pad, #sticky-bar .thrown').length);
}

/** The dice still blank, in order: their place in the throw, and whether each is a d100 (typed in
 * its own box) or a die of faces to tap. */
async function blankDice() {
  return browser.execute(() => [...document.querySelectorAll('#sticky-bar .pad')].flatMap((pad) => {
    const face = pad.querySelector('button[data-face]');
    const own = pad.querySelector('input[data-die]');
    if (face) return pad.querySelector('button[aria-pressed="true"]') ? [] : [{ i: Number(face.dataset.face.split(':')[0]), d100: false }];
    return own && !own.value ? [{ i: Number(own.dataset.die), d100: true }] : [];
  }));
}

async function playTurn(label) {
  const id = await rosterIds();
  let n = 0;
  const count = async (selector) => {
    await tap(browser, selector);
    n += 1;
  };
  /** Picks, Resolve, the situation set, each stage's dice typed as it is asked, Apply. `dice`
   * gives the faces in order; each typing of the box after the first is a follow-up die's. */
  const fight = async (what, picks, action, situation, dice, ready = async () => true) => {
    const start = n;
    await count('button[data-tab="roster"]');
    for (const unit of picks) await count(`#roster button[data-pick-unit="${id[unit]}"]`);
    await count('#resolve-picked');
    await until(browser, `${what}: the resolver on ${action}`, async () => (await browser.$('#action').isExisting()) && (await browser.$('#action').getValue()) === action);
    n += await situation();
    // The odds of the situation as set (a chip re-resolves it): its dice, not the last ones.
    await until(browser, `${what}: the situation resolved`, ready);
    // The first throw typed in one go; each die a later stage asks for tapped (or, a d100, typed
    // in its own box) as it appears — one interaction per follow-up die.
    let followUps = 0;
    for (let stage = 0; stage < 12; stage += 1) {
      const laid = await laidOut();
      const blank = await blankDice();
      if (!blank.length) break;
      if (stage === 0) {
        // Typed in one go (as pasted: keystroke by keystroke, a chain would move on after "1" of "10").
        await browser.execute((text) => {
          const box = document.querySelector('#dice-typed');
          box.value = text;
          box.dispatchEvent(new Event('input', { bubbles: true }));
        }, dice.slice(0, blank.length).join(' '));
        n += 1;
      } else {
        for (const { i, d100 } of blank) {
          if (dice[i] === undefined) throw new Error(`${what}: die ${i} asked beyond the throw given; laid out: ${JSON.stringify(await pads())}; thrown: ${await browser.execute(() => [...document.querySelectorAll('#sticky-bar .thrown')].map((t) => t.textContent).join(' | '))}`);
          if (d100) await browser.$(`#sticky-bar input[data-die="${i}"]`).setValue(String(dice[i]));
          else await tap(browser, `#sticky-bar button[data-face="${i}:${dice[i]}"]`);
          n += 1;
          followUps += 1;
        }
      }
      await until(browser, `${what}: the next dice or the result`, async () => (await browser.$('#bar-result').isExisting()) || (await laidOut()) > laid).catch(async (e) => {
        await shot(browser, `gts-turn-stuck-${label}`);
        throw e;
      });
    }
    const apply = await browser.$('#apply-result');
    await until(browser, `${what}: Apply ready`, async () => apply.isEnabled()).catch(async (e) => {
      await shot(browser, `gts-turn-no-apply-${label}`);
      throw new Error(`${e.message}: the dice laid out ${JSON.stringify(await pads())}, the bar: ${await browser.$('#sticky-bar').getText()}`);
    });
    await apply.click();
    n += 1;
    await apply.click().catch(() => undefined); // a double tap applies once
    await browser.$('#applied').waitForExist({ timeout: 10000 });
    const taken = n - start - 1; // the tab tap is navigation
    console.log(`turn-flow gts (${label}): ${what}: ${taken} interactions, ${followUps} follow-up dice`);
    assert.ok(taken <= 7 + followUps, `${what}: ${taken} interactions with ${followUps} follow-up dice`);
  };
  const phase = async (key) => {
    await count('button[data-tab="dashboard"]');
    await browser.$('#phase').selectByAttribute('value', key);
    n += 1;
    await until(browser, `the ${key} phase`, async () => (await browser.$('#phase').getValue()) === key);
  };
  const chip = (key) => async () => {
    await tap(browser, `button[data-chip="${key}"]`);
    return 1;
  };

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
    n += 1;
    await until(browser, 'the peltasts recovered', async () => !(await roster()).Peltasts.includes('Disordered'));
  }

  // The next turn.
  await count('button[data-tab="dashboard"]');
  const turn = await browser.$('.turn-bar').getText();
  await count('#next-turn');
  await until(browser, 'the next turn', async () => (await browser.$('.turn-bar').getText()) !== turn);
  console.log(`turn-flow gts (${label}): ${n} interactions`);
  console.log(`turn-flow gts: ${n} interactions`);
  return n;
}

test('a whole GTS turn from the roster at 1280×800', async () => {
  await size(browser, DESKTOP);
  await setUp('Plataea');
  await playTurn('desktop');
  await shot(browser, 'gts-turn-desktop');
});

test('a whole GTS turn from the roster at 390×844', async () => {
  await size(browser, PHONE);
  await setUp('Mycale');
  await playTurn('phone');
  await shot(browser, 'gts-turn-phone');
});

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
