// The package against the tools: each document equals what the CLI prints
// with --json for the same inputs (parsed; the page's own members kind,
// step and machine are left out of estimate()). The tools are built by
// make (../../build/rfl-*); without them a test is skipped, saying so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as rfl from '../index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tool = (t) => `${root}build/${t}`;
const have = (t) => existsSync(tool(t));
const cli = (t, ...args) => JSON.parse(execFileSync(tool(t), args, { cwd: root, maxBuffer: 1 << 28 }).toString());

await rfl.load();

test('hw equals rfl-hw --json', { skip: !have('rfl-hw') && 'build/rfl-hw not built' }, () => {
  for (const n of ['a100', 'h100', 'mi300x']) assert.deepEqual(rfl.hw(n), cli('rfl-hw', n, '--json'));
  assert.throws(() => rfl.hw('a1000'), { name: 'RooflineError', message: /unknown machine/ });
});

test('estimate equals rfl-estimate --json', { skip: !have('rfl-estimate') && 'build/rfl-estimate not built' }, () => {
  assert.deepEqual(rfl.estimate('resnet18', { hw: 'a100' }), cli('rfl-estimate', 'resnet18', '--hw', 'a100', '--json'));
  assert.equal(rfl.estimate('resnet18', { hw: 'a100' }).forward.flops, 3642974696);
  assert.deepEqual(rfl.estimate('resnet50', { hw: 'h100', batch: 8, dtype: 'fp16', mode: 'train' }),
    cli('rfl-estimate', 'resnet50', '--hw', 'h100', '--batch', '8', '--dtype', 'fp16', '--mode', 'train', '--json'));
  assert.deepEqual(rfl.estimate('gpt2', { hw: 'a100' }), cli('rfl-estimate', 'gpt2', '--hw', 'a100', '--json'));
  assert.deepEqual(rfl.estimate('llama-3-8b', { hw: 'h100', phase: 'prefill', seq: 512 }),
    cli('rfl-estimate', 'llama-3-8b', '--hw', 'h100', '--phase', 'prefill', '--seq', '512', '--json'));
  assert.throws(() => rfl.estimate('resnet19', { hw: 'a100' }), { name: 'RooflineError', message: /unknown model/ });
  assert.throws(() => rfl.estimate('resnet18', { hw: 'a100', mode: 'fly' }), /mode is infer or train, not 'fly'/);
});

test('reduce, streamed, equals rfl-reduce --json', { skip: !have('rfl-reduce') && 'build/rfl-reduce not built' }, async () => {
  const f = 'tests/data/resnet50-b8-infer-full-raw.csv';
  const want = cli('rfl-reduce', f, '--hw', 'a100', '--json');
  assert.deepEqual(await rfl.reduce(createReadStream(root + f, { highWaterMark: 4096 }), { hw: 'a100' }), want);
  const web = new Blob([readFileSync(root + f)]).stream(); // a web ReadableStream
  assert.deepEqual(await rfl.reduce(web, { hw: 'a100' }), want);
  assert.deepEqual(await rfl.reduce(readFileSync(root + 'tests/data/nvprof-metrics.csv')),
    cli('rfl-reduce', 'tests/data/nvprof-metrics.csv', '--json'));
  await assert.rejects(rfl.reduce('not a profile\n'), { name: 'RooflineError' });
});

test('check equals rfl-check --json', { skip: !have('rfl-check') && 'build/rfl-check not built' }, () => {
  const f = 'tests/data/check/mac_not_flop.json';
  const doc = JSON.parse(readFileSync(root + f, 'utf8'));
  if (doc.models) for (const m of Object.values(doc.models)) if (m.measured) delete m.measured.profile;
  // without a profile named, measured values stay unchecked in both
  const text = JSON.stringify(doc);
  const got = rfl.check(text);
  const tmp = `${root}build/npm-check.json`;
  execFileSync('sh', ['-c', `cat > ${tmp}`], { input: text });
  assert.deepEqual(got, cli('rfl-check', tmp, '--json'));
  assert.throws(() => rfl.check('{"schema": 1,'), (e) => e.name === 'RooflineError' && e.line === 1);
});

test('chart: RGBA and PNG', () => {
  rfl.estimate('resnet18', { hw: 'a100' });
  const c = rfl.chart({ width: 400, height: 300, measured: false });
  assert.equal(c.rgba.length, 400 * 300 * 4);
  assert.ok(c.rgba.some((b) => b !== 255), 'something is drawn');
  return rfl.chart({ width: 400, height: 300, png: true }).then((png) => {
    assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
    assert.equal(new DataView(png.buffer).getUint32(16), 400);
  });
});
