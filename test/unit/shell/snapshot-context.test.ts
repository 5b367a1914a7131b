/** Which instance a file belongs to (src/extension/base/snapshot.ts) and what a key pressed there says (src/shared/texts.ts). */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { instanceOfFile } from '../../../src/extension/base/snapshot';
import { keyOutsideOpenInstance } from '../../../src/shared/texts';

const roots = new Map([
  ['/ws/repos/a__r-1', 'a__r-1'],
  ['/ws/repos/a__r-10', 'a__r-10'],
]);

describe('instanceOfFile', () => {
  it('finds the snapshot a file lies in, however deep, and never a sibling whose name it starts with', () => {
    assert.equal(instanceOfFile(roots, '/ws/repos/a__r-1/pkg/sub/mod.py'), 'a__r-1');
    assert.equal(instanceOfFile(roots, '/ws/repos/a__r-10/mod.py'), 'a__r-10');
  });
  it('is undefined outside every snapshot, and for a snapshot root itself', () => {
    assert.equal(instanceOfFile(roots, '/ws/bench.jsonl'), undefined);
    assert.equal(instanceOfFile(roots, '/ws/repos/a__r-1'), undefined);
    assert.equal(instanceOfFile(new Map(), '/x.py'), undefined);
  });
});

describe('keyOutsideOpenInstance', () => {
  it('names the file’s instance and the open one, or says none is open', () => {
    assert.equal(
      keyOutsideOpenInstance('a__r-10', 'a__r-1'),
      "SWE-Explore: this file is in the snapshot of a__r-10, and the open instance is a__r-1; the navigation and audit keys act on the open instance's files only.",
    );
    assert.match(keyOutsideOpenInstance('a__r-10', undefined), /and no instance is open;/);
  });
});
