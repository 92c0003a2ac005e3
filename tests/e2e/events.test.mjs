// End to end: a convention event in the real app window, as a game master runs it at 1280×800
// and 390×844 — a DBMM event set up, five players added (a duplicate refused beside the name),
// round 1 paired (tables, the bye), two players swapped before it starts, a battle begun from a
// pairing (its sides the two players), its result asked before the battle has one (refused in
// words), a result entered by hand, another table's battle file imported (an edited copy refused
// naming its table, the true one checked), the standings, the projector view, the printable
// standings saved through the system's dialog, "Pair round 2" tapped twice (one round 2), and
// round 2's results entered by hand on a phone. Every screen passes support.mjs's checks at both
// sizes; the common path's taps are counted (`event-flow: …`).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DESKTOP, PHONE, checkScreen, chooseSystems, cli, connect, devTextIn, shot, size, tap, until } from './support.mjs';

const XDOTOOL = '/usr/bin/xdotool';
const PLAYERS = [['Anna', 'Early Imperial Roman'], ['Boris', 'Ancient British'], ['Cleo', 'Ptolemaic'], ['Dmitri', 'Seleucid'], ['Emil', 'Gallic']];

let browser;
let home;

before(async () => {
  home = mkdtempSync(join(tmpdir(), 'referee-events-'));
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
  rmSync(home, { recursive: true, force: true });
});

const text = async (selector) => browser.$(selector).getText();
const screenText = async () => browser.execute(() => document.body.innerText);

/** The games of the round shown, as [table, a, b] read from their lines. */
async function games() {
  const lines = await browser.execute(() => [...document.querySelectorAll('#round-games .game')].map((g) => [Number(g.dataset.table), g.querySelector('.line').textContent.trim()]));
  return lines.map(([table, line]) => {
    const m = /^Table (\d+) · (\S+) \(.+\) v (\S+) \(.+\)$/.exec(line);
    assert.ok(m, `a game in words with its table and both armies: “${line}”`);
    assert.equal(Number(m[1]), table);
    return [table, m[2], m[3]];
  });
}

/** A DBMM battle file made by the CLI on its own database: the two players as its sides, an
 * element each side and more, one of them destroyed (a result in force for the verdict). */
function battleFile(a, b) {
  const db = join(home, `file-${a}-${b}.db`);
  const script = join(home, `script-${a}-${b}.json`);
  writeFileSync(script, JSON.stringify({
    battle: { name: `${a} v ${b}`, ruleset: 'dbmm', sides: [{ name: a, commands: ['Centre'] }, { name: b, commands: ['Centre'] }] },
    steps: [
      { op: 'add_unit', unit: { label: 'Bd 1', side: a, stats: { type: 'Bd', grade: 'O' } } },
      { op: 'add_unit', unit: { label: 'Bd 2', side: a, stats: { type: 'Bd', grade: 'O' } } },
      { op: 'add_unit', unit: { label: 'Pk 1', side: b, stats: { type: 'Pk', grade: 'O' } } },
      { op: 'add_unit', unit: { label: 'Pk 2', side: b, stats: { type: 'Pk', grade: 'O' } } },
      { op: 'adjust', subject: { unit: 3 }, change: { kind: 'element_fate', fate: 'destroyed' } },
    ],
  }));
  execFileSync(cli, ['--db', db, 'battle', 'script', script]);
  const id = JSON.parse(execFileSync(cli, ['--db', db, 'battle', 'list']).toString())[0].id;
  return execFileSync(cli, ['--db', db, 'battle', 'export', String(id)]).toString();
}

/** A battle file chosen for a table's "Import battle file", as the file picker hands it over. */
async function importFile(table, name, contents) {
  await browser.execute((t, n, c) => {
    const input = document.querySelector(`input[data-import="${t}"]`);
    const files = new DataTransfer();
    files.items.add(new File([c], n, { type: 'application/json' }));
    input.files = files.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, table, name, contents);
}

/** A result entered by hand: "Enter by hand", the winner, both victory points, "Record result".
 * Answers the taps it took. */
async function byHand(table, winner, vpA, vpB) {
  await tap(browser, `button[data-hand="${table}"]`);
  await tap(browser, `#hand-${table} input[value="${winner}"]`);
  await browser.$(`#vp-a-${table}`).setValue(String(vpA));
  await browser.$(`#vp-b-${table}`).setValue(String(vpB));
  await tap(browser, `#hand-send-${table}`);
  await until(browser, `table ${table}'s result`, async () => browser.$(`[data-result="${table}"]`).isExisting());
  assert.match(await text(`[data-result="${table}"]`), /Entered by hand$/);
  return 5;
}

test('a DBMM event from its setup to round 2, at both sizes', async () => {
  let taps = 0;
  await size(browser, DESKTOP);

  // The events screen, empty, and a new event: its name and Create (DBMM, the first system, ticked
  // by default with its own scoring; chooseSystems ticks it should the order change).
  await tap(browser, '#nav-events');
  taps++;
  await browser.$('#new-event').waitForExist({ timeout: 10000 });
  await chooseSystems(browser, ['dbmm']);
  await until(browser, 'a scoring for DBMM chosen', async () => (await browser.$('#event-scoring').getValue()) !== '');
  await checkScreen(browser, 'events-new');
  await browser.$('#event-name').setValue('Saturday DBMM open');
  await tap(browser, '#create-event');
  taps += 2;
  await until(browser, 'the event open', async () => (await browser.$('#event-title').isExisting()) && (await text('#event-title')) === 'Saturday DBMM open');
  assert.match(await text('#event-summary'), /DBMM/);

  // Five players, each with Enter; a name already in is refused beside the field, what was typed kept.
  for (const [name, army] of PLAYERS) {
    await browser.$('#player-name').setValue(name);
    await browser.$('#player-army').setValue(army);
    await browser.keys('Enter');
    await until(browser, `${name} listed`, async () => (await text('#player-list')).includes(name));
  }
  await browser.$('#player-name').setValue('anna');
  await browser.keys('Enter');
  await until(browser, 'the duplicate refused', async () => browser.$('#player-name-error').isExisting());
  const refused = await text('#player-name-error');
  assert.match(refused, /Anna|anna/);
  assert.deepEqual(devTextIn(refused), []);
  assert.equal(await browser.$('#player-name').getValue(), 'anna');
  await browser.$('#player-name').clearValue();

  // Round 1: two tables and a bye, each game with its table and both armies.
  await tap(browser, '#pair-round');
  taps++;
  await until(browser, 'round 1 paired', async () => (await browser.$$('#round-games .game')).length === 2);
  let round = await games();
  assert.deepEqual(round.map(([t]) => t).sort(), [1, 2]);
  assert.ok(await browser.$('#round-bye').isExisting(), 'five players: a bye');
  const bye = (await text('#round-bye')).replace(/^Bye: (\S+).*$/s, '$1');

  // Before it starts, the bye swapped with table 1's first player by hand.
  const [, firstOfTable1] = round.find(([t]) => t === 1);
  await tap(browser, '#swap-open');
  await browser.$('#swap-a').selectByAttribute('value', firstOfTable1);
  await browser.$('#swap-b').selectByAttribute('value', bye);
  await tap(browser, '#swap-send');
  await until(browser, 'the swap made', async () => (await text('#round-bye')).startsWith(`Bye: ${firstOfTable1}`));
  round = await games();
  assert.ok(round.some(([, a, b]) => a === bye || b === bye), 'the bye now plays');
  await checkScreen(browser, 'event-round-1');

  // Table 1: a battle begun from the pairing opens with the two players as its sides.
  const [, a1, b1] = round.find(([t]) => t === 1);
  await tap(browser, 'button[data-begin="1"]');
  await browser.$('#battle-title').waitForExist({ timeout: 10000 });
  const sides = await browser.execute(() => [...document.querySelectorAll('#unit-side option')].map((o) => o.textContent.trim()));
  assert.ok(sides.some((s) => s.includes(a1)) && sides.some((s) => s.includes(b1)), `the battle's sides are ${a1} and ${b1}: ${sides}`);
  // Events leads back to the event open; the game offers its battle and its result.
  await tap(browser, '#nav-events');
  await browser.$('button[data-from-battle="1"]').waitForExist({ timeout: 10000 });
  // "Open battle" opens it again, and Events leads back once more.
  await tap(browser, 'button[data-open-battle="1"]');
  await until(browser, 'the battle open again', async () => (await browser.$('#battle-title').isExisting()));
  await tap(browser, '#nav-events');
  await browser.$('button[data-from-battle="1"]').waitForExist({ timeout: 10000 });
  // The battle has no result yet: its result is refused in words beside the game.
  await tap(browser, 'button[data-from-battle="1"]');
  await until(browser, 'the refusal beside table 1', async () => browser.$('[data-problem="1"]').isExisting());
  assert.deepEqual(devTextIn(await text('[data-problem="1"]')), []);
  // So it is entered by hand.
  const handTaps = await byHand(1, a1, 15, 10);
  assert.ok(!(await browser.$('[data-problem="1"]').isExisting()), 'the refusal goes once the result is in');

  // Table 2: another table's battle file; an edited copy is refused naming the table.
  const [, a2, b2] = round.find(([t]) => t === 2);
  const file = battleFile(a2, b2);
  await importFile(2, 'edited.json', file.replace('"Pk 2"', '"Pk 9"'));
  await until(browser, 'the edited file refused', async () => browser.$('[data-problem="2"]').isExisting());
  const edited = await text('[data-problem="2"]');
  assert.match(edited, /[Tt]able 2/, `the refusal names the table: ${edited}`);
  assert.deepEqual(devTextIn(edited), []);
  await importFile(2, 'table-2.json', file);
  await until(browser, 'the file’s result in', async () => browser.$('[data-result="2"]').isExisting(), 15000);
  assert.match(await text('[data-result="2"]'), /Battle file checked$/);
  assert.equal(await text('#results-to-come'), 'All results in');

  // The standings: every player, ranks (shared ones as "=N"), points, VP, W-D-L.
  const rows = await browser.$$('#standings-table tbody tr');
  assert.equal(rows.length, PLAYERS.length);
  // Ranks as the rules share them: the top is 1, or "=1" when tied on every tie-break.
  const ranks = await browser.execute(() => [...document.querySelectorAll('#standings-table td.rank')].map((td) => td.textContent.trim()));
  assert.match(ranks[0], /^=?1$/);
  for (const r of ranks) assert.match(r, /^=?\d+$/);
  assert.deepEqual(devTextIn(await screenText()), []);
  await checkScreen(browser, 'event-standings');

  // The projector view: the round's tables and the standings in large type; Escape closes it.
  await tap(browser, '#projector-open');
  await browser.$('#projector-view').waitForExist({ timeout: 10000 });
  assert.match(await text('#projector-view'), /Table 1/);
  await checkScreen(browser, 'event-projector');
  await browser.keys('Escape');
  await until(browser, 'the projector view closed', async () => !(await browser.$('#projector-view').isExisting()));

  // Print: the standings saved where the game master chooses (the system's save dialog).
  if (existsSync(XDOTOOL)) {
    const saved = join(home, 'chosen', 'Saturday standings.html');
    mkdirSync(join(home, 'chosen'));
    await tap(browser, '#event-print');
    execFileSync(XDOTOOL, ['search', '--sync', '--onlyvisible', '--name', 'Save the event', 'windowfocus', '--sync', '%1', 'key', '--clearmodifiers', 'ctrl+a']);
    execFileSync(XDOTOOL, ['type', '--delay', '20', saved]);
    execFileSync(XDOTOOL, ['key', 'Return']);
    await until(browser, 'where the standings went', async () => (await text('#event-saved').catch(() => '')).length > 0, 20000);
    assert.ok(existsSync(saved), 'the printable standings saved where chosen');
    const html = readFileSync(saved, 'utf8');
    assert.match(html, /^<!doctype html>/i);
    for (const [name] of PLAYERS) assert.ok(html.includes(name), `${name} in the printable standings`);
    assert.deepEqual(devTextIn(await text('#event-saved')), []);

    // Export CSV: the same dialog, a file a spreadsheet opens: the standings, then the games.
    const csv = join(home, 'chosen', 'Saturday standings.csv');
    await tap(browser, '#event-csv');
    execFileSync(XDOTOOL, ['search', '--sync', '--onlyvisible', '--name', 'Save the event', 'windowfocus', '--sync', '%1', 'key', '--clearmodifiers', 'ctrl+a']);
    execFileSync(XDOTOOL, ['type', '--delay', '20', csv]);
    execFileSync(XDOTOOL, ['key', 'Return']);
    await until(browser, 'the CSV file saved', async () => existsSync(csv) && /spreadsheet/.test(await text('#event-saved').catch(() => '')), 20000);
    // The standings first (a heading and a row per player), then the games after a blank line.
    const lines = readFileSync(csv, 'utf8').split(/\r?\n\r?\n/)[0].trim().split(/\r?\n/);
    assert.equal(lines.length, 1 + PLAYERS.length, `a heading and a row per player: ${lines[0]}`);
    for (const [name] of PLAYERS) assert.ok(lines.some((l) => l.includes(name)), `${name} in the CSV file`);
  }

  // "Pair round 2" tapped twice at once: one round 2, nothing refused.
  await browser.execute(() => {
    const pair = document.querySelector('#pair-round');
    pair.click();
    pair.click();
  });
  await until(browser, 'round 2 paired', async () => (await browser.$('#round-games').getAttribute('data-round')) === '2');
  await browser.pause(500);
  assert.equal(await text('#event-message'), '', 'the second tap refused nothing: it was let go');
  assert.match(await text('#event-round h3'), /^Round 2 of 4$/);
  assert.equal((await browser.$$('#round-games .game')).length, 2);
  assert.match(await text('#event-undo'), /round 2/i);

  // Round 2's results by hand on a phone; Undo takes the last one back, in words.
  await size(browser, PHONE);
  for (const [table, a] of await games()) await byHand(table, a, 14, 11);
  await shot(browser, 'event-round-2-phone');
  const undo = await text('#event-undo');
  assert.match(undo, /^Undo/);
  await tap(browser, '#event-undo');
  await until(browser, 'a result taken back', async () => (await browser.$$('[data-result]')).length === 1);
  await tap(browser, '#event-redo');
  await until(browser, 'the result put back', async () => (await browser.$$('[data-result]')).length === 2);
  await checkScreen(browser, 'event-round-2', { restore: PHONE });
  await size(browser, DESKTOP);
  // The common path, players aside: Events, name, Create; Pair round; a result by hand.
  console.log(`event-flow: ${taps} interactions to set up and pair, ${handTaps} for a result by hand (two fewer without victory points)`);
});
