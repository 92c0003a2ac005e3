// The app started where there is no display (a server, a shell over SSH): one sentence saying
// what it needs and a failing exit status — not GTK's panic and backtrace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { app } from './support.mjs';

test('without a display the app says it needs one, in one sentence, and exits non-zero', () => {
  assert.ok(app, 'REFEREE_APP must name the built app');
  const env = { ...process.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const run = spawnSync(app, [], { env, encoding: 'utf8', timeout: 20000 });
  assert.notEqual(run.status, 0, `exit status ${run.status}`);
  assert.equal(run.signal, null, 'it ends by itself, not killed');
  const said = run.stderr.trim();
  assert.equal(said, 'The referee needs a display to open its window: start it in a desktop session, or under xvfb-run for a virtual one.');
  assert.doesNotMatch(run.stdout + run.stderr, /panicked|backtrace|RUST_BACKTRACE/);
});

test('with a display named that does not answer, it says so in one sentence too', () => {
  const env = { ...process.env, DISPLAY: ':97531' };
  delete env.WAYLAND_DISPLAY;
  const run = spawnSync(app, [], { env, encoding: 'utf8', timeout: 20000 });
  assert.notEqual(run.status, 0, `exit status ${run.status}`);
  assert.match(run.stderr, /The referee cannot reach the display “:97531” to open its window/);
  assert.doesNotMatch(run.stdout + run.stderr, /panicked|backtrace/);
});
