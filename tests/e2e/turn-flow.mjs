// What the whole-turn walks share (gts-turn, medieval-turn): a battle begun and its units added
// through the app's own forms, the roster read in its words, and a fight played as an umpire plays
// it — picks on the roster, Resolve, the situation set, each stage of dice typed or tapped as it is
// asked, Apply (and a second tap that must change nothing) — with every interaction counted.
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, shot, size, tap, until } from './support.mjs';

export async function beginBattle(browser, ruleset, name, [a, b]) {
  await browser.$('#nav-battles').click();
  await browser.$('#new-ruleset').selectByAttribute('value', ruleset);
  await browser.$('#new-name').setValue(name);
  await browser.$('#new-side-a').setValue(a);
  await browser.$('#new-side-b').setValue(b);
  await browser.$('#create-battle').click();
  await browser.$('#add-unit').waitForExist({ timeout: 10000 });
}

/** A battle begun from a preset, its sides renamed when names are given, under its own name when
 * one is given. */
export async function beginPreset(browser, ruleset, preset, names, battle) {
  await browser.$('#nav-battles').click();
  await browser.$('#new-ruleset').selectByAttribute('value', ruleset);
  const list = await browser.$('#new-preset');
  await until(browser, `the ${ruleset} presets listed`, async () => (await list.$$(`option[value="${preset}"]`)).length === 1);
  await list.selectByAttribute('value', preset);
  await browser.$('#preset-preview').waitForExist({ timeout: 10000 });
  if (names) {
    await browser.$('#new-side-a').setValue(names[0]);
    await browser.$('#new-side-b').setValue(names[1]);
  }
  if (battle) await browser.$('#new-name').setValue(battle);
  await browser.$('#create-battle').click();
  await browser.$('#standing').waitForExist({ timeout: 10000 });
}

/** Fills the add-unit form and taps Add (a refusal may follow: the caller reads it). */
export async function fillUnit(browser, label, side, stats, role = 'unit') {
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
}

/** Adds a unit through the form and waits for it on the roster. */
export async function addUnit(browser, label, side, stats, role = 'unit') {
  await fillUnit(browser, label, side, stats, role);
  await until(browser, `${label} on the roster`, async () => (await browser.$('#roster').getText()).includes(label));
}

/** Each roster unit's id, by label. */
export async function rosterIds(browser) {
  await tap(browser, 'button[data-tab="roster"]');
  await browser.$('#roster .unit-row').waitForExist({ timeout: 10000 });
  const out = {};
  for (const row of await browser.$$('#roster .unit-row')) out[await row.$('strong').getText()] = Number(await row.getAttribute('data-unit'));
  return out;
}

/** The roster's words for each unit, by label. */
export async function roster(browser) {
  await tap(browser, 'button[data-tab="roster"]');
  await browser.$('#roster .unit-row').waitForExist({ timeout: 10000 });
  const out = {};
  for (const row of await browser.$$('#roster .unit-row')) out[await row.$('strong').getText()] = await row.$('[data-testid="unit-state"]').getText();
  return out;
}

/** The moves the results called for on each roster row, by label (none: no entry). */
export async function rosterMoves(browser) {
  await tap(browser, 'button[data-tab="roster"]');
  await browser.$('#roster .unit-row').waitForExist({ timeout: 10000 });
  const out = {};
  for (const row of await browser.$$('#roster .unit-row')) {
    const moves = await row.$('[data-testid="unit-moves"]');
    if (await moves.isExisting()) out[await row.$('strong').getText()] = await moves.getText();
  }
  return out;
}

/** The dice laid out now: each pad's name. */
export async function pads(browser) {
  // Read at once: the pads of the next stage come and go as faces are typed.
  return browser.execute(() => [...document.querySelectorAll('#sticky-bar .pad')].map((p) => p.getAttribute('aria-label')));
}

/** The dice laid out now, thrown or not. */
async function laidOut(browser) {
  return browser.execute(() => document.querySelectorAll('#sticky-bar .pad, #sticky-bar .thrown').length);
}

/** The dice still blank, in order: their place in the throw, and whether each is a d100 (typed in
 * its own box) or a die of faces to tap. */
async function blankDice(browser) {
  return browser.execute(() => [...document.querySelectorAll('#sticky-bar .pad')].flatMap((pad) => {
    const face = pad.querySelector('button[data-face]');
    const own = pad.querySelector('input[data-die]');
    if (face) return pad.querySelector('button[aria-pressed="true"]') ? [] : [{ i: Number(face.dataset.face.split(':')[0]), d100: false }];
    return own && !own.value ? [{ i: Number(own.dataset.die), d100: true }] : [];
  }));
}

/** A turn's counter of interactions and its moves: `count` taps, `phase` picks a phase on the
 * dashboard, `chip` ticks a common situation, `fight` plays one fight. `system` names the lines
 * it prints ("turn-flow gts (desktop): …"). */
export function turnFlow(browser, system, label, id) {
  const flow = { n: 0 };
  flow.count = async (selector) => {
    await tap(browser, selector);
    flow.n += 1;
  };
  flow.phase = async (key) => {
    await flow.count('button[data-tab="dashboard"]');
    await browser.$('#phase').selectByAttribute('value', key);
    flow.n += 1;
    await until(browser, `the ${key} phase`, async () => (await browser.$('#phase').getValue()) === key);
  };
  flow.chip = (key) => async () => {
    await tap(browser, `button[data-chip="${key}"]`);
    return 1;
  };
  /** Picks, Resolve, the situation set, each stage's dice typed as it is asked, Apply. `dice`
   * gives the faces in order; each die after the first stage is tapped on its pad (a d100 typed in
   * its own box): one interaction per follow-up die. Answers the follow-up dice. */
  flow.fight = async (what, picks, action, situation, dice, ready = async () => true) => {
    const start = flow.n;
    await flow.count('button[data-tab="roster"]');
    for (const unit of picks) await flow.count(`#roster button[data-pick-unit="${id[unit]}"]`);
    await flow.count('#resolve-picked');
    await until(browser, `${what}: the resolver on ${action}`, async () => (await browser.$('#action').isExisting()) && (await browser.$('#action').getValue()) === action);
    flow.n += await situation();
    // The odds of the situation as set (a chip re-resolves it): its dice, not the last ones.
    await until(browser, `${what}: the situation resolved`, ready);
    // The form loaded and its odds in (its dice laid out), before the blank dice are read: read
    // while the fight was still loading, there were none and the throw was never typed.
    await until(browser, `${what}: the odds shown`, async () => browser.execute(() => {
      const form = document.querySelector('.resolver');
      return !!form && form.getAttribute('aria-busy') !== 'true' && !!document.querySelector('#sticky-bar .pad, #bar-result');
    }));
    let followUps = 0;
    for (let stage = 0; stage < 12; stage += 1) {
      const laid = await laidOut(browser);
      const blank = await blankDice(browser);
      if (!blank.length) break;
      if (stage === 0) {
        // Typed in one go (as pasted: keystroke by keystroke, a chain would move on after "1" of "10").
        await browser.execute((text) => {
          const box = document.querySelector('#dice-typed');
          box.value = text;
          box.dispatchEvent(new Event('input', { bubbles: true }));
        }, dice.slice(0, blank.length).join(' '));
        flow.n += 1;
      } else {
        for (const { i, d100 } of blank) {
          if (d100) await browser.$(`#sticky-bar input[data-die="${i}"]`).setValue(String(dice[i]));
          else await tap(browser, `#sticky-bar button[data-face="${i}:${dice[i]}"]`);
          flow.n += 1;
          followUps += 1;
        }
      }
      await until(browser, `${what}: the next dice or the result`, async () => (await browser.$('#bar-result').isExisting()) || (await laidOut(browser)) > laid).catch(async (e) => {
        await shot(browser, `${system}-turn-stuck-${label}`);
        throw e;
      });
    }
    const apply = await browser.$('#apply-result');
    await until(browser, `${what}: Apply ready`, async () => apply.isEnabled()).catch(async (e) => {
      await shot(browser, `${system}-turn-no-apply-${label}`);
      throw e;
    });
    await apply.click();
    flow.n += 1;
    await apply.click().catch(() => undefined); // a double tap applies once
    await browser.$('#applied').waitForExist({ timeout: 10000 });
    const taken = flow.n - start - 1; // the tab tap is navigation
    console.log(`turn-flow ${system} (${label}): ${what}: ${taken} interactions, ${followUps} follow-up dice`);
    assert.ok(taken <= 7 + followUps, `${what}: ${taken} interactions with ${followUps} follow-up dice`);
    return followUps;
  };
  /** The next turn, from the dashboard. */
  flow.nextTurn = async () => {
    await flow.count('button[data-tab="dashboard"]');
    const turn = await browser.$('.turn-bar').getText();
    await flow.count('#next-turn');
    await until(browser, 'the next turn', async () => (await browser.$('.turn-bar').getText()) !== turn);
  };
  /** The turn's count, printed as `turn-flow <system>: N interactions`. */
  flow.done = () => {
    console.log(`turn-flow ${system} (${label}): ${flow.n} interactions`);
    console.log(`turn-flow ${system}: ${flow.n} interactions`);
    return flow.n;
  };
  return flow;
}

/** The whole turn played at 1280×800 and at 390×844, each in a battle of its own named from
 * `battles`, its last screen kept as `<system>-turn-<size>`. */
export function atBothSizes(test, browser, name, system, battles, setUp, playTurn) {
  for (const [label, dims, battle] of [['desktop', DESKTOP, battles[0]], ['phone', PHONE, battles[1]]]) {
    test(`a whole ${name} turn from the roster at ${dims.join('×')}`, async () => {
      await size(browser(), dims);
      await setUp(battle);
      await playTurn(label);
      await shot(browser(), `${system}-turn-${label}`);
    });
  }
}

/** The log's lines in force (not undone), each as its text reads. */
export async function logInForce(browser) {
  await tap(browser, 'button[data-tab="log"]');
  await browser.$('.log .log-entry').waitForExist({ timeout: 10000 });
  return browser.execute(() => [...document.querySelectorAll('.log .log-entry:not(.undone) .text')].map((e) => e.textContent.trim()));
}

/** The hex a unit is listed under on the roster (its group's heading). */
export async function hexOf(browser, id) {
  return browser.execute((unit) => document.querySelector(`#roster .unit-row[data-unit="${unit}"]`)?.closest('ul')?.previousElementSibling?.textContent ?? '', id);
}
