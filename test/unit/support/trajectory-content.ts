/**
 * A trajectory file's content as the trajectory readers receive it (src/data/trajectories/reader.ts):
 * one JSON value, or — for `.jsonl` files — JSON lines with the numbers of the lines that are not
 * JSON (blank lines are skipped). For converter tests only; the file registry has its own reader.
 */
import { readFileSync } from 'node:fs';
import type { TrajectoryContent } from '../../../src/data/trajectories/reader';

export function contentOfText(text: string, jsonLines: boolean): TrajectoryContent {
  if (!jsonLines) return { kind: 'json', value: JSON.parse(text) as unknown };
  const values: unknown[] = [];
  const badLines: number[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    try {
      values.push(JSON.parse(line) as unknown);
    } catch {
      badLines.push(i + 1);
    }
  }
  return { kind: 'jsonl', values, badLines };
}

export function contentOfFile(file: string): TrajectoryContent {
  return contentOfText(readFileSync(file, 'utf8'), file.endsWith('.jsonl'));
}
