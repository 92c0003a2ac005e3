// End to end: one full combat per rule system in the real app window — begin a battle, add three
// units a side from the ruleset's lists, then the table flow at 1280×800 and 390×844: pick the
// units on the roster, Resolve, type the dice, Apply (a double tap applies once), undo — counting
// the interactions (`table-flow <system>: N interactions`, at most six).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, connect, shot, size, tap, until } from './support.mjs';

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

async function beginBattle(ruleset, name, sides, panic) {
  await browser.$('#nav-battles').click();
  await browser.$('#new-ruleset').selectByAttribute('value', ruleset);
  await browser.$('#new-name').setValue(name);
  await browser.$('#new-side-a').setValue(sides[0]);
  await browser.$('#new-side-b').setValue(sides[1]);
  if (panic) {
    await browser.$('#panic-a').setValue(String(panic[0]));
    await browser.$('#panic-b').setValue(String(panic[1]));
  }
  await browser.$('#create-battle').click();
  await browser.$('#add-unit').waitForExist({ timeout: 10000 });
}

/** A field of the unit form set as an umpire would: a code typed into a searchable list picks
 * it; a short list is chosen from; a number typed. Answers the interactions it took. */
async function setField(key, value) {
  const el = await browser.$(`#add-unit #unit-${key}`);
  await el.waitForExist({ timeout: 10000 });
  const tag = await el.getTagName();
  if (tag === 'select') await el.selectByAttribute('value', String(value));
  else if ((await el.getAttribute('type')) === 'checkbox') { if ((await el.isSelected()) !== value) await el.click(); }
  else await el.setValue(String(value));
  return 1;
}

async function addUnit(label, side, stats) {
  await browser.$('#unit-label').setValue(label);
  await browser.$('#unit-side').selectByVisibleText(side);
  for (const [key, value] of Object.entries(stats)) await setField(key, value);
  await browser.$('#add-unit-button').click();
  await until(browser, `${label} on the roster`, async () => (await browser.$('#roster').getText()).includes(label));
}

/** The table flow, counted as the umpire would: on the roster tap the attackers and the
 * defenders, "Resolve", type the dice in one go, "Apply" — then a second tap where Apply was (a
 * double tap), which must change nothing. Answers the interactions and the result on screen. */
async function tableFlow(system, label, attackers, defenders, dice) {
  let n = 0;
  const step = (what) => process.env.E2E_STEPS && console.log(`${system} (${label}): ${what}`);
  step('to the roster');
  await tap(browser, 'button[data-tab="roster"]');
  await browser.$('#roster .unit-row').waitForExist({ timeout: 10000 });
  for (const id of [...attackers, ...defenders]) {
    step(`pick ${id}`);
    await tap(browser, `#roster button[data-pick-unit="${id}"]`);
    n += 1;
  }
  step('picked');
  await browser.$('#resolve-picked').click();
  n += 1;
  step('resolve tapped');
  await until(browser, `the odds of the ${system} fight`, async () => (await browser.$$('#sticky-bar .likely')).length > 0).catch(async (e) => {
    throw new Error(`${e.message}; the resolver shows: ${(await browser.$('.resolver').getText()).slice(0, 600)}`);
  });
  for (const id of [...attackers, ...defenders]) assert.ok(await browser.$(`#fight [data-fighter="${id}"]`).isExisting(), `unit ${id} in the fight`);
  await browser.$('#dice-typed').setValue(dice);
  n += 1;
  // A chain (a GTS round) asks its next dice in turn: each tapped on its pad (a d100 typed in
  // its box), one interaction per follow-up die.
  const followUps = await throwTheRest();
  n += followUps;
  const outcome = await browser.$('#battle-resolution [data-testid="outcome-result"]');
  await until(browser, 'the result in words', async () => outcome.isExisting());
  const result = await outcome.getAttribute('data-result');
  const states = async () => Promise.all([...attackers, ...defenders].map((id) => unitStateAnywhere(id)));
  const before = await states();
  const apply = await browser.$('#apply-result');
  await until(browser, 'Apply ready', async () => apply.isEnabled());
  step('apply');
  const tapped = Date.now();
  await browser.execute(() => {
    const t0 = performance.now();
    window.__applyLog = [];
    let last = '';
    const note = () => {
      const b = document.querySelector('#apply-result');
      const text = `${b?.textContent?.trim()}${b?.disabled ? ' (disabled)' : ''} | ${document.querySelector('#action')?.value} | undo: ${document.querySelector('#undo')?.getAttribute('aria-label')}`;
      if (text !== last) window.__applyLog.push(`${Math.round(performance.now() - t0)}ms ${text}`);
      last = text;
    };
    window.__applyObserver?.disconnect();
    window.__applyObserver = new MutationObserver(note);
    window.__applyObserver.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    note();
  });
  await apply.click();
  n += 1;
  step('double tap');
  // The double tap's second tap lands on the disabled "Applied ✓".
  await apply.click().catch(() => undefined);
  await until(browser, 'applied', async () => (await apply.getText()) === 'Applied ✓').catch(async (e) => {
    await shot(browser, `failed-apply-${system}-${label}`);
    const errors = [];
    for (const el of await browser.$$('.resolver [role="alert"], .resolver .confirm, .resolver .error')) errors.push(await el.getText());
    const probe = await browser.execute(() => {
      const b = document.querySelector('#apply-result');
      const r = b.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return `rect ${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)} hit ${hit?.id || hit?.tagName} disabled ${b.disabled} vh ${window.innerHeight}`;
    });
    await browser.execute(() => document.querySelector('#apply-result').click());
    await browser.pause(3000);
    const history = await browser.execute(() => window.__applyLog.join('\n'));
    console.log(`apply history:\n${history}`);
    throw new Error(`${e.message}; the resolver says: ${errors.join(' | ') || 'nothing'}; the button: ${await apply.getText()}; ${probe}; after a DOM click: ${await apply.getText()}`);
  });
  console.log(`apply ${system} (${label}): ${Date.now() - tapped} ms`);
  assert.equal(await apply.isEnabled(), false);
  await browser.$('#applied').waitForExist({ timeout: 10000 });
  console.log(`table-flow ${system} (${label}): ${n} interactions`);
  assert.ok(n <= 6 + followUps, `${system} (${label}): ${n} interactions with ${followUps} follow-up dice`);
  return { result, before, states };
}

/** The dice a chain still asks for, thrown one by one as they appear (a 5 on a die of faces, 50
 * on a d100) until the result shows: how many. */
async function throwTheRest() {
  let thrown = 0;
  for (let i = 0; i < 20; i += 1) {
    await browser.pause(400);
    if (await browser.$('#bar-result').isExisting()) break;
    const blank = await browser.execute(() => [...document.querySelectorAll('#sticky-bar .pad')].flatMap((pad) => {
      const face = pad.querySelector('button[data-face]');
      const own = pad.querySelector('input[data-die]');
      if (face) return pad.querySelector('button[aria-pressed="true"]') ? [] : [{ i: Number(face.dataset.face.split(':')[0]), own: false }];
      return own && !own.value ? [{ i: Number(own.dataset.die), own: true }] : [];
    }));
    if (!blank.length) continue;
    const { i: die, own } = blank[0];
    if (own) await browser.$(`#sticky-bar input[data-die="${die}"]`).setValue('50');
    else await tap(browser, `#sticky-bar button[data-face="${die}:5"]`);
    thrown += 1;
  }
  return thrown;
}

/** A unit's state now, as the fight shows it beside its label. */
async function unitStateAnywhere(id) {
  return browser.$(`#fight [data-fighter="${id}"]`).getText();
}

/** The whole walk at one size: the fight applied once, the roster changed exactly once, undone. */
async function walk(system, label, attackers, defenders, dice) {
  const flow = await tableFlow(system, label, attackers, defenders, dice);
  const after = await flow.states();
  assert.notDeepEqual(after, flow.before, `${system}: the result changed the roster`);
  // Only one change: the undo button names the combat, and one undo restores the roster.
  assert.match(await browser.$('#undo').getAttribute('aria-label'), /^Undo: /);
  process.env.E2E_STEPS && console.log(`${system} (${label}): undo`);
  // As a person taps it: after reading the result (Undo ignores a double tap's second tap).
  await browser.pause(1100);
  await browser.$('#undo-applied').click().catch(async (e) => {
    const over = await browser.execute(() => {
      const b = document.querySelector('#undo-applied').getBoundingClientRect();
      const el = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
      return `${JSON.stringify(b)} ${el?.outerHTML.slice(0, 200)} vh=${window.innerHeight}`;
    });
    await shot(browser, `failed-undo-${system}-${label}`);
    throw new Error(`${e.message}: ${over}`);
  });
  await until(browser, `${system}: undone`, async () => JSON.stringify(await flow.states()) === JSON.stringify(flow.before));
  return flow;
}

test('adding 6 × SD to an ITACS roster takes at most five interactions', async () => {
  await beginBattle('itacs', 'Count the taps', ['Romans', 'Carthaginians']);
  let n = 0;
  n += await setField('type', 'SD');
  n += await setField('quantity', 6).catch(async () => { await browser.$('#unit-quantity').setValue('6'); return 1; });
  await browser.$('#add-unit-button').click();
  n += 1;
  await until(browser, 'six SD on the roster', async () => (await browser.$$('#roster .unit-row')).length === 6);
  const labels = [];
  for (const row of await browser.$$('#roster .unit-row strong')) labels.push(await row.getText());
  assert.deepEqual(labels, ['SD 1', 'SD 2', 'SD 3', 'SD 4', 'SD 5', 'SD 6']);
  console.log(`roster: 6 × SD added in ${n} interactions`);
  assert.ok(n <= 5, `${n} interactions`);
});

/** Units on the roster by label → id. */
async function rosterIds() {
  const out = {};
  for (const row of await browser.$$('#roster .unit-row')) out[await row.$('strong').getText()] = Number(await row.getAttribute('data-unit'));
  return out;
}

/** Each system's main combat from a roster of three units a side, at 1280×800 and at 390×844:
 * picked on the roster, physical dice typed, applied once (a double tap), undone. */
async function bothSizes(system, attackers, defenders, dice, check) {
  const flow = await walk(system, 'desktop', attackers, defenders, dice);
  await shot(browser, `battle-${system}-resolver-desktop`);
  await size(browser, PHONE);
  try {
    await walk(system, 'phone', attackers, defenders, dice);
    await shot(browser, `battle-${system}-resolver-phone`);
  } finally {
    await size(browser, DESKTOP);
  }
  // Once more, applied and kept, for the dashboard's break points.
  await tableFlow(system, 'kept', attackers, defenders, dice).catch(async (e) => {
    await shot(browser, `failed-${system}-kept`);
    const over = await browser.execute(() => {
      const t = document.querySelector('button[data-tab="roster"]');
      const b = t.getBoundingClientRect();
      return `${JSON.stringify(b)} ${document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2)?.outerHTML.slice(0, 300)} ${window.innerWidth}x${window.innerHeight} scroll ${window.scrollY}`;
    });
    throw new Error(`${e.message}: ${over}`);
  });
  await check?.(flow);
}

test('ITACS: a melee from the roster, applied once, the standing updated, undone', async () => {
  await beginBattle('itacs', 'Cannae', ['Romans', 'Carthaginians'], [10, 8]);
  await addUnit('17.04', 'Carthaginians', { type: 'SD', count: 4 });
  await addUnit('18.05', 'Carthaginians', { type: 'SD', count: 2 });
  await addUnit('19.05', 'Carthaginians', { type: 'LB', count: 2 });
  await addUnit('17.03', 'Romans', { type: 'PS', count: 2 });
  await addUnit('16.03', 'Romans', { type: 'PS', count: 2 });
  await addUnit('15.03', 'Romans', { type: 'SD', count: 3 });
  const id = await rosterIds();
  await bothSizes('itacs', [id['17.04'], id['18.05']], [id['17.03']], '66', async () => {
    await tap(browser, 'button[data-tab="dashboard"]');
    const card = await browser.$('.side-card[data-side="Romans"]');
    await until(browser, 'the Romans panic gauge', async () => (await card.getText()).includes('Panic'));
    await shot(browser, 'battle-itacs-dashboard-desktop');
    await tap(browser, 'button[data-tab="log"]');
    await until(browser, 'the log shows the melee with its dice', async () => (await browser.$('.log').getText()).includes('(dice 6, 6; physical dice)'));
  });
});

test('Medieval: a combat from the roster costs SPs once, then is undone', async () => {
  await beginBattle('medieval', 'Grunwald', ['Order', 'Lithuania']);
  await addUnit('Knights', 'Order', { type: 'heavy_cavalry', sp: 2, cf: 2 });
  await addUnit('Sergeants', 'Order', { type: 'heavy_cavalry', sp: 2, cf: 2 });
  await addUnit('Crossbows', 'Order', { type: 'light_cavalry', sp: 2, cf: 1 });
  await addUnit('Riders', 'Lithuania', { type: 'light_cavalry', sp: 2, cf: 1 });
  await addUnit('Boyars', 'Lithuania', { type: 'heavy_cavalry', sp: 2, cf: 2 });
  await addUnit('Tatars', 'Lithuania', { type: 'light_cavalry', sp: 2, cf: 1 });
  const id = await rosterIds();
  await bothSizes('medieval', [id.Knights], [id.Riders], '66');
});

test('DBMM: a close combat from the roster destroys an element once, the command morale follows', async () => {
  await beginBattle('dbmm', 'Hastings', ['Normans', 'Saxons']);
  for (const k of ['Knights 1', 'Knights 2', 'Knights 3']) await addUnit(k, 'Normans', { type: 'Kn', grade: 'O' });
  for (const k of ['Huscarls 1', 'Huscarls 2', 'Huscarls 3']) await addUnit(k, 'Saxons', { type: 'Bd', grade: 'O' });
  const id = await rosterIds();
  // Kn 5 + 4 against Bd 2 + 4 in the Kn's bound: the Bd is quick-killed, the Kn pursue.
  await bothSizes('dbmm', [id['Knights 1']], [id['Huscarls 1']], '52', async (flow) => {
    assert.equal(flow.result, 'pursue/destroyed');
    await tap(browser, 'button[data-tab="dashboard"]');
    await until(browser, 'the Saxons gauge moved', async () => (await browser.$('.side-card[data-side="Saxons"]').getText()).length > 0);
    await shot(browser, 'battle-dbmm-dashboard-desktop');
  });
});

test('GTS: a melee from the roster takes stands once, the army break point follows', async () => {
  await beginBattle('gts', 'Thermopylae', ['Greeks', 'Persians']);
  await addUnit('Hoplites', 'Greeks', { class: 'infantry', weapon: 'SP', armour: 'H', stands: 4 });
  await addUnit('Archers', 'Greeks', { class: 'infantry', weapon: 'BW', armour: 'N', stands: 3 });
  await addUnit('Peltasts', 'Greeks', { class: 'infantry', weapon: 'JV', armour: 'N', stands: 3 });
  await addUnit('Immortals', 'Persians', { class: 'infantry', weapon: 'SP', armour: 'M', stands: 3 });
  await addUnit('Sparabara', 'Persians', { class: 'infantry', weapon: 'SP', armour: 'N', stands: 3 });
  await addUnit('Horse', 'Persians', { class: 'cavalry', weapon: 'BW', armour: 'N', stands: 3 });
  const id = await rosterIds();
  // The Greeks throw a 10, the Persians a 1: the Persians take hits; the round's later dice are
  // thrown as it asks for them.
  await bothSizes('gts', [id.Hoplites], [id.Immortals], '10 1', async () => {
    await tap(browser, 'button[data-tab="dashboard"]');
    const persians = await browser.$('.side-card[data-side="Persians"]');
    await until(browser, 'the army break gauge', async () => (await persians.$('.gauge').isExisting()));
    await shot(browser, 'battle-gts-dashboard-desktop');
  });
});

test('bad input in the unit form is a clear sentence beside the field, and nothing is written', async () => {
  await tap(browser, 'button[data-tab="roster"]');
  const before = (await browser.$$('.unit-row')).length;
  await browser.$('#unit-label').setValue('Nobody');
  await browser.$('#add-unit #unit-weapon').setValue('dragonfire');
  await browser.$('#add-unit-button').click();
  const error = await browser.$('#add-unit .field-error');
  await error.waitForExist({ timeout: 10000 });
  assert.match(await error.getText(), /Pick one from the list/);
  assert.equal(await browser.$('#add-unit #unit-weapon').getAttribute('aria-invalid'), 'true');
  assert.equal((await browser.$$('.unit-row')).length, before);
  assert.ok(!(await browser.$('#roster').getText()).includes('Nobody'));
  await shot(browser, 'battle-error');
});

test('settings: with app dice the resolver rolls and applies in one tap, and every toggle shows its worth', async () => {
  await browser.$('#nav-settings').click();
  await browser.$('select[data-setting="diceMode"]').selectByAttribute('value', 'app');
  await browser.$('#settings-message .ok').waitForExist({ timeout: 10000 });
  // Physical dice again however this ends: the later tests enter their dice.
  try {
    await browser.$('#nav-battles').click();
    await browser.$('button[data-open]').waitForExist({ timeout: 10000 });
    // The newest battle first: Thermopylae (GTS).
    await browser.$('button[data-open]').click();
    // Picked on the dashboard's unit strips this time: the Greek archers shoot at the Immortals.
    await browser.$('button[data-tab="dashboard"]').click();
    const strip = (label) => browser.$(`//div[contains(@class,"unit-strip")]//button[.//strong[text()="${label}"]]`);
    await (await strip('Archers')).click();
    await (await strip('Immortals')).click();
    await browser.$('#resolve-picked').click();
    await browser.$('#action').waitForExist({ timeout: 10000 });
    await browser.$('#action').selectByAttribute('value', 'fire');
    const apply = await browser.$('#apply-result');
    await until(browser, 'a roll-and-apply button', async () => (await apply.isExisting()) && (await apply.getText()).startsWith('Roll'));
    await until(browser, 'the worth of the toggles', async () => {
      for (const w of await browser.$$('.worth')) if ((await w.getText()).length > 0) return true;
      return false;
    });
    await apply.click();
    await browser.$('#applied').waitForExist({ timeout: 10000 });
    assert.match(await browser.$('#applied').getText(), /app dice, seed \d+/);
  } finally {
    await browser.$('#nav-settings').click();
    await browser.$('select[data-setting="diceMode"]').selectByAttribute('value', 'physical');
    // Kept by the app before the next file starts it again: the message of the first change is
    // still on screen, so the preferences themselves are read back.
    await until(browser, 'physical dice kept in the preferences', async () => (await browser.executeAsync((done) => {
      window.__TAURI_INTERNALS__.invoke('preferences_load', {}).then((p) => done(p?.diceMode), () => done(undefined));
    })) === 'physical');
  }
});

test('battles screen: duplicate, then delete only after a second tap', async () => {
  await browser.$('#nav-battles').click();
  await browser.$('button[data-open]').waitForExist({ timeout: 10000 });
  const count = async () => (await browser.$$('.battle-row')).length;
  const before = await count();
  await browser.$('button[data-duplicate]').click();
  await until(browser, 'a copy in the list', async () => (await count()) === before + 1);
  const del = await browser.$('button[data-delete]');
  await del.click();
  assert.equal(await count(), before + 1, 'one tap deletes nothing');
  assert.equal(await del.getText(), 'Really delete?');
  await del.click();
  await until(browser, 'the copy deleted', async () => (await count()) === before);
});
