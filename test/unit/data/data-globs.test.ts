import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { globBase } from '../../../src/data/io/globs';

const bench = path.join(path.sep, 'data', 'bench');

test('globBase anchors a glob at its literal leading folders', () => {
  assert.deepEqual(globBase(bench, 'results/**/*.jsonl'), { base: path.join(bench, 'results'), pattern: '**/*.jsonl' });
  assert.deepEqual(globBase(bench, 'results/cosil/*.jsonl'), { base: path.join(bench, 'results', 'cosil'), pattern: '*.jsonl' });
  assert.deepEqual(globBase(bench, 'runs/run-{a,b}/*.jsonl'), { base: path.join(bench, 'runs'), pattern: 'run-{a,b}/*.jsonl' });
  assert.deepEqual(globBase(bench, 'runs/run-?/x.jsonl'), { base: path.join(bench, 'runs'), pattern: 'run-?/x.jsonl' });
  assert.deepEqual(globBase(bench, 'runs/[ab]/x.jsonl'), { base: path.join(bench, 'runs'), pattern: '[ab]/x.jsonl' });
});

test('globBase keeps a glob that starts with a pattern at the folder itself', () => {
  assert.deepEqual(globBase(bench, '**/*.jsonl'), { base: bench, pattern: '**/*.jsonl' });
  assert.deepEqual(globBase(bench, '*.jsonl'), { base: bench, pattern: '*.jsonl' });
});

test('globBase splits a literal file path into its folder and its name', () => {
  assert.deepEqual(globBase(bench, 'results/cosil.jsonl'), { base: path.join(bench, 'results'), pattern: 'cosil.jsonl' });
  assert.deepEqual(globBase(bench, 'cosil.jsonl'), { base: bench, pattern: 'cosil.jsonl' });
});

test('globBase treats . and .. as folders and ignores repeated or trailing slashes', () => {
  assert.deepEqual(globBase(bench, '../runs/*.jsonl'), { base: path.join(path.sep, 'data', 'runs'), pattern: '*.jsonl' });
  assert.deepEqual(globBase(bench, './results//**/*.jsonl'), { base: path.join(bench, 'results'), pattern: '**/*.jsonl' });
});
