/**
 * The one trajectory model every reader produces and every consumer reads (../shared/trajectories.md).
 *
 * A trajectory is a list of messages in the shape SWE-Explore's builder (`bench_build.py`) reads:
 * the unified `{info, traj}` file's `traj` items that are objects. Formats the builder reads natively
 * (unified, mini-swe-agent) keep their messages as they are; every other format is converted into
 * this shape by a documented converter (src/data/trajectories/), so that one extractor (the
 * builder's rules) serves them all and a step index means the same thing everywhere: the index of
 * the message in `messages`.
 */

/** The trajectory formats the readers recognise, sniffed from the content. */
export const TRAJECTORY_FORMATS = [
  'swe-explore-unified',
  'mini-swe-agent-1',
  'mini-swe-agent-1.1',
  'swe-agent-1',
  'swe-agent-0',
  'openhands-events',
  'openhands-messages',
  'claude-code-stream',
  'opencode-events',
] as const;

export type TrajectoryFormat = (typeof TRAJECTORY_FORMATS)[number];

/** A tool call of an assistant message, as `msg.tool_calls[i].function` holds it. */
export interface TrajectoryToolCall {
  /** `function.name` (empty when missing or not a string). */
  readonly name: string;
  /**
   * `function.arguments` as the file holds it: normally a JSON string (the builder parses it and
   * reads a bad one as `{}`); converters write a JSON string too.
   */
  readonly arguments: unknown;
  /** The call's id when the format has one (links a tool reply to its call). */
  readonly id?: string;
}

/** One message, as the builder sees it. */
export interface TrajectoryMessage {
  /** `role` as given (empty string when missing or not a string). */
  readonly role: string;
  /** `content` exactly as the file holds it: the builder's text rule (string / list of strings / str(value)) applies. */
  readonly content: unknown;
  /** `tool_calls` (an empty list when missing or not a list). */
  readonly toolCalls: readonly TrajectoryToolCall[];
  /** For a converted format: the source event(s) this message came from, for people (e.g. `event 12`). */
  readonly source?: string;
}

/** What the builder and the inspector read from a trajectory's `info`. */
export interface TrajectoryInfo {
  /** `info.instance_id`, else a top-level `instance_id`; undefined when the file has neither. */
  readonly instanceId?: string;
  /** `info.model`, else mini-swe-agent's `info.config.model.model_name`; undefined when neither. */
  readonly model?: string;
  /** `info.config.environment.cwd` (the builder's base path), when present. */
  readonly cwd?: string;
  /** `info.submission` (a unified diff), when present. */
  readonly submission?: string;
  /** `info.exit_status`, when present. */
  readonly exitStatus?: string;
}

/** A trajectory read into the one model. */
export interface Trajectory {
  readonly format: TrajectoryFormat;
  readonly info: TrajectoryInfo;
  readonly messages: readonly TrajectoryMessage[];
  /**
   * What a converter decided or could not carry over (sub-agent reads absent from the stream, list-form
   * outputs, errored calls read as whole-file views…), one sentence each, for people.
   */
  readonly notes: readonly string[];
}
