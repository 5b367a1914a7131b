import type { Trajectory, TrajectoryFormat } from '../../core/trajectories/types';

/**
 * A trajectory file's content, parsed once and offered to every reader's sniffer: either one JSON
 * value (unified, mini-swe-agent, SWE-agent `.traj`, an OpenHands event list…) or JSON lines
 * (Claude Code stream-json / session JSONL, OpenCode / DevEco events). Lines that are not JSON are
 * kept by number so that a reader can say which ones it skipped.
 */
export type TrajectoryContent = { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'jsonl'; readonly values: readonly unknown[]; readonly badLines: readonly number[] };

/**
 * One trajectory format: a structural sniff (cheap, no conversion) and the reader that turns the
 * content into the one model (src/core/trajectories/types.ts). Native formats keep their messages as
 * they are; converters document, in `Trajectory.notes`, every decision the builder's rules could not
 * make for them (../shared/trajectories.md §2, §5).
 */
export interface TrajectoryReader {
  readonly format: TrajectoryFormat;
  /** A short description for people ("mini-swe-agent .traj.json v1 (trajectory_format mini-swe-agent-1)"). */
  readonly description: string;
  sniff(content: TrajectoryContent): boolean;
  /** `file` is for messages only (notes, problems); the reader never opens it. */
  read(content: TrajectoryContent, file: string): Trajectory;
}
