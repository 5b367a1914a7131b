/**
 * The reads each converter fixture (test/fixtures/trajectories/) should yield under the builder's
 * extraction rules (../shared/trajectories.md §1) once converted: raw reads, in extraction order,
 * before path normalisation and the file filters — `step_idx` (the assistant message's index),
 * the path as written in the command or tool call, `start`/`end` as the builder takes them. Derived
 * by hand from §1 for each fixture (the comments say which rule gives each read); the converter tests
 * check that every step is an assistant message, and the builder's extractor (src/core/trajectories/)
 * checks the reads themselves.
 */

export interface ExpectedRead {
  readonly step_idx: number;
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

const read = (step_idx: number, path: string, start: number, end: number): ExpectedRead => ({ step_idx, path, start, end });

/** Fixture path (under test/fixtures/trajectories/) → its expected raw reads. */
export const EXPECTED_READS: Readonly<Record<string, readonly ExpectedRead[]>> = {
  'swe-agent-1/text-mode.traj': [
    read(2, '/testbed/widgets/core.py', 10, 40), // view --view_range 10 40
    read(4, '/testbed/widgets/core.py', 1, -1), // view F [60, 80]: usage error → view without range
    read(6, '/testbed/widgets/big.py', 1, -1), // abbreviated view: no range
    read(8, '/testbed/widgets/core.py', 12, 12), // grep -rn: path:line: hits of the next message
    read(8, '/testbed/widgets/extra.py', 3, 3),
    read(10, '/testbed/setup.py', 1, -1), // cat F && …
    read(10, '/testbed/widgets/util.py', 1, 20), // … && head -n 20 F
    read(12, '/testbed/README.md', 1, -1), // a ```bash block in the thought of an empty action
  ],
  'swe-agent-1/function-calling.traj': [
    read(2, '/testbed/pkg/mod.py', 5, 25), // view --view_range 5 25
    read(8, '/testbed/pkg/mod.py', 5, 25), // sed -n '5,25p' F
    read(10, '/testbed/pkg/mod.py', 1, -1), // --view_range 30 (one value): usage error → view without range
  ],
  'swe-agent-0/windowed.traj': [
    read(4, '/octo__widgets/widgets/core.py', 100, 199), // open F 150: the window shown
    read(6, '/octo__widgets/widgets/core.py', 200, 299), // scroll_down
    read(8, '/octo__widgets/widgets/core.py', 221, 320), // goto 310
    read(10, '/octo__widgets/widgets/core.py', 1, -1), // search_file → grep -n T F printing N:text (no path prefix) → whole file
    read(14, '/octo__widgets/setup.py', 1, -1), // open F: the window held all 12 lines → no range
    read(16, 'missing.py', 1, -1), // open of a missing file: view without range
    read(24, 'widgets/extra.py', 1, -1), // python … && cat F
  ],
  'openhands-events/events.json': [
    read(2, '/workspace/octo__widgets__1.0/widgets/core.py', 10, 40), // read with view_range
    read(4, '/workspace/octo__widgets__1.0/widgets/core.py', 12, 12), // run grep -rn: hits
    read(4, '/workspace/octo__widgets__1.0/widgets/extra.py', 3, 3),
    read(6, '/workspace/octo__widgets__1.0/widgets/extra.py', 5, 20), // non-ACI start 4, end 20 → [5, 20]
    read(8, '/workspace/octo__widgets__1.0/widgets/big.py', 1, -1), // abbreviated view
    read(13, '/workspace/octo__widgets__1.0/setup.py', 1, -1), // run cat F (its observation arrives later in the stream)
  ],
  'openhands-events/output.jsonl': [
    read(1, '/workspace/octo__widgets__1.0/widgets/core.py', 3, 9), // run sed -n '3,9p' F
  ],
  'openhands-messages/messages.json': [
    read(2, '/workspace/octo__widgets__1.0/widgets/core.py', 10, 40), // view_range
    read(4, '/workspace/octo__widgets__1.0/widgets/core.py', 12, 12), // grep hit, visible because the list-form output was joined
  ],
  'claude-code/stream.jsonl': [
    read(1, '/home/ana/widgets/widgets/core.py', 10, 14), // Read offset 10 limit 5: numbered lines 10–14
    read(3, '/home/ana/widgets/widgets/core.py', 10, 10), // Grep content -n: path:line: hits
    read(3, '/home/ana/widgets/widgets/extra.py', 3, 3),
    read(5, '/home/ana/widgets/setup.py', 1, -1), // Read without offset/limit showing lines from 1
    read(7, 'widgets/extra.py', 1, 3), // Bash head -n 3 F
    read(15, 'widgets/core.py', 1, -1), // a ```bash block in the final prose
  ],
  'claude-code/session.jsonl': [
    read(1, '/home/ana/widgets/widgets/core.py', 100, 120), // toolUseResult.file: 21 lines from 100 (the request asked for 50)
    read(3, '/home/ana/widgets/widgets/extra.py', 1, -1), // toolUseResult.file: all 2 lines
    read(5, '/home/ana/widgets/widgets/huge.py', 1, -1), // failed Read: counted, from its request (no range)
    read(10, '/home/ana/widgets/tests', 1, -1), // sub-agent Grep files_with_matches: no hits → the path word (a folder)
  ],
  'claude-code/windows.jsonl': [
    read(0, '/c/Users/ana/widgets/widgets/core.py', 1, 2), // Windows path written with /
    read(2, '/c/Users/ana/widgets/widgets/core.py', 1, 1), // grep hit whose Windows path was written with /
  ],
  'opencode/events.jsonl': [
    read(0, '/repo/widgets/core.py', 10, 14), // metadata.display 10–14 of 120
    read(2, '/repo/widgets/extra.py', 1, -1), // display 1–3 of 3: whole file
    read(4, '/repo/widgets/util.py', 21, 30), // older build: numbered lines 00021–00030 (its offset 20 counted from 0)
    read(6, '/repo/widgets/gone.py', 1, -1), // failed read: counted, from its request
    read(8, '/repo/widgets/core.py', 10, 10), // grep: path:N:text hits
    read(8, '/repo/widgets/core.py', 40, 40),
    read(8, '/repo/widgets/extra.py', 1, 1),
    read(12, 'widgets/core.py', 1, -1), // bash nl -ba F | sed -n '30,45p' → the builder's whole file
    read(16, '/c/repo/widgets/core.py', 1, 2), // Windows path written with /
  ],
};
