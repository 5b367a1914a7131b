import { pyStr, pyTruthy } from './python';

/**
 * The text of a message as the builder reads it (`_get_message_content`, ../shared/trajectories.md §1):
 *
 * - a string: as it is;
 * - a list: its string items joined by one space; every other item is ignored, so list-form
 *   contents made of `{"type": "text", …}` parts read as "" (their tool outputs are invisible);
 * - any other truthy value: Python's `str(value)` ({@link pyStr}: dicts, numbers and `True` as
 *   Python prints them);
 * - missing, `null`, `false`, `0`, `{}`: "".
 *
 * `str(value)` of a dict or number holds no line break (Python escapes them), so such a content
 * never holds a bash fence and its only possible effect on the reads is through the grep-output
 * rule (a first key written like `path:12:`).
 */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const item of content) if (typeof item === 'string') parts.push(item);
    return parts.join(' ');
  }
  return pyTruthy(content) ? pyStr(content) : '';
}
