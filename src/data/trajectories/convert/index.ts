/**
 * The trajectory converters: the formats SWE-Explore's builder does not read natively, each turned
 * into the builder's message model (src/core/trajectories/types.ts) so that one extractor — the
 * builder's rules, ../shared/trajectories.md §1 — reads them all. A converter writes every action as
 * the tool call or command the builder understands and decides, in the open, what those rules cannot
 * (§5): each decision is documented in its file and recorded in `Trajectory.notes` when it happens.
 * A registry lists `CONVERTERS` after its native readers: their sniffers accept disjoint shapes and
 * never a native one (unified `{info, traj}`, mini-swe-agent `{messages, trajectory_format}`).
 *
 * How each format is converted (a step = an assistant message; its output = the next message):
 *
 * | format | steps | reads become | decided by the converter (noted when it happens) |
 * |---|---|---|---|
 * | SWE-agent 1.x `.traj` (`swe-agent-1`) | `history` up to the first action, then per `trajectory` step: `thought` + the `action` as one tool call, then the `observation` | `str_replace_editor view P --view_range A B` → `view_range`; shell actions → `bash` as written | a view the tool could not parse (`view F [a, b]`: usage error) → whole file; an abbreviated view → whole file; `is_demo` messages dropped |
 * | SWE-agent 0.x `.traj` (`swe-agent-0`, state with `open_file`) | as 1.x | `open F [N]`, `goto`, `scroll_*` → view of the lines the window showed (whole when it showed all); `search_file T [F]` → `grep -n T F` with `N:text` output; `search_dir` → `grep -rl`, `find_file` → `find -name` (not reads) | windows as `view_range`; an `open` that failed → whole file; `edit`/`create`/`submit` are not reads; a term holding `;`/`&&`/`\|\|` is not converted |
 * | OpenHands event stream (`openhands-events`) | each agent action + the observation it caused (`cause`) | `read` → view (`view_range`, or non-ACI `start`/`end` → `[start+1, end]`); `run` → `execute_bash`; `edit` → `str_replace_editor` | 0-based `start`; abbreviated views; delegation; `output.jsonl` with several records refused |
 * | OpenHands / OpenAI messages (`openhands-messages`) | as they are | `tool_calls` as they are | list-form contents joined into strings |
 * | Claude Code stream-json / session JSONL (`claude-code-stream`) | each text block; each `tool_use` + its `tool_result` (as a string) | `Read` → view of `toolUseResult.file` lines (else the numbered lines shown, else offset/limit); `Grep` → `grep -r…` with its output; `Bash` → `bash`; `Edit` → `str_replace` | range source; failed Reads count; sub-agent messages included, or absent (Task); Windows paths |
 * | OpenCode / DevEco `run --format json` (`opencode-events`) | each `text` part; each finished `tool_use` part + its output | `read` → view of `metadata.display` lines (else numbered lines, else offset/limit); `grep` → `grep -rn` with `path:N:text` output; `bash` → `bash`; `edit` → `str_replace` | range source; failed reads count; `task` sub-agent reads absent from the stream; Windows paths |
 *
 * In every converted format, a ```` ```bash ```` block in an agent's prose is noted: the builder
 * reads it as a command although the agent never ran it.
 */
import type { TrajectoryReader } from '../reader';
import { claudeCodeReader } from './claudeCode';
import { openCodeReader } from './openCode';
import { openHandsEventsReader, openHandsMessagesReader } from './openHands';
import { sweAgent0Reader, sweAgent1Reader } from './sweAgent';

export { claudeCodeReader } from './claudeCode';
export { openCodeReader } from './openCode';
export { openHandsEventsReader, openHandsMessagesReader } from './openHands';
export { sweAgent0Reader, sweAgent1Reader } from './sweAgent';

/** Every converter, in the order a registry may try them (their sniffers are disjoint, so the order does not decide). */
export const CONVERTERS: readonly TrajectoryReader[] = [sweAgent1Reader, sweAgent0Reader, openHandsEventsReader, openHandsMessagesReader, claudeCodeReader, openCodeReader];
