// End to end: the tester's bad inputs typed into the real window (issue 35 item 4) — a panic
// level of −5 and of 5,000,000,000, an empty battle name, "How many" −3 and 2.7, a unit's count
// 9,999,999, movement −2, a leader bonus of −5 and 2.5, a situation's leader bonus −5, "abc" and
// a face no die shows as an edited roll. Each is refused beside its field in the rules' words,
// with the button it would have sent waiting and saying why; nothing is sent, created, added or
// applied; no developer text on any of these screens; a right value clears the refusal, and the
// first tap after typing it counts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, connect, devTextProblems, shot, size, tap, until } from './support.mjs';

let browser;

before(async () => {
  browser = await connect();
});

after(async () => {
  await browser?.deleteSession();
});

/** The text beside a field (its refusal), or '' when there is none. */
async function besideOf(id) {
  const el = await browser.$(`#${id}-error`);
  return (await el.isExisting()) ? el.getText() : '';
}

/** Types into a field as a person does: the old text cleared, the new one typed. */
async function type(selector, text) {
  const el = await browser.$(selector);
  await el.waitForExist({ timeout: 10000 });
  await el.clearValue();
  // Cleared by keys too: WebDriver's clear alone tells the page nothing.
  if (text === '') {
    await el.addValue('x');
    await browser.keys('Backspace');
  } else await el.addValue(text);
}

async function noDevText(where) {
  assert.deepEqual(await devTextProblems(browser), [], `${where}: developer text on screen`);
}

test('every field refuses bad input beside itself, and nothing is sent', async () => {
  // Begin a battle: the panic level, the name.
  await browser.$('#nav-battles').click();
  await browser.$('#new-ruleset').selectByAttribute('value', 'itacs');
  const battlesBefore = (await browser.$$('#battle-list .battle-row')).length;
  const begin = await browser.$('#create-battle');
  for (const bad of ['-5', '5000000000', '2.5', '-']) {
    await type('#panic-a', bad);
    assert.equal(await besideOf('panic-a'), 'Panic level must be a whole number from 0 to 10,000.', `panic level “${bad}”`);
    // Kept as typed: never clamped, rounded or turned positive.
    assert.equal(await browser.$('#panic-a').getValue(), bad);
    assert.equal(await begin.isEnabled(), false, `Begin waits while the panic level is “${bad}”`);
    assert.match(await browser.$('#create-battle-waiting').getText(), /panic level/);
  }
  await shot(browser, 'field-checks-panic-desktop');
  await size(browser, PHONE);
  await browser.execute(() => document.querySelector('#panic-a').scrollIntoView({ block: 'center' }));
  await shot(browser, 'field-checks-panic-phone');
  await size(browser, DESKTOP);
  await noDevText('begin a battle, panic level refused');
  // A tap on the waiting Begin sends nothing.
  await browser.execute(() => document.querySelector('#create-battle').click());
  await type('#new-name', '');
  assert.equal(await besideOf('new-name'), 'Name the battle: it cannot be left empty.');
  // The panic level made right: its refusal goes, the name's stays, Begin still waits.
  await type('#panic-a', '20');
  assert.equal(await besideOf('panic-a'), '');
  assert.equal(await begin.isEnabled(), false);
  await browser.pause(500);
  assert.equal((await browser.$$('#battle-list .battle-row')).length, battlesBefore, 'no battle begun while a field was refused');
  assert.equal(await browser.$('#add-unit').isExisting(), false);
  // The name typed, then Begin at once: the first tap counts.
  await type('#new-name', 'Field checks');
  await type('#new-side-a', 'Romans');
  await type('#new-side-b', 'Carthaginians');
  await begin.click();
  await browser.$('#add-unit').waitForExist({ timeout: 10000 });

  // The roster's form: "How many", a unit's numbers, a leader's.
  const add = await browser.$('#add-unit-button');
  for (const bad of ['-3', '2.7', '']) {
    await type('#unit-quantity', bad);
    assert.equal(await besideOf('unit-quantity'), 'The number of units to add must be a whole number from 1 to 50.', `How many “${bad}”`);
    assert.equal(await add.isEnabled(), false);
    assert.equal(await add.getText(), 'Add', 'the button never says a number it will not add');
    assert.match(await browser.$('#add-unit-waiting').getText(), /How many/);
  }
  await noDevText('add units, How many refused');
  await type('#unit-quantity', '1');
  await type('#unit-type', 'SD');
  await type('#unit-count', '9999999');
  assert.equal(await besideOf('unit-count'), 'Units in the hex must be a whole number from 1 to 10,000.');
  assert.equal(await add.isEnabled(), false);
  if (await browser.$('#add-unit #unit-movement').isExisting()) {
    await type('#unit-movement', '-2');
    assert.equal(await besideOf('unit-movement'), 'Movement points must be a whole number from 0 to 10,000.');
    assert.equal(await browser.$('#unit-movement').getValue(), '-2');
    await type('#unit-movement', '');
  }
  await browser.execute(() => document.querySelector('#add-unit-button').click());
  await browser.pause(500);
  assert.equal((await browser.$$('#roster .unit-row')).length, 0, 'no unit added while a field was refused');
  // A strength the rules give militia no value for, typed as printed: the API's refusal (its
  // preview) beside the field, and Add adds nothing.
  await type('#unit-count', '1');
  await type('#unit-type', 'MI');
  const cls = await browser.$('#add-unit #unit-class');
  if ((await cls.getTagName()) === 'select') await cls.selectByAttribute('value', 'A');
  else await type('#unit-class', 'A');
  await type('#unit-combat', '9999999');
  await until(browser, 'the strength refused beside its field', async () => {
    const field = await browser.$('#unit-combat').parentElement().parentElement();
    return /combat strength .*9999999.* must be a whole number from 0 to 10,000/i.test(await field.getText());
  });
  await noDevText('add a unit, strength refused by the API');
  await add.click();
  await browser.pause(500);
  assert.equal((await browser.$$('#roster .unit-row')).length, 0, 'no unit added with a strength refused');
  await type('#unit-type', 'SD');
  // Made right, then Add at once: the first tap after typing counts.
  await type('#unit-count', '2');
  assert.equal(await besideOf('unit-count'), '');
  await type('#unit-quantity', '2');
  await add.click();
  await until(browser, 'two SD on the roster', async () => (await browser.$$('#roster .unit-row')).length === 2);

  // A leader's bonus: −5 stays −5 and is refused, 2.5 is refused, never rounded.
  await browser.$('#add-unit #unit-role').selectByAttribute('value', 'leader');
  for (const bad of ['-5', '2.5']) {
    await type('#unit-bonus', bad);
    assert.equal(await besideOf('unit-bonus'), 'Leader bonus must be a whole number from 0 to 100.', `leader bonus “${bad}”`);
    assert.equal(await browser.$('#unit-bonus').getValue(), bad);
    assert.equal(await add.isEnabled(), false);
  }
  await shot(browser, 'field-checks-leader-desktop');
  await noDevText('add a leader, bonus refused');
  await type('#unit-bonus', '');
  await browser.$('#add-unit #unit-role').selectByAttribute('value', 'unit');
  await browser.$('#unit-side').selectByVisibleText('Carthaginians');
  await type('#unit-quantity', '1');
  await type('#unit-label', 'PS');
  await type('#unit-type', 'PS');
  await type('#unit-count', '2');
  await add.click();
  await until(browser, 'PS on the roster', async () => (await browser.$$('#roster .unit-row')).length === 3);

  // A fight: the situation's leader bonus refused beside itself, Apply waiting.
  const ids = await browser.execute(() => [...document.querySelectorAll('#roster .unit-row')].map((r) => [r.querySelector('strong').textContent, Number(r.dataset.unit)]));
  const id = Object.fromEntries(ids);
  await tap(browser, `#roster button[data-pick-unit="${id['SD 1']}"]`);
  await tap(browser, `#roster button[data-pick-unit="${id.PS}"]`);
  await browser.$('#resolve-picked').click();
  await until(browser, 'the odds', async () => (await browser.$$('#sticky-bar .likely')).length > 0);
  await browser.execute(() => document.querySelectorAll('details.more').forEach((d) => (d.open = true)));
  const bonus = '#f-attacker_leader_bonus';
  await browser.$(bonus).waitForExist({ timeout: 10000 });
  await type('#dice-typed', '43');
  const apply = await browser.$('#apply-result');
  await until(browser, 'Apply ready', async () => apply.isEnabled());
  for (const bad of ['-5', '2.5', '99999999999']) {
    await type(bonus, bad);
    assert.equal(await besideOf('f-attacker_leader_bonus'), 'Attacker leader bonus must be a whole number from 0 to 10,000.', `situation leader bonus “${bad}”`);
    assert.equal(await apply.isEnabled(), false);
    assert.match(await browser.$('#apply-waiting').getText(), /marked in red/);
  }
  await browser.execute((s) => document.querySelector(s).scrollIntoView({ block: 'center' }), bonus);
  await shot(browser, 'field-checks-situation-desktop');
  await size(browser, PHONE);
  await browser.execute((s) => document.querySelector(s).scrollIntoView({ block: 'center' }), bonus);
  await shot(browser, 'field-checks-situation-phone');
  await size(browser, DESKTOP);
  await noDevText('the resolver, leader bonus refused');
  await browser.execute(() => document.querySelector('#apply-result').click());
  await browser.pause(500);
  assert.equal(await browser.$('#applied').isExisting(), false, 'nothing applied while a field was refused');
  // Made right (empty: the rules' default); the dice typed again and Apply tapped in the next
  // frame, before the throw's result is back: the tap is not lost, it applies that result.
  await type(bonus, '');
  assert.equal(await besideOf('f-attacker_leader_bonus'), '');
  await type('#dice-typed', '');
  await until(browser, 'the dice box empty, no result', async () => !(await browser.$('#bar-result').isExisting()));
  await browser.pause(500);
  const tappedAt = await browser.executeAsync((done) => {
    const box = document.querySelector('#dice-typed');
    box.value = '43';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    requestAnimationFrame(() => {
      const b = document.querySelector('#apply-result');
      const said = `${b.disabled ? 'disabled' : 'enabled'}, result ${document.querySelector('#bar-result') ? 'shown' : 'not yet shown'}`;
      b.click();
      done(said);
    });
  });
  console.log(`Apply tapped a frame after typing the dice: ${tappedAt}`);
  await until(browser, 'applied by the first tap', async () => (await apply.getText()) === 'Applied ✓');

  // The log: a roll edited with "abc", then with a face no d6 shows.
  await tap(browser, 'button[data-tab="log"]');
  await tap(browser, 'button[data-edit-roll]');
  const preview = await browser.$('#preview-edit');
  for (const bad of ['abc', '6, -3', '2.5']) {
    await type('#edit-faces', bad);
    assert.match(await besideOf('edit-faces'), /is not a face of a die: type the numbers the dice showed/, `faces “${bad}”`);
    assert.equal(await preview.isEnabled(), false);
  }
  await noDevText('edit a roll, faces refused');
  // Faces the form takes but the roll's dice do not show: the API's refusal, beside the box.
  await type('#edit-faces', '7, 7');
  await preview.click();
  await until(browser, 'the refusal beside the faces', async () => /d6/.test(await besideOf('edit-faces')));
  await noDevText('edit a roll, faces the API refused');
  // Changed, the refusal goes; right, the preview shows.
  await type('#edit-faces', '3');
  assert.equal(await besideOf('edit-faces'), '');
  await type('#edit-faces', '3, 3');
  await preview.click();
  await browser.$('#edit-preview').waitForExist({ timeout: 10000 });
});
