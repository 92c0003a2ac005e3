// End to end: a whole DBMM bound in the real app window, at 1280×800 and at 390×844, from the
// roster of the `dbmm-whole-bound` preset — the Romans' PIPs (p. 27), their archers shooting the
// Gallic slingers (p. 34, the bound named once), the hastati fighting the soldurii with the
// principes overlapping them and the Roman horse on their flank (p. 35, 37–38), which disheartens
// the Warband and removes its chariots (p. 43, R-DBMM-35); undo of that result exact, then applied
// again; the Gaesatae fighting shaken for it, overlapped by the hastati, which breaks the Warband
// and routs its general; the Nobles marked as seeing it at the bound's end (R-DBMM-36); the
// standing; the next bound. The battle's clock started once from the time of day opened from the
// battle (p. 23, R-DBMM-39), the PIP dice opened with the commands of the bound's side
// (R-DBMM-41), and past dusk the decision at dusk taken in one tap and undone (R-DBMM-40). Every
// contact is picked from the roster's elements once, every die typed as the table threw it, every
// result checked on the roster and the standing. Every interaction is counted (`turn-flow dbmm:
// N interactions`); a combat with one situational factor takes at most 7.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, checkScreen, connect, devTextProblems, shot, size, tap, until } from './support.mjs';
import { atBothSizes, beginPreset, rosterIds, turnFlow } from './turn-flow.mjs';

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

/** A battle begun from the preset under its own name. */
const setUp = (name) => beginPreset(browser, 'dbmm', 'dbmm-whole-bound', undefined, name);

/** The roster's words for each element, by label: its state, and what the results call on it to
 * do on the table ("general, in the line; Brennus: routs"). */
async function roster() {
  await tap(browser, 'button[data-tab="roster"]');
  await browser.$('#roster .unit-row').waitForExist({ timeout: 10000 });
  return browser.execute(() => Object.fromEntries([...document.querySelectorAll('#roster .unit-row')].map((row) => {
    const moves = row.querySelector('[data-testid="unit-moves"]');
    const state = row.querySelector('[data-testid="unit-state"]').textContent.trim();
    return [row.querySelector('strong').textContent.trim(), moves ? `${state}; ${moves.textContent.trim()}` : state];
  })));
}

/** Each command's and army's gauge on the dashboard, in its words, by label ("Gauls Warband"). */
async function standing() {
  await tap(browser, 'button[data-tab="dashboard"]');
  await browser.$('#standing .gauge').waitForExist({ timeout: 10000 });
  return browser.execute(() => Object.fromEntries([...document.querySelectorAll('#standing .side-card')].flatMap((card) =>
    [...card.querySelectorAll('.gauge')].map((g) => [`${card.dataset.side} ${g.dataset.label}`, g.querySelector('[data-testid="gauge-text"]').textContent.trim()]))));
}

/** The log's entries in force, in words. */
async function logEntries() {
  await tap(browser, 'button[data-tab="log"]');
  await browser.$('.log .log-entry').waitForExist({ timeout: 10000 });
  return browser.execute(() => [...document.querySelectorAll('.log .log-entry:not(.undone)')].map((e) => e.textContent.replace(/\s+/g, ' ').trim()));
}

/** The resolver's text: the fight, its asks and contacts, the result and its modifiers. */
async function resolverText() {
  return browser.execute(() => document.querySelector('.resolver').innerText);
}

/** The modifiers of the resolution shown, each with its worth ("Soldurii: Each flank overlapped
 * (×1) −1"), read whether their panel is open or not. */
async function modifiers() {
  return browser.execute(() => [...document.querySelectorAll('#battle-resolution .modifiers tbody tr')].map((tr) => `${tr.cells[0].textContent.trim()} ${tr.cells[1].textContent.trim()}`));
}

/** A throw typed in the dice box in one go, as pasted. */
async function typeDice(text) {
  await browser.execute((faces) => {
    const box = document.querySelector('#dice-typed');
    box.value = faces;
    box.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}

async function noDeveloperText(what) {
  const problems = await devTextProblems(browser);
  assert.deepEqual(problems, [], `${what}: ${problems.join('\n')}`);
}

async function playBound(label) {
  const id = await rosterIds(browser);
  const flow = turnFlow(browser, 'dbmm', label, id);
  /** A contact picked from its list of the side's elements: one interaction; the fight opens
   * again with it, and shows what it brings. */
  const contact = (kind, part, unit) => async () => {
    const list = await browser.$(`select[data-contact-pick="${kind}:${part}"]`);
    await list.waitForExist({ timeout: 10000 });
    await browser.execute((e) => e.scrollIntoView({ block: 'center' }), list);
    await list.selectByAttribute('value', String(id[unit]));
    return 1;
  };
  const brings = (unit) => async () => browser.$(`[data-contact-unit="${id[unit]}"] .implied`).isExisting();
  const before = await roster();
  assert.equal(before.Slingers, 'in the line');

  // The battle's clock (p. 23, R-DBMM-39): the time of day opened from the battle asks for it
  // once; applied, the battle keeps it, 10 minutes a bound, and the dashboard says the time.
  assert.equal(await clockLine(), null, 'no clock before the umpire starts it');
  await flow.count('button[data-tab="resolve"]');
  await browser.$('#action').selectByAttribute('value', 'daylight');
  flow.n += 1;
  await until(browser, 'the time of day asked from the battle', async () => (await resolverText()).includes('10 minutes a bound'));
  await browser.$('#f-clock').setValue('15:50');
  flow.n += 1;
  for (const [field, value] of [['climate', 'Cold'], ['season', 'Winter']]) {
    await browser.$(`#f-${field}`).selectByAttribute('value', value);
    flow.n += 1;
  }
  // The weather is set with the clock once (p. 25): the battle keeps it and says it with the
  // clock. Under "Other situations" the fold is opened first, a tap.
  const folded = await browser.execute(() => { const d = document.querySelector('#f-weather')?.closest('details'); return !!d && !d.open; });
  if (folded) {
    await browser.execute(() => { document.querySelector('#f-weather').closest('details').open = true; });
    flow.n += 1;
  }
  await browser.execute((e) => e.scrollIntoView({ block: 'center' }), await browser.$('#f-weather'));
  await browser.$('#f-weather').selectByAttribute('value', 'overcast');
  flow.n += 1;
  await until(browser, 'the clock read', async () => (await resolverText()).includes('The battle’s clock: bound 1 at 15:50') || (await resolverText()).includes("The battle's clock: bound 1 at 15:50"));
  await noDeveloperText('the time of day asked');
  await shot(browser, `dbmm-time-of-day-${label}`);
  // The button says what applying does: the time of day sets the battle's clock.
  assert.equal((await browser.$('#apply-result').getText()).trim(), 'Set the battle’s clock');
  await flow.count('#apply-result');
  await browser.$('#applied').waitForExist({ timeout: 10000 });
  await noDeveloperText('the clock started');
  assert.equal(await clockLine(), 'Bound 1 · 15:50, day; dusk at 16:30; Overcast');
  // The clock line is seen on the dashboard without scrolling, on the phone too.
  const seen = await browser.execute(() => {
    window.scrollTo(0, 0);
    const r = document.querySelector('#battle-gauges')?.getBoundingClientRect();
    return !!r && r.top >= 0 && r.bottom <= window.innerHeight;
  });
  assert.ok(seen, 'the clock line is on the first screen of the dashboard');
  await shot(browser, `dbmm-clock-${label}`);

  // Spontaneous advance (p. 30, R-DBMM-45), picked from the actions at the bound's start (from
  // the dashboard) and opened from the battle with the impetuous elements of the bound's side:
  // the Romans have none.
  await flow.count('button[data-tab="resolve"]');
  // Brought into view first: on a phone, below the clock's undo label, the list can sit under the
  // bar at the bottom, where a tap would land on the bar.
  await browser.execute((e) => e.scrollIntoView({ block: 'center' }), await browser.$('#action'));
  await browser.$('#action').selectByAttribute('value', 'spontaneous_advance');
  flow.n += 1;
  await until(browser, 'the spontaneous advance opened from the battle', async () => (await resolverText()).includes('No element must advance spontaneously this bound.'));
  assert.match(await resolverText(), /Bound 1 is the Romans'/);
  await noDeveloperText('the spontaneous advance');
  await shot(browser, `dbmm-spontaneous-${label}`);

  // PIPs (p. 27): the Romans' C-in-C dices for his two commands, opened from the battle with the
  // commands as the roster names them, bound 1 being the Romans' (R-DBMM-41). Nothing lands on
  // the roster.
  await flow.phase('pips');
  await flow.count('button[data-step-action="pips"]');
  await until(browser, 'the PIP dice', async () => (await browser.$('#action').getValue()) === 'pips');
  await until(browser, 'two commands dicing', async () => (await browser.execute(() => document.querySelectorAll('#sticky-bar .pad').length)) === 2);
  const named = await browser.execute(() => [...document.querySelectorAll('#situation-form input')].map((i) => i.value));
  assert.ok(named.includes('Legion') && named.includes('Horse'), named.join(' | '));
  assert.match(await resolverText(), /Bound 1 is the Romans'/);
  await typeDice('5 2');
  flow.n += 1;
  await until(browser, 'the PIPs thrown', async () => browser.$('#bar-result').isExisting());
  await flow.count('#apply-result');
  await browser.$('#applied').waitForExist({ timeout: 10000 });
  assert.deepEqual(await roster(), before, 'PIPs change no element');

  // Movement (p. 26, 32): the spontaneous advance step resolves from its phase now; the Hastati
  // pass through the Principes, facing the same way — opened from the Hastati's row, the friend
  // picked from the Romans' elements (R-DBMM-43). Nothing lands on the roster.
  await flow.phase('movement');
  assert.ok(await browser.$('button[data-step-action="spontaneous_advance"]').isExisting(), 'the spontaneous advance step has its action');
  await flow.count('button[data-tab="roster"]');
  await flow.count(`#roster .unit-row[data-unit="${id.Hastati}"] button[aria-label="Pass through…: Hastati"]`);
  await until(browser, 'passing through opened from the row', async () => (await browser.$('#action').isExisting()) && (await browser.$('#action').getValue()) === 'interpenetration');
  const through = await browser.$('#f-through');
  await through.waitForExist({ timeout: 10000 });
  await browser.execute((e) => e.scrollIntoView({ block: 'center' }), through);
  const friends = await browser.execute(() => [...document.querySelectorAll('#f-through option')].map((o) => o.value));
  assert.ok(friends.includes('Principes') && !friends.includes('Hastati') && !friends.includes('Soldurii'), friends.join(' | '));
  await through.selectByAttribute('value', 'Principes');
  flow.n += 1;
  await until(browser, 'the Hastati pass through the Principes', async () => (await resolverText()).includes('Hastati passes through Principes'));
  await noDeveloperText('passing through');
  await shot(browser, `dbmm-pass-through-${label}`);
  assert.deepEqual(await roster(), before, 'passing through changes no element');

  // Shooting (p. 34): the Sagittarii shoot the Slingers in the Romans' bound — named once, here,
  // and kept for the bound's next fights. A 6 against a 1 destroys them.
  await flow.phase('shooting');
  await flow.fight('shooting, the bound named', ['Sagittarii', 'Slingers'], 'shooting', async () => {
    await tap(browser, 'button[data-bound="Romans"]');
    return 1;
  }, [6, 1], async () => (await browser.$('button[data-bound="Romans"][aria-pressed="true"]').isExisting()) && (await resolverText()).includes('Fought in the bound of Romans'));
  await noDeveloperText('the shooting applied');
  let words = await roster();
  assert.equal(words.Slingers, 'destroyed');
  assert.equal(words.Sagittarii, 'in the line');
  let gauges = await standing();
  assert.match(gauges['Gauls Nobles'], /steady/, gauges['Gauls Nobles']);

  // Close combat (p. 35–42): the Hastati against the Soldurii, the Principes overlapping them and
  // the Equites (of the Horse) on their flank, each picked once from the Romans' elements and
  // counted on the Soldurii. In the Romans' bound, read from the shooting's. A 6 against a 1
  // destroys them.
  await flow.phase('close_combat');
  const beforeCombat = { roster: await roster(), standing: await standing() };
  await flow.fight('the hastati, an overlap and a friend on the flank', ['Hastati', 'Soldurii'], 'close_combat', async () => {
    await contact('overlap', 'attackers', 'Principes')();
    await until(browser, 'the overlap in', brings('Principes'));
    return 1 + (await contact('on_enemy_flank', 'attackers', 'Equites')());
  }, [6, 1], async () => (await brings('Principes')()) && brings('Equites')());
  let text = await resolverText();
  assert.match(text, /Fought in the bound of Romans/, 'the bound read from the bound named');
  assert.match(text, /Soldurii: Each flank overlapped\s*−1/, 'the overlap counts on the Soldurii');
  assert.match(text, /Soldurii: Each enemy front edge on flank or rear edge\s*−1/, 'the friend on the flank counts on the Soldurii');
  // Each fighter's outcome moves with their distances (p. 13, 40–42, R-DBMM-42).
  const checks = await browser.execute(() => [...document.querySelectorAll('.checks li')].map((li) => li.textContent.replace(/\s+/g, ' ').trim()));
  assert.ok(checks.some((c) => c.includes('Hastati: recoil 15p (its base depth); repulse 160p–240p; flee 160p GGo')), checks.join(' | '));
  await noDeveloperText('the contacts applied');
  await shot(browser, `dbmm-contacts-applied-${label}`);
  words = await roster();
  assert.equal(words.Soldurii, 'destroyed');
  assert.equal(words.Chariots, 'removed (its command disheartened)', 'the Warband’s 0 ME element leaves with the result (R-DBMM-35)');
  assert.equal(words.Equites, 'in the line');
  gauges = await standing();
  assert.match(gauges['Gauls Warband'], /disheartened/, gauges['Gauls Warband']);

  // Undo beside "Applied ✓": the roster and the standing exactly as before the combat. Back on
  // the resolver the fight is read again from the roster, its contacts and bound kept; the same
  // throw is typed and applied again.
  await flow.count('button[data-tab="resolve"]');
  await flow.count('#undo-applied');
  await until(browser, 'the combat undone', async () => !(await browser.$('#applied').isExisting()));
  assert.deepEqual({ roster: await roster(), standing: await standing() }, beforeCombat, 'undo is exact');
  await flow.count('button[data-tab="resolve"]');
  await until(browser, 'the fight read again with its contacts', async () => (await brings('Principes')()) && brings('Equites')());
  await typeDice('6 1');
  flow.n += 1;
  await until(browser, 'the throw read', async () => browser.$('#bar-result').isExisting());
  await flow.count('#apply-result');
  await browser.$('#applied').waitForExist({ timeout: 10000 });
  words = await roster();
  assert.equal(words.Soldurii, 'destroyed');
  assert.equal(words.Chariots, 'removed (its command disheartened)');

  // The Gaesatae (1 ME of the disheartened Warband) attack the Principes in the Romans' bound, the
  // Hastati overlapping them: one situational factor. They fight shaken with nothing ticked, and a
  // 1 against a 6 destroys them; the Warband breaks and Brennus, its general, routs.
  await flow.fight('the gaesatae shaken, overlapped', ['Gaesatae', 'Principes'], 'close_combat', contact('overlap', 'defenders', 'Hastati'), [1, 6], brings('Hastati'));
  text = await resolverText();
  assert.match(text, /Fought in the bound of Romans/, 'the Romans’ bound, though the Gauls attack');
  assert.match(text, /Warband\) is disheartened: it fights shaken/, text);
  assert.ok((await modifiers()).includes('Gaesatae: Broken or shaken in close combat or shot at −1'), (await modifiers()).join(' | '));
  assert.match(text, /Gaesatae: Each flank overlapped\s*−1/, 'the overlap counts on the Gaesatae');
  await noDeveloperText('the shaken element applied');
  await shot(browser, `dbmm-shaken-${label}`);
  words = await roster();
  assert.equal(words.Gaesatae, 'destroyed');
  assert.match(words.Brennus, /routs/, words.Brennus);
  await browser.execute(() => document.querySelector('#roster [data-testid="unit-moves"]')?.scrollIntoView({ block: 'center' }));
  await shot(browser, `dbmm-roster-routs-${label}`);
  assert.equal(words.Principes, 'in the line');
  assert.equal(words.Hastati, 'in the line');
  gauges = await standing();
  assert.match(gauges['Gauls Warband'], /broken/, gauges['Gauls Warband']);
  assert.match(gauges['Gauls Nobles'], /steady/, gauges['Gauls Nobles']);
  assert.match(gauges['Romans Legion'], /steady/, gauges['Romans Legion']);

  // The bound's end (p. 43, R-DBMM-36): the Horsemen see the broken Warband within 800p — one
  // tap on the roster — and the Nobles, who have lost an element, count 1 ME more this bound-end.
  await flow.count('button[data-tab="roster"]');
  await flow.count(`button[aria-label="Sees a broken command within 800p: Horsemen"]`);
  await until(browser, 'the Horsemen marked', async () => (await roster()).Horsemen.includes('sees a broken command'));
  gauges = await standing();
  assert.match(gauges['Gauls Nobles'], /disheartened/, gauges['Gauls Nobles']);
  await shot(browser, `dbmm-standing-${label}`);
  await noDeveloperText('the standing');

  // Each result once in the log, though Apply was tapped twice each time.
  const log = await logEntries();
  for (const [action, times] of [['PIPs', 1], ['Shooting', 1], ['Close combat', 2]]) {
    assert.equal(log.filter((e) => e.replace(/^[\d:]+ /, '').startsWith(action)).length, times, `${action}: ${log.map((e) => e.slice(0, 70)).join(' | ')}`);
  }

  // The next bound: the mark ends, the Nobles are steady again; the Warband stays broken.
  await flow.nextTurn();
  words = await roster();
  assert.doesNotMatch(words.Horsemen, /sees a broken command/, words.Horsemen);
  gauges = await standing();
  assert.match(gauges['Gauls Nobles'], /steady/, gauges['Gauls Nobles']);
  assert.match(gauges['Gauls Warband'], /broken/, gauges['Gauls Warband']);
  assert.equal(await clockLine(), 'Bound 2 · 16:00, dusk (sunset until dusk); night at 16:30; Overcast');
  const taken = flow.done();

  // Past dusk (bound 5, 16:30) each side's decision is asked on the dashboard (p. 23,
  // R-DBMM-40): one tap records the Romans' retreat, and undo takes it back.
  for (const bound of [3, 4, 5]) {
    await tap(browser, 'button[data-tab="dashboard"]');
    await tap(browser, '#next-turn');
    await until(browser, `bound ${bound}`, async () => ((await clockLine()) ?? '').startsWith(`Bound ${bound} `)).catch(async (e) => {
      await shot(browser, `dbmm-stuck-bound-${bound}-${label}`);
      throw e;
    });
  }
  assert.equal(await clockLine(), 'Bound 5 · 16:30, night; dawn at 07:30; Overcast');
  gauges = await standing();
  assert.match(gauges['Romans Decision at dusk'], /continues the battle at dawn/, gauges['Romans Decision at dusk']);
  await tap(browser, '#standing button[data-offer="Romans"]');
  await until(browser, 'the retreat recorded', async () => (await standing())['Romans Decision at dusk'].includes('retreats'));
  await browser.execute(() => document.querySelector('#standing [data-offer], #standing .side-card[data-side="Romans"]')?.scrollIntoView({ block: 'center' }));
  await shot(browser, `dbmm-dusk-${label}`);
  await noDeveloperText('the decision at dusk');
  await tap(browser, '#undo');
  await until(browser, 'the retreat undone', async () => (await standing())['Romans Decision at dusk'].includes('continues'));
  return taken;
}

/** The battle's clock line on the dashboard ("Bound 7 · 14:10, day; dusk at 17:40"), if any. */
async function clockLine() {
  await tap(browser, 'button[data-tab="dashboard"]');
  await browser.$('#standing').waitForExist({ timeout: 10000 });
  return browser.execute(() => [...document.querySelectorAll('#battle-gauges .gauge')].map((g) => g.querySelector('[data-testid="gauge-text"]').textContent.trim()).find((t) => t.startsWith('Bound ')) ?? null);
}

atBothSizes(test, () => browser, 'DBMM', 'dbmm', ['Gergovia', 'Alesia'], setUp, playBound);

test('the contacts of a DBMM fight pass every screen check at both sizes', async () => {
  await size(browser, DESKTOP);
  await setUp('Bibracte');
  const id = await rosterIds(browser);
  await tap(browser, `#roster button[data-pick-unit="${id.Hastati}"]`);
  await tap(browser, `#roster button[data-pick-unit="${id.Soldurii}"]`);
  await tap(browser, '#resolve-picked');
  for (const [kind, unit] of [['overlap', 'Principes'], ['behind', 'Triarii'], ['on_enemy_flank', 'Equites']]) {
    const list = await browser.$(`select[data-contact-pick="${kind}:attackers"]`);
    await list.waitForExist({ timeout: 10000 });
    await browser.execute((e) => e.scrollIntoView({ block: 'center' }), list);
    await list.selectByAttribute('value', String(id[unit]));
    await browser.$(`[data-contact-unit="${id[unit]}"] .implied`).waitForExist({ timeout: 10000 });
  }
  const text = await resolverText();
  // Each contact entered once counts on both elements: the overlap and the friend on the flank
  // each −1 on the Soldurii; the Triarii (Sp) behind Bd give no support here (p. 36).
  assert.match(text, /Soldurii: Each flank overlapped\s*−1/);
  assert.match(text, /Soldurii: Each enemy front edge on flank or rear edge\s*−1/);
  assert.match(text, /Triarii in rank 2 gives no support here/);
  // Taken out again: the fight is as it was without it.
  await tap(browser, `button[aria-label="Take Equites out: On the flank of Soldurii"]`);
  await until(browser, 'the friend on the flank gone', async () => !(await browser.$(`[data-contact-unit="${id.Equites}"]`).isExisting()));
  await until(browser, 'the fight opened again', async () => browser.$(`[data-contact-unit="${id.Triarii}"] .implied`).isExisting());
  await checkScreen(browser, 'dbmm-contacts');
});
