import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatDeepLink, formatLinkQuery, linkPathProblem, parseDeepLink, LINK_AUTHORITY, MAX_LINK_BUDGET, type LinkTarget } from '../../../src/core/deepLink';

/**
 * What VS Code does to a link's query before the URI handler sees it (`Uri.parse` →
 * `uri.query`): runs of `%XX` are percent-decoded once; a run that is not valid UTF-8 stays.
 */
function vscodeQuery(link: string): string {
  const raw = link.slice(link.indexOf('?') + 1);
  return raw.replace(/(%[0-9A-Za-z][0-9A-Za-z])+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function parsed(query: string): { target: LinkTarget; warnings: readonly string[] } {
  const result = parseDeepLink(query);
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return { target: result.target, warnings: result.warnings };
}

function refused(query: string): string {
  const result = parseDeepLink(query);
  assert.equal(result.ok, false, `expected ${JSON.stringify(query)} to be refused`);
  return result.ok ? '' : result.message;
}

describe('parseDeepLink: good links', () => {
  it('reads every parameter', () => {
    const { target, warnings } = parsed('instance=acme__inventory-101&explorer=agent&budget=300&path=inventory/stock.py&line=39&compare=bm25');
    assert.deepEqual(target, { instance: 'acme__inventory-101', explorer: 'agent', budget: 300, path: 'inventory/stock.py', line: 39, compare: 'bm25' });
    assert.deepEqual(warnings, []);
  });

  it('decodes percent escapes; a plus stays a plus, a stray % stays as written', () => {
    const { target } = parsed('instance=a%26b%3Dc&explorer=my+agent%20v2&path=src/c++/a%20b.py&compare=100%');
    assert.equal(target.instance, 'a&b=c');
    assert.equal(target.explorer, 'my+agent v2');
    assert.equal(target.path, 'src/c++/a b.py');
    assert.equal(target.compare, '100%');
  });

  it('skips empty pairs and reads a parameter without = as empty', () => {
    assert.deepEqual(parsed('&&instance=x&&').target, { instance: 'x' });
    assert.match(refused('instance'), /'instance' is empty/);
  });

  it('a leaderboard link needs no instance', () => {
    const { target, warnings } = parsed('view=leaderboard&metric=ndcg_at_500&explorer=agent');
    assert.deepEqual(target, { view: 'leaderboard', metric: 'ndcg_at_500', explorer: 'agent' });
    assert.deepEqual(warnings, []);
  });

  it('instance-only parameters on a leaderboard link are ignored with a warning', () => {
    const { target, warnings } = parsed('view=leaderboard&instance=x&line=3&path=a.py');
    assert.deepEqual(target, { view: 'leaderboard' });
    assert.equal(warnings.length, 3);
  });

  it('line without path is dropped with a warning', () => {
    const { target, warnings } = parsed('instance=x&line=3');
    assert.deepEqual(target, { instance: 'x' });
    assert.match(warnings[0]!, /'line' without 'path'/);
  });
});

describe('parseDeepLink: unknown and repeated parameters', () => {
  it('unknown parameters are warnings naming them and their position; the link still works', () => {
    const { target, warnings } = parsed('instance=x&colour=red&explorer=agent&cmd=rm');
    assert.deepEqual(target, { instance: 'x', explorer: 'agent' });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /unknown parameters "colour" \(parameter 2\), "cmd" \(parameter 4\)/);
  });

  it('100,000 unknown parameters: the warning names the first few and counts the rest', () => {
    const query = `instance=x&${Array.from({ length: 100_000 }, (_, i) => `p${i}=1`).join('&')}`;
    const { target, warnings } = parsed(query);
    assert.deepEqual(target, { instance: 'x' });
    assert.equal(warnings.length, 1);
    assert.ok(warnings[0]!.length < 300, `${warnings[0]!.length} characters`);
    assert.match(warnings[0]!, /unknown parameters "p0" \(parameter 2\), "p1" \(parameter 3\), "p2" \(parameter 4\) and 99997 more; they were ignored/);
  });

  it('a repeated parameter is an error naming it', () => {
    assert.match(refused('instance=x&explorer=a&explorer=b'), /repeats the parameter 'explorer' \(parameter 3\)/);
    assert.match(refused('instance=x&instance=x'), /'instance'/);
  });

  it('unknown views and the wrong shape are refused', () => {
    assert.match(refused('view=terminal&instance=x'), /'view' "terminal" is unknown/);
    assert.match(refused('explorer=agent'), /names no 'instance'/);
    assert.match(refused(''), /names no 'instance'/);
    assert.match(refused('instance='), /'instance' is empty/);
    assert.match(refused(`instance=${'x'.repeat(501)}`), /longer than 500/);
  });
});

describe('parseDeepLink: numbers', () => {
  for (const bad of ['0', '-1', '1.5', '1e3', '0x10', ' 5', '', '1000001', '99999999999999999999', 'NaN', 'Infinity', '٣']) {
    it(`budget ${JSON.stringify(bad)} is refused`, () => {
      assert.match(refused(`instance=x&budget=${encodeURIComponent(bad)}`), /'budget'/);
    });
  }
  it('budget bounds', () => {
    assert.equal(parsed('instance=x&budget=1').target.budget, 1);
    assert.equal(parsed(`instance=x&budget=${MAX_LINK_BUDGET}`).target.budget, MAX_LINK_BUDGET);
    assert.equal(parsed('instance=x&budget=0500').target.budget, 500);
  });
  for (const bad of ['0', '-3', '2.0', 'abc', '99999999999999999']) {
    it(`line ${JSON.stringify(bad)} is refused`, () => {
      assert.match(refused(`instance=x&path=a.py&line=${encodeURIComponent(bad)}`), /'line'/);
    });
  }
});

describe('parseDeepLink: escaping paths are refused', () => {
  const cases: Array<[string, RegExp]> = [
    ['../x', /'\.\.' segment/],
    ['a/../../b', /'\.\.' segment/],
    ['a/..', /'\.\.' segment/],
    ['%2e%2e/x', /'\.\.' segment/],
    ['%252e%252e/x', /'\.\.' segment/],
    ['/etc/passwd', /absolute/],
    ['%2Fetc%2Fpasswd', /absolute/],
    ['C:\\x', /backslash|absolute/],
    ['C:/x', /absolute/],
    ['c:x', /absolute/],
    ['..\\x', /backslash/],
    ['a\\b.py', /backslash/],
    ['a%00b', /control character/],
    ['a%0Ab', /control character/],
    ['a%1b[31m', /control character/],
    ['a%C2%9Bb', /control character/],
    ['a//b', /empty or '\.' segment/],
    ['./a', /empty or '\.' segment/],
    ['a/', /empty or '\.' segment/],
  ];
  for (const [raw, why] of cases) {
    it(`path=${raw}`, () => {
      // `%25xx` models a link escaped twice; parse what VS Code hands over (decoded once).
      const message = refused(`instance=x&path=${vscodeQuery(`?${raw}`)}`);
      assert.match(message, /'path'/);
      assert.match(message, why);
      assert.match(message, /refused/);
    });
  }
  it('linkPathProblem accepts plain relative paths, dots inside names included', () => {
    for (const ok of ['a.py', 'pkg/mod.py', '..foo/x.py', 'a..b/c', '.github/x.yml', 'dir with space/ü.py']) assert.equal(linkPathProblem(ok), undefined, ok);
  });
});

describe('formatDeepLink', () => {
  it('writes the vscode:// link with the extension authority and /open', () => {
    const link = formatDeepLink({ instance: 'acme__inventory-101', explorer: 'agent', budget: 500, path: 'inventory/stock.py', line: 39 });
    assert.equal(link, `vscode://${LINK_AUTHORITY}/open?instance=acme__inventory-101&explorer=agent&budget=500&path=inventory%252Fstock.py&line=39`);
    assert.equal(vscodeQuery(link), formatLinkQuery({ instance: 'acme__inventory-101', explorer: 'agent', budget: 500, path: 'inventory/stock.py', line: 39 }));
  });

  it('a value taken from data with a lone surrogate is encoded as U+FFFD, never an exception', () => {
    const link = formatDeepLink({ instance: 'x\uD800y' });
    assert.deepEqual(parsed(vscodeQuery(link)).target, { instance: 'x\uFFFDy' });
  });

  it('writes a space as %20 and a plus as %2B, so both survive', () => {
    assert.equal(formatLinkQuery({ instance: 'a b+c' }), 'instance=a%20b%2Bc');
    assert.deepEqual(parsed(vscodeQuery(formatDeepLink({ instance: 'a b+c', path: 'src/c++/x y.py' }))).target, { instance: 'a b+c', path: 'src/c++/x y.py' });
  });

  it('an & or = inside a value survives VS Code decoding the query once', () => {
    const link = formatDeepLink({ instance: 'a&explorer=evil', explorer: 'x y+z#1' });
    assert.deepEqual(parsed(vscodeQuery(link)).target, { instance: 'a&explorer=evil', explorer: 'x y+z#1' });
    assert.doesNotMatch(link.slice(link.indexOf('?')), /[ #]/);
  });
});

describe('formatDeepLink → parseDeepLink round trip (property)', () => {
  const name = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 });
  const segment = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((s) => !/[\u0000-\u001f\u007f-\u009f\\/]/.test(s) && s !== '.' && s !== '..');
  const relPath = fc
    .array(segment, { minLength: 1, maxLength: 4 })
    .map((s) => s.join('/'))
    .filter((p) => linkPathProblem(p) === undefined);
  const instanceTarget: fc.Arbitrary<LinkTarget> = fc
    .record(
      {
        instance: name,
        explorer: name,
        compare: name,
        budget: fc.integer({ min: 1, max: MAX_LINK_BUDGET }),
        file: fc.option(fc.record({ path: relPath, line: fc.option(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { nil: undefined }) }), { nil: undefined }),
      },
      { requiredKeys: ['instance'] },
    )
    .map(({ file, ...rest }) => ({ ...rest, ...(file === undefined ? {} : { path: file.path, ...(file.line === undefined ? {} : { line: file.line }) }) }));
  const leaderboardTarget: fc.Arbitrary<LinkTarget> = fc.record(
    { view: fc.constant('leaderboard' as const), metric: name, explorer: name, budget: fc.integer({ min: 1, max: MAX_LINK_BUDGET }) },
    { requiredKeys: ['view'] },
  );

  it('parse(VS Code decoding(format(t))) = t, without warnings', () => {
    fc.assert(
      fc.property(fc.oneof(instanceTarget, leaderboardTarget), (target) => {
        const link = formatDeepLink(target);
        assert.ok(link.startsWith(`vscode://${LINK_AUTHORITY}/open?`));
        const { target: back, warnings } = parsed(vscodeQuery(link));
        // fc.record builds null-prototype objects; compare the fields.
        assert.deepEqual(back, { ...target });
        assert.deepEqual(warnings, []);
      }),
      { numRuns: 500 },
    );
  });

  it('parse never throws on arbitrary query text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (query) => {
        const result = parseDeepLink(query);
        if (result.ok && result.target.path !== undefined) assert.equal(linkPathProblem(result.target.path), undefined);
      }),
      { numRuns: 1000 },
    );
  });
});
